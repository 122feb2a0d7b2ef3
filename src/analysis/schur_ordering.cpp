#include "analysis/schur_ordering.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "analysis/supernodal_symbolic.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

void check_schur_indices(const std::vector<int32_t>& indices, int32_t n) {
  for (size_t e = 0; e < indices.size(); ++e) {
    const int32_t i = indices[e];
    const std::string where = "Schur indices: entry " + std::to_string(e) + " (" + std::to_string(i) + ") ";
    if (i < 0 || i >= n)
      throw Error(Status::invalid_input, where + "is out of range [0, " + std::to_string(n) + ")");
    if (e > 0 && i == indices[e - 1]) throw Error(Status::invalid_input, where + "is a duplicate of entry " + std::to_string(e - 1));
    if (e > 0 && i < indices[e - 1])
      throw Error(Status::invalid_input, where + "is smaller than entry " + std::to_string(e - 1) + " (" +
                                             std::to_string(indices[e - 1]) + "): the indices must be sorted");
  }
}

SchurSplit split_schur(int32_t n, const std::vector<int32_t>& indices) {
  SchurSplit split;
  split.local.assign(static_cast<size_t>(n), 0);
  for (int32_t i : indices) split.local[i] = -1;
  split.complement.reserve(static_cast<size_t>(n) - indices.size());
  for (int32_t i = 0; i < n; ++i) {
    if (split.local[i] < 0) continue;
    split.local[i] = static_cast<int32_t>(split.complement.size());
    split.complement.push_back(i);
  }
  return split;
}

ComplementBlock complement_block(const InputPattern& a, const SchurSplit& split) {
  ComplementBlock out;
  InputPattern& p = out.pattern;
  p.n = static_cast<int32_t>(split.complement.size());
  p.rowptr.reserve(static_cast<size_t>(p.n) + 1);
  for (int32_t r : split.complement) {
    for (int32_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
      const int32_t c = split.local[a.colind[e]];
      if (c < 0) continue;
      p.colind.push_back(c);  // ascending: local is monotone on J
      if (a.values) out.values.push_back(a.values[e]);
    }
    p.rowptr.push_back(static_cast<int32_t>(p.colind.size()));
  }
  p.values = a.values ? out.values.data() : nullptr;
  return out;
}

Error a11_singular(const Error& e, int32_t k, int32_t m) {
  return Error(e.status(), std::string("Schur complement: A11 (A without the ") + std::to_string(k) +
                               " Schur rows and columns; its rows numbered 0.." + std::to_string(m - 1) +
                               " in A's order) cannot be factored: " + e.what());
}

Matching lift_matching(const Matching& m11, const SchurSplit& split, int32_t n) {
  Matching m;
  m.matched = m11.matched;
  m.scaled = m11.scaled;
  m.scales_clamped = m11.scales_clamped;
  m.row_of_col.resize(static_cast<size_t>(n));
  m.row_scale.assign(static_cast<size_t>(n), 1.0);
  m.col_scale.assign(static_cast<size_t>(n), 1.0);
  for (int32_t i = 0; i < n; ++i) m.row_of_col[i] = i;
  const std::vector<int32_t>& j = split.complement;
  for (size_t k = 0; k < j.size(); ++k) {
    m.row_of_col[j[k]] = j[m11.row_of_col[k]];
    m.row_scale[j[k]] = m11.row_scale[k];
    m.col_scale[j[k]] = m11.col_scale[k];
  }
  return m;
}

std::vector<int32_t> restrict_given_ordering(const int32_t* given_perm, const SchurSplit& split) {
  const auto n = static_cast<int32_t>(split.local.size());
  if (!given_perm) throw Error(Status::invalid_input, "ordering 'given' needs a permutation, but none was passed");
  std::vector<char> seen(static_cast<size_t>(n), 0);
  std::vector<int32_t> q11;
  q11.reserve(split.complement.size());
  for (int32_t k = 0; k < n; ++k) {
    const int32_t i = given_perm[k];
    if (i < 0 || i >= n || seen[i])
      throw Error(Status::invalid_input, "the given ordering is not a permutation of 0.." + std::to_string(n - 1) +
                                             ": entry " + std::to_string(k) + " is " + std::to_string(i));
    seen[i] = 1;
    if (split.local[i] >= 0) q11.push_back(split.local[i]);
  }
  return q11;
}

