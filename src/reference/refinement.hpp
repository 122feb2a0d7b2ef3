#pragma once
// Iterative refinement with the original A (its CSR pattern and the values of the last
// factorization): r = b - op(A) x, solve op(A) d = r with the factor, x += d. Plain
// double residuals: with static pivoting the factor is what is inexact (perturbed or
// tiny pivots), not the residual, so a few steps recover a backward-stable solution.
#include <cstdint>
#include <functional>
#include <vector>

#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

// A in CSR with 64-bit row pointers (any input index type fits it).
struct CsrRef {
  int32_t n = 0;
  const int64_t* rowptr = nullptr;
  const int32_t* colind = nullptr;
  const double* values = nullptr;
  // The factorization's equilibration (schedule.hpp's row_scale, col_scale; null: none), for
  // the backward error's noise test (core/backward_error.hpp).
  const double* row_scale = nullptr;
  const double* col_scale = nullptr;
};

// r = b - op(A) x (op = identity or transpose). Returns the componentwise (Oettli-Prager)
// backward error max_i |r_i| / (|op(A)| |x| + |b|)_i, where 0/0 counts as 0 and r_i / 0 as
// infinity, and stores in *normwise (when not null) Arioli, Demmel & Duff's omega1 + omega2
// (core/backward_error.hpp). denom, row_max, row_len: n entries of scratch each.
double residual_and_backward_error(const CsrRef& a, bool transpose, const double* b, const double* x, double* r,
                                   double* denom, double* row_max, int64_t* row_len, double* normwise = nullptr);

// Preallocated vectors of a refinement (n entries each), reused across solves.
struct RefineWork {
  std::vector<double> rhs, r, r_next, d, x_next, denom, row_max, solve;
  std::vector<int64_t> row_len;
  void resize(int32_t n);
};

struct RefineOutcome {
  int32_t steps = 0;             // corrections accepted
  double backward_error = -1.0;  // of the returned x (componentwise)
  double normwise_error = -1.0;  // of the returned x (core/backward_error.hpp's omega1 + omega2)
};

// x holds the factor's solution of op(A) x = b and is improved in place. b must not
// alias x. Stops when the backward error is <= tolerance, when a step fails to
// decrease it (that step is discarded), or after max_steps steps.
RefineOutcome refine(const Schedule& s, const double* f, const CsrRef& a, bool transpose, const double* b, double* x,
                     int32_t max_steps, double tolerance, RefineWork& w);

// The same loop with any factor: correct(r, d) solves op(A) d = r (the CUDA backend's
// solve; r and d are host vectors of n that do not alias).
using CorrectionSolve = std::function<void(const double* r, double* d)>;
RefineOutcome refine_with(const CorrectionSolve& correct, const CsrRef& a, bool transpose, const double* b, double* x,
                          int32_t max_steps, double tolerance, RefineWork& w);

}  // namespace gpuglu::reference
