#pragma once
// What every numeric engine (src/cpu, src/cuda) takes and returns: the pivot rule
// taken from Options and the statistics a numeric factorization returns.
#include <cstdint>

#include "gpuglu/options.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {

// The part of Options that decides whether a static pivot is usable (options.hpp).
struct PivotRule {
  PivotPolicy policy = PivotPolicy::report;
  double threshold = 1e-13;
  double zero_pivot = 0.0;
  double perturbation = 1.4901161193847656e-08;
  // Added to every diagonal entry of C after the scatter, before any elimination (the
  // shift of Options::shift_type: PETSc adds it to the row's diagonal the same way).
  double diagonal_shift = 0.0;

  // The engines (CPU and CUDA) know report and perturb only. Under repivot and automatic a
  // tiny pivot is reported like under report; SparseLU then decides what to analyze next.
  // A pivot p of a column whose largest entry is colmax is tiny when |p| <= threshold * colmax
  // or |p| <= zero_pivot (p == 0 is covered by the first test, colmax == 0 included; a NaN
  // fails the comparison, so it is tiny too).
  bool tiny(double abs_pivot, double colmax) const {
    return !(abs_pivot > threshold * colmax) || abs_pivot <= zero_pivot;
  }
  // What a tiny pivot becomes under PivotPolicy::perturb: its sign times perturbation times
  // the column's largest entry (1 for an all-zero column).
  double perturbed(double pivot, double colmax) const {
    return (pivot < 0.0 ? -perturbation : perturbation) * (colmax > 0.0 ? colmax : 1.0);
  }

  static PivotRule from(const Options& o) {
    const PivotPolicy engine = o.pivot_policy == PivotPolicy::perturb ? PivotPolicy::perturb : PivotPolicy::report;
    return {engine, o.pivot_threshold, o.zero_pivot, o.perturbation, 0.0};
  }
};

struct NumericStats {
  // ok, or numerically_singular: a tiny pivot under PivotPolicy::report, or a column
  // whose entries overflowed to Inf/NaN during the elimination (under either policy,
  // since no perturbation can make such a factor usable).
  Status status = Status::ok;
  int32_t pivot_column = -1;  // smallest failing column of C, -1 if none
  double pivot_value = 0.0;   // its pivot, untouched
  int64_t perturbed_pivots = 0;
  int32_t first_perturbed = -1;  // smallest perturbed column, -1 if none
  // min_j |pivot_j| / max_i |F(i, j)|, measured before any perturbation; 1 for n == 0.
  double min_pivot_ratio = 1.0;
  // max over columns of max_i |F(i, j)| when column j is pivoted, i.e. the largest entry
  // of every active submatrix (the classic growth-factor numerator).
  double max_active = 0.0;
};

// When an engine's iterative refinement may stop: the componentwise backward error at or
// below `componentwise`, or, where SparseLU's automatic policy accepted the normwise measure
// for the pattern (core/backward_error.hpp; no pivot order meets the componentwise one), the
// normwise error at or below `normwise` (negative: not accepted). Without the second, a solve
// whose componentwise error no pivot order lowers pays a correction solve and a residual for
// nothing every time. A plain tolerance converts to the componentwise target.
struct RefineTarget {
  double componentwise = 0.0;
  double normwise = -1.0;
  RefineTarget(double componentwise_tolerance = 0.0, double normwise_tolerance = -1.0)  // NOLINT(implicit)
      : componentwise(componentwise_tolerance), normwise(normwise_tolerance) {}
  bool met(double backward_error, double normwise_error) const {
    return backward_error <= componentwise || (normwise >= 0.0 && normwise_error <= normwise);
  }
};

}  // namespace gpuglu
