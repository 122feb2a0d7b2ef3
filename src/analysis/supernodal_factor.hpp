#pragma once
// The schedule's F, its rows and its value map spelled out from the supernodes' panels
// (include/gpuglu/supernodes.hpp). F's pattern is that of C + C^T, symmetric: row i of U
// is column i's L part and row i of L is column i's U part, and every position follows
// from the panel layout. So no entry is searched for in F or counted into rows, and the
// supernodes, independent, are spelled out in parallel: on circuit matrices, whose
// analysis KLU's analyze + factorization is the measure of (issue 14), these arrays are
// most of the analysis's time after the ordering.
#include <cstdint>
#include <vector>

#include "analysis/input_pattern.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

// For each entry e = rows_ptr[d] + rho of supernode d's rows (row r = rows[e]): the
// position in F's column r of U(first[d], r); U(first[d] + k, r) follows it at + k for
// k < min(rho, ns).
using SupernodeBlocks = std::vector<int64_t>;

// F's pattern (f_colptr, f_rowind, f_diag, nnz_l, nnz_u), supernodes.f_pos, factor_flops
// and the rows (u_rowptr/u_colind/u_pos, l_rowptr/l_colind/l_pos, as build_factor_rows
// gives them) of s from s.supernodes. Returns the blocks, which the value map reads.
SupernodeBlocks build_supernodal_factor(Schedule& s);

// value_map and value_scale, as build_value_map gives them: each entry is found in its
// supernode's rows (much shorter than F's columns, which hold U's rows too).
void build_supernodal_value_map(Schedule& s, const InputPattern& a, const SupernodeBlocks& blocks);

}  // namespace gpuglu::analysis
