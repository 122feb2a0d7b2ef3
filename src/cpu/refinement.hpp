#pragma once
// Iterative refinement with the original A (its CSR pattern and the values of the last
// factorization): r = b - op(A) x, solve op(A) d = r with the factor, x += d. Plain
// working-precision residuals: with static pivoting the factor is what is inexact
// (perturbed or tiny pivots), not the residual, so a few steps recover a backward-stable
// solution. Templates on the scalar T (double or std::complex<double>, instantiated in
// refinement.cpp); the backward error is real (|.| of each component).
#include <cstdint>
#include <functional>
#include <vector>

#include "core/numeric_types.hpp"
#include "core/scalar.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

// A in CSR with 64-bit row pointers (any input index type fits it).
template <class T>
struct BasicCsrRef {
  int32_t n = 0;
  const int64_t* rowptr = nullptr;
  const int32_t* colind = nullptr;
  const T* values = nullptr;
  // The factorization's equilibration (schedule.hpp's row_scale, col_scale; null: none), for
  // the backward error's noise test (core/backward_error.hpp).
  const double* row_scale = nullptr;
  const double* col_scale = nullptr;
};
using CsrRef = BasicCsrRef<double>;

// r = b - op(A) x (op = identity or transpose, never conjugated). Returns the componentwise
// (Oettli-Prager) backward error max_i |r_i| / (|op(A)| |x| + |b|)_i, the denominator with
// gradual underflow's share and a NaN residual counting as infinity, and stores in *normwise
// (when not null) Arioli, Demmel & Duff's omega1 + omega2 (core/backward_error.hpp for both).
// denom, row_max, row_len: n entries of scratch each.
template <class T>
double residual_and_backward_error(const BasicCsrRef<T>& a, bool transpose, const T* b, const T* x, T* r,
                                   double* denom, double* row_max, int64_t* row_len, double* normwise = nullptr);

// Preallocated vectors of a refinement (n entries each), reused across solves.
template <class T>
struct BasicRefineWork {
  std::vector<T> rhs, r, r_next, d, x_next, solve;
  std::vector<double> denom, row_max;
  std::vector<int64_t> row_len;
  // row_max and row_len (the noise test's bounds) depend on A's values and scaling only. Each
  // refinement computes them once; an owner that sets keep_row_bounds keeps them across its
  // solves and must call forget_row_bounds() whenever A's values change.
  bool keep_row_bounds = false;
  bool bounds_current = false;
  bool bounds_transpose = false;
  void forget_row_bounds() noexcept { bounds_current = false; }
  void resize(int32_t n);
};
using RefineWork = BasicRefineWork<double>;

struct RefineOutcome {
  int32_t steps = 0;             // corrections accepted
  double backward_error = -1.0;  // of the returned x (componentwise)
  double normwise_error = -1.0;  // of the returned x (core/backward_error.hpp's omega1 + omega2)
};

// x holds the factor's solution of op(A) x = b and is improved in place. b must not
// alias x. Stops when the target is met (core/numeric_types.hpp), when a step fails to
// decrease the componentwise backward error (that step is discarded), or after max_steps steps.
template <class T>
RefineOutcome refine(const Schedule& s, const T* f, const BasicCsrRef<T>& a, bool transpose, const T* b, T* x,
                     int32_t max_steps, const RefineTarget& target, BasicRefineWork<T>& w);

// The same loop with any factor: correct(r, d) solves op(A) d = r (the CUDA backend's
// solve; r and d are host vectors of n that do not alias).
// (Spelled through a struct so that T is deduced from a, never from a lambda passed here.)
template <class T>
struct CorrectionSolveOf {
  using type = std::function<void(const T* r, T* d)>;
};
template <class T>
using BasicCorrectionSolve = typename CorrectionSolveOf<T>::type;
using CorrectionSolve = BasicCorrectionSolve<double>;
template <class T>
RefineOutcome refine_with(const BasicCorrectionSolve<T>& correct, const BasicCsrRef<T>& a, bool transpose, const T* b,
                          T* x, int32_t max_steps, const RefineTarget& target, BasicRefineWork<T>& w);

}  // namespace gpuglu::reference
