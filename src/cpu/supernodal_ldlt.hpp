#pragma once
// The CPU supernodal LDL^T (FactorKind::supernodal_ldlt): the oracle of the CUDA engine
// (cuda/supernodal_ldlt) and the CPU backend of ldlt_engine supernodal.
//
// Supernode s's L panel (nr x ns, column-major, supernodes.hpp) holds, after factor():
//   rows 0..ns-1 (the diagonal block, lower triangle): D on the diagonal, a 2 x 2 pivot's
//     off-diagonal d at (k + 1, k) (its L entry there is 0), L11's strict lower triangle
//     elsewhere (unit diagonal implicit); the upper triangle is not read;
//   rows ns..nr-1: L21.
// The columns are those of P_s (s's pivot order, chosen by the factorization): panel column
// k is the supernode's local column perm[first + k]; the rows below (ancestors' columns)
// and the descendants' rows into s keep the analysis's labels, so a solve reads and writes
// x at first + perm[first + k] and nothing else changes. kind[first + k] is kPivotOne,
// kPivotFirstOfTwo or kPivotSecondOfTwo (core/bunch_kaufman.hpp).
//
// Factorization of supernode s, pivot block by pivot block (core/bunch_kaufman.hpp): within
// the block, right-looking 1 x 1 / 2 x 2 steps chosen by Bunch-Kaufman among the block's
// columns (a symmetric swap moves rows of L's earlier columns too), the static-pivot test
// (perturb or report) on 1 x 1 pivots; then the later columns of s lose L_blk D_blk L_blk^T.
// Then s's Schur complement L21 D L21^T (lower triangle) leaves for its ancestors.
#include <cstdint>
#include <vector>

#include "core/numeric_types.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

// Factors the panels in place (C's values scattered, the diagonal shift added), level by
// level of the supernodal tree, OpenMP over a level's supernodes (threads; 0: OpenMP's
// default). perm, kind: n entries each, written.
NumericStats factor_supernodal_ldlt(const Schedule& s, double* panels, int32_t* perm, int8_t* kind,
                                    const PivotRule& rule, int32_t threads);

// x = A^{-1} b through the factor (permutation and scaling included); work: n entries. b
// and x may alias.
void solve_supernodal_ldlt(const Schedule& s, const double* panels, const int32_t* perm, const int8_t* kind,
                           const double* b, double* x, double* work);

// The signs of D (its 2 x 2 blocks by their determinant's sign).
PivotSigns supernodal_ldlt_inertia(const Schedule& s, const double* panels, const int8_t* kind);

}  // namespace gpuglu::reference
