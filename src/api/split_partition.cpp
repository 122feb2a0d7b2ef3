#include "api/split_partition.hpp"

#include <metis.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "analysis/matching.hpp"
#include "analysis/ordering.hpp"
#include "analysis/symmetric_graph.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::api {

namespace {

static_assert(sizeof(idx_t) == sizeof(int32_t), "the graph's arrays are handed to METIS as idx_t");

// METIS's where[]: 0 and 1 the parts, 2 the separator (METIS_ComputeVertexSeparator's codes).
// vwgt: each vertex's weight (the unknowns it stands for), or empty (all 1).
std::vector<idx_t> metis_separator(const analysis::SymmetricGraph& g, std::vector<idx_t> vwgt = {}) {
  idx_t nv = g.n, separator = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  std::vector<idx_t> where(static_cast<size_t>(g.n));
  const int status =
      METIS_ComputeVertexSeparator(&nv, const_cast<idx_t*>(g.xadj.data()), const_cast<idx_t*>(g.adjncy.data()),
                                   vwgt.empty() ? nullptr : vwgt.data(), options, &separator, where.data());
  if (status == METIS_ERROR_MEMORY)
    throw Error(Status::out_of_memory, "METIS ran out of memory in METIS_ComputeVertexSeparator (the split's separator)");
  if (status != METIS_OK)
    throw Error(Status::invalid_input,
                "METIS_ComputeVertexSeparator failed (status " + std::to_string(status) + ") on the split's graph");
  return where;
}

// Without edges nothing couples the unknowns: two halves, no separator. With edges but too
// few unknowns for a separator to pay, one part holds them all.
std::vector<idx_t> split_without_metis(const analysis::SymmetricGraph& g) {
  std::vector<idx_t> where(static_cast<size_t>(g.n), 0);
  if (g.edges() == 0)
    for (int32_t v = g.n / 2; v < g.n; ++v) where[v] = 1;
  return where;
}

// Per unknown: its diagonal entry is present and (where A has values) nonzero.
std::vector<char> usable_diagonals(const analysis::InputPattern& a) {
  std::vector<char> usable(static_cast<size_t>(a.n), 0);
  for (int32_t i = 0; i < a.n; ++i)
    for (int32_t q = a.rowptr[i]; q < a.rowptr[i + 1]; ++q)
      if (a.colind[q] == i && (!a.values || a.values[q] != 0.0)) usable[i] = 1;
  return usable;
}

// The groups an LDL^T split keeps on one side (group id per unknown; their count in *groups):
// A's matching (MC64 on the values, else the structural one) as a permutation, its cycles cut
// into 2-cycles - an even cycle pairs up consecutively, an odd one keeps a member with a
// nonzero diagonal single and pairs the rest from it, or stays whole where none has one. A
// part that holds whole groups holds a perfect matching of its block (its pairs, its
// singletons' diagonals), so a KKT system's dual unknown never loses its partner to the
// separator and no half's A11 is structurally singular. A symmetric A makes each pair's two
// entries present.
std::vector<int32_t> matched_groups(const analysis::Matching& m, const std::vector<char>& usable_diagonal,
                                    int32_t* groups) {
  const auto n = static_cast<int32_t>(m.row_of_col.size());
  std::vector<int32_t> group(static_cast<size_t>(n), -1), cycle;
  int32_t next = 0;
  for (int32_t start = 0; start < n; ++start) {
    if (group[start] >= 0) continue;
    cycle.clear();
    int32_t v = start;
    do {
      cycle.push_back(v);
      v = m.row_of_col[v];
    } while (v != start);
    const auto len = static_cast<int32_t>(cycle.size());
    if (len % 2 == 1 && len > 1) {
      const auto single = std::find_if(cycle.begin(), cycle.end(), [&](int32_t v) { return usable_diagonal[v] != 0; });
      if (single == cycle.end()) {  // no member can stand alone: the cycle is one group
        for (int32_t v : cycle) group[v] = next;
        ++next;
        continue;
      }
      std::rotate(cycle.begin(), single, cycle.end());
    }
    int32_t i = 0;
    if (len % 2 == 1) group[cycle[i++]] = next++;  // the single (or a 1-cycle, matched to itself)
    for (; i + 1 < len; i += 2) {
      group[cycle[i]] = group[cycle[i + 1]] = next;
      ++next;
    }
  }
  *groups = next;
  return group;
}

// g with each group contracted into one vertex (weight: its size).
analysis::SymmetricGraph contracted(const analysis::SymmetricGraph& g, const std::vector<int32_t>& group,
                                    int32_t groups, std::vector<idx_t>* vwgt) {
  std::vector<int32_t> start(static_cast<size_t>(groups) + 1, 0), members(static_cast<size_t>(g.n));
  for (int32_t v = 0; v < g.n; ++v) ++start[group[v] + 1];
  for (int32_t c = 0; c < groups; ++c) start[c + 1] += start[c];
  vwgt->assign(static_cast<size_t>(groups), 0);
  {
    std::vector<int32_t> fill(start.begin(), start.end() - 1);
    for (int32_t v = 0; v < g.n; ++v) {
      members[fill[group[v]]++] = v;
      ++(*vwgt)[group[v]];
    }
  }
  analysis::SymmetricGraph c;
  c.n = groups;
  c.xadj.assign(static_cast<size_t>(groups) + 1, 0);
  std::vector<int32_t> seen(static_cast<size_t>(groups), -1);
  for (int32_t k = 0; k < groups; ++k) {
    for (int32_t p = start[k]; p < start[k + 1]; ++p) {
      const int32_t v = members[p];
      for (int32_t e = g.xadj[v]; e < g.xadj[v + 1]; ++e) {
        const int32_t h = group[g.adjncy[e]];
        if (h == k || seen[h] == k) continue;
        seen[h] = k;
        c.adjncy.push_back(h);
      }
    }
    c.xadj[k + 1] = static_cast<int32_t>(c.adjncy.size());
  }
  return c;
}

}  // namespace

