#include "gpuglu/options.hpp"

#include <omp.h>

#include <string>

#include "gpuglu/option_table.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu {

int32_t max_cpu_threads() noexcept { return 4 * omp_get_num_procs(); }

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
