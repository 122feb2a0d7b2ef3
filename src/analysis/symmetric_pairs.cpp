#include "analysis/symmetric_pairs.hpp"

#include <algorithm>
#include <cmath>

namespace gpuglu::analysis {

namespace {

std::vector<double> scaled_diagonal(const SymmetricInput& a, const std::vector<double>& full_values,
                                    const std::vector<double>& scale) {
  std::vector<double> d(static_cast<size_t>(a.n), 0.0);
  for (int32_t j = 0; j < a.n; ++j)
    for (int32_t p = a.colptr[j]; p < a.colptr[j + 1]; ++p)
      if (a.rowind[p] == j) d[j] = std::fabs(scale[j] * full_values[p] * scale[j]);
  return d;
}

}  // namespace

SymmetricPairs pair_small_diagonals(const SymmetricInput& a, const std::vector<double>& full_values,
                                    const std::vector<double>& scale, const std::vector<int32_t>& row_of_col,
                                    const std::vector<int32_t>& q) {
  SymmetricPairs out;
  out.partner.assign(static_cast<size_t>(a.n), -1);
  const std::vector<double> d = scaled_diagonal(a, full_values, scale);
  std::vector<int32_t> position(static_cast<size_t>(a.n));
  for (int32_t k = 0; k < a.n; ++k) position[q[k]] = k;
  auto eliminated_first = [&](int32_t i) {
    for (int32_t p = a.colptr[i]; p < a.colptr[i + 1]; ++p)
      if (position[a.rowind[p]] < position[i]) return false;
    return true;
  };
  bool needed = false;
  for (int32_t i = 0; i < a.n && !needed; ++i) needed = d[i] < kSmallScaledDiagonal && eliminated_first(i);
  if (!needed) return out;
  for (int32_t i = 0; i < a.n; ++i) {
    if (d[i] >= kSmallScaledDiagonal || out.partner[i] >= 0) continue;
    int32_t j = row_of_col.empty() ? -1 : row_of_col[i];
    if (j == i || (j >= 0 && out.partner[j] >= 0)) {
      j = -1;
      double best = 0.0;
      for (int32_t p = a.colptr[i]; p < a.colptr[i + 1]; ++p) {
        const int32_t r = a.rowind[p];
        const double v = std::fabs(scale[r] * full_values[p] * scale[i]);
        if (r != i && out.partner[r] < 0 && v > best) best = v, j = r;
      }
    }
    if (j < 0) continue;
    out.partner[i] = j;
    out.partner[j] = i;
    ++out.pairs;
  }
  return out;
}

std::vector<int32_t> paired_ordering(const SymmetricInput& a, const std::vector<double>& full_values,
                                     const std::vector<double>& scale, const SymmetricPairs& pairs, Ordering ordering,
                                     const OrderingWork& work) {
  const int32_t n = a.n;
  // Node of each variable in the compressed graph; a pair's node is its smaller member's.
  std::vector<int32_t> node(static_cast<size_t>(n), -1), first(static_cast<size_t>(n), -1);
  int32_t m = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t j = pairs.partner[i];
    if (j >= 0 && j < i) continue;
    first[m] = i;
    node[i] = m;
    if (j >= 0) node[j] = m;
    ++m;
  }
  // The compressed pattern: the union of the members' columns, in node numbers.
  MatchedPattern c;
  c.n = m;
  c.colptr.assign(static_cast<size_t>(m) + 1, 0);
  std::vector<int32_t> mark(static_cast<size_t>(m), -1);
  for (int pass = 0; pass < 2; ++pass) {
    int32_t nnz = 0;
    for (int32_t v = 0; v < m; ++v) {
      const int32_t members[2] = {first[v], pairs.partner[first[v]]};
      for (int32_t i : members) {
        if (i < 0) continue;
        for (int32_t p = a.colptr[i]; p < a.colptr[i + 1]; ++p) {
          const int32_t w = node[a.rowind[p]];
          if (mark[w] == v) continue;
          mark[w] = v;
          if (pass == 1) c.rowind[nnz] = w;
          ++nnz;
        }
      }
      if (pass == 0) c.colptr[v + 1] = nnz;
    }
    if (pass == 0) {
      c.rowind.resize(static_cast<size_t>(nnz));
      std::fill(mark.begin(), mark.end(), -1);
    }
  }
  for (int32_t v = 0; v < m; ++v)  // the orderings expect rows ascending per column
    std::sort(c.rowind.begin() + c.colptr[v], c.rowind.begin() + c.colptr[v + 1]);
  const std::vector<int32_t> qc = fill_reducing_ordering(c, ordering, nullptr, work);

  const std::vector<double> d = scaled_diagonal(a, full_values, scale);
  std::vector<int32_t> q;
  q.reserve(static_cast<size_t>(n));
  for (int32_t v : qc) {
    int32_t i = first[v], j = pairs.partner[i];
    if (j >= 0 && d[j] > d[i]) std::swap(i, j);
    q.push_back(i);
    if (j >= 0) q.push_back(j);
  }
  return q;
}

}  // namespace gpuglu::analysis
