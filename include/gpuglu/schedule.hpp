#pragma once
// The product of the analysis: everything computed once per sparsity pattern.
// Backend-neutral and immutable after analyze(); the reference and the CUDA
// backends execute the same Schedule.
//
// Notation. A is the input (n x n, CSR). The analysis forms
//   C(k, l) = row_scale[row_perm[k]] * A(row_perm[k], col_perm[l]) * col_scale[col_perm[l]]
// (row_perm = matching then ordering, col_perm = ordering; both "new -> old"), and
// factors C = L U with static (diagonal) pivots. The factor F = (L - I) + U is
// stored by columns (CSC) with sorted row indices: column j holds U(0:j, j) then
// L(j+1:n, j) (unit diagonal of L implicit).
#include <array>
#include <cstdint>
#include <vector>

#include "gpuglu/enum_names.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/supernodes.hpp"

namespace gpuglu {

enum class KernelMode : uint8_t { small_block = 0, large_block = 1, stream = 2 };
inline constexpr std::array<EnumName<KernelMode>, 3> kKernelModeNames{
    {{KernelMode::small_block, "small-block"}, {KernelMode::large_block, "large-block"}, {KernelMode::stream, "stream"}}};
inline const char* to_string(KernelMode m) noexcept { return name_in(kKernelModeNames, m).data(); }

struct AnalysisTimes {
  double matching_ms = 0;
  double ordering_ms = 0;
  double symbolic_ms = 0;
  double levels_ms = 0;  // dependencies + levels + modes + update lists
  double total_ms = 0;
  // The supernodal engine's symbolic_ms, split (0 on the other engines): C + C^T for CHOLMOD;
  // CHOLMOD's analysis (etree, column counts, supernodes, and its AMD/METIS where it chooses
  // the ordering, Ordering::automatic: ordering_ms is then ~0); the supernodes copied out
  // (rows sorted, parents, levels); nnz(L+U) and flops counted from the supernodes; the value map.
  double sn_input_ms = 0;
  double sn_cholmod_ms = 0;
  double sn_panels_ms = 0;
  double sn_factor_ms = 0;
  double sn_value_map_ms = 0;
};

// Which numeric engine a Schedule is made for: the analysis sets it, and the engine factories
// (make_cpu_engine, make_cuda_engine), the facade and the views read it - never re-derived
// from the other members.
enum class FactorKind : uint8_t {
  // GLU3.0's column LU by levels (also ILU(k): Schedule::incomplete): F = (L - I) + U on the
  // exact static-pivot pattern, the column levels and update lists below.
  column_lu,
  // LDL^T (analyze_symmetric): C = S P A P^T S (row_perm == col_perm, row_scale ==
  // col_scale) and F holds L's lower triangle with D on its diagonal, first in each column
  // (nnz_u counts the diagonal); levels come from the elimination tree, and the update
  // lists name, for each target column j, the positions of L(j, k) of its sources k.
  column_ldlt,
  // LU on the supernodal engine (Options::lu_engine): `supernodes` holds the panels the
  // engines factor, value_map points into the panels, and the column levels and update
  // lists are empty. F (the supernodes' pattern: C + C^T's, with relaxed amalgamation's
  // explicit zeros) is spelled out entry by entry only on request (spell_out_factor in
  // gpuglu/analysis.hpp: the solves through F and a host copy of F read it).
  supernodal_lu,
  // LDL^T on the supernodal engine (Options::ldlt_engine; issue 28): the supernodes of C
  // (symmetric: no C + C^T), panels holding L only (u_ptr all at l_ptr[count]: empty U^T
  // panels), value_map pointing into their lower triangles. Each supernode's diagonal block
  // is factored with Bunch-Kaufman 1 x 1 / 2 x 2 pivots chosen inside it (core/bunch_kaufman.hpp),
  // so the panels hold P_s-permuted columns per factorization (supernodes.hpp, "LDL^T").
  supernodal_ldlt,
  // ILU(k) on the CPU backend, factored by rows as PETSc's own ILU is (the IKJ variant, one
  // row at a time: analysis/row_ilu.hpp, cpu/row_ilu.hpp). F's pattern is its rows:
  // l_rowptr/l_colind and u_rowptr/u_colind (strictly lower and upper; no l_pos/u_pos).
  // value_map points into the row storage, F row by row in CSR order (row i's L part, its
  // diagonal, its U part, from l_rowptr[i] + u_rowptr[i] + i on), and value_scale is empty
  // (no scaling). No levels, no update lists; F by columns is spelled out only on request
  // (spell_out_factor: a host copy of F, PETSc's shift loop). Chosen by the analysis only for
  // backend cpu under a pivot test without a column threshold (PETSc's ILU sets none), since a
  // row is final before its column is.
  row_ilu,
};
inline constexpr std::array<EnumName<FactorKind>, 5> kFactorKindNames{{{FactorKind::column_lu, "column LU"},
                                                                      {FactorKind::column_ldlt, "column LDL^T"},
                                                                      {FactorKind::supernodal_lu, "supernodal LU"},
                                                                      {FactorKind::supernodal_ldlt, "supernodal LDL^T"},
                                                                      {FactorKind::row_ilu, "row ILU"}}};
inline const char* to_string(FactorKind k) noexcept { return name_in(kFactorKindNames, k).data(); }

struct Schedule {
  int32_t n = 0;
  int64_t input_nnz = 0;

