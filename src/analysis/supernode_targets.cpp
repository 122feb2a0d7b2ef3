#include "analysis/supernode_targets.hpp"

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

}  // namespace gpuglu
