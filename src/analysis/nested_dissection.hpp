#pragma once
// Nested dissection whose top levels run as parallel tasks. METIS_NodeND orders a graph on
// one thread; here METIS's vertex separator (METIS_ComputeVertexSeparator, the bisection
// NodeND itself applies at each level) splits the graph, the two halves are dissected as
// independent tasks, and each separator is numbered after its halves, as NodeND numbers it.
// Below kDissectFrom vertices and kDissectFromEdges adjacency entries (a dense graph of few
// vertices, as an algebraic multigrid's coarse grid, still takes METIS_NodeND long enough to
// split), or kMaxDepth splits down, a part is ordered by METIS_NodeND itself. The split tree
// depends on the graph only, and every METIS call seeds its random generator, which is its
// thread's own (metis_random.hpp; where it cannot be, the tasks run one after another), so
// the ordering is the same for every thread count.
#include <cstdint>
#include <vector>

#include "analysis/symmetric_graph.hpp"

namespace gpuglu::analysis {

constexpr int32_t kDissectFrom = 1 << 13;       // vertices: smaller parts are one METIS_NodeND call
constexpr int64_t kDissectFromEdges = 1 << 19;  // ... unless their adjacency holds this many entries
constexpr int kMaxDepth = 8;                    // at most 2^8 parts ordered by METIS_NodeND

// q (new -> old) of g's n vertices. threads <= 0: OpenMP's default. weight: each vertex's
// (n entries; null: 1 each), which METIS's separators and orderings balance.
std::vector<int32_t> nested_dissection(const SymmetricGraph& g, int threads,
                                       const std::vector<int32_t>* weight = nullptr);

}  // namespace gpuglu::analysis