  // --- permutations and scaling ---
  std::vector<int32_t> row_perm;      // new -> old row
  std::vector<int32_t> col_perm;      // new -> old column
  std::vector<int32_t> row_perm_inv;  // old -> new row
  std::vector<int32_t> col_perm_inv;  // old -> new column
  std::vector<double> row_scale;      // indexed by the OLD row; all 1 without scaling
  std::vector<double> col_scale;      // indexed by the OLD column
  bool matched = false;               // MC64 was applied
  bool scaled = false;                // MC64 scaling was applied (or KLU's row scaling, see repivoted)
  // MC64 scales whose exact value lies outside the normal double range (|log| beyond the
  // representable exponents): each was clamped to the nearest representable power and the
  // rest of the scaling kept. 0 on every matrix whose scales can be represented.
  int32_t scales_clamped = 0;
  Ordering ordering = Ordering::amd;  // the ordering that was used
  // The permutations are KLU's partial pivoting order (BTF, AMD on each block, threshold
  // pivoting) and row_scale is KLU's row scaling (1 / max |row|, col_scale all 1): built by
  // analyze_with_partial_pivoting() for PivotPolicy::repivot. matched is false then.
  bool repivoted = false;
  // ILU(k) (Options::ilu_levels >= 0): F holds the levels-of-fill pattern only, and every
  // update whose target (i, k) is not in it is dropped, as incomplete LU does. No matching
  // or scaling then (C = A(q, q)).
  bool incomplete = false;
  // The engine this schedule is for (FactorKind above): every reader asks it here.
  FactorKind kind = FactorKind::column_lu;
  // An LDL^T (A = A^T: the transposed solve is the solve), on either engine.
  bool symmetric() const noexcept { return kind == FactorKind::column_ldlt || kind == FactorKind::supernodal_ldlt; }
  // Panels (the value map points into them), LU or LDL^T.
  bool supernodal() const noexcept { return kind == FactorKind::supernodal_lu || kind == FactorKind::supernodal_ldlt; }
  // F, its rows and supernodes.f_pos are present (always for the column kinds; for the
  // supernodal LU once spell_out_factor has run; never for the supernodal LDL^T, whose
  // panels change their column order with every factorization).
  bool factor_spelled_out() const noexcept {
    return (!supernodal() && kind != FactorKind::row_ilu) || f_colptr.size() == static_cast<size_t>(n) + 1;
  }
  // LDL^T with scaling: variables with a small scaled diagonal tied to a matched partner
  // and ordered next to it (analysis/symmetric_pairs.hpp); 0 when none needed one.
  int32_t symmetric_pairs = 0;
  // Schur-complement mode (supernodal LU only; analyze_schur in gpuglu/analysis.hpp): the
  // last schur_size rows and columns of C are the Schur unknowns, in the caller's order, with
  // row_perm == col_perm and scales 1 on them, so that the trailing block of C after the
  // other unknowns are eliminated is the caller's S = A22 - A21 A11^{-1} A12, only permuted.
  // They form the last supernode, alone in the last level: the engines push every update
  // into it and never factor it, so its L panel ends up holding S. 0: a full factorization.
  int32_t schur_size = 0;
  // That supernode, or -1 without a Schur block.
  int32_t schur_supernode() const noexcept { return schur_size > 0 ? supernodes.count - 1 : -1; }