SplitPartition split_by_separator(const analysis::InputPattern& a, bool use_matching, int threads,
                                  bool keep_matched_together) {
  SplitPartition out;
  out.n = a.n;
  const analysis::ColumnPattern cols = analysis::columns_of(a);
  // Structural checks always; MC64's row order only where asked (no scaling: the halves
  // scale their own blocks).
  const analysis::Matching m = analysis::compute_matching(a, cols, use_matching, false);
  out.row_of_col = m.row_of_col;
  if (out.row_of_col.empty()) {
    out.row_of_col.resize(static_cast<size_t>(a.n));
    std::iota(out.row_of_col.begin(), out.row_of_col.end(), 0);
  }
  const analysis::SymmetricGraph g =
      analysis::symmetric_graph(analysis::matched_pattern(cols, a.n, out.row_of_col), threads);
  std::vector<idx_t> where;
  const std::vector<char> usable =
      keep_matched_together && !use_matching && a.values && g.n >= 4 && g.edges() > 0 ? usable_diagonals(a)
                                                                                       : std::vector<char>();
  if (std::find(usable.begin(), usable.end(), 0) != usable.end()) {
    int32_t groups = 0;
    const std::vector<int32_t> group = matched_groups(analysis::compute_matching(a, cols, true, false), usable, &groups);
    std::vector<idx_t> vwgt;
    const analysis::SymmetricGraph c = contracted(g, group, groups, &vwgt);
    const std::vector<idx_t> where_group =
        c.n < 4 || c.edges() == 0 ? split_without_metis(c) : metis_separator(c, std::move(vwgt));
    where.resize(static_cast<size_t>(a.n));
    for (int32_t v = 0; v < a.n; ++v) where[v] = where_group[group[v]];
  } else {
    where = g.n < 4 || g.edges() == 0 ? split_without_metis(g) : metis_separator(g);
  }
  for (int32_t v = 0; v < a.n; ++v) {
    if (where[v] == 2)
      out.separator.push_back(v);
    else
      out.part[where[v]].push_back(v);
  }
  return out;
}

}  // namespace gpuglu::api
