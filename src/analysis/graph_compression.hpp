#pragma once
// Indistinguishable vertices merged before nested dissection: vertices whose closed
// neighbourhoods (adjacency plus themselves) are equal - the unknowns of one node of a
// vector PDE (3 per node in 3-D elasticity), or of one cell - are eliminated together by any
// minimum-degree or dissection ordering, so the ordering may be computed on the quotient
// graph, each vertex weighted by its size, and expanded (METIS_NodeND does the same
// internally, COMPRESS, but our dissection's top separators run before any NodeND call:
// nested_dissection.hpp). Deterministic: groups are numbered by their smallest member.
#include <cstdint>
#include <vector>

#include "analysis/symmetric_graph.hpp"

namespace gpuglu::analysis {

// Below this ratio of groups to vertices the quotient graph is ordered; above, the graph
// itself (too little to gain for the extra pass; METIS's own rule is 0.85).
constexpr double kCompressBelow = 0.85;

struct CompressedGraph {
  SymmetricGraph g;             // the quotient graph: a vertex per group
  std::vector<int32_t> weight;  // each group's size
  std::vector<int32_t> ptr;     // group k's members: members[ptr[k] .. ptr[k + 1]), ascending
  std::vector<int32_t> members;
};

// The quotient graph of g's indistinguishable vertices, or false (out untouched) where it
// would keep kCompressBelow of them or more. threads <= 0: OpenMP's default.
bool compress_indistinguishable(const SymmetricGraph& g, int threads, CompressedGraph& out);

// q (new -> old) of g from qc (new -> old) of its quotient graph: each group's members in
// ascending order at the group's place.
std::vector<int32_t> expand_ordering(const CompressedGraph& c, const std::vector<int32_t>& qc);

}  // namespace gpuglu::analysis