  Supernodes supernodes;

  // --- factor pattern F = (L - I) + U, CSC, sorted rows ---
  std::vector<int64_t> f_colptr;  // n + 1
  std::vector<int32_t> f_rowind;  // nnz(F)
  std::vector<int64_t> f_diag;    // n: position of F(j, j) (always stored, maybe as explicit zero)
  int64_t nnz_l = 0;              // strictly lower entries
  int64_t nnz_u = 0;              // upper entries including the diagonal
  int64_t nnz_factor() const { return nnz_l + nnz_u; }
  // Floating-point operations of one numeric factorization (a division per entry of L and
  // two operations per update L(i, j) * U(j, k)), for PETSc's -log_view rates.
  double factor_flops = 0.0;

  // --- U by rows: the subcolumns of column j (GLU's "subcolumns") ---
  // For row j: columns k > j with U(j, k) stored, ascending, and the position of (j, k) in F.
  std::vector<int64_t> u_rowptr;  // n + 1
  std::vector<int32_t> u_colind;
  std::vector<int64_t> u_pos;

  // --- L by rows (row k of L: columns i < k with L(k, i) stored), for look-left and solves ---
  std::vector<int64_t> l_rowptr;  // n + 1
  std::vector<int32_t> l_colind;
  std::vector<int64_t> l_pos;

  // --- input values -> factor storage (refactorization only scatters) ---
  // Input entry p (in the CSR order of A) lands in F[value_map[p]] scaled by value_scale[p]
  // (a supernodal schedule: in the panels, at supernodes' value position value_map[p]).
  // value_scale empty: unscaled (the row ILU's). value_map empty: the identity (a row ILU(0)
  // of A in its own order with every diagonal stored, whose row storage is A's CSR order).
  std::vector<int64_t> value_map;
  std::vector<double> value_scale;
  // Entries of the array value_map points into: F's, or the supernodal panels'.
  int64_t value_map_extent() const noexcept {
    if (kind == FactorKind::row_ilu) return nnz_l + nnz_u;  // F by rows
    return supernodal() ? supernodes.values : static_cast<int64_t>(f_rowind.size());
  }

  // --- dependencies and levels (GLU3.0 Algorithm 4) ---
  int64_t num_dependencies = 0;       // edges found by the relaxed detection (with duplicates removed)
  std::vector<int32_t> level_of;      // n: level of each column
  std::vector<int64_t> level_ptr;     // num_levels + 1
  std::vector<int32_t> level_cols;    // n: columns grouped by level, ascending within a level
  std::vector<KernelMode> level_mode; // num_levels
  std::vector<int32_t> level_warps;   // num_levels: warps per block (small/large block), 0 for stream
  std::vector<int32_t> level_max_subcols; // num_levels: max |U(j, :)| over the level's columns

  // --- atomic-free update lists, grouped by target column ---
  // Level l updates the target columns target_col[level_target_ptr[l] .. level_target_ptr[l+1]).
  // Target t receives, in ascending source order, the updates of the sources
  // target_src[target_src_ptr[t] .. target_src_ptr[t+1]): each is the position in F of
  // U(j, k) (k = target_col[t], j = f_rowind[pos] a column of level l).
  std::vector<int64_t> level_target_ptr;
  std::vector<int32_t> target_col;
  std::vector<int64_t> target_src_ptr;
  std::vector<int64_t> target_src;
  // symmetric only: the column k of each source (target_src then holds L(j, k)'s position).
  std::vector<int32_t> target_src_col;

  AnalysisTimes times;

  int32_t num_levels() const { return static_cast<int32_t>(level_mode.size()); }
  int32_t levels_in_mode(KernelMode m) const;
};

}  // namespace gpuglu
