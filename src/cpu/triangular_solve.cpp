#include "cpu/triangular_solve.hpp"

#include <cstdint>

#include "core/scalar.hpp"

namespace gpuglu::reference {

template <class T>
void lower_unit_solve(const Schedule& s, const T* f, T* x) {
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  for (int32_t j = 0; j < s.n; ++j) {
    const T xj = x[j];
    if (xj == T(0.0)) continue;  // sparse right-hand sides are common in circuit solves
    for (int64_t p = diag[j] + 1; p < colptr[j + 1]; ++p) x[rowind[p]] -= f[p] * xj;
  }
}

template <class T>
void upper_solve(const Schedule& s, const T* f, T* x) {
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  for (int32_t j = s.n - 1; j >= 0; --j) {
    const T xj = x[j] / f[diag[j]];
    x[j] = xj;
    if (xj == T(0.0)) continue;
    for (int64_t p = colptr[j]; p < diag[j]; ++p) x[rowind[p]] -= f[p] * xj;
  }
}

template <class T>
void upper_transpose_solve(const Schedule& s, const T* f, T* x) {
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  for (int32_t j = 0; j < s.n; ++j) {
    T sum = x[j];
    for (int64_t p = colptr[j]; p < diag[j]; ++p) sum -= f[p] * x[rowind[p]];
    x[j] = sum / f[diag[j]];
  }
}

template <class T>
void lower_unit_transpose_solve(const Schedule& s, const T* f, T* x, bool conjugate) {
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  for (int32_t j = s.n - 1; j >= 0; --j) {
    T sum = x[j];
    for (int64_t p = diag[j] + 1; p < colptr[j + 1]; ++p) sum -= conj_if(conjugate, f[p]) * x[rowind[p]];
    x[j] = sum;
  }
}

template <class T>
void solve_with_factor(const Schedule& s, const T* f, const T* b, T* x, T* work) {
  solve_permuted(s, b, x, work, false, [&](T* z) {
    lower_unit_solve(s, f, z);
    upper_solve(s, f, z);
  });
}

template <class T>
void solve_transpose_with_factor(const Schedule& s, const T* f, const T* b, T* x, T* work) {
  solve_permuted(s, b, x, work, true, [&](T* w) {
    upper_transpose_solve(s, f, w);
    lower_unit_transpose_solve(s, f, w);
  });
}

template <class T>
void solve_symmetric_with_factor(const Schedule& s, const T* f, const T* b, T* x, T* work, bool hermitian) {
  const int32_t* p = s.row_perm.data();
  const double* sc = s.row_scale.data();
  for (int32_t k = 0; k < s.n; ++k) work[k] = sc[p[k]] * b[p[k]];
  lower_unit_solve(s, f, work);
  for (int32_t k = 0; k < s.n; ++k) work[k] /= f[s.f_diag[k]];
  lower_unit_transpose_solve(s, f, work, hermitian);
  for (int32_t k = 0; k < s.n; ++k) x[p[k]] = sc[p[k]] * work[k];
}

template void lower_unit_solve(const Schedule&, const double*, double*);
template void upper_solve(const Schedule&, const double*, double*);
template void upper_transpose_solve(const Schedule&, const double*, double*);
template void lower_unit_transpose_solve(const Schedule&, const double*, double*, bool);
template void solve_with_factor(const Schedule&, const double*, const double*, double*, double*);
template void solve_transpose_with_factor(const Schedule&, const double*, const double*, double*, double*);
template void solve_symmetric_with_factor(const Schedule&, const double*, const double*, double*, double*, bool);
template void lower_unit_solve(const Schedule&, const Complex*, Complex*);
template void upper_solve(const Schedule&, const Complex*, Complex*);
template void upper_transpose_solve(const Schedule&, const Complex*, Complex*);
template void lower_unit_transpose_solve(const Schedule&, const Complex*, Complex*, bool);
template void solve_with_factor(const Schedule&, const Complex*, const Complex*, Complex*, Complex*);
template void solve_transpose_with_factor(const Schedule&, const Complex*, const Complex*, Complex*, Complex*);
template void solve_symmetric_with_factor(const Schedule&, const Complex*, const Complex*, Complex*, Complex*, bool);

}  // namespace gpuglu::reference
