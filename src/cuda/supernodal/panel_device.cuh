#pragma once
// Device code that the supernodal engine's panel kernels share (supernodal_kernels.cu: the
// staged, stepped and unstaged kernels and the Schur complements; resident_panel_kernels.cu:
// panels factored whole in shared memory): a supernode's panels as a kernel sees them, the
// early exit on bad input, and the static-pivot rule with its statistics. The build compiles
// each .cu on its own, so what both use lives here, inline.
#include <cfloat>

#include "cuda/common/level_device.cuh"
#include "cuda/supernodal/supernodal_kernels.cuh"
#include "gpuglu/options.hpp"

namespace gpuglu::cuda::kernels {

struct Panel {
  int32_t first;  // its first column
  int32_t ns;     // columns
  int64_t nr;     // rows (the L panel's leading dimension)
  int64_t nu;     // rows below its columns (the U^T panel's leading dimension)
  const int32_t* below;  // those rows
  double* l;
  double* u;
};

__device__ __forceinline__ Panel panel_of(const SupernodeArgs& a, int32_t s) {
  Panel p;
  p.first = a.first[s];
  p.ns = a.first[s + 1] - p.first;
  const int64_t rb = a.rows_ptr[s];
  p.nr = a.rows_ptr[s + 1] - rb;
  p.nu = p.nr - p.ns;
  p.below = a.rows + rb + p.ns;
  p.l = a.panels + a.l_ptr[s];
  p.u = a.panels + a.u_ptr[s];
  return p;
}

// Supernode s pivots inside its diagonal block (core/supernode_pivoting.hpp): PivotedPanelLU
// factors it, the panel kernels skip it, and the L sweeps follow its row order.
__device__ __forceinline__ bool pivots_rows(const SupernodeArgs& a, int32_t s) {
  return a.pivoted != nullptr && a.pivoted[s] != 0;
}

// Column k of a factored panel (col: its nr entries, the LU in place: U above the pivot, the
// unit L's multipliers below), by a whole warp: |pivot| and the column's magnitude at its pivot
// step, max(max_{i<k} |U(i, k)|, |u_kk|, |u_kk| max_{i>k} |L(i, k)|), which the panel kernels
// test against, and whether the column is finite. Every lane gets the three.
struct FactoredColumn {
  double apiv, colmax;
  bool finite;
};
__device__ __forceinline__ FactoredColumn factored_column(const double* col, int64_t nr, int32_t k, int lane) {
  double upper = 0.0, lower = 0.0;
  bool finite = true;
  for (int64_t i = lane; i < nr; i += 32) {
    const double v = fabs(col[i]);
    finite &= v <= DBL_MAX;
    if (i < k) upper = v > upper ? v : upper;
    if (i > k) lower = v > lower ? v : lower;
  }
  upper = warp_max(upper);
  lower = warp_max(lower);
  FactoredColumn c;
  c.finite = __all_sync(kFullMask, finite) != 0;
  c.apiv = fabs(col[k]);
  const double below = __dmul_rn(c.apiv, lower);
  c.colmax = upper > c.apiv ? upper : c.apiv;
  c.colmax = below > c.colmax ? below : c.colmax;
  c.finite &= c.colmax <= DBL_MAX;
  return c;
}

// The static-pivot test of a factored panel, after the fact: column k = blockIdx.x * warps +
// warp of supernode s (a warp each, blocks of warps * 32 threads) tested against its magnitude
// at its pivot step (factored_column, the panel kernels' rule via PanelPivots::passes). A pass
// folds the pivot ratio and the magnitude into the statistics; a failure (a NaN/Inf included)
// calls fail(k) on the warp's lane 0 instead. Nothing when the input held a NaN/Inf.
template <class Fail>
__device__ __forceinline__ void check_factored_panel(const SupernodeArgs& a, int32_t s, int warps, Fail fail);

// The scatter found a NaN/Inf input: nothing is factored (the scatter ran in an earlier
// launch, so every block reads the same answer).
__device__ __forceinline__ bool input_was_bad(const FactorState* st) {
  const volatile FactorState* v = st;
  return v->bad_entry != kNoEntry;
}

// The static-pivot rule of a panel's columns (the column LU's: level_device.cuh) and the
// statistics it gathers, held in registers by every thread of a block - its inputs are uniform
// over the block, so every thread takes the same decisions - and published once by thread 0.
struct PanelPivots {
  double threshold, zero_pivot, perturbation;
  bool report;
  double min_ratio;
  double max_active = 0.0;
  unsigned long long perturbed = 0;
  int32_t first_perturbed = -1;
  int32_t failed = -1;

