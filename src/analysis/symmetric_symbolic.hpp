#pragma once
// The symbolic part of LDL^T on C = P A P^T (Chen & Wang's "Cholesky symbolic
// factorization"): the elimination tree, the column counts and L's pattern, all from
// CXSparse (cs_etree, cs_post, cs_counts, and cs_ereach for each row of L), then the
// levels of the tree (their Algorithm 2) and the update lists grouped by target column,
// in the Schedule's shape so that the level machinery of the LU carries over.
#include <cstdint>
#include <vector>

#include "analysis/symbolic.hpp"
#include "analysis/symmetric_input.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

struct SymmetricPattern {
  FactorPattern f;              // L with its diagonal first in each column, rows ascending
  std::vector<int32_t> parent;  // elimination tree: parent of column k, -1 for a root
};

// q: new -> old. Throws Error(out_of_memory) when CXSparse cannot allocate.
SymmetricPattern symmetric_symbolic(const SymmetricInput& a, const std::vector<int32_t>& q);

// ICC(k): the lower triangle of the ILU(k) pattern of C = P A P^T (ilu_pattern.hpp; on a
// symmetric pattern the levels of fill are symmetric, so this is IC(k)'s L as PETSc's ICC
// defines it). parent stays empty: an incomplete L has no elimination tree.
SymmetricPattern incomplete_symmetric_pattern(const SymmetricInput& a, const std::vector<int32_t>& q, int32_t levels);

// level_of, level_ptr, level_cols from the elimination tree (a column one level above its
// highest child; without a tree - ICC - one above the columns its row of L depends on),
// num_dependencies (the tree's edges, or the row pattern's), level_max_subcols (the most targets
// of a column of each level), and the update lists: level l's targets are the rows j of
// its columns' L(:, k) below the diagonal, each target's sources k ascending with the
// position of L(j, k) in F. Needs s's factor pattern and its row view (l_rowptr, ...).
void build_symmetric_levels(Schedule& s, const std::vector<int32_t>& parent);

// Floating-point operations of one LDL^T factorization: per column k with l entries below
// the diagonal, l divisions, l multiplications for the l values L(j, k) d_k, and two per
// update of the l (l + 1) / 2 entries of the lower triangle it touches.
double symmetric_factor_flops(const Schedule& s);

}  // namespace gpuglu::analysis