std::vector<int32_t> schur_last(const std::vector<int32_t>& q11, const SchurSplit& split,
                                const std::vector<int32_t>& indices) {
  std::vector<int32_t> q;
  q.reserve(split.local.size());
  for (int32_t k : q11) q.push_back(split.complement[k]);
  q.insert(q.end(), indices.begin(), indices.end());
  return q;
}

MatchedPattern with_dense_block(MatchedPattern b, const std::vector<int32_t>& indices) {
  if (indices.empty()) return b;
  std::vector<char> in_block(static_cast<size_t>(b.n), 0);
  for (int32_t i : indices) in_block[i] = 1;
  MatchedPattern out;
  out.n = b.n;
  out.colptr.assign(static_cast<size_t>(b.n) + 1, 0);
  out.rowind.reserve(b.rowind.size() + indices.size() * indices.size());
  for (int32_t j = 0; j < b.n; ++j) {
    const auto begin = b.rowind.begin() + b.colptr[j];
    const auto end = b.rowind.begin() + b.colptr[j + 1];
    if (in_block[j])
      std::set_union(begin, end, indices.begin(), indices.end(), std::back_inserter(out.rowind));
    else
      out.rowind.insert(out.rowind.end(), begin, end);
    out.colptr[j + 1] = static_cast<int32_t>(out.rowind.size());
  }
  return out;
}

bool schur_trails(const std::vector<int32_t>& q, const std::vector<int32_t>& indices) {
  return q.size() >= indices.size() && std::equal(indices.begin(), indices.end(), q.end() - indices.size());
}

std::vector<int32_t> move_schur_last(const std::vector<int32_t>& q, const std::vector<int32_t>& indices) {
  std::vector<char> in_block(q.size(), 0);
  for (int32_t i : indices) in_block[i] = 1;
  std::vector<int32_t> out;
  out.reserve(q.size());
  for (int32_t i : q)
    if (!in_block[i]) out.push_back(i);
  for (int32_t i : q)
    if (in_block[i]) out.push_back(i);
  return out;
}

namespace {

int64_t lower_entries(const Supernodes& sn) {
  int64_t total = 0;
  for (int32_t s = 0; s < sn.count; ++s) {
    const int64_t ns = sn.cols(s);
    total += ns * (ns + 1) / 2 + (sn.nrows(s) - ns) * ns;
  }
  return total;
}

}  // namespace

void isolate_schur_supernode(Supernodes& sn, int32_t k, bool with_upper) {
  if (k <= 0) return;
  const int32_t n = sn.first.back();
  const int32_t m = n - k;
  const int64_t lower_before = lower_entries(sn);
  std::vector<int32_t> first{0};
  std::vector<int64_t> rows_ptr{0};
  std::vector<int32_t> rows;
  rows.reserve(sn.rows.size() + static_cast<size_t>(k) * k);
  for (int32_t s = 0; s < sn.count && sn.first[s] < m; ++s) {
    // A supernode wholly before I as it is; one stretched over I keeps its first part, whose
    // rows (its columns, I's columns it held, the rows below) are sorted with its own first.
    first.push_back(std::min(sn.first[s + 1], m));
    rows.insert(rows.end(), sn.rows.begin() + sn.rows_ptr[s], sn.rows.begin() + sn.rows_ptr[s + 1]);
    rows_ptr.push_back(static_cast<int64_t>(rows.size()));
  }
  first.push_back(n);
  for (int32_t i = m; i < n; ++i) rows.push_back(i);
  rows_ptr.push_back(static_cast<int64_t>(rows.size()));

  sn.count = static_cast<int32_t>(first.size()) - 1;
  sn.first = std::move(first);
  sn.rows_ptr = std::move(rows_ptr);
  sn.rows = std::move(rows);
  lay_out_panels(sn, with_upper);
  // The split and merged panels hold more (or fewer) entries the pattern does not.
  sn.explicit_zeros =
      std::max<int64_t>(0, sn.explicit_zeros + (with_upper ? 2 : 1) * (lower_entries(sn) - lower_before));
  build_supernode_levels(sn, sn.count - 1);
}

}  // namespace gpuglu::analysis
