#pragma once
// Where the supernodal engine's factorization spends its time (issue 14: "the per-level /
// per-supernode profile in the records"): one factorization run launch by launch with
// events around each part of a level (panel kernel, blocked panels, direct complements,
// GEMM complements), the median of a few, summed per part, plus the heaviest levels with
// their shapes. CUDA builds only.
#include <array>
#include <string>
#include <vector>

#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::bench {

struct SupernodalProfile {
  std::array<double, 4> ms{};      // panel, blocked, direct, gemm
  std::vector<std::array<float, 4>> level_ms;
  double total_ms() const { return ms[0] + ms[1] + ms[2] + ms[3]; }
};

SupernodalProfile profile_supernodal(const Schedule& s, const double* a_values, const Options& o, int repeat);

// A few lines for the log: per part, the supernodes' shapes, the ten heaviest levels.
std::string describe_supernodal(const Schedule& s, const SupernodalProfile& p);

}  // namespace gpuglu::bench
