#include "reference/refinement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "reference/triangular_solve.hpp"

namespace gpuglu::reference {

namespace {

template <class T>
double ratio_max(int32_t n, const T* r, const double* denom) {
  double worst = 0.0;
  for (int32_t i = 0; i < n; ++i) {
    const double num = magnitude(r[i]);
    if (num == 0.0) continue;
    // A NaN residual must never look like convergence: it counts as infinitely wrong.
    const double e = denom[i] > 0.0 ? num / denom[i] : std::numeric_limits<double>::infinity();
    if (!(e <= worst)) worst = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
  }
  return worst;
}

}  // namespace

template <class T>
void BasicRefineWork<T>::resize(int32_t n) {
  const size_t m = static_cast<size_t>(n);
  for (std::vector<T>* v : {&rhs, &r, &r_next, &d, &x_next, &solve}) v->resize(m);
  denom.resize(m);
}

template <class T>
double residual_and_backward_error(const BasicCsrRef<T>& a, bool transpose, const T* b, const T* x, T* r,
                                   double* denom) {
  const int32_t n = a.n;
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
        const T t = a.values[p] * xi;
        r[a.colind[p]] -= t;
        denom[a.colind[p]] += magnitude(t);
      }
    }
  }
  return ratio_max(n, r, denom);
}

template <class T>
RefineOutcome refine(const Schedule& s, const T* f, const BasicCsrRef<T>& a, bool transpose, const T* b, T* x,
                     int32_t max_steps, double tolerance, BasicRefineWork<T>& w) {
  return refine_with<T>(
      [&](const T* r, T* d) {
        if (transpose)
          solve_transpose_with_factor(s, f, r, d, w.solve.data());
        else
          solve_with_factor(s, f, r, d, w.solve.data());
      },
      a, transpose, b, x, max_steps, tolerance, w);
}

template <class T>
RefineOutcome refine_with(const BasicCorrectionSolve<T>& correct, const BasicCsrRef<T>& a, bool transpose, const T* b,
                          T* x, int32_t max_steps, double tolerance, BasicRefineWork<T>& w) {
  const int32_t n = a.n;
  RefineOutcome out;
  double berr = residual_and_backward_error(a, transpose, b, x, w.r.data(), w.denom.data());
  for (int32_t step = 0; step < max_steps && berr > tolerance; ++step) {
    correct(w.r.data(), w.d.data());
    for (int32_t i = 0; i < n; ++i) w.x_next[i] = x[i] + w.d[i];
    const double next = residual_and_backward_error(a, transpose, b, w.x_next.data(), w.r_next.data(), w.denom.data());
    if (!(next < berr)) break;
    std::copy(w.x_next.begin(), w.x_next.end(), x);
    std::swap(w.r, w.r_next);
    berr = next;
    ++out.steps;
  }
  out.backward_error = berr;
  return out;
}

template struct BasicRefineWork<double>;
template double residual_and_backward_error(const BasicCsrRef<double>&, bool, const double*, const double*, double*, double*);
template RefineOutcome refine(const Schedule&, const double*, const BasicCsrRef<double>&, bool, const double*, double*, int32_t,
                              double, BasicRefineWork<double>&);
template RefineOutcome refine_with(const BasicCorrectionSolve<double>&, const BasicCsrRef<double>&, bool, const double*, double*,
                                   int32_t, double, BasicRefineWork<double>&);
template struct BasicRefineWork<Complex>;
template double residual_and_backward_error(const BasicCsrRef<Complex>&, bool, const Complex*, const Complex*, Complex*, double*);
template RefineOutcome refine(const Schedule&, const Complex*, const BasicCsrRef<Complex>&, bool, const Complex*, Complex*, int32_t,
                              double, BasicRefineWork<Complex>&);
template RefineOutcome refine_with(const BasicCorrectionSolve<Complex>&, const BasicCsrRef<Complex>&, bool, const Complex*, Complex*,
                                   int32_t, double, BasicRefineWork<Complex>&);

}  // namespace gpuglu::reference
