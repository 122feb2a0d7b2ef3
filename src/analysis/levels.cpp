#include "analysis/levels.hpp"

#include <algorithm>

#include "gpuglu/option_table.hpp"

namespace gpuglu::analysis {

void build_levels(Schedule& s) {
  const int32_t n = s.n;
  s.level_of.assign(static_cast<size_t>(n), 0);
  std::vector<int32_t> seen(static_cast<size_t>(n), -1);  // dedupes edges found both ways
  int64_t edges = 0;
  int32_t num_levels = 0;
  for (int32_t k = 0; k < n; ++k) {
    int32_t level = 0;
    auto depend_on = [&](int32_t i) {
      if (seen[i] == k) return;
      seen[i] = k;
      ++edges;
      level = std::max(level, s.level_of[i] + 1);
    };
    for (int64_t p = s.f_colptr[k]; p < s.f_diag[k]; ++p) {  // look up
      const int32_t i = s.f_rowind[p];
      if (s.f_colptr[i + 1] - s.f_diag[i] > 1) depend_on(i);
    }
    for (int64_t e = s.l_rowptr[k]; e < s.l_rowptr[k + 1]; ++e) depend_on(s.l_colind[e]);  // look left
    s.level_of[k] = level;
    num_levels = std::max(num_levels, level + 1);
  }
  s.num_dependencies = edges;

  s.level_ptr.assign(static_cast<size_t>(num_levels) + 1, 0);
  for (int32_t k = 0; k < n; ++k) ++s.level_ptr[s.level_of[k] + 1];
  for (int32_t l = 0; l < num_levels; ++l) s.level_ptr[l + 1] += s.level_ptr[l];
  s.level_cols.resize(static_cast<size_t>(n));
  std::vector<int64_t> next(s.level_ptr.begin(), s.level_ptr.end() - 1);
  for (int32_t k = 0; k < n; ++k) s.level_cols[next[s.level_of[k]]++] = k;

  s.level_max_subcols.assign(static_cast<size_t>(num_levels), 0);
  for (int32_t k = 0; k < n; ++k) {
    const int64_t subcols = s.u_rowptr[k + 1] - s.u_rowptr[k];
    int32_t& m = s.level_max_subcols[s.level_of[k]];
    m = static_cast<int32_t>(std::max<int64_t>(m, subcols));
  }
}

void assign_kernel_modes(Schedule& s, const KernelModeThresholds& t) {
  gpuglu::validate(t);  // the option table's modes.* rows (gpuglu/option_table.hpp)
  const int32_t levels = static_cast<int32_t>(s.level_ptr.size()) - 1;
  s.level_mode.resize(static_cast<size_t>(levels));
  s.level_warps.resize(static_cast<size_t>(levels));
  for (int32_t l = 0; l < levels; ++l) {
    const int64_t size = s.level_ptr[l + 1] - s.level_ptr[l];
    if (size <= t.stream_max_columns) {
      s.level_mode[l] = KernelMode::stream;
      s.level_warps[l] = 0;
      continue;
    }
    const int64_t w = t.total_warps / size;  // Eq. 7
    if (w >= t.max_warps) {
      s.level_mode[l] = KernelMode::large_block;
      s.level_warps[l] = t.max_warps;
      continue;
    }
    int32_t warps = t.min_warps;
    while (warps * 2 <= w && warps * 2 < t.max_warps) warps *= 2;
    s.level_mode[l] = KernelMode::small_block;
    s.level_warps[l] = warps;
  }
}

}  // namespace gpuglu::analysis
