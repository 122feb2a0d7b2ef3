#include "analysis/matching.hpp"

#include <btf.h>

#include <string>
#include <utility>

#include "analysis/max_product_matching.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

// Returns the column matched to each row (BTF's Match), throwing when the matrix is
// structurally singular. maxtrans is O(nnz * n) in theory but near-linear in practice.
std::vector<int32_t> maximum_transversal(const InputPattern& a, const ColumnPattern& cols) {
  const int32_t n = a.n;
  std::vector<int32_t> match(static_cast<size_t>(n));
  std::vector<int32_t> work(5 * static_cast<size_t>(n));
  double ops = 0;
  // btf_maxtrans reads the arrays only; its prototype is not const-correct.
  const int rank = btf_maxtrans(n, n, const_cast<int*>(cols.colptr.data()), const_cast<int*>(cols.rowind.data()),
                                0.0, &ops, match.data(), work.data());
  if (rank < n) {
    int32_t first = -1;
    for (int32_t i = 0; i < n && first < 0; ++i)
      if (match[i] < 0) first = i;
    throw Error(Status::structurally_singular,
                "the matrix is structurally singular: structural rank " + std::to_string(rank) + " < n = " +
                    std::to_string(n) + " (no perfect matching; row " + std::to_string(first) + " is unmatched)");
  }
  return match;
}

// MC64 job 5 (max_product_matching.hpp). False when it finds no matching on the
// nonzero values (e.g. the only perfect matchings go through explicit zeros).
bool mc64(const InputPattern& a, const ColumnPattern& cols, Matching& m) {
  std::vector<double> val(cols.src.size());
  for (size_t q = 0; q < val.size(); ++q) val[q] = a.values[cols.src[q]];
  ProductMatching pm;
  if (!max_product_matching(a.n, cols.colptr.data(), cols.rowind.data(), val.data(), pm)) return false;
  m.row_of_col = std::move(pm.row_of_col);
  m.row_scale = std::move(pm.row_scale);
  m.col_scale = std::move(pm.col_scale);
  m.scales_clamped = pm.scales_clamped;
  return true;
}

}  // namespace

Matching compute_matching(const InputPattern& a, const ColumnPattern& cols, bool use_mc64, bool use_scaling) {
  const int32_t n = a.n;
  Matching m;
  m.row_scale.assign(static_cast<size_t>(n), 1.0);
  m.col_scale.assign(static_cast<size_t>(n), 1.0);
  m.row_of_col.resize(static_cast<size_t>(n));
  for (int32_t k = 0; k < n; ++k) m.row_of_col[k] = k;
  if (n == 0) return m;
  const std::vector<int32_t> transversal = maximum_transversal(a, cols);
  if (!use_mc64) return m;

  if (mc64(a, cols, m)) {
    m.matched = true;
    m.scaled = use_scaling;
    if (!use_scaling) {
      m.row_scale.assign(static_cast<size_t>(n), 1.0);
      m.col_scale.assign(static_cast<size_t>(n), 1.0);
      m.scales_clamped = 0;
    }
    return m;
  }
  // The structure has a perfect matching but MC64 found none on the nonzero values:
  // use the structural one, unscaled; the numeric factorization judges the pivots.
  m.row_scale.assign(static_cast<size_t>(n), 1.0);
  m.col_scale.assign(static_cast<size_t>(n), 1.0);
  for (int32_t i = 0; i < n; ++i) m.row_of_col[transversal[i]] = i;
  m.matched = true;
  m.scaled = false;
  return m;
}

void record_matching(Schedule& s, const Matching& m) {
  s.matched = m.matched;
  s.scaled = m.scaled;
  s.scales_clamped = m.scales_clamped;
  s.row_scale = m.row_scale;
  s.col_scale = m.col_scale;
}

}  // namespace gpuglu::analysis
