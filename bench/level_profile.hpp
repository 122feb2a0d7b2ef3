#pragma once
// Where the GPU level loop spends its time (issue 3: "levels per mode with time per
// mode"): one factorization launched level by level with events in between, aggregated
// by kernel mode, plus the heaviest levels. CUDA builds only.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::bench {

struct LevelWork {
  int64_t columns = 0, targets = 0, sources = 0;
  double updates = 0;         // multiply-subtract updates F(i, k) -= L(i, j) U(j, k)
  double direct_updates = 0;  // of which where column k's rows equal L(:, j)'s (no search)
};

struct ModeProfile {
  std::array<double, 3> ms{};       // by KernelMode: small_block, large_block, stream
  std::array<int64_t, 3> levels{};
  std::array<double, 3> updates{};
  std::vector<float> level_ms;      // median over the repeats, per level
  std::vector<LevelWork> work;      // per level
  double total_ms() const { return ms[0] + ms[1] + ms[2]; }
};

// The work of every level, from the schedule alone (no GPU needed).
std::vector<LevelWork> level_work(const Schedule& s);

// Runs `repeat` profiled factorizations of A's values (CSR order) on a fresh CUDA engine.
ModeProfile profile_level_modes(const Schedule& s, const double* a_values, const Options& o, int repeat);

// A few lines for the log: per mode, per tenth of the levels, and the ten heaviest levels.
std::string describe(const Schedule& s, const ModeProfile& p);

// The GPU refactorization (scatter + level loop, device time, median of `repeat` after a
// warm-up) for each launch shape in `spec`: comma-separated "max_block_threads:rows_per_thread:pdl"
// (e.g. "1024:1:0,256:4:1"), with an optional ":1" for the persistent kernel, each on o
// otherwise. One line per shape, for the tuning record in docs/performance.md.
std::string sweep_launch_shapes(const Schedule& s, const double* a_values, const Options& o, const std::string& spec,
                                int repeat);

// One CSV line per level (level, mode, columns, targets, sources, updates, direct, ms).
void write_level_csv(const std::string& path, const Schedule& s, const ModeProfile& p);

}  // namespace gpuglu::bench
