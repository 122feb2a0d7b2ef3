#pragma once
// Static-pivot symbolic factorization of C = Q B Q^T: the patterns of L and U.
// Column k of F = (L - I) + U is the set of rows reachable from C(:, k)'s rows in the
// graph of L(:, 0:k-1) (Gilbert-Peierls), found by depth-first search with symmetric
// pruning (Eisenstat-Liu): once L(k, j) and U(j, k) are both nonzero, the rows of
// L(:, j) below k are reachable through column k and need not be searched again.
#include <cstdint>
#include <vector>

#include "analysis/ordering.hpp"

namespace gpuglu::analysis {

struct FactorPattern {
  std::vector<int64_t> colptr;  // n + 1
  std::vector<int32_t> rowind;  // sorted within each column; the diagonal is always stored
  std::vector<int64_t> diag;    // n
  int64_t nnz_l = 0;
  int64_t nnz_u = 0;
};

// q: new -> old, applied to B's rows and columns.
FactorPattern symbolic_factorization(const MatchedPattern& b, const std::vector<int32_t>& q);

}  // namespace gpuglu::analysis
