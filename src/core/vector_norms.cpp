// Vector comparisons used by tests, benchmarks and the examples (matrix_ops.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {

// Relative to the largest entry of the reference y, not entrywise: entrywise ratios
// blow up on the tiny components that every solver gets only absolutely right.
double relative_difference_inf(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size())
    throw Error(Status::invalid_input, "relative_difference_inf: sizes differ (" + std::to_string(x.size()) +
                                           " vs " + std::to_string(y.size()) + ")");
  double diff = 0, scale = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double d = std::abs(x[i] - y[i]);
    // NaN must not be lost by max(): report it as an infinite difference.
    diff = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(diff, d);
    scale = std::max(scale, std::abs(y[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

}  // namespace gpuglu
