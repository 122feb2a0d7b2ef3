#pragma once
// The pivot rule of the supernodal LDL^T (FactorKind::supernodal_ldlt), written once for the
// CPU engine (cpu/supernodal_ldlt.cpp) and the CUDA kernels (cuda/supernodal_ldlt/): Bunch and
// Kaufman's 1 x 1 / 2 x 2 choice, made among the columns of one pivot block of a supernode
// (kLdltPivotBlock of them: as PARDISO and SSIDS pivot inside supernodes, so that the
// supernodal structure, fixed by the analysis, holds whatever the values), with the static
// pivot test of core/numeric_types.hpp deciding, across blocks, whether a 1 x 1 pivot is
// perturbed or reported. Products are rounded once on either side (pivot_rule_product), so
// that the CPU and the GPU take the same decisions on the same numbers.
#include <cstdint>

#include "core/host_device.hpp"
#include "core/numeric_types.hpp"

namespace gpuglu {

// Pivots are searched among at most this many consecutive columns of a supernode (a pivot
// block: columns j0 .. min(j0 + kLdltPivotBlock, ns) - 1, j0 a multiple of it), and the rule
// reads the block's diagonal tile only (its rows j0 .. j1 - 1): one thread block factors the
// tile in shared memory on the GPU, and the rows below it and the later columns follow by
// TRSM and GEMM. Wider blocks give the pivots more choice and that one block more work.
constexpr int32_t kLdltPivotBlock = 64;

// Bunch-Kaufman's alpha = (1 + sqrt(17)) / 8: it balances the element growth of a 1 x 1 and
// a 2 x 2 step.
constexpr double kBunchKaufmanAlpha = 0.6403882032022076;

// The unpivoted attempt (Options::ldlt_unpivoted). Every supernode is first factored with no
// pivoting at all: on the GPU in shared memory with no pivot search (narrow supernodes) or by
// cuSOLVER's dense LU of the panel, its diagonal block made whole (wide ones), far faster than
// a pivot search column after column. The result stands when every pivot passes the static
// test against its pivot block's column (no perturbation) and either all the supernode's
// pivots are positive (its diagonal block was positive definite, which needs no pivoting) or
// every column passes the threshold test of MA57, SSIDS and MUMPS with their default u = 0.01:
// no multiplier of L in it, L21's included, above 1 / u in magnitude (each step's growth is
// then at most 1 + 1 / u, and the solves refine). A supernode that fails takes Bunch-Kaufman
// inside its pivot blocks, now and for the factor's later values; the factorization is redone
// whole (no copy of the panels is kept: a supernode's Schur complement does not depend on the
// pivots chosen inside it, so the supernodes that stood stand again), on the CPU as on the GPU.
constexpr double kLdltThresholdU = 0.01;
// A redone factorization meets the same supernodal inputs to rounding only: after this many
// rounds that still fail somewhere, Bunch-Kaufman everywhere.
constexpr int kLdltUnpivotedRounds = 3;

// The threshold test of an unpivoted column whose largest multiplier (below the diagonal,
// every row of the panel) is max_l in magnitude.
GPUGLU_HOST_DEVICE inline bool unpivoted_column_stands(double max_l) {
  return pivot_rule_product(kLdltThresholdU, max_l) <= 1.0;
}

// What a pivot step at column k of the active block takes.
enum class PivotChoice : int32_t { one_at_k = 0, one_at_r = 1, two_with_r = 2 };

// Magnitudes: akk = |a_kk|; omega1 = max |a_ik| over the block's later columns i (row r holds
// it, r the first such); arr = |a_rr|; omega_r = max |a_rm| over r's row and column in the
// active part, the diagonal excluded (omega_r >= omega1). With omega1 == 0 the column is
// already eliminated within the block: a 1 x 1 step (perturbed if tiny).
GPUGLU_HOST_DEVICE inline PivotChoice bunch_kaufman_choice(double akk, double omega1, double arr, double omega_r) {
  if (!(omega1 > 0.0) || akk >= pivot_rule_product(kBunchKaufmanAlpha, omega1)) return PivotChoice::one_at_k;
  if (pivot_rule_product(akk, omega_r) >= pivot_rule_product(kBunchKaufmanAlpha, pivot_rule_product(omega1, omega1)))
    return PivotChoice::one_at_k;
  if (arr >= pivot_rule_product(kBunchKaufmanAlpha, omega_r)) return PivotChoice::one_at_r;
  return PivotChoice::two_with_r;
}

// A 2 x 2 pivot [d1 e; e d2] is usable when its determinant, measured as the pivot
// |det| / |e| of the step, passes the static test against the larger column maximum of its
// two columns; otherwise the step falls back to a 1 x 1 pivot at k (perturbed if tiny).
GPUGLU_HOST_DEVICE inline bool two_by_two_usable(double det, double e, double colmax, const double threshold,
                                                 double zero_pivot) {
  const double size = e != 0.0 ? (det < 0.0 ? -det : det) / (e < 0.0 ? -e : e) : 0.0;
  return !pivot_is_tiny(size, colmax, threshold, zero_pivot);
}

// The kind of pivot at a column of a factored panel (the engines' pivot-kind arrays).
enum : int8_t { kPivotSecondOfTwo = 0, kPivotOne = 1, kPivotFirstOfTwo = 2 };

// (y1, y2) := [d1 e; e d2]^{-1} (y1, y2): a 2 x 2 pivot's solve (the CPU's and the GPU's D).
GPUGLU_HOST_DEVICE inline void solve_two_by_two(double d1, double e, double d2, double& y1, double& y2) {
  const double det = d1 * d2 - e * e;
  const double v1 = y1, v2 = y2;
  y1 = (v1 * d2 - v2 * e) / det;
  y2 = (v2 * d1 - v1 * e) / det;
}

// The signs of D for n pivots: d[j] its diagonal, off[j] a 2 x 2 pivot's off-diagonal at its
// first column, kind[j] the pivot kinds. A 2 x 2 block [d1 e; e d2] has one eigenvalue of each
// sign when its determinant is negative, two of d1's sign when positive (host only).
inline PivotSigns count_pivot_signs(const double* d, const double* off, const int8_t* kind, int64_t n) {
  PivotSigns out;
  auto count = [&](double v) { (v > 0.0 ? out.positive : v < 0.0 ? out.negative : out.zero)++; };
  for (int64_t j = 0; j < n; ++j) {
    if (kind[j] != kPivotFirstOfTwo || j + 1 >= n) {
      count(d[j]);
      continue;
    }
    const double d1 = d[j], e = off[j], d2 = d[j + 1];
    const double det = d1 * d2 - e * e;
    if (det < 0.0) {
      ++out.negative, ++out.positive;
    } else if (det > 0.0) {
      count(d1), count(d1);
    } else {
      count(d1 + d2), ++out.zero;
    }
    ++j;
  }
  return out;
}

}  // namespace gpuglu
