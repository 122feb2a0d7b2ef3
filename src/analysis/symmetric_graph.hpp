#pragma once
// The graph of B + B^T (B: the matched pattern, ordering.hpp), built once per analysis: METIS
// orders it and CHOLMOD's supernodal analysis reads its upper triangle, so the symmetrization
// is not repeated for either. Built column by column in parallel (a transpose, then a merge of
// each column of B with the same column of B^T), and identical for every thread count.
#include <cstdint>
#include <vector>

#include "analysis/ordering.hpp"

namespace gpuglu::analysis {

// Both directions of every off-diagonal edge, no self loops, neighbours ascending: METIS's
// CSR graph (its idx_t is 32 bits wide in Debian's build; the edge count is checked).
struct SymmetricGraph {
  int32_t n = 0;
  std::vector<int32_t> xadj;    // n + 1
  std::vector<int32_t> adjncy;  // xadj[n]
  int64_t edges() const { return xadj.empty() ? 0 : xadj.back(); }
};

// threads <= 0: OpenMP's default. Throws Error(index_overflow) when B + B^T holds more than
// 2^31 - 1 off-diagonal entries.
SymmetricGraph symmetric_graph(const MatchedPattern& b, int threads);

// A 64-bit fingerprint of the graph (n, xadj, adjncy): the ordering cache's key.
uint64_t graph_fingerprint(const SymmetricGraph& g);
uint64_t pattern_fingerprint(const MatchedPattern& b);

}  // namespace gpuglu::analysis
