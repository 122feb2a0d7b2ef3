#include "analysis/factor_rows.hpp"

namespace gpuglu::analysis {

void build_factor_rows(Schedule& s) {
  const int32_t n = s.n;
  s.u_rowptr.assign(static_cast<size_t>(n) + 1, 0);
  s.l_rowptr.assign(static_cast<size_t>(n) + 1, 0);
  for (int32_t k = 0; k < n; ++k) {
    for (int64_t p = s.f_colptr[k]; p < s.f_diag[k]; ++p) ++s.u_rowptr[s.f_rowind[p] + 1];
    for (int64_t p = s.f_diag[k] + 1; p < s.f_colptr[k + 1]; ++p) ++s.l_rowptr[s.f_rowind[p] + 1];
  }
  for (int32_t i = 0; i < n; ++i) {
    s.u_rowptr[i + 1] += s.u_rowptr[i];
    s.l_rowptr[i + 1] += s.l_rowptr[i];
  }
  s.u_colind.resize(static_cast<size_t>(s.u_rowptr[n]));
  s.u_pos.resize(static_cast<size_t>(s.u_rowptr[n]));
  s.l_colind.resize(static_cast<size_t>(s.l_rowptr[n]));
  s.l_pos.resize(static_cast<size_t>(s.l_rowptr[n]));
  std::vector<int64_t> u_next(s.u_rowptr.begin(), s.u_rowptr.end() - 1);
  std::vector<int64_t> l_next(s.l_rowptr.begin(), s.l_rowptr.end() - 1);
  // Columns in ascending order: every row list comes out sorted by column.
  for (int32_t k = 0; k < n; ++k) {
    for (int64_t p = s.f_colptr[k]; p < s.f_diag[k]; ++p) {
      const int64_t e = u_next[s.f_rowind[p]]++;
      s.u_colind[e] = k;
      s.u_pos[e] = p;
    }
    for (int64_t p = s.f_diag[k] + 1; p < s.f_colptr[k + 1]; ++p) {
      const int64_t e = l_next[s.f_rowind[p]]++;
      s.l_colind[e] = k;
      s.l_pos[e] = p;
    }
  }
}

double factor_flops(const Schedule& s) {
  double flops = 0.0;
  for (int32_t j = 0; j < s.n; ++j) {
    const double l = static_cast<double>(s.f_colptr[j + 1] - s.f_diag[j] - 1);
    const double u = static_cast<double>(s.u_rowptr[j + 1] - s.u_rowptr[j]);
    flops += l + 2.0 * l * u;
  }
  return flops;
}

}  // namespace gpuglu::analysis
