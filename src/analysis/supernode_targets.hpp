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

}  // namespace gpuglu
