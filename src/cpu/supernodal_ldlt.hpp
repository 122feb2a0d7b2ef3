#pragma once
// The CPU supernodal LDL^T (FactorKind::supernodal_ldlt): the oracle of the CUDA engine
// (cuda/supernodal_ldlt) and the CPU backend of ldlt_engine supernodal.
//
// Supernode s's L panel (nr x ns, column-major, supernodes.hpp) holds, after factor():
//   rows 0..ns-1 (the diagonal block, lower triangle): D's diagonal on the diagonal, L11's
//     strict lower triangle below it (unit diagonal implicit; 0 at (k + 1, k) of a 2 x 2
//     pivot, whose off-diagonal lives in off[first + k], so that L11 is a plain unit lower
//     triangle for the BLAS); the upper triangle is not read;
//   rows ns..nr-1: L21.
// The columns are those of P_s (s's pivot order, chosen by the factorization): panel column
// k is the supernode's local column perm[first + k]; the rows below (ancestors' columns)
// and the descendants' rows into s keep the analysis's labels, so a solve reads and writes
// x at first + perm[first + k] and nothing else changes. kind[first + k] is kPivotOne,
// kPivotFirstOfTwo or kPivotSecondOfTwo (core/bunch_kaufman.hpp).
//
// Factorization of supernode s, pivot block by pivot block (core/bunch_kaufman.hpp): within
// the block, right-looking 1 x 1 / 2 x 2 steps chosen by Bunch-Kaufman among the block's
// columns, the static-pivot test (perturb or report) on 1 x 1 pivots, both reading the pivot
// block's own rows only (its kLdltPivotBlock x kLdltPivotBlock diagonal tile); a symmetric
// swap moves rows of L's earlier columns and the columns of every row below. The rows below
// the tile follow: L = A P^T L_tile^{-T} D_tile^{-1} (here eliminated with the block, on the GPU
// by TRSM or a tiled kernel: the same numbers to rounding), and the supernode's later columns
// lose L_blk D_blk L_blk^T. Then s's Schur complement L21 D L21^T (lower triangle) leaves for
// its ancestors.
#include <cstdint>
#include <vector>

#include "core/bunch_kaufman.hpp"
#include "core/numeric_types.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

// A factorization's pivots, n entries each (the engine owns the arrays).
struct LdltPivots {
  int32_t* perm;  // panel column -> the supernode's local column
  int8_t* kind;   // kPivotOne, kPivotFirstOfTwo, kPivotSecondOfTwo
  double* off;    // at a kPivotFirstOfTwo column k: D(k + 1, k); else unused
};

// Factors the panels in place (C's values scattered, the diagonal shift added), level by
// level of the supernodal tree, OpenMP over a level's supernodes (threads; 0: OpenMP's
// default); a Schur schedule's last supernode only gathers the updates (supernodal_schur.hpp). The pivots are written. pivoted (count entries, or null: all 1): a supernode t with
// pivoted[t] == 0 is factored without pivots first (core/bunch_kaufman.hpp); one whose attempt
// fails gets pivoted[t] = 1, *unpivoted_failed says so, and the panels are to be scattered and
// factored again (the stats mean nothing then).
NumericStats factor_supernodal_ldlt(const Schedule& s, double* panels, const LdltPivots& pivots, const PivotRule& rule,
                                    int32_t threads, int8_t* pivoted = nullptr, bool* unpivoted_failed = nullptr);

// x = A^{-1} b through the factor (permutation and scaling included); work: n entries. b
// and x may alias.
void solve_supernodal_ldlt(const Schedule& s, const double* panels, const LdltPivots& pivots, const double* b,
                           double* x, double* work);

// y := D^{-1} y on C's first `count` unknowns (in each supernode's pivot order; count ends
// between pivot blocks: n, or n - schur_size).
void ldlt_diagonal_solve(const Schedule& s, const double* panels, const LdltPivots& pivots, double* y, int32_t count);

// The same with D's diagonal read as d(j) (the panels' pivot positions, or a copy of them:
// cpu/supernodal_sweep_layout.hpp).
template <class Diagonal>
void ldlt_diagonal_solve_with(const Diagonal& d, const LdltPivots& pivots, double* y, int32_t count) {
  for (int32_t j = 0; j < count; ++j) {  // in pivot order
    if (pivots.kind[j] == kPivotSecondOfTwo) continue;  // its pair's first column solved it
    if (pivots.kind[j] == kPivotOne)
      y[j] /= d(j);
    else
      solve_two_by_two(d(j), pivots.off[j], d(j + 1), y[j], y[j + 1]);
  }
}

// The signs of D (its 2 x 2 blocks by their determinant's sign).
PivotSigns supernodal_ldlt_inertia(const Schedule& s, const double* panels, const LdltPivots& pivots);

}  // namespace gpuglu::reference
