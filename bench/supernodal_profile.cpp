#include "supernodal_profile.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "gpuglu/profile.hpp"
#include "timing.hpp"

namespace gpuglu::bench {

SupernodalProfile profile_supernodal(const Schedule& s, const double* a_values, const Options& o, int repeat) {
  EngineProbe engine(s, o);
  engine.profile_levels(a_values);  // warm-up
  std::vector<std::vector<LevelProfile>> runs;
  for (int r = 0; r < std::max(1, repeat); ++r) runs.push_back(engine.profile_levels(a_values));
  SupernodalProfile p;
  const size_t levels = runs[0].size();
  p.level_ms.resize(levels);
  for (size_t l = 0; l < levels; ++l)
    for (int part = 0; part < 4; ++part) {
      std::vector<double> v;
      for (const auto& run : runs) {
        const auto& t = run[l];
        const float parts[4] = {t.panel, t.blocked, t.direct, t.gemm};
        v.push_back(parts[part]);
      }
      p.level_ms[l][part] = static_cast<float>(median(v));
      p.ms[part] += p.level_ms[l][part];
    }
  return p;
}

std::string describe_supernodal(const Schedule& s, const SupernodalProfile& p) {
  const Supernodes& sn = s.supernodes;
  std::string out;
  char line[320];
  std::snprintf(line, sizeof line,
                "  profiled supernodal loop %.3f ms (launch by launch): panel %.3f, blocked %.3f, direct %.3f, "
                "gemm %.3f ms; %d supernodes, %d levels\n",
                p.total_ms(), p.ms[0], p.ms[1], p.ms[2], p.ms[3], sn.count, sn.num_levels());
  out += line;
  // Supernodes by width: how many, and the dense work of their panels and complements.
  const int32_t edges[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1 << 30};
  for (int b = 0; b + 1 < static_cast<int>(std::size(edges)); ++b) {
    int64_t count = 0;
    double panel_flops = 0, schur_flops = 0, max_nr = 0;
    for (int32_t t = 0; t < sn.count; ++t) {
      const int32_t ns = sn.cols(t);
      if (ns < edges[b] || ns >= edges[b + 1]) continue;
      const double nr = static_cast<double>(sn.nrows(t)), nb = nr - ns;
      ++count;
      panel_flops += 2.0 * ns * ns * (nr + nb);
      schur_flops += 2.0 * nb * nb * ns;
      max_nr = std::max(max_nr, nr);
    }
    if (count == 0) continue;
    std::snprintf(line, sizeof line, "    width %4d-%-5d %7lld supernodes  panel %9.3g flop  schur %9.3g flop  max nr %6.0f\n",
                  edges[b], std::min(edges[b + 1] - 1, s.n), static_cast<long long>(count), panel_flops, schur_flops,
                  max_nr);
    out += line;
  }
  std::vector<int32_t> order(p.level_ms.size());
  std::iota(order.begin(), order.end(), 0);
  auto level_total = [&](int32_t l) {
    const auto& t = p.level_ms[l];
    return t[0] + t[1] + t[2] + t[3];
  };
  std::sort(order.begin(), order.end(), [&](int32_t x, int32_t y) { return level_total(x) > level_total(y); });
  out += "    heaviest levels (level nodes max_ns max_nr | panel blocked direct gemm ms):\n";
  for (size_t i = 0; i < std::min<size_t>(12, order.size()); ++i) {
    const int32_t l = order[i];
    int32_t max_ns = 0;
    int64_t max_nr = 0;
    for (int64_t e = sn.level_ptr[l]; e < sn.level_ptr[l + 1]; ++e) {
      max_ns = std::max(max_ns, sn.cols(sn.level_nodes[e]));
      max_nr = std::max(max_nr, sn.nrows(sn.level_nodes[e]));
    }
    const auto& t = p.level_ms[l];
    std::snprintf(line, sizeof line, "      %6d %6lld %6d %7lld | %8.3f %8.3f %8.3f %8.3f\n", l,
                  static_cast<long long>(sn.level_ptr[l + 1] - sn.level_ptr[l]), max_ns,
                  static_cast<long long>(max_nr), t[0], t[1], t[2], t[3]);
    out += line;
  }
  return out;
}

}  // namespace gpuglu::bench
