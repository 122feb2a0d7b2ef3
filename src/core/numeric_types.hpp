#pragma once
// What every numeric engine (src/cpu, src/cuda) takes and returns: the pivot rule
// taken from Options and the statistics a numeric factorization returns.
#include <cstdint>

#include "core/host_device.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {

// The static-pivot rule, written once for the CPU engines (PivotRule below) and every CUDA
// kernel (common/level_device.cuh's column pivots, supernodal/panel_device.cuh's panel pivots and
// the dense panel check), which the GPU tests compare with the CPU bit for bit. Its products
// are rounded once on either side: __dmul_rn on the device keeps nvcc from contracting one into
// an FMA with whatever the inlined caller adds next; the host build does not contract.
GPUGLU_HOST_DEVICE inline double pivot_rule_product(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

// A pivot of magnitude abs_pivot in a column whose largest magnitude is colmax is tiny when
// abs_pivot <= threshold * colmax or abs_pivot <= zero_pivot (a zero pivot is covered by the
// first test, colmax == 0 included; a NaN fails the comparison, so it is tiny too).
GPUGLU_HOST_DEVICE inline bool pivot_is_tiny(double abs_pivot, double colmax, double threshold, double zero_pivot) {
  return !(abs_pivot > pivot_rule_product(threshold, colmax)) || abs_pivot <= zero_pivot;
}

// The magnitude a tiny pivot becomes under PivotPolicy::perturb: perturbation times the
// column's largest magnitude (1 for an all-zero column). The pivot keeps its sign (its phase,
// complex): PivotRule::perturbed, common/level_device.cuh's perturbed_pivot.
GPUGLU_HOST_DEVICE inline double perturbed_pivot_size(double perturbation, double colmax) {
  return pivot_rule_product(perturbation, colmax > 0.0 ? colmax : 1.0);
}

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
  // Tiny: pivot_is_tiny above.
  bool tiny(double abs_pivot, double colmax) const {
    return pivot_is_tiny(abs_pivot, colmax, threshold, zero_pivot);
  }
  // What a tiny pivot becomes under PivotPolicy::perturb: its sign times perturbed_pivot_size
  // (the sign applied after the product: the same bits as before, a product's rounding is
  // symmetric in sign).
  double perturbed(double pivot, double colmax) const {
    const double size = perturbed_pivot_size(perturbation, colmax);
    return pivot < 0.0 ? -size : size;
  }

  static PivotRule from(const Options& o) {
    const PivotPolicy engine = o.pivot_policy == PivotPolicy::perturb ? PivotPolicy::perturb : PivotPolicy::report;
    return {engine, o.pivot_threshold, o.zero_pivot, o.perturbation, 0.0};
  }
};

// The same rule: the same decisions on the same numbers (a factorization's launches may be
// replayed for it, cuda/common/graph_capture.hpp).
inline bool operator==(const PivotRule& a, const PivotRule& b) {
  return a.policy == b.policy && a.threshold == b.threshold && a.zero_pivot == b.zero_pivot &&
         a.perturbation == b.perturbation && a.diagonal_shift == b.diagonal_shift;
}

struct NumericStats {
  // ok, or numerically_singular: a tiny pivot under PivotPolicy::report, or a column
  // whose entries overflowed to Inf/NaN during the elimination (under either policy,
  // since no perturbation can make such a factor usable).
  Status status = Status::ok;
  int32_t pivot_column = -1;  // smallest failing column of C, -1 if none
  double pivot_value = 0.0;   // its pivot, untouched
  int64_t perturbed_pivots = 0;
  int32_t first_perturbed = -1;  // smallest perturbed column, -1 if none
  // Supernodal LU: supernodes that pivot inside their diagonal blocks (core/supernode_pivoting.hpp),
  // set by the engine after its rounds (merge_node_stats leaves it).
  int64_t pivoted_supernodes = 0;
  // min_j |pivot_j| / max_i |F(i, j)|, measured before any perturbation; 1 for n == 0.
  double min_pivot_ratio = 1.0;
  // max over columns of max_i |F(i, j)| when column j is pivoted, i.e. the largest entry
  // of every active submatrix (the classic growth-factor numerator).
  double max_active = 0.0;
};

// The signs of D of an LDL^T (its 2 x 2 blocks counted by their eigenvalues' signs):
// Sylvester's inertia of A when no pivot was perturbed.
struct PivotSigns {
  int64_t negative = 0;
  int64_t zero = 0;
  int64_t positive = 0;
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
