#include "level_profile.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <stdexcept>

#include "gpuglu/profile.hpp"
#include "timing.hpp"

namespace gpuglu::bench {

std::vector<LevelWork> level_work(const Schedule& s) {
  std::vector<LevelWork> w(static_cast<size_t>(s.num_levels()));
  for (int32_t l = 0; l < s.num_levels(); ++l) {
    LevelWork& lw = w[l];
    lw.columns = s.level_ptr[l + 1] - s.level_ptr[l];
    lw.targets = s.level_target_ptr[l + 1] - s.level_target_ptr[l];
    for (int64_t t = s.level_target_ptr[l]; t < s.level_target_ptr[l + 1]; ++t) {
      const int32_t k = s.target_col[t];
      for (int64_t e = s.target_src_ptr[t]; e < s.target_src_ptr[t + 1]; ++e) {
        const int64_t pos = s.target_src[e];
        const int32_t j = s.f_rowind[pos];
        const double len = static_cast<double>(s.f_colptr[j + 1] - s.f_diag[j] - 1);
        ++lw.sources;
        lw.updates += len;
        if (s.f_colptr[k + 1] - (pos + 1) == s.f_colptr[j + 1] - s.f_diag[j] - 1) lw.direct_updates += len;
      }
    }
  }
  return w;
}

ModeProfile profile_level_modes(const Schedule& s, const double* a_values, const Options& o, int repeat) {
  ModeProfile p;
  p.work = level_work(s);
  EngineProbe engine(s, o);
  engine.profile_levels(a_values);  // warm-up
  std::vector<std::vector<LevelProfile>> runs;
  for (int r = 0; r < std::max(1, repeat); ++r) runs.push_back(engine.profile_levels(a_values));
  p.level_ms.resize(static_cast<size_t>(s.num_levels()));
  for (int32_t l = 0; l < s.num_levels(); ++l) {
    std::vector<double> v;
    for (const auto& run : runs) v.push_back(run[l].ms);
    p.level_ms[l] = static_cast<float>(median(v));
    const int m = static_cast<int>(s.level_mode[l]);
    p.ms[m] += p.level_ms[l];
    ++p.levels[m];
    p.updates[m] += p.work[l].updates;
  }
  return p;
}

std::string describe(const Schedule& s, const ModeProfile& p) {
  std::string out;
  char line[256];
  const char* names[3] = {"small_block", "large_block", "stream"};
  std::snprintf(line, sizeof line, "  profiled level loop %.3f ms (launch by launch, events between levels)\n",
                p.total_ms());
  out += line;
  for (int m = 0; m < 3; ++m) {
    std::snprintf(line, sizeof line, "    %-12s %6lld levels %10.3f ms %14.0f updates %8.2f Gupd/s\n", names[m],
                  static_cast<long long>(p.levels[m]), p.ms[m], p.updates[m],
                  p.ms[m] > 0 ? p.updates[m] / (p.ms[m] * 1e6) : 0.0);
    out += line;
  }
  const int32_t L = s.num_levels();
  for (int b = 0; b < 10 && L > 0; ++b) {
    const int32_t l0 = static_cast<int32_t>(static_cast<int64_t>(L) * b / 10);
    const int32_t l1 = static_cast<int32_t>(static_cast<int64_t>(L) * (b + 1) / 10);
    double ms = 0, upd = 0, direct = 0;
    int64_t cols = 0, srcs = 0;
    for (int32_t l = l0; l < l1; ++l) {
      ms += p.level_ms[l];
      upd += p.work[l].updates;
      direct += p.work[l].direct_updates;
      cols += p.work[l].columns;
      srcs += p.work[l].sources;
    }
    std::snprintf(line, sizeof line,
                  "    levels %5d-%5d: %9.3f ms  cols %8lld  sources %9lld  updates %12.0f (%3.0f%% direct)\n", l0,
                  l1 - 1, ms, static_cast<long long>(cols), static_cast<long long>(srcs), upd,
                  upd > 0 ? 100.0 * direct / upd : 0.0);
    out += line;
  }
  std::vector<int32_t> order(static_cast<size_t>(L));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int32_t x, int32_t y) { return p.level_ms[x] > p.level_ms[y]; });
  out += "    heaviest levels (level mode cols targets sources updates direct% ms):\n";
  for (size_t i = 0; i < order.size() && i < 10; ++i) {
    const int32_t l = order[i];
    const LevelWork& w = p.work[l];
    std::snprintf(line, sizeof line, "      %5d %-11s %6lld %7lld %8lld %11.0f %4.0f%% %8.3f\n", l,
                  names[static_cast<int>(s.level_mode[l])], static_cast<long long>(w.columns),
                  static_cast<long long>(w.targets), static_cast<long long>(w.sources), w.updates,
                  w.updates > 0 ? 100.0 * w.direct_updates / w.updates : 0.0, p.level_ms[l]);
    out += line;
  }
  return out;
}

std::string sweep_launch_shapes(const Schedule& s, const double* a_values, const Options& o, const std::string& spec,
                                int repeat) {
  std::string out;
  size_t begin = 0;
  while (begin < spec.size()) {
    size_t end = spec.find(',', begin);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(begin, end - begin);
    begin = end + 1;
    int threads = 0, rows = 0, pdl = 0, persistent = 0;
    if (std::sscanf(item.c_str(), "%d:%d:%d:%d", &threads, &rows, &pdl, &persistent) < 3)
      throw std::runtime_error("bad launch shape '" + item + "' (want threads:rows:pdl[:persistent])");
    Options variant = o;
    variant.modes.max_block_threads = threads;
    variant.modes.rows_per_thread = rows;
    variant.modes.programmatic_launch = pdl != 0;
    variant.modes.persistent_kernel = persistent != 0;
    variant.device = 0;
    EngineProbe engine(s, variant);
    engine.factor_device_ms(a_values);
    std::vector<double> ms;
    for (int r = 0; r < std::max(1, repeat); ++r) ms.push_back(engine.factor_device_ms(a_values));
    char line[160];
    std::snprintf(line, sizeof line, "    launch shape threads<=%4d rows/thread %d pdl %d persistent %d: %9.3f ms (device)\n",
                  threads, rows, pdl, persistent, median(ms));
    out += line;
  }
  return out;
}

void write_level_csv(const std::string& path, const Schedule& s, const ModeProfile& p) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << "level,mode,columns,targets,sources,updates,direct_updates,ms\n";
  for (int32_t l = 0; l < s.num_levels(); ++l) {
    const LevelWork& w = p.work[l];
    f << l << ',' << to_string(s.level_mode[l]) << ',' << w.columns << ',' << w.targets << ',' << w.sources << ','
      << w.updates << ',' << w.direct_updates << ',' << p.level_ms[l] << '\n';
  }
}

}  // namespace gpuglu::bench
