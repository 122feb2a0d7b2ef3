#pragma once
// The split factorization's root (api/split_lu.cpp): the separator's k x k Schur complement
// S = S_0 + S_1, dense, factored by cuSOLVER's getrf on one GPU: first without pivoting, as
// one GPU's engine factors the same block when it is a supernode of its own (DensePanelLU),
// under the same static-pivot test checked on the result; where a column fails it (or a pivot
// is exactly zero) S is restored and factored again with partial pivoting. The unpivoted
// factorization skips getrf's pivot search and row swaps, which bound it at the root's sizes.
// A symmetric S (an LDL^T split's) is first given to potrf: Cholesky, half the flops, where S
// is positive definite (potrf's info says where it is not, and the LU steps follow). The
// halves' blocks arrive device to device (SparseLU::schur_complement_device: the root's own
// GPU's by a copy, the other's peer to peer), so S never passes through the host; the
// right-hand sides of the solves either come from the host (solve) or stay on the device
// (solve_rhs: the split's device solves).
#include <cuda_runtime.h>

#include <cstdint>

#include "core/numeric_types.hpp"
#include "cuda/common/device_memory.hpp"
#include "gpuglu/split_lu.hpp"

struct cusolverDnContext;
struct cublasContext;

namespace gpuglu::cuda {

class DeviceDenseLU {
 public:
  // Buffers for k x k on device `device`: the matrix, one more block, the pivots and the
  // workspace. rule: the static-pivot test the unpivoted factorization must pass (its
  // threshold and zero_pivot; PivotRule::tiny). Throws Error(out_of_memory / device_error).
  DeviceDenseLU(int device, int64_t k, const PivotRule& rule, bool symmetric = false);
  ~DeviceDenseLU();
  DeviceDenseLU(const DeviceDenseLU&) = delete;
  DeviceDenseLU& operator=(const DeviceDenseLU&) = delete;

  int device() const noexcept { return device_; }
  int64_t size() const noexcept { return k_; }
  // Column-major k x k (leading dimension k) on device(): the matrix to factor, and a block
  // add_block() adds to it.
  double* matrix() noexcept { return a_; }
  double* block() noexcept { return b_; }
  void upload(const double* s_host);  // the matrix from host memory
  void add_block();                   // matrix += block (block() is free afterwards)
  // The factorization above (block() holds the copy of S it restores from): -1, or the first
  // column (0-based) whose pivot is exactly zero under partial pivoting (cuSOLVER's info).
  // The solves are two trsv around the pivots' permutation; cuSOLVER's getrs of one
  // right-hand side was slower (docs/performance.md, two GPUs).
  int64_t factor();
  // How the last factor() went.
  RootFactorization factorization() const noexcept { return how_; }
  // x = S^{-1} x (transpose: S^{-T} x), x on the host (k entries).
  void solve(double* x_host, bool transpose);
  // Two device vectors of k on device() for the halves' reduced right-hand sides, and the
  // solve of S x = rhs(0) + rhs(1) (transpose: S^T), x left in rhs(0). Synchronous.
  double* rhs(int d) noexcept { return d == 0 ? x_ : y_; }
  void solve_rhs(bool transpose);

 private:
  int device_;
  int64_t k_;
  DeviceMemory mem_{"the split factorization's root"};
  cudaStream_t stream_ = nullptr;
  cusolverDnContext* solver_ = nullptr;
  cublasContext* blas_ = nullptr;
  double *a_ = nullptr, *b_ = nullptr, *work_ = nullptr, *x_ = nullptr, *y_ = nullptr;
  int *pivots_ = nullptr, *info_ = nullptr;  // info_[0]: getrf's info; info_[1]: a column failed the test
  int64_t* perm_ = nullptr;  // the pivots as one row permutation (factor()); lu_pivoted only
  PivotRule rule_;
  bool symmetric_;
  RootFactorization how_ = RootFactorization::lu_pivoted;
  int lwork_potrf_ = 0;
  // Each attempt factors a_ in place; where it fails, restore_s() puts S back from b_, where
  // factor() saved it first.
  bool cholesky_factor();   // potrf
  bool unpivoted_factor();  // getrf without pivots, and the test
  void restore_s();
  void solve_in_place(bool transpose);  // x_ = S^{-1} x_ (S^{-T}); y_ is overwritten
  void lu_triangles(double* v, bool transpose);  // v = (L U)^{-1} v (transpose: (L U)^{-T} v)
};

}  // namespace gpuglu::cuda
