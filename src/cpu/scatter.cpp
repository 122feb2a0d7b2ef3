#include "cpu/scatter.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/scalar.hpp"
#include "cpu/team_rule.hpp"

namespace gpuglu::reference {

namespace {

// The first entry that is NaN or Inf (-1: none). Called only where a probe summed to NaN: the
// common, finite case costs no second pass.
template <class T>
int64_t first_non_finite(const T* a_values, int64_t nnz) {
  for (int64_t p = 0; p < nnz; ++p)
    if (!is_finite(a_values[p])) return p;
  return -1;
}

}  // namespace

template <class T>
ScatterResult scatter_values(const Schedule& s, const T* a_values, T* f, const char* conjugate, int32_t threads) {
  ScatterResult out;
  const int64_t extent = s.value_map_extent();
  const int team = extent >= kTeamMinFillEntries ? threads_of(threads) : 1;
#pragma omp parallel for schedule(static) num_threads(team)
  for (int64_t c = 0; c < extent; c += kFillChunk) std::fill(f + c, f + std::min(extent, c + kFillChunk), T(0.0));
  const int64_t nnz = s.input_nnz;
  const int64_t* map = s.value_map.data();
  const double* scale = s.value_scale.data();
  // x * 0 is NaN exactly when x is NaN or Inf: one multiply-add per entry keeps the
  // common (finite) case a single branch-free pass; the culprit is located only on failure.
  T probe = T(0.0);
  double max_abs = 0.0;
  auto pass = [&](auto scaled) {
    for (int64_t p = 0; p < nnz; ++p) {
      T v = a_values[p];
      if constexpr (is_complex_v<T>) {
        if (conjugate && conjugate[p]) v = std::conj(v);
      }
      probe += v * 0.0;
      const T c = decltype(scaled)::value ? scale[p] * v : v;
      f[map[p]] += c;
      max_abs = std::max(max_abs, magnitude(c));
    }
  };
  if (s.value_scale.empty())  // unscaled (Schedule::value_scale)
    pass(std::false_type{});
  else
    pass(std::true_type{});
  if (probe != probe) out.bad_entry = first_non_finite(a_values, nnz);
  out.max_abs = max_abs;
  return out;
}

template <class T>
ScatterResult check_values(const T* a_values, int64_t nnz) {
  ScatterResult out;
  T probe = T(0.0);  // as in scatter_values
  double max_abs = 0.0;
  for (int64_t p = 0; p < nnz; ++p) {
    probe += a_values[p] * 0.0;
    max_abs = std::max(max_abs, magnitude(a_values[p]));
  }
  if (probe != probe) out.bad_entry = first_non_finite(a_values, nnz);
  out.max_abs = max_abs;
  return out;
}

template ScatterResult check_values(const double*, int64_t);
template ScatterResult check_values(const Complex*, int64_t);
template ScatterResult scatter_values(const Schedule&, const double*, double*, const char*, int32_t);
template ScatterResult scatter_values(const Schedule&, const Complex*, Complex*, const char*, int32_t);

}  // namespace gpuglu::reference
