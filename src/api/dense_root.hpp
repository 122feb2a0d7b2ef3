#pragma once
// The root of SplitLU (include/gpuglu/split_lu.hpp): the dense LU, with partial pivoting, of
// the separator's Schur complement S (k x k), where the two halves' factorizations meet. One
// small interface so that the host (LAPACK) and a device (cuSOLVER) implement it alike; the
// facade only ever hands host arrays in and takes host arrays back.
#include <cstdint>
#include <memory>

#include "gpuglu/options.hpp"

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
};

// The root for a resolved backend (cpu or cuda; the halves' active one) and, for cuda, the
// device ordinal it works on.
std::unique_ptr<DenseRoot> make_dense_root(Backend backend, int32_t device);

// The host's: LAPACK's dgetrf / dgetrs (api/lapack_dense_root.cpp).
std::unique_ptr<DenseRoot> make_lapack_dense_root();

}  // namespace gpuglu::api
