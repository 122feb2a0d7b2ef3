#include "reference/refinement.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/backward_error.hpp"
#include "reference/triangular_solve.hpp"

namespace gpuglu::reference {

void RefineWork::resize(int32_t n) {
  const size_t m = static_cast<size_t>(n);
  for (std::vector<double>* v : {&rhs, &r, &r_next, &d, &x_next, &denom, &row_max, &solve}) v->resize(m);
  row_len.resize(m);
}

double residual_and_backward_error(const CsrRef& a, bool transpose, const double* b, const double* x, double* r,
                                   double* denom, double* row_max, int64_t* row_len, double* normwise) {
  const int32_t n = a.n;
  const double* d = transpose ? a.row_scale : a.col_scale;  // op(A)'s column scaling
  auto dj = [d](int32_t j) { return d ? d[j] : 1.0; };
  double x_norm = 0.0;
  for (int32_t i = 0; i < n; ++i) x_norm = std::max(x_norm, std::fabs(x[i]) / dj(i));
  if (!transpose) {
    for (int32_t i = 0; i < n; ++i) {
      double sum = b[i];
      double mag = std::fabs(b[i]);
      double big = 0.0;
      for (int64_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        const double t = a.values[p] * x[a.colind[p]];
        sum -= t;
        mag += std::fabs(t);
        big = std::max(big, std::fabs(a.values[p]) * dj(a.colind[p]));
      }
      r[i] = sum;
      denom[i] = mag;
      row_max[i] = big;
      row_len[i] = a.rowptr[i + 1] - a.rowptr[i];
    }
  } else {
    for (int32_t i = 0; i < n; ++i) {
      r[i] = b[i];
      denom[i] = std::fabs(b[i]);
      row_max[i] = 0.0;
      row_len[i] = 0;
    }
    for (int32_t i = 0; i < n; ++i) {
      const double xi = x[i];
      for (int64_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        const int32_t c = a.colind[p];
        const double t = a.values[p] * xi;
        r[c] -= t;
        denom[c] += std::fabs(t);
        row_max[c] = std::max(row_max[c], std::fabs(a.values[p]) * dj(i));
        ++row_len[c];
      }
    }
  }
  double omega1 = 0.0, omega2 = 0.0, componentwise = 0.0;
  for (int32_t i = 0; i < n; ++i) {
    const RowError e = row_backward_error(std::fabs(r[i]), denom[i], row_max[i], std::fabs(b[i]), row_len[i], x_norm);
    double& omega = e.noise ? omega2 : omega1;
    omega = std::max(omega, e.value);
    componentwise = std::max(componentwise, e.componentwise);
  }
  if (normwise) *normwise = omega1 + omega2;
  return componentwise;
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
  double normwise = 0.0;
  double berr = residual_and_backward_error(a, transpose, b, x, w.r.data(), w.denom.data(), w.row_max.data(),
                                            w.row_len.data(), &normwise);
  for (int32_t step = 0; step < max_steps && berr > tolerance; ++step) {
    correct(w.r.data(), w.d.data());
    for (int32_t i = 0; i < n; ++i) w.x_next[i] = x[i] + w.d[i];
    double next_normwise = 0.0;
    const double next = residual_and_backward_error(a, transpose, b, w.x_next.data(), w.r_next.data(), w.denom.data(),
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

}  // namespace gpuglu::reference
