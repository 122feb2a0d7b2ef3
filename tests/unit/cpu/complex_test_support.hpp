#pragma once
// What the complex tests share beyond the matrices (tests/common/complex_matrices.hpp):
// the CPU options they run under and the forward error they check.
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "complex_matrices.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/options.hpp"

namespace gpuglu::test {

// The complex engines run on the CPU backend; 3 threads put the OpenMP level loops under test.
inline Options cpu_options() {
  Options o;
  o.backend = Backend::cpu;
  o.num_threads = 3;
  return o;
}

// max_i |x_i - y_i| / max_i |y_i|.
inline double relative_error(const std::vector<Cplx>& x, const std::vector<Cplx>& y) {
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    num = std::max(num, std::abs(x[i] - y[i]));
    den = std::max(den, std::abs(y[i]));
  }
  return den > 0.0 ? num / den : num;
}

}  // namespace gpuglu::test
