#include "api/split_partition.hpp"

#include <metis.h>

#include <numeric>
#include <string>

#include "analysis/matching.hpp"
#include "analysis/ordering.hpp"
#include "analysis/symmetric_graph.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::api {

namespace {

static_assert(sizeof(idx_t) == sizeof(int32_t), "the graph's arrays are handed to METIS as idx_t");

// METIS's where[]: 0 and 1 the parts, 2 the separator (METIS_ComputeVertexSeparator's codes).
std::vector<idx_t> metis_separator(const analysis::SymmetricGraph& g) {
  idx_t nv = g.n, separator = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  std::vector<idx_t> where(static_cast<size_t>(g.n));
  const int status =
      METIS_ComputeVertexSeparator(&nv, const_cast<idx_t*>(g.xadj.data()), const_cast<idx_t*>(g.adjncy.data()),
                                   nullptr, options, &separator, where.data());
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

}  // namespace

SplitPartition split_by_separator(const analysis::InputPattern& a, bool use_matching, int threads) {
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
  const std::vector<idx_t> where = g.n < 4 || g.edges() == 0 ? split_without_metis(g) : metis_separator(g);
  for (int32_t v = 0; v < a.n; ++v) {
    if (where[v] == 2)
      out.separator.push_back(v);
    else
      out.part[where[v]].push_back(v);
  }
  return out;
}

}  // namespace gpuglu::api
