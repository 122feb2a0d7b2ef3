#pragma once
// The dense BLAS-3 calls of the CPU supernodal LU's wide supernodes (cpu/supernodal_numeric.cpp),
// and when they pay.
//
// A supernode's panel LU and its Schur update are dense products. The scalar code runs them at
// a few GFlop/s per core; an optimized BLAS (OpenBLAS, as Debian's libblas.so.3 alternative,
// or MKL or BLIS) runs dgemm at several times that. Reference BLAS is no faster than the scalar
// code, so the BLAS path is taken only where an optimized BLAS answers (available()).
//
// Every call here is single-threaded: the engine's own teams split the work in pieces whose
// bounds do not depend on the team (so a factor has the same bits on any thread count), and an
// OpenBLAS pool beside them would oversubscribe the rank's cores. BlasThreadsOne holds the
// BLAS's own thread count at one while a factorization runs and restores it after.
#include <cstdint>

namespace gpuglu::reference {

// The supernodes that take the BLAS path: a panel LU blocked kBlasPanelBlock columns at a
// time for supernodes of at least kBlasPanelColumns columns that search no pivots (a row swap
// would cross a block's deferred updates), and a Schur update by dgemm where it holds at least
// kBlasUpdateEntries multiply-adds and the supernode has at least kBlasUpdateColumns columns.
constexpr int32_t kBlasPanelColumns = 48;
constexpr int32_t kBlasPanelBlock = 32;
constexpr int32_t kBlasUpdateColumns = 8;
constexpr int64_t kBlasUpdateEntries = int64_t{1} << 15;
// The Schur update's rows are taken kBlasUpdateRows at a time (its buffers: 2 x nb x that).
constexpr int64_t kBlasUpdateRows = 64;

// Whether an optimized BLAS is loaded in the process (looked up once).
bool blas_available();

// While it lives, the BLAS's own threads are held at one (OpenBLAS; nothing to do for a BLAS
// without its own pool or one whose calls from a team run single-threaded).
class BlasThreadsOne {
 public:
  BlasThreadsOne();
  ~BlasThreadsOne();
  BlasThreadsOne(const BlasThreadsOne&) = delete;
  BlasThreadsOne& operator=(const BlasThreadsOne&) = delete;

 private:
  int saved_ = -1;
};

// C = alpha op(A) op(B) + beta C, column-major (dgemm_); ta/tb: 'N' or 'T'.
void gemm(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc);
// B = L^{-1} B with L unit lower triangular m x m (dtrsm_ 'L', 'L', 'N', 'U'); B is m x n.
void trsm_left_unit_lower(int64_t m, int64_t n, const double* l, int64_t ldl, double* b, int64_t ldb);

}  // namespace gpuglu::reference
