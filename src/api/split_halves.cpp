#include "api/split_halves.hpp"

#include <algorithm>
#include <utility>

namespace gpuglu::api {

void SplitHalf::gather_values(const double* a_values) {
  if (!a_values) {  // a pattern-only analysis (no matching): M_d's view has no values either
    m.values.clear();
    return;
  }
  m.values.resize(source.size());
  for (size_t e = 0; e < source.size(); ++e) m.values[e] = source[e] >= 0 ? a_values[source[e]] : 0.0;
}

SplitHalf build_half(const CsrView<int32_t, double>& a, const SplitPartition& p, int d) {
  SplitHalf h;
  const std::vector<int32_t>& part = p.part[d];
  h.n_part = static_cast<int32_t>(part.size());
  h.k = static_cast<int32_t>(p.separator.size());
  h.global = part;
  h.global.insert(h.global.end(), p.separator.begin(), p.separator.end());
  const int32_t size = h.size();
  std::vector<int32_t> local(static_cast<size_t>(p.n), -1);
  for (int32_t l = 0; l < size; ++l) local[h.global[l]] = l;

  h.m.nrows = h.m.ncols = size;
  h.m.rowptr.assign(static_cast<size_t>(size) + 1, 0);
  std::vector<std::pair<int32_t, int64_t>> row;  // (M_d's column, A's value position)
  for (int32_t l = 0; l < size; ++l) {
    const bool in_separator = l >= h.n_part;
    const int32_t a_row = p.row_of_col[h.global[l]];
    row.clear();
    bool has_diagonal = false;
    for (int32_t q = a.rowptr[a_row]; q < a.rowptr[a_row + 1]; ++q) {
      const int32_t c = local[a.colind[q]];
      if (c < 0) continue;  // the other part (separator rows only: a part's row never reaches there)
      if (d == 1 && in_separator && c >= h.n_part) continue;  // B's S x S block is half 0's
      has_diagonal = has_diagonal || c == l;
      row.emplace_back(c, q);
    }
    if (in_separator && !has_diagonal) row.emplace_back(l, -1);
    std::sort(row.begin(), row.end());
    for (const auto& [c, q] : row) {
      h.m.colind.push_back(c);
      h.source.push_back(q);
    }
    h.m.rowptr[l + 1] = static_cast<int32_t>(h.m.colind.size());
  }
  return h;
}

}  // namespace gpuglu::api
