#include "cpu/row_ilu.hpp"

#include <algorithm>
#include <limits>

#include "core/scalar.hpp"
#include "cpu/column_kernels.hpp"

namespace gpuglu::reference {

template <class T>
RowIluFactor<T>::RowIluFactor(const Schedule& s)
    : s_(s),
      storage_(s.value_map.empty() ? 0 : static_cast<size_t>(s.value_map_extent())),
      diag_(static_cast<size_t>(s.n)),
      rows_(s) {}

template <class T>
NumericStats RowIluFactor<T>::factor(const T* c, T* w, const PivotRule& rule) {
  const int32_t n = s_.n;
  const int64_t* lrow = s_.l_rowptr.data();
  const int32_t* lcol = s_.l_colind.data();
  const int64_t* urow = s_.u_rowptr.data();
  const int32_t* ucol = s_.u_colind.data();
  T* l = rows_.l_values();
  T* u = rows_.u_values();
  T* inv = rows_.inv_diag();
  constexpr double kMax = std::numeric_limits<double>::max();
  NumericStats out;
  double min_ratio = std::numeric_limits<double>::infinity();
  for (int32_t i = 0; i < n; ++i) {
    const int64_t lb = lrow[i], le = lrow[i + 1], ub = urow[i], ue = urow[i + 1];
    const T* ci = c + lb + ub + i;  // row i of C: its L part, its diagonal, its U part
    for (int64_t e = lb; e < le; ++e) w[lcol[e]] = ci[e - lb];
    ci += le - lb;
    w[i] = ci[0] + rule.diagonal_shift;
    for (int64_t e = ub; e < ue; ++e) w[ucol[e]] = ci[1 + (e - ub)];
    double active = 0.0;  // the row's largest entry as it is pivoted (L's before scaling)
    bool finite = true;   // NaN fails the comparisons below as Inf does
    for (int64_t e = lb; e < le; ++e) {
      const int32_t k = lcol[e];
      const T wk = w[k];
      const double a = magnitude(wk);
      active = a > active ? a : active;
      finite &= a <= kMax;
      const T m = wk * inv[k];
      l[e] = m;
      for (int64_t q = urow[k]; q < urow[k + 1]; ++q) w[ucol[q]] -= m * u[q];
    }
    const T pivot = w[i];
    for (int64_t e = ub; e < ue; ++e) {
      const T x = w[ucol[e]];
      u[e] = x;
      const double a = magnitude(x);
      active = a > active ? a : active;
      finite &= a <= kMax;
    }
    const double apiv = magnitude(pivot);
    active = apiv > active ? apiv : active;
    finite &= apiv <= kMax;
    out.max_active = std::max(out.max_active, active);
    min_ratio = std::min(min_ratio, active > 0.0 ? apiv / active : 0.0);
    const bool tiny = rule.tiny(apiv, active);
    diag_[i] = pivot;
    if (!finite || (tiny && rule.policy == PivotPolicy::report)) {
      out.status = Status::numerically_singular;
      out.pivot_column = i;
      out.pivot_value = reported_value(pivot);
      break;
    }
    if (tiny) {
      diag_[i] = perturbed_pivot(rule, pivot, active);
      if (out.perturbed_pivots++ == 0) out.first_perturbed = i;
    }
    inv[i] = T(1.0) / diag_[i];
  }
  out.min_pivot_ratio = n > 0 ? min_ratio : 1.0;
  return out;
}

template <class T>
void RowIluFactor<T>::copy_to_factor(T* f) const {
  // Row by row, as spell_out_row_factor placed them: each column's next row in turn.
  std::vector<int64_t> next(s_.f_colptr.begin(), s_.f_colptr.end() - 1);
  const T* l = rows_.l_values();
  const T* u = rows_.u_values();
  for (int32_t i = 0; i < s_.n; ++i) {
    for (int64_t e = s_.l_rowptr[i]; e < s_.l_rowptr[i + 1]; ++e) f[next[s_.l_colind[e]]++] = l[e];
    f[next[i]++] = diag_[i];
    for (int64_t e = s_.u_rowptr[i]; e < s_.u_rowptr[i + 1]; ++e) f[next[s_.u_colind[e]]++] = u[e];
  }
}

template class RowIluFactor<double>;
template class RowIluFactor<Complex>;

}  // namespace gpuglu::reference
