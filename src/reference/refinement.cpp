#include "reference/refinement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "reference/triangular_solve.hpp"

namespace gpuglu::reference {

namespace {

double ratio_max(int32_t n, const double* r, const double* denom) {
  double worst = 0.0;
  for (int32_t i = 0; i < n; ++i) {
    const double num = std::fabs(r[i]);
    if (num == 0.0) continue;
    // A NaN residual must never look like convergence: it counts as infinitely wrong.
    const double e = denom[i] > 0.0 ? num / denom[i] : std::numeric_limits<double>::infinity();
    if (!(e <= worst)) worst = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
  }
  return worst;
}

}  // namespace

void RefineWork::resize(int32_t n) {
  const size_t m = static_cast<size_t>(n);
  for (std::vector<double>* v : {&rhs, &r, &r_next, &d, &x_next, &denom, &solve}) v->resize(m);
}

double residual_and_backward_error(const CsrRef& a, bool transpose, const double* b, const double* x, double* r,
                                   double* denom) {
  const int32_t n = a.n;
  if (!transpose) {
    for (int32_t i = 0; i < n; ++i) {
      double sum = b[i];
      double mag = std::fabs(b[i]);
      for (int64_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        const double t = a.values[p] * x[a.colind[p]];
        sum -= t;
        mag += std::fabs(t);
      }
      r[i] = sum;
      denom[i] = mag;
    }
  } else {
    for (int32_t i = 0; i < n; ++i) {
      r[i] = b[i];
      denom[i] = std::fabs(b[i]);
    }
    for (int32_t i = 0; i < n; ++i) {
      const double xi = x[i];
      for (int64_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        const double t = a.values[p] * xi;
        r[a.colind[p]] -= t;
        denom[a.colind[p]] += std::fabs(t);
      }
    }
  }
  return ratio_max(n, r, denom);
}

RefineOutcome refine(const Schedule& s, const double* f, const CsrRef& a, bool transpose, const double* b, double* x,
                     int32_t max_steps, double tolerance, RefineWork& w) {
  return refine_with(
      [&](const double* r, double* d) {
        if (transpose)
          solve_transpose_with_factor(s, f, r, d, w.solve.data());
        else
          solve_with_factor(s, f, r, d, w.solve.data());
      },
      a, transpose, b, x, max_steps, tolerance, w);
}

RefineOutcome refine_with(const CorrectionSolve& correct, const CsrRef& a, bool transpose, const double* b, double* x,
                          int32_t max_steps, double tolerance, RefineWork& w) {
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

}  // namespace gpuglu::reference
