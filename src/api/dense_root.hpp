#pragma once
// The root of SplitLU (include/gpuglu/split_lu.hpp): the dense LU, with partial pivoting, of
// the separator's Schur complement S (k x k), where the two halves' factorizations meet. One
// small interface so that the host (LAPACK) and a device (cuSOLVER) implement it alike. A
// device root can also take the halves' blocks device to device (device_block), so that the
// k x k blocks never cross the host.
#include <cstdint>
#include <memory>

#include "core/numeric_types.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/split_lu.hpp"

namespace gpuglu::api {

class DenseRoot {
 public:
  virtual ~DenseRoot() = default;
  // Factors S = P L U. s: k x k, column-major, leading dimension k, host memory, read only
  // (the root keeps its own copy, or its device's). k == 0 is allowed (nothing to factor).
  // Returns -1 when S is nonsingular, else the index i (0-based, S's numbering) of the first
  // exactly zero pivot U(i, i) (LAPACK getrf's info - 1); the factor is then unusable and
  // solve() must not be called until a factor() succeeds. Other failures (memory, device)
  // throw Error (out_of_memory, device_error).
  virtual int64_t factor(const double* s, int64_t k) = 0;
  // rhs (k entries, host memory) is overwritten by S^{-1} rhs, or S^{-T} rhs when transpose.
  // Only after a successful factor(): Error(not_factored) otherwise.
  virtual void solve(double* rhs, bool transpose) = 0;
  // Where half d (0 or 1) puts its block S_d (k x k, column-major, leading dimension k) in the
  // root's device memory, for SparseLU::schur_complement_device; nullptr for a root on the
  // host, which then takes factor()'s host array. Called before the halves copy (it may
  // allocate), with the same k for both.
  virtual double* device_block(int d, int64_t k) {
    (void)d;
    (void)k;
    return nullptr;
  }
  // Factors S = S_0 + S_1 from the two device blocks; returns as factor(). The blocks' writes
  // are complete before the call: the root's stream waits for no other stream.
  virtual int64_t factor_device_blocks();
  // The split's device solves: where half d (0 or 1) puts its reduced right-hand side (k
  // entries, the root's device memory); nullptr for a root on the host.
  virtual double* device_rhs(int d) {
    (void)d;
    return nullptr;
  }
  // S x = device_rhs(0) + device_rhs(1) (S^T x when transpose), x left in device_rhs(0);
  // synchronous; the right-hand sides' writes are complete before the call, as the blocks'.
  // Only after a successful factorization: Error(not_factored) otherwise.
  virtual void solve_device_rhs(bool transpose);
  // How the last factorization went (gpuglu/split_lu.hpp): the host's LU always pivots.
  virtual RootFactorization factorization() const noexcept { return RootFactorization::lu_pivoted; }
};

// The root for a resolved backend (cpu or cuda; the halves' active one) and, for cuda, the
// device ordinal it works on, the static-pivot test its unpivoted factorization must pass
// (the halves' rule) and whether S is symmetric (an LDL^T split's: Cholesky is tried first).
std::unique_ptr<DenseRoot> make_dense_root(Backend backend, int32_t device, const PivotRule& rule, bool symmetric);

// The host's: LAPACK's dgetrf / dgetrs, always with partial pivoting (api/lapack_dense_root.cpp).
std::unique_ptr<DenseRoot> make_lapack_dense_root();
// The device's on `device`: for a symmetric S cuSOLVER's potrf first; then getrf, unpivoted
// where S passes rule's test, else with partial pivoting (cuda/split/device_dense_lu.hpp; a
// build without CUDA throws Error(unsupported)).
std::unique_ptr<DenseRoot> make_cuda_dense_root(int32_t device, const PivotRule& rule, bool symmetric = false);

}  // namespace gpuglu::api
