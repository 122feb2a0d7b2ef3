// SparseLU on badly scaled matrices (rows and columns multiplied by powers of ten up to
// 10^+-300): MC64's scaling must undo the scaling, never give it up, so the static pivots
// stay good and the solve is as backward stable as KLU's partial pivoting on the same matrix.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {
namespace {

// A well-conditioned random matrix with its rows scrambled: the matching must find the
// strong entries under the scaling, not just keep the diagonal.
CsrMatrix<int32_t, double> base_matrix(uint64_t seed) {
  Rng rng(seed + 101);
  return scramble_rows(random_matrix(300, 4, seed, 1.5), random_permutation(300, rng));
}

// b = A x for x_j = 10^-col_exp[j] * [1, 2), the solution that A's column scaling calls for.
// (With x in [1, 2), rounding would swallow the small columns' share of b and the exact
// solution of the rounded system would overflow.)
std::vector<double> rhs_for_scaled_solution(const CsrMatrix<int32_t, double>& a, const std::vector<int32_t>& col_exp) {
  Rng rng(7);
  std::vector<double> x(static_cast<size_t>(a.ncols)), b(static_cast<size_t>(a.nrows));
  for (int32_t j = 0; j < a.ncols; ++j) x[j] = (1.0 + rng.uniform()) * std::pow(10.0, -col_exp[j]);
  spmv(a.view(), x.data(), b.data());
  return b;
}

// KLU's solution after one step of iterative refinement, as our solve refines: without it
// KLU's componentwise backward error on these random matrices is about 1e-10, scaled or not.
std::vector<double> refined_klu_solve(Klu& klu, const CsrMatrix<int32_t, double>& op, const std::vector<double>& b,
                                      bool transposed) {
  std::vector<double> x = klu.solve(b, transposed), r(b.size());
  spmv(op.view(), x.data(), r.data());
  for (size_t i = 0; i < r.size(); ++i) r[i] = b[i] - r[i];
  const std::vector<double> d = klu.solve(r, transposed);
  for (size_t i = 0; i < x.size(); ++i) x[i] += d[i];
  return x;
}

// A = 10^row_exp base 10^col_exp; A x = b and A^T x = b are solved on the CPU backend to a
// componentwise backward error of 1e-12, and so by (refined) KLU where klu_solves_it says it
// is a fair test. PivotPolicy::report: the static pivots of MC64's order must do it, with no
// fallback to a re-pivoted order.
void expect_solves_as_well_as_klu(const CsrMatrix<int32_t, double>& base, const std::vector<int32_t>& row_exp,
                                  const std::vector<int32_t>& col_exp, bool klu_solves_it) {
  const CsrMatrix<int32_t, double> a = scaled_by_powers_of_ten(base, row_exp, col_exp);
  Options o;
  o.backend = Backend::cpu;
  o.pivot_policy = PivotPolicy::report;
  SparseLU lu(o);
  lu.analyze(a.view());
  EXPECT_TRUE(lu.schedule().scaled);
  EXPECT_EQ(lu.schedule().scales_clamped, 0);
  const FactorStats& st = lu.factor(a.view());
  ASSERT_EQ(st.status, Status::ok) << "pivot column " << st.pivot_column_original << " value " << st.pivot_value;
  Klu klu(a);
  const CsrMatrix<int32_t, double> at = transpose(a.view());
  for (bool transposed : {false, true}) {
    SCOPED_TRACE(transposed ? "transposed" : "plain");
    const CsrMatrix<int32_t, double>& op = transposed ? at : a;
    const std::vector<double> b = rhs_for_scaled_solution(op, transposed ? row_exp : col_exp);
    std::vector<double> x(b.size());
    const SolveStats& ss = transposed ? lu.solve_transpose(b.data(), x.data()) : lu.solve(b.data(), x.data());
    EXPECT_FALSE(ss.inaccurate);
    const std::vector<double> xk = refined_klu_solve(klu, op, b, transposed);
    const double berr_klu = backward_error(op.view(), xk.data(), b.data());
    if (klu_solves_it) EXPECT_LE(berr_klu, 1e-12);
    EXPECT_LE(backward_error(op.view(), x.data(), b.data()), 1e-12) << "KLU's: " << berr_klu;
    EXPECT_LE(relative_residual(op.view(), x.data(), b.data()), 1e-12)
        << "KLU's: " << relative_residual(op.view(), xk.data(), b.data());
  }
}

TEST(SparseLUScaling, rows_scaled_by_ten_to_the_plus_minus_k_solve_as_well_as_klu) {
  for (int32_t k : {40, 100, 180, 300}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    Rng rng(static_cast<uint64_t>(k));
    std::vector<int32_t> row_exp(300), col_exp(300, 0);
    for (int32_t& e : row_exp) e = rng.uniform() < 0.5 ? -k : k;
    expect_solves_as_well_as_klu(base_matrix(1), row_exp, col_exp, /*klu_solves_it=*/true);
  }
}

TEST(SparseLUScaling, random_row_scales_up_to_1e180_solve_as_well_as_klu) {
  for (uint64_t seed = 2; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    expect_solves_as_well_as_klu(base_matrix(seed), random_exponents(300, -180, 180, rng), std::vector<int32_t>(300, 0),
                                 /*klu_solves_it=*/true);
  }
}

// Rows and columns scaled in opposite directions: entries from 1e-300 to 1e300, and scales
// that must reach 1e+-300, near the ends of the double range. KLU, whose scaling is by rows
// only, fails on these (backward error 1 or Inf, refined or not): not a peer here.
TEST(SparseLUScaling, row_and_column_scales_up_to_1e300_solve_as_well_as_klu) {
  for (uint64_t seed = 5; seed <= 6; ++seed) {
    for (bool rows_small : {true, false}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + (rows_small ? " rows small" : " rows large"));
      Rng rng(seed);
      std::vector<int32_t> row_exp = random_exponents(300, 0, 300, rng);
      std::vector<int32_t> col_exp = random_exponents(300, -300, 0, rng);
      if (rows_small) row_exp.swap(col_exp);
      expect_solves_as_well_as_klu(base_matrix(seed), row_exp, col_exp, /*klu_solves_it=*/false);
    }
  }
}

}  // namespace
}  // namespace gpuglu::test
