#include "analysis/update_lists.hpp"

namespace gpuglu::analysis {

void build_update_lists(Schedule& s) {
  const int32_t n = s.n;
  const int32_t levels = s.num_levels();
  auto has_l = [&](int32_t i) { return s.f_colptr[i + 1] - s.f_diag[i] > 1; };

  // Walking targets k in ascending order and, inside column k, U(:, k)'s rows (the
  // sources) in ascending order, a stable bucket sort by the source's level yields
  // every level's (target, source) pairs already in the order the executors need.
  std::vector<int64_t> per_level(static_cast<size_t>(levels) + 1, 0);
  for (int32_t k = 0; k < n; ++k)
    for (int64_t p = s.f_colptr[k]; p < s.f_diag[k]; ++p)
      if (has_l(s.f_rowind[p])) ++per_level[s.level_of[s.f_rowind[p]] + 1];
  for (int32_t l = 0; l < levels; ++l) per_level[l + 1] += per_level[l];
  const int64_t total = per_level[levels];

  std::vector<int32_t> pair_target(static_cast<size_t>(total));
  s.target_src.resize(static_cast<size_t>(total));
  std::vector<int64_t> next(per_level.begin(), per_level.end() - 1);
  for (int32_t k = 0; k < n; ++k)
    for (int64_t p = s.f_colptr[k]; p < s.f_diag[k]; ++p) {
      const int32_t j = s.f_rowind[p];
      if (!has_l(j)) continue;
      const int64_t e = next[s.level_of[j]]++;
      pair_target[e] = k;
      s.target_src[e] = p;
    }

  // Runs of equal targets inside each level become the targets.
  s.level_target_ptr.assign(static_cast<size_t>(levels) + 1, 0);
  s.target_col.clear();
  s.target_src_ptr.clear();
  for (int32_t l = 0; l < levels; ++l) {
    for (int64_t e = per_level[l]; e < per_level[l + 1]; ++e) {
      if (e == per_level[l] || pair_target[e] != pair_target[e - 1]) {
        s.target_col.push_back(pair_target[e]);
        s.target_src_ptr.push_back(e);
      }
    }
    s.level_target_ptr[l + 1] = static_cast<int64_t>(s.target_col.size());
  }
  s.target_src_ptr.push_back(total);
}

bool engine_reads_update_lists(const Options& o, Backend backend) {
  return backend != Backend::cpu || o.cpu_right_looking;
}

void ensure_update_lists(Schedule& s) {
  if (s.supernodal() || s.symmetric() || !s.level_target_ptr.empty()) return;
  build_update_lists(s);
}

}  // namespace gpuglu::analysis
