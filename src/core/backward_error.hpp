#pragma once
// The two backward errors of a solve (core of refinement and of the auto pivot policy's
// acceptance test). Row i of op(A) x = b, with r = b - op(A) x, den_i = (|op(A)| |x| + |b|)_i:
// - componentwise (Oettli-Prager): max_i |r_i| / den_i. The target: refinement runs while it
//   is above the tolerance, and the auto policy recovers (new pivots) while it stays there.
// - Arioli, Demmel & Duff's two-part measure (1989; MUMPS reports the same pair), taken in
//   the solver's own equilibration: with d the column scaling of op(A) the factorization used
//   (MC64's; 1 without), big_i = max_j |op(A)_ij| d_j and xs = max_j |x_j| / d_j,
//     rows whose den_i is above rounding level count componentwise, |r_i| / den_i   (omega1),
//     rows where it is not - den_i <= 1000 eps len_i (big_i xs + |b_i|) - count
//       |r_i| / (den_i + big_i xs)                                                   (omega2),
//   and the error is max omega1 + max omega2. The last resort: when no pivot order reaches
//   the componentwise target (PETSc's ts ex5: one species absent from most of the domain, the
//   Newton update there is rounding noise against its scale, and KLU's partial pivoting misses
//   the componentwise test as badly as static pivots), a solution within the tolerance by this
//   measure is accepted rather than failed (api/sparse_lu.cpp).
// Both denominators carry gradual underflow's absolute error: with it, an operation's error is
// eps |result| + eta (eta = 2^-1075, Demmel 1984), which relative to eps is len_i DBL_MIN / 2
// per row, so den_i counts as den_i + len_i DBL_MIN. It changes nothing for rows of normal
// size; for rows whose terms are all subnormal (ts ex5's absent species: b_i = 0 and
// |A||x| ~ 1e-320, where no arithmetic keeps a relative digit) it measures what the arithmetic
// can deliver instead of failing every pivot order.
// A NaN residual never looks like convergence: it counts as infinitely wrong in both.
#include <cstdint>

#include "core/host_device.hpp"

namespace gpuglu {

struct RowError {
  double componentwise = 0.0;  // |r_i| / (den_i + len_i DBL_MIN) (infinity for a NaN residual)
  double value = 0.0;          // this row's omega1 or omega2 term
  bool noise = false;          // true: an omega2 row
};

// r_abs = |r_i|, den = (|op(A)| |x| + |b|)_i, row_max = big_i, b_abs = |b_i|, len = the row's
// entries, x_norm = xs.
GPUGLU_HOST_DEVICE inline RowError row_backward_error(double r_abs, double den, double row_max, double b_abs,
                                                      int64_t len, double x_norm) {
  constexpr double kRoundingLevel = 1000.0 * 2.220446049250313e-16;
  constexpr double kMinNormal = 2.2250738585072014e-308;  // DBL_MIN
  const double kInf = __builtin_huge_val();
  RowError e;
  if (r_abs == 0.0) return e;
  if (!(r_abs == r_abs)) {  // NaN
    e.componentwise = e.value = kInf;
    return e;
  }
  const double terms = static_cast<double>(len > 0 ? len : 1);
  const double den_u = den + terms * kMinNormal;  // gradual underflow's share
  e.componentwise = r_abs / den_u;
  const double scale = row_max * x_norm;
  e.noise = den <= kRoundingLevel * terms * (scale + b_abs);
  const double d = e.noise ? den_u + scale : den_u;
  e.value = d > 0.0 ? r_abs / d : kInf;
  if (!(e.value == e.value)) e.value = kInf;
  if (!(e.componentwise == e.componentwise)) e.componentwise = kInf;
  return e;
}

// Both measures of one residual.
struct BackwardErrors {
  double componentwise = 0.0;
  double normwise = 0.0;  // Arioli-Demmel-Duff's omega1 + omega2
};

}  // namespace gpuglu
