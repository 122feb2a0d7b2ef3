#include "reference/triangular_solve.hpp"

#include <cstdint>

namespace gpuglu::reference {

void lower_unit_solve(const Schedule& s, const double* f, double* x) {
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  for (int32_t j = 0; j < s.n; ++j) {
    const double xj = x[j];
    if (xj == 0.0) continue;  // sparse right-hand sides are common in circuit solves
    for (int64_t p = diag[j] + 1; p < colptr[j + 1]; ++p) x[rowind[p]] -= f[p] * xj;
  }
}

void upper_solve(const Schedule& s, const double* f, double* x) {
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  for (int32_t j = s.n - 1; j >= 0; --j) {
    const double xj = x[j] / f[diag[j]];
    x[j] = xj;
    if (xj == 0.0) continue;
    for (int64_t p = colptr[j]; p < diag[j]; ++p) x[rowind[p]] -= f[p] * xj;
  }
}

void upper_transpose_solve(const Schedule& s, const double* f, double* x) {
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  for (int32_t j = 0; j < s.n; ++j) {
    double sum = x[j];
    for (int64_t p = colptr[j]; p < diag[j]; ++p) sum -= f[p] * x[rowind[p]];
    x[j] = sum / f[diag[j]];
  }
}

void lower_unit_transpose_solve(const Schedule& s, const double* f, double* x) {
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  for (int32_t j = s.n - 1; j >= 0; --j) {
    double sum = x[j];
    for (int64_t p = diag[j] + 1; p < colptr[j + 1]; ++p) sum -= f[p] * x[rowind[p]];
    x[j] = sum;
  }
}

void solve_with_factor(const Schedule& s, const double* f, const double* b, double* x, double* work) {
  solve_permuted(s, b, x, work, false, [&](double* z) {
    lower_unit_solve(s, f, z);
    upper_solve(s, f, z);
  });
}

void solve_transpose_with_factor(const Schedule& s, const double* f, const double* b, double* x, double* work) {
  solve_permuted(s, b, x, work, true, [&](double* w) {
    upper_transpose_solve(s, f, w);
    lower_unit_transpose_solve(s, f, w);
  });
}

void solve_symmetric_with_factor(const Schedule& s, const double* f, const double* b, double* x, double* work) {
  const int32_t* p = s.row_perm.data();
  const double* sc = s.row_scale.data();
  for (int32_t k = 0; k < s.n; ++k) work[k] = sc[p[k]] * b[p[k]];
  lower_unit_solve(s, f, work);
  for (int32_t k = 0; k < s.n; ++k) work[k] /= f[s.f_diag[k]];
  lower_unit_transpose_solve(s, f, work);
  for (int32_t k = 0; k < s.n; ++k) x[p[k]] = sc[p[k]] * work[k];
}

}  // namespace gpuglu::reference
