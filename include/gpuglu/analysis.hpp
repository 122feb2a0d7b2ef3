#pragma once
// analyze(): the CPU analysis, once per sparsity pattern (DESIGN.md, "One pipeline,
// two backends"). MC64 matching + scaling, fill-reducing ordering, static-pivot
// symbolic factorization, GLU3.0 relaxed dependency detection (Algorithm 4),
// levels and their kernel modes, the value map and the update lists.
#include <complex>
#include <cstdint>
#include <vector>

#include "gpuglu/matrix.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu {

// a: square CSR with sorted, unique column indices; values are needed for the
// matching (pattern-only input is allowed when options.matching is false).
// given_perm: with Ordering::given, a permutation (new -> old) of 0..n-1 applied
// symmetrically after the matching; ignored otherwise. options.lu_engine picks the column or
// the supernodal analysis; LuEngine::automatic here follows the one rule with no device
// known (src/core/automatic_options.hpp): supernodal for backend cuda, column otherwise; and
// modes.total_warps 0 stays 0. SparseLU resolves both with the device in view first.
// Throws Error: not_square, invalid_input, empty_row, nan_or_inf,
// structurally_singular, index_overflow, out_of_memory.
Schedule analyze(const CsrView<int64_t, double>& a, const Options& options,
                 const int32_t* given_perm = nullptr);
Schedule analyze(const CsrView<int32_t, double>& a, const Options& options,
                 const int32_t* given_perm = nullptr);

// The supernodal LU with the unknowns `schur` (sorted, unique, in [0, n); A's numbering)
// kept out of the factorization (Schedule::schur_size; PETSc's MatFactorSetSchurIS): the
// matching, scaling and fill-reducing ordering are those of A11 (A without them), the Schur
// unknowns come last in their order, matched to themselves and unscaled, and their columns
// form the last supernode, which the engines update but never factor. options.lu_engine
// automatic means supernodal here; given_perm (Ordering::given): a permutation of 0..n-1,
// of which the order of A11's unknowns is kept. Empty `schur`: the supernodal analysis of A
// with schur_size 0. Throws Error as analyze(), and invalid_input naming the first bad index,
// unsupported for lu_engine column or ILU, structurally_singular when A11 is.
Schedule analyze_schur(const CsrView<int64_t, double>& a, const std::vector<int32_t>& schur, const Options& options,
                       const int32_t* given_perm = nullptr);
Schedule analyze_schur(const CsrView<int32_t, double>& a, const std::vector<int32_t>& schur, const Options& options,
                       const int32_t* given_perm = nullptr);

// A supernodal LU schedule's F entry by entry (f_colptr, f_rowind, f_diag, the rows of L and U,
// supernodes.f_pos), which analyze() leaves out: the supernodal engines factor and solve on
// the panels, and only the solves through F (cuda.supernodal_panel_solve off) and a host
// copy of F (factor_values()) read it. The row ILU's F by columns likewise (and l_pos/u_pos,
// where its rows sit in F), for a host copy of F and PETSc's shift test. Nothing for any
// other schedule (the supernodal LDL^T's
// panels change their column order with each factorization: it has no F to spell out), or
// one spelled out already (Schedule::factor_spelled_out). threads <= 0: OpenMP's default.
void spell_out_factor(Schedule& s, int threads = 0);

// The analysis of PivotPolicy::repivot: instead of matching + ordering, SuiteSparse KLU
// factors A once with partial pivoting (its defaults: BTF, AMD on each block, pivot
// tolerance 0.001, rows scaled by their largest |entry|), and its final permutations become
// the static pivots: row_perm = KLU's pivot rows (Numeric->Pnum), col_perm = its column
// order (Symbolic->Q), row_scale[Pnum[k]] = 1 / Numeric->Rs[k] (klu_factor leaves Rs in
// pivot order), col_scale = 1, matched = false,
// repivoted = true. The rest is the ordinary pipeline (symbolic factorization, levels, ...),
// so the engines reproduce KLU's pivots on these values and reuse the order for new ones.
// KLU's time is reported as ordering_ms. options: modes (and the copy kept in the Schedule);
// matching, scaling and ordering are not used. a must carry values.
// Throws Error as analyze(), and numerically_singular (naming the column of A) when KLU
// finds no nonzero pivot.
Schedule analyze_with_partial_pivoting(const CsrView<int64_t, double>& a, const Options& options);
Schedule analyze_with_partial_pivoting(const CsrView<int32_t, double>& a, const Options& options);
// Complex A: KLU's complex factorization (klu_z_factor) on values, whose magnitudes
// (magnitudes.values) the checks read; KLU's pivot order and row scaling are real.
Schedule analyze_with_partial_pivoting(const CsrView<int32_t, double>& magnitudes,
                                       const std::complex<double>* values, const Options& options);

// The LDL^T analysis (Chen & Wang), for symmetric A stored with both triangles or one:
// symmetric MC64 scaling (options.scaling; s_i = sqrt(r_i c_i) of the maximum-product
// matching, which is not applied itself), a symmetric fill-reducing ordering
// (options.ordering; automatic: AMD below 5000 unknowns, METIS above; given_perm with
// Ordering::given), the elimination tree, column counts and L's pattern (CXSparse), levels
// of the tree and the update lists. The Schedule is marked symmetric: row_perm == col_perm,
// row_scale == col_scale, F = L with D on its diagonal. check_symmetry (full storage only):
// compare every value with its mirror (the pattern is always checked); false when the
// caller knows A is symmetric (PETSc's MAT_SYMMETRIC flag).
// Throws Error: not_square, invalid_input (an asymmetric A, an entry outside the stored
// triangle), empty_row, nan_or_inf, index_overflow, out_of_memory.
Schedule analyze_symmetric(const CsrView<int64_t, double>& a, StoredTriangle stored, const Options& options,
                           const int32_t* given_perm = nullptr, bool check_symmetry = true);
Schedule analyze_symmetric(const CsrView<int32_t, double>& a, StoredTriangle stored, const Options& options,
                           const int32_t* given_perm = nullptr, bool check_symmetry = true);

}  // namespace gpuglu
