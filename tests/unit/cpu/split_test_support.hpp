#pragma once
// What the CPU split tests share (test_split_lu.cpp, test_split_ldlt.cpp): the CPU options
// (two threads: one a half) and a smooth right-hand side.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gpuglu/options.hpp"

namespace gpuglu::test {

inline Options split_cpu_options() {
  Options o;
  o.backend = Backend::cpu;
  o.num_threads = 2;
  return o;
}

inline std::vector<double> smooth_rhs(int32_t n) {
  std::vector<double> b(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) b[i] = 1.0 + std::sin(0.37 * i) + 0.01 * (i % 7);
  return b;
}

}  // namespace gpuglu::test
