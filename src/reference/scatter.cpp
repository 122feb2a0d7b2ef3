#include "reference/scatter.hpp"

#include <algorithm>
#include <cmath>

namespace gpuglu::reference {

ScatterResult scatter_values(const Schedule& s, const double* a_values, double* f) {
  ScatterResult out;
  const int64_t nnz_f = static_cast<int64_t>(s.f_rowind.size());
  std::fill(f, f + nnz_f, 0.0);
  const int64_t nnz = s.input_nnz;
  const int64_t* map = s.value_map.data();
  const double* scale = s.value_scale.data();
  // x * 0 is NaN exactly when x is NaN or Inf: one multiply-add per entry keeps the
  // common (finite) case a single branch-free pass; the culprit is located only on failure.
  double probe = 0.0;
  double max_abs = 0.0;
  for (int64_t p = 0; p < nnz; ++p) {
    const double v = a_values[p];
    probe += v * 0.0;
    const double c = scale[p] * v;
    f[map[p]] += c;
    max_abs = std::max(max_abs, std::fabs(c));
  }
  if (probe != probe) {
    for (int64_t p = 0; p < nnz; ++p) {
      if (!std::isfinite(a_values[p])) {
        out.bad_entry = p;
        break;
      }
    }
  }
  out.max_abs = max_abs;
  return out;
}

}  // namespace gpuglu::reference