  __device__ explicit PanelPivots(const FactorState* st)
      : threshold(st->threshold),
        zero_pivot(st->zero_pivot),
        perturbation(st->perturbation),
        report(st->policy == static_cast<int32_t>(PivotPolicy::report)),
        min_ratio(__builtin_huge_val()) {}  // +Inf: any ratio is smaller

  // The test itself, core/numeric_types.hpp's (DensePanelLU's check applies it to a finished
  // factor).
  __device__ bool passes(double apiv, double colmax) const {
    return !pivot_is_tiny(apiv, colmax, threshold, zero_pivot);
  }

  // Column col's pivot from its value pivot0 and its column's largest magnitude (finite: no
  // NaN/Inf in the column). False when the column fails (failed holds it); otherwise pivot is
  // pivot0 or, for a tiny pivot, its perturbation. statistics: this thread keeps min_ratio and
  // max_active (the one that publishes; the others skip the division, which sits on the
  // column's critical path when every thread waits for the slowest at the next barrier).
  __device__ bool decide(double pivot0, double colmax, bool finite, int32_t col, double& pivot,
                         bool statistics = true) {
    const double apiv = fabs(pivot0);
    if (statistics) {
      const double ratio = colmax > 0.0 ? __ddiv_rn(apiv, colmax) : 0.0;
      min_ratio = ratio < min_ratio ? ratio : min_ratio;  // a NaN ratio is skipped, as atomic_min_nonneg does
      max_active = colmax > max_active ? colmax : max_active;
    }
    pivot = pivot0;
    if (!finite) {
      failed = col;
      return false;
    }
    if (passes(apiv, colmax)) return true;
    if (report) {
      failed = col;
      return false;
    }
    const double size = perturbed_pivot_size(perturbation, colmax);
    pivot = pivot0 < 0.0 ? -size : size;
    ++perturbed;
    if (first_perturbed < 0) first_perturbed = col;
    return true;
  }

  // By one thread alone, the one that kept the statistics.
  __device__ void publish(const SupernodeArgs& a, int32_t s) const {
    FactorState* st = a.state;
    atomic_min_nonneg(&st->min_ratio_bits, min_ratio);
    atomic_max_nonneg(&st->max_active_bits, max_active);
    if (perturbed > 0) {
      atomicAdd(&st->perturbed, perturbed);
      atomicMin(&st->first_perturbed, static_cast<unsigned long long>(first_perturbed));
    }
    // The smallest failing column over all supernodes: a supernode's columns depend only on
    // its descendants, whose columns are smaller, so it is the column a sequential
    // factorization in column order stops at.
    if (failed >= 0) {
      a.failed[s] = 1;
      atomicMin(&st->failure_key, static_cast<unsigned long long>(failed));
    }
  }
};

template <class Fail>
__device__ __forceinline__ void check_factored_panel(const SupernodeArgs& a, int32_t s, int warps, Fail fail) {
  if (input_was_bad(a.state)) return;
  const Panel p = panel_of(a, s);
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int32_t k = static_cast<int32_t>(blockIdx.x) * warps + static_cast<int32_t>(threadIdx.x >> 5);
  if (k >= p.ns) return;  // uniform over the warp
  const FactoredColumn c = factored_column(p.l + static_cast<int64_t>(k) * p.nr, p.nr, k, lane);
  if (lane != 0) return;
  if (!c.finite || !PanelPivots(a.state).passes(c.apiv, c.colmax)) {
    fail(k);
    return;
  }
  atomic_min_nonneg(&a.state->min_ratio_bits, __ddiv_rn(c.apiv, c.colmax));
  atomic_max_nonneg(&a.state->max_active_bits, c.colmax);
}

}  // namespace gpuglu::cuda::kernels
