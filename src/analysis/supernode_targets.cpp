#include "analysis/supernode_targets.hpp"

#include <algorithm>

#include "core/transpose_pattern.hpp"

namespace gpuglu {

SupernodeTargets supernode_targets(const Supernodes& sn) {
  SupernodeTargets d;
  const int32_t count = sn.count;
  d.target_ptr.assign(static_cast<size_t>(count) + 1, 0);
  for (int32_t t = 0; t < count; ++t) {
    int32_t last = -1;
    for (int64_t p = sn.rows_ptr[t] + sn.cols(t); p < sn.rows_ptr[t + 1]; ++p) {
      const int32_t q = sn.of_col[static_cast<size_t>(sn.rows[static_cast<size_t>(p)])];
      if (q != last) d.target.push_back(q);
      last = q;
    }
    d.target_ptr[static_cast<size_t>(t) + 1] = static_cast<int64_t>(d.target.size());
  }
  TransposedPattern<int64_t> tr = transpose_pattern(count, count, d.target_ptr.data(), d.target.data());
  d.source_ptr = std::move(tr.ptr);
  d.source = std::move(tr.ind);
  return d;
}

SweepTasks sweep_tasks(const Supernodes& sn, int32_t tile, int32_t small_cols, int64_t small_rows, int32_t warps) {
  SweepTasks w;
  w.group_ptr.push_back(0);
  auto add = [&w](int32_t t, int32_t q) {
    w.node.push_back(t);
    w.tile.push_back(q);
  };
  for (int32_t l = 0; l < sn.num_levels(); ++l) {
    bool open = false;  // the last group is one of small supernodes of this level with room left
    for (int64_t i = sn.level_ptr[l]; i < sn.level_ptr[l + 1]; ++i) {
      const int32_t t = sn.level_nodes[static_cast<size_t>(i)];
      if (sn.cols(t) <= std::min(small_cols, tile) && sn.nrows(t) - sn.cols(t) <= small_rows) {
        if (!open) {
          w.group_ptr.push_back(w.group_ptr.back());
          w.by_warps.push_back(1);
        }
        add(t, 0);
        open = ++w.group_ptr.back() - w.group_ptr[w.group_ptr.size() - 2] < warps;
        continue;
      }
      open = false;
      for (int32_t q = 0; q < SweepTasks::tiles(sn, t, tile); ++q) {
        add(t, q);
        w.group_ptr.push_back(w.group_ptr.back() + 1);
        w.by_warps.push_back(0);
      }
    }
  }
  return w;
}

}  // namespace gpuglu
