#include "gpuglu/options.hpp"

#include <omp.h>

#include <algorithm>
#include <limits>
#include <string>

#include "gpuglu/option_table.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu {

int32_t max_cpu_threads() noexcept { return 4 * omp_get_num_procs(); }

int32_t threads_of(int32_t num_threads) noexcept { return num_threads > 0 ? num_threads : omp_get_max_threads(); }

int32_t rank_share_of_threads(int32_t process_processors, int32_t node_processors, int32_t ranks_on_node) noexcept {
  constexpr int32_t kUnlimited = std::numeric_limits<int32_t>::max();
  int32_t share = node_processors > 0 ? node_processors / std::max(ranks_on_node, 1) : kUnlimited;
  if (process_processors > 0) share = std::min(share, process_processors);
  return share == kUnlimited ? 1 : std::max(share, 1);
}

int32_t root_share_of_threads(int32_t rank_share, int32_t waiting, int32_t free_processors) noexcept {
  const int64_t share = std::max(rank_share, 1);
  int64_t threads = share + static_cast<int64_t>(std::max(waiting, 0)) * (share - 1);
  if (free_processors > 0) threads = std::min<int64_t>(threads, free_processors);
  return static_cast<int32_t>(std::max<int64_t>(std::min<int64_t>(threads, max_cpu_threads()), 1));
}

// Every row of the one option table (core/option_table.cpp), in field order.
void validate(const Options& o) {
  for (const OptionRow& r : option_table()) require_in_range(r, o);
}

void validate(const KernelModeThresholds& modes) {
  Options o;
  o.modes = modes;
  for (const OptionRow& r : option_table())
    if (std::string(r.field).rfind("modes.", 0) == 0) require_in_range(r, o);
}

int32_t Schedule::levels_in_mode(KernelMode m) const {
  int32_t c = 0;
  for (KernelMode x : level_mode) c += (x == m);
  return c;
}

}  // namespace gpuglu
