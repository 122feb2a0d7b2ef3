#pragma once
// Which supernodes each supernode's rows below fall in (include/gpuglu/supernodes.hpp): the
// dependencies of the self-scheduled triangular solves on the panels. In a forward sweep
// (L, U^T) supernode t subtracts its products from x at its rows below, i.e. from the columns
// of its targets, so a target starts once every supernode targeting it has finished; in a
// backward sweep (U, L^T) t reads x at its rows below, so it starts once its targets have
// finished. Both lists are host data derived from the supernodal structure, built once per
// engine.
#include <cstdint>
#include <vector>

#include "gpuglu/supernodes.hpp"

namespace gpuglu {

struct SupernodeTargets {
  // targets of t: target[target_ptr[t] .. target_ptr[t + 1]), the distinct supernodes of its
  // rows below, ascending (all of them ancestors of t)
  std::vector<int64_t> target_ptr;  // count + 1
  std::vector<int32_t> target;
  // sources of q: the supernodes whose targets hold q, source[source_ptr[q] .. ), ascending
  std::vector<int64_t> source_ptr;  // count + 1
  std::vector<int32_t> source;
};

// O(count + rows below): a supernode's rows are ascending, so its targets are the runs of equal
// of_col along them.
SupernodeTargets supernode_targets(const Supernodes& sn);

// The self-scheduled sweeps' tasks: every supernode's tiles of `tile` columns, in level order
// (Supernodes::level_nodes), tiles ascending. Runs of small supernodes (one tile, at most
// small_cols columns and small_rows rows below) of one level form groups of up to `warps`
// tasks (a warp each); every other task is a group of its own (a whole block).
struct SweepTasks {
  std::vector<int32_t> node, tile;  // task i: tile tile[i] of supernode node[i]
  std::vector<int32_t> group_ptr;   // groups + 1: group g is tasks group_ptr[g] .. group_ptr[g + 1] - 1
  std::vector<int8_t> by_warps;     // groups: 1 for a group of small supernodes
  // The tiles of supernode t.
  static int32_t tiles(const Supernodes& sn, int32_t t, int32_t tile) { return (sn.cols(t) + tile - 1) / tile; }
};
SweepTasks sweep_tasks(const Supernodes& sn, int32_t tile, int32_t small_cols, int64_t small_rows, int32_t warps);

}  // namespace gpuglu
