#pragma once
// Wall-clock timing for the benchmarks: the median of repeated runs after warm-ups.
#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace gpuglu::bench {

inline double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Runs f warmup times untimed, then repeat times timed; returns the median in ms.
inline double median_ms(int warmup, int repeat, const std::function<void()>& f) {
  for (int i = 0; i < warmup; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < repeat; ++i) {
    const double t0 = now_ms();
    f();
    t.push_back(now_ms() - t0);
  }
  return median(t);
}

}  // namespace gpuglu::bench
