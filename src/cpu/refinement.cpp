#include "cpu/refinement.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/backward_error.hpp"
#include "cpu/triangular_solve.hpp"

namespace gpuglu::reference {

template <class T>
void BasicRefineWork<T>::resize(int32_t n) {
  const size_t m = static_cast<size_t>(n);
  for (std::vector<T>* v : {&rhs, &r, &r_next, &d, &x_next, &solve}) v->resize(m);
  denom.resize(m);
  row_max.resize(m);
  row_len.resize(m);
  bounds_current = false;
}

namespace {

// big_i and len_i of the backward error's noise test (core/backward_error.hpp): A's values and
// scaling only, whatever x and b are.
template <class T>
void row_bounds(const BasicCsrRef<T>& a, bool transpose, double* row_max, int64_t* row_len) {
  const int32_t n = a.n;
  const double* d = transpose ? a.row_scale : a.col_scale;  // op(A)'s column scaling
  auto dj = [d](int32_t j) { return d ? d[j] : 1.0; };
  if (!transpose) {
    for (int32_t i = 0; i < n; ++i) {
      double big = 0.0;
      for (int64_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
        big = std::max(big, magnitude(a.values[p]) * dj(a.colind[p]));
      row_max[i] = big;
      row_len[i] = a.rowptr[i + 1] - a.rowptr[i];
    }
    return;
  }
  for (int32_t i = 0; i < n; ++i) {
    row_max[i] = 0.0;
    row_len[i] = 0;
  }
  for (int32_t i = 0; i < n; ++i) {
    for (int64_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const int32_t c = a.colind[p];
      row_max[c] = std::max(row_max[c], magnitude(a.values[p]) * dj(i));
      ++row_len[c];
    }
  }
}

// r and the two backward errors, with row_max and row_len from row_bounds.
template <class T>
double residual_with_bounds(const BasicCsrRef<T>& a, bool transpose, const T* b, const T* x, T* r, double* denom,
                            const double* row_max, const int64_t* row_len, double* normwise) {
  const int32_t n = a.n;
  const double* d = transpose ? a.row_scale : a.col_scale;  // op(A)'s column scaling
  auto dj = [d](int32_t j) { return d ? d[j] : 1.0; };
  double x_norm = 0.0;
  for (int32_t i = 0; i < n; ++i) x_norm = std::max(x_norm, magnitude(x[i]) / dj(i));
  if (!transpose) {
    for (int32_t i = 0; i < n; ++i) {
      T sum = b[i];
      double mag = magnitude(b[i]);
      for (int64_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        const T t = a.values[p] * x[a.colind[p]];
        sum -= t;
        mag += magnitude(t);
      }
      r[i] = sum;
      denom[i] = mag;
    }
  } else {
    for (int32_t i = 0; i < n; ++i) {
      r[i] = b[i];
      denom[i] = magnitude(b[i]);
    }
    for (int32_t i = 0; i < n; ++i) {
      const T xi = x[i];
      for (int64_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        const int32_t c = a.colind[p];
        const T t = a.values[p] * xi;
        r[c] -= t;
        denom[c] += magnitude(t);
      }
    }
  }
  double omega1 = 0.0, omega2 = 0.0, componentwise = 0.0;
  for (int32_t i = 0; i < n; ++i) {
    const RowError e = row_backward_error(magnitude(r[i]), denom[i], row_max[i], magnitude(b[i]), row_len[i], x_norm);
    double& omega = e.noise ? omega2 : omega1;
    omega = std::max(omega, e.value);
    componentwise = std::max(componentwise, e.componentwise);
  }
  if (normwise) *normwise = omega1 + omega2;
  return componentwise;
}

}  // namespace

template <class T>
double residual_and_backward_error(const BasicCsrRef<T>& a, bool transpose, const T* b, const T* x, T* r,
                                   double* denom, double* row_max, int64_t* row_len, double* normwise) {
  row_bounds(a, transpose, row_max, row_len);
  return residual_with_bounds(a, transpose, b, x, r, denom, row_max, row_len, normwise);
}

template <class T>
RefineOutcome refine(const Schedule& s, const T* f, const BasicCsrRef<T>& a, bool transpose, const T* b, T* x,
                     int32_t max_steps, const RefineTarget& target, BasicRefineWork<T>& w) {
  return refine_with<T>(
      [&](const T* r, T* d) {
        if (transpose)
          solve_transpose_with_factor(s, f, r, d, w.solve.data());
        else
          solve_with_factor(s, f, r, d, w.solve.data());
      },
      a, transpose, b, x, max_steps, target, w);
}

template <class T>
RefineOutcome refine_with(const BasicCorrectionSolve<T>& correct, const BasicCsrRef<T>& a, bool transpose, const T* b,
                          T* x, int32_t max_steps, const RefineTarget& target, BasicRefineWork<T>& w) {
  const int32_t n = a.n;
  RefineOutcome out;
  if (!w.keep_row_bounds || !w.bounds_current || w.bounds_transpose != transpose) {
    row_bounds(a, transpose, w.row_max.data(), w.row_len.data());
    w.bounds_current = true;
    w.bounds_transpose = transpose;
  }
  double normwise = 0.0;
  double berr = residual_with_bounds(a, transpose, b, x, w.r.data(), w.denom.data(), w.row_max.data(),
                                     w.row_len.data(), &normwise);
  for (int32_t step = 0; step < max_steps && !target.met(berr, normwise); ++step) {
    correct(w.r.data(), w.d.data());
    for (int32_t i = 0; i < n; ++i) w.x_next[i] = x[i] + w.d[i];
    double next_normwise = 0.0;
    const double next = residual_with_bounds(a, transpose, b, w.x_next.data(), w.r_next.data(), w.denom.data(),
                                             w.row_max.data(), w.row_len.data(), &next_normwise);
    if (!(next < berr)) break;
    normwise = next_normwise;
    std::copy(w.x_next.begin(), w.x_next.end(), x);
    std::swap(w.r, w.r_next);
    berr = next;
    ++out.steps;
  }
  out.backward_error = berr;
  out.normwise_error = normwise;
  return out;
}

template struct BasicRefineWork<double>;
template double residual_and_backward_error(const BasicCsrRef<double>&, bool, const double*, const double*, double*, double*,
                                            double*, int64_t*, double*);
template RefineOutcome refine(const Schedule&, const double*, const BasicCsrRef<double>&, bool, const double*, double*, int32_t,
                              const RefineTarget&, BasicRefineWork<double>&);
template RefineOutcome refine_with(const BasicCorrectionSolve<double>&, const BasicCsrRef<double>&, bool, const double*, double*,
                                   int32_t, const RefineTarget&, BasicRefineWork<double>&);
template struct BasicRefineWork<Complex>;
template double residual_and_backward_error(const BasicCsrRef<Complex>&, bool, const Complex*, const Complex*, Complex*,
                                            double*, double*, int64_t*, double*);
template RefineOutcome refine(const Schedule&, const Complex*, const BasicCsrRef<Complex>&, bool, const Complex*, Complex*, int32_t,
                              const RefineTarget&, BasicRefineWork<Complex>&);
template RefineOutcome refine_with(const BasicCorrectionSolve<Complex>&, const BasicCsrRef<Complex>&, bool, const Complex*, Complex*,
                                   int32_t, const RefineTarget&, BasicRefineWork<Complex>&);

}  // namespace gpuglu::reference
