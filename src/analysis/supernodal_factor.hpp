#pragma once
// The supernodal schedule from its supernodes (include/gpuglu/supernodes.hpp): the counts
// and the value map into the panels, which is all the supernodal engines need, and F entry
// by entry, which only the solves through F and a host copy of F read. F's pattern is that
// of C + C^T, symmetric: row i of U is column i's L part and row i of L is column i's U
// part, and every position follows from the panel layout, so no entry is searched for in F
// and the supernodes, independent, are spelled out in parallel. Spelling F out is 12 bytes
// of indices per entry of L + U in six arrays: on a large 3-D or circuit matrix most of the
// analysis's time and memory, which is why the analysis leaves it to whoever asks.
#include <cstdint>
#include <vector>

#include "analysis/input_pattern.hpp"
#include "analysis/symmetric_input.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

// nnz_l, nnz_u and factor_flops of s from s.supernodes, as F spelled out would count them.
void count_supernodal_factor(Schedule& s);

// value_map (each input entry's position in the panels) and value_scale: an entry is found
// in its supernode's rows.
void build_supernodal_value_map(Schedule& s, const InputPattern& a, int threads);

// The supernodal LDL^T's (FactorKind::supernodal_ldlt): nnz_l (L's strict lower entries),
// nnz_u = n (D's diagonal, as the column LDL^T counts it) and factor_flops (a division per
// entry of L and an update of the lower triangle: lower * (lower + 1) per column).
void count_supernodal_ldlt_factor(Schedule& s);

// Its value map: stored entry (r, c) lands in the lower triangle of the panels, at
// (max, min) of its permuted indices; a full matrix stores each off-diagonal pair twice and
// both halves scatter half their value there (the engines accumulate).
void build_supernodal_ldlt_value_map(Schedule& s, const SymmetricInput& a, int threads);

// F's pattern (f_colptr, f_rowind, f_diag), supernodes.f_pos and the rows (u_rowptr/u_colind/
// u_pos, l_rowptr/l_colind/l_pos, as build_factor_rows gives them) of s from s.supernodes:
// what the solves through F and a host copy of F read (gpuglu::spell_out_factor).
void spell_out_supernodal_factor(Schedule& s, int threads);

}  // namespace gpuglu::analysis
