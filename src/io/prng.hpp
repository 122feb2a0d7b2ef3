#pragma once
// The generators' random numbers. std::uniform_*_distribution is implementation
// defined, so the same seed would give different matrices with libstdc++ and libc++;
// splitmix64 plus explicit conversions gives the same bits everywhere.
#include <cstdint>

namespace gpuglu::detail {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) from the top 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [0, n), n > 0. The modulo bias (< n / 2^64) is irrelevant here.
  int64_t below(int64_t n) { return static_cast<int64_t>(next() % static_cast<uint64_t>(n)); }
  bool coin(double p) { return uniform() < p; }
  double sign() { return (next() >> 63) ? -1.0 : 1.0; }

 private:
  uint64_t state_;
};

}  // namespace gpuglu::detail
