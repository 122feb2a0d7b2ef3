#pragma once
// Shared checks of the SparseLU accuracy tests (generated matrices) and the extended
// tests (SuiteSparse files): one definition of "matches KLU" and its tolerances.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {

struct NamedMatrix {
  std::string name;
  CsrMatrix<int32_t, double> a;
};

// The generated matrices of the unit tests (defined in sparse_lu_checks.cpp).
const std::vector<NamedMatrix>& accuracy_matrices();

inline bool has_nonzero_diagonal(const CsrMatrix<int32_t, double>& a) {
  for (int32_t i = 0; i < a.nrows; ++i) {
    bool found = false;
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) found |= a.colind[p] == i && a.values[p] != 0.0;
    if (!found) return false;
  }
  return true;
}

// Tolerances, from the standard bounds of a backward-stable solve (Higham, ch. 7):
//  - relative residual ||b - A x|| / ||b|| <= 1e-12 where the matrix is well conditioned
//    (KLU's condest <= 1e8: the bound c eps cond stays below it for c ~ 10^-4 / eps / 1e8 = 40);
//  - componentwise backward error <= 1e-13 always (it does not depend on the conditioning);
//  - solutions agree with KLU's to max(1e-9, 1e-14 * condest): both are backward stable, so
//    they differ by about cond * (berr_ours + berr_klu) <= cond * 1e-14.
constexpr double kWellConditioned = 1e8;
inline double solution_tolerance(double cond) { return std::max(1e-9, 1e-14 * cond); }

// Values of a Newton-like step: every stored value scaled by a factor in [0.9, 1.1].
inline CsrMatrix<int32_t, double> newton_step_values(const CsrMatrix<int32_t, double>& a, int step) {
  CsrMatrix<int32_t, double> b = a;
  for (size_t p = 0; p < b.values.size(); ++p) b.values[p] *= 1.0 + 0.1 * std::sin(0.7 * static_cast<double>(p) + step);
  return b;
}

// Factor and solve (plain and transposed) with the given options and compare with KLU.
inline void expect_matches_klu(const CsrMatrix<int32_t, double>& a, const Options& o, Klu& klu, double cond) {
  SparseLU lu(o);
  lu.analyze(a.view());
  const FactorStats& st = lu.factor(a.view());
  ASSERT_EQ(st.status, Status::ok) << "pivot column " << st.pivot_column_original << " value " << st.pivot_value;
  const CsrMatrix<int32_t, double> at = transpose(a.view());
  for (bool transposed : {false, true}) {
    SCOPED_TRACE(transposed ? "transposed" : "plain");
    const CsrMatrix<int32_t, double>& op = transposed ? at : a;
    const std::vector<double> b = rhs_for_known_solution(op, 5);
    std::vector<double> x(b.size());
    const SolveStats& ss = transposed ? lu.solve_transpose(b.data(), x.data()) : lu.solve(b.data(), x.data());
    if (st.perturbed_pivots > 0 && ss.inaccurate) {
      // Perturbed zero pivots: refinement may not converge, but then the solve must say so.
      EXPECT_GT(backward_error(op.view(), x.data(), b.data()), lu.options().backward_error_tolerance);
      continue;
    }
    EXPECT_LE(backward_error(op.view(), x.data(), b.data()), 1e-13);
    if (cond <= kWellConditioned) EXPECT_LE(relative_residual(op.view(), x.data(), b.data()), 1e-12);
    EXPECT_LE(rel_diff_inf(x, klu.solve(b, transposed)), solution_tolerance(cond));
  }
}

}  // namespace gpuglu::test
