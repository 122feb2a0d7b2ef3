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

}  // namespace gpuglu::cuda::kernels
