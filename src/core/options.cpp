#include "gpuglu/options.hpp"

#include <omp.h>

#include <algorithm>
#include <limits>
#include <string>

#include "gpuglu/option_table.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu {

int32_t max_cpu_threads() noexcept { return 4 * omp_get_num_procs(); }

int32_t rank_share_of_threads(int32_t process_processors, int32_t node_processors, int32_t ranks_on_node) noexcept {
  constexpr int32_t kUnlimited = std::numeric_limits<int32_t>::max();
  int32_t share = node_processors > 0 ? node_processors / std::max(ranks_on_node, 1) : kUnlimited;
  if (process_processors > 0) share = std::min(share, process_processors);
  return share == kUnlimited ? 1 : std::max(share, 1);
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
