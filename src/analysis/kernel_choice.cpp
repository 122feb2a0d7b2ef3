// trsv::choose_kernel, group_size, warp_tasks (the rule is explained in kernel_choice.hpp).
#include "analysis/kernel_choice.hpp"

#include <algorithm>

namespace gpuglu::trsv {

TrsvKernel choose_kernel(const TrsvAnalysis& a, TrsvKernel requested) {
  if (requested != TrsvKernel::automatic) return requested;
  (void)a;
  return TrsvKernel::levr;  // measured fastest on every benchmark matrix (kernel_choice.hpp)
}

int32_t group_size(const TrsvAnalysis& a) {
  const double mean = a.offdiag_per_row();
  int32_t g = 1;
  while (g < 32 && g < mean) g *= 2;
  return g;
}

std::vector<LevelSegment> level_segments(const TrsvAnalysis& a, int32_t capacity) {
  std::vector<LevelSegment> out;
  for (int32_t l = 0; l < a.num_levels; ++l) {
    const bool narrow = capacity > 0 && a.level_ptr[l + 1] - a.level_ptr[l] <= capacity;
    if (narrow && !out.empty() && out.back().run && out.back().end == l)
      out.back().end = l + 1;
    else
      out.push_back(LevelSegment{l, l + 1, narrow});
  }
  return out;
}

int32_t run_group_size(const TrsvAnalysis& a) {
  const double mean = a.offdiag_per_row();
  int32_t g = 1;
  while (g < 32 && 4.0 * g < mean) g *= 2;
  return g;
}

std::vector<int32_t> warp_tasks(const TrsvAnalysis& a, int32_t group) {
  const int32_t per_warp = std::max<int32_t>(1, 32 / std::max<int32_t>(1, group));
  std::vector<int32_t> tasks{0};
  tasks.reserve(static_cast<size_t>(a.n) / per_warp + a.num_levels + 1);
  for (int32_t l = 0; l < a.num_levels; ++l)
    for (int32_t p = a.level_ptr[l]; p < a.level_ptr[l + 1]; p += per_warp)
      tasks.push_back(std::min(p + per_warp, a.level_ptr[l + 1]));
  return tasks;
}

}  // namespace gpuglu::trsv
