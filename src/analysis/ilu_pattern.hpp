#pragma once
// The pattern of ILU(k) by levels of fill (PETSc's -pc_factor_levels, Saad's ILU(p)):
// an entry of C keeps level 0 (the diagonal always, stored as an explicit zero where A
// has none), and fill (i, j) created through pivot k gets level
//   lev(i, j) = min over k of lev(i, k) + lev(k, j) + 1,
// kept when it is <= levels. levels = 0 is A's own pattern (ILU(0)); a large enough
// `levels` gives the complete LU pattern of symbolic_factorization.
#include <cstdint>
#include <vector>

#include "analysis/ordering.hpp"
#include "analysis/symbolic.hpp"

namespace gpuglu::analysis {

// C = B(q, q) (q: new -> old, as in symbolic_factorization). Rows are processed in
// order, each merging the upper parts of the rows it depends on into a sorted linked
// list (the row-merge symbolic ILU(k) of Hysom and Pothen): O(nnz(F) x average row
// length of U), no dense n x n work.
FactorPattern ilu_pattern(const MatchedPattern& b, const std::vector<int32_t>& q, int32_t levels);

// F's pattern by rows, as the row ILU (FactorKind::row_ilu) stores it: row i's columns
// ascending in cols[ptr[i] .. ptr[i+1]), its diagonal at diag[i].
struct RowPattern {
  std::vector<int64_t> ptr{0};
  std::vector<int32_t> cols;
  std::vector<int64_t> diag;
};

// The rows of C = A(q, q) straight from A's (sorted) rows, each given its diagonal where A
// lacks it; sorted again only where q moves something.
RowPattern rows_of_c(const InputPattern& a, const std::vector<int32_t>& q);

// ILU(levels)'s pattern by rows from C's (levels 0: C's own, returned as it is).
RowPattern ilu_rows(RowPattern c, int32_t levels);

}  // namespace gpuglu::analysis
