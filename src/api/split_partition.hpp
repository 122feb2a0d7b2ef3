#pragma once
// The top separator of SplitLU (include/gpuglu/split_lu.hpp; docs/design.md, "One
// factorization over two GPUs"): A's rows matched to its columns (MC64, so that each part's
// diagonal block has a zero-free diagonal, as one device's analysis would have it), then METIS's
// vertex separator of the graph of B + B^T (B = A's rows permuted by the matching, no
// diagonal) splits the unknowns into two parts P0, P1 and the separator S: no entry of B
// joins P0 and P1.
#include <array>
#include <cstdint>
#include <vector>

#include "analysis/input_pattern.hpp"

namespace gpuglu::api {

struct SplitPartition {
  int32_t n = 0;
  // B(k, :) = A(row_of_col[k], :); B's columns are A's. The identity without the matching.
  std::vector<int32_t> row_of_col;
  // Each part's and the separator's unknowns (B's indices, that is A's columns), ascending.
  std::array<std::vector<int32_t>, 2> part;
  std::vector<int32_t> separator;
};

// threads: of the graph's construction (<= 0: OpenMP's). use_matching: Options::matching
// (false: B = A, and a structurally zero diagonal is left to the halves' analyses).
// keep_matched_together (an LDL^T split, B = A): where A's diagonal has a zero or a missing
// entry, A's matching's cycles cut into pairs (split_partition.cpp) are contracted for METIS
// (weighted by their size), so each part keeps whole pairs and its block a perfect matching. Throws
// Error(structurally_singular) for a structurally singular A, and METIS's failures as the
// analysis reports them. A graph without edges (a diagonal A) or of fewer than 4 unknowns is
// split without METIS: into halves with no separator where it has no edges, else into one
// part.
SplitPartition split_by_separator(const analysis::InputPattern& a, bool use_matching, int threads,
                                  bool keep_matched_together = false);

}  // namespace gpuglu::api
