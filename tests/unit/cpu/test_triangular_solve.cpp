// The solve formulas of schedule.hpp (permutation + scaling around L U z = c), in both
// directions, checked by residuals against A itself, and iterative refinement.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "naive_schedule.hpp"
#include "cpu/level_numeric.hpp"
#include "cpu/refinement.hpp"
#include "cpu/row_ordered_solve.hpp"
#include "cpu/scatter.hpp"
#include "cpu/triangular_solve.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {
namespace {

// A random symmetric permutation q on top of a scrambled row order (undone by
// row_perm[k] = pi[q[k]]) and scalings over 2^-20..2^20: wrong indexing of any of them
// shows up as a large residual.
struct Scrambled {
  CsrMatrix<int32_t, double> a;
  NaiveTransform t;
};

Scrambled scrambled(const CsrMatrix<int32_t, double>& a0, uint64_t seed) {
  Rng rng(seed);
  const int32_t n = a0.nrows;
  const std::vector<int32_t> pi = random_permutation(n, rng);
  Scrambled r{scramble_rows(a0, pi), {}};
  r.t.col_perm = random_permutation(n, rng);
  for (int32_t k = 0; k < n; ++k) r.t.row_perm.push_back(pi[r.t.col_perm[k]]);
  for (int32_t i = 0; i < n; ++i) {
    r.t.row_scale.push_back(std::ldexp(1.0, rng.below(41) - 20));
    r.t.col_scale.push_back(std::ldexp(1.0, rng.below(41) - 20));
  }
  return r;
}

struct Factored {
  CsrMatrix<int32_t, double> a;
  Schedule s;
  std::vector<double> f;
};

Factored factored(int32_t n, uint64_t seed, double diag_boost = 1.5) {
  Scrambled sc = scrambled(random_matrix(n, 4, seed, diag_boost), seed + 100);
  Factored r{sc.a, naive_schedule(sc.a, sc.t), {}};
  r.f.resize(r.s.f_rowind.size());
  reference::scatter_values(r.s, r.a.values.data(), r.f.data());
  EXPECT_EQ(reference::factor_levels(r.s, r.f.data(), PivotRule(), 1).status, Status::ok);
  return r;
}

TEST(TriangularSolve, solve_with_permutation_and_scaling_has_tiny_residual) {
  for (uint64_t seed : {1, 2, 3}) {
    Factored m = factored(120, seed);
    const std::vector<double> b = rhs_for_known_solution(m.a, seed);
    std::vector<double> x(b.size()), work(b.size());
    reference::solve_with_factor(m.s, m.f.data(), b.data(), x.data(), work.data());
    EXPECT_LE(relative_residual(m.a.view(), x.data(), b.data()), 1e-14);
  }
}

TEST(TriangularSolve, transpose_solve_with_permutation_and_scaling_has_tiny_residual) {
  for (uint64_t seed : {4, 5, 6}) {
    Factored m = factored(120, seed);
    const CsrMatrix<int32_t, double> at = transpose(m.a.view());
    const std::vector<double> b = rhs_for_known_solution(at, seed);
    std::vector<double> x(b.size()), work(b.size());
    reference::solve_transpose_with_factor(m.s, m.f.data(), b.data(), x.data(), work.data());
    EXPECT_LE(relative_residual(at.view(), x.data(), b.data()), 1e-14);
  }
}

TEST(TriangularSolve, right_hand_side_and_solution_may_alias) {
  Factored m = factored(90, 7);
  const std::vector<double> b = rhs_for_known_solution(m.a, 7);
  std::vector<double> x(b.size()), work(b.size());
  reference::solve_with_factor(m.s, m.f.data(), b.data(), x.data(), work.data());
  std::vector<double> inplace = b;
  reference::solve_with_factor(m.s, m.f.data(), inplace.data(), inplace.data(), work.data());
  EXPECT_EQ(inplace, x);
  reference::solve_transpose_with_factor(m.s, m.f.data(), b.data(), x.data(), work.data());
  inplace = b;
  reference::solve_transpose_with_factor(m.s, m.f.data(), inplace.data(), inplace.data(), work.data());
  EXPECT_EQ(inplace, x);
}

// The CPU backend's row-ordered solve (cpu/row_ordered_solve.hpp) against the column
// reference: scrambled permutations and scalings, and the plain case it runs in place
// (ILU in PETSc's ordering), aliasing b and x in both.
TEST(TriangularSolve, row_ordered_solve_matches_the_column_reference) {
  auto check = [](const Factored& m, uint64_t seed) {
    const std::vector<double> b = rhs_for_known_solution(m.a, seed);
    std::vector<double> want(b.size()), got(b.size()), work(b.size());
    reference::solve_with_factor(m.s, m.f.data(), b.data(), want.data(), work.data());
    reference::RowOrderedFactor<double> rows(m.s);
    rows.gather(m.f.data());
    rows.solve(b.data(), got.data(), work.data());
    EXPECT_LE(relative_difference_inf(got, want), 1e-12);
    std::vector<double> inplace = b;
    rows.solve(inplace.data(), inplace.data(), work.data());
    EXPECT_EQ(inplace, got);
    EXPECT_LE(relative_residual(m.a.view(), got.data(), b.data()), 1e-14);
  };
  for (uint64_t seed : {11, 12}) check(factored(150, seed), seed);
  for (uint64_t seed : {13, 14}) {
    Factored m{random_matrix(150, 4, seed, 1.5), {}, {}};
    m.s = naive_schedule(m.a);
    m.f.resize(m.s.f_rowind.size());
    reference::scatter_values(m.s, m.a.values.data(), m.f.data());
    ASSERT_EQ(reference::factor_levels(m.s, m.f.data(), PivotRule(), 1).status, Status::ok);
    check(m, seed);
  }
}

TEST(TriangularSolve, backward_error_matches_its_definition) {
  // 2x2 by hand: A = [2 1; 0 4], x = [1 1], b = [3 5] -> r = [0 1], |A||x|+|b| = [6 9].
  std::vector<Triplet<int32_t, double>> t{{0, 0, 2.0}, {0, 1, 1.0}, {1, 1, 4.0}};
  const auto a = csr_from_triplets<int32_t, double>(2, 2, t);
  std::vector<int64_t> rowptr(a.rowptr.begin(), a.rowptr.end());
  const reference::CsrRef ref{2, rowptr.data(), a.colind.data(), a.values.data()};
  const double x[2] = {1.0, 1.0}, b[2] = {3.0, 5.0};
  double r[2], denom[2], row_max[2];
  int64_t row_len[2];
  EXPECT_DOUBLE_EQ(reference::residual_and_backward_error(ref, false, b, x, r, denom, row_max, row_len), 1.0 / 9.0);
  EXPECT_EQ(r[0], 0.0);
  EXPECT_EQ(r[1], 1.0);
  // A^T = [2 0; 1 4]: r = [3 - 2, 5 - 5] = [1 0], denominators [5 10].
  EXPECT_DOUBLE_EQ(reference::residual_and_backward_error(ref, true, b, x, r, denom, row_max, row_len), 1.0 / 5.0);
}

// A row whose |A||x| + |b| is rounding noise against ||A_i|| ||x|| (b_i = 0, x zero around it)
// has componentwise backward error 1, but counts against that scale in the normwise measure
// (Arioli-Demmel-Duff's omega2), which the automatic pivot policy falls back to when no pivot
// order meets the componentwise one.
TEST(TriangularSolve, rows_of_rounding_noise_count_against_the_scale_of_x) {
  // A = [1 0; 0 1], b = [1 0], x = [1 1e-20]: r = [0 -1e-20], |A||x| + |b| = [2 1e-20].
  std::vector<Triplet<int32_t, double>> t{{0, 0, 1.0}, {1, 1, 1.0}};
  const auto a = csr_from_triplets<int32_t, double>(2, 2, t);
  std::vector<int64_t> rowptr(a.rowptr.begin(), a.rowptr.end());
  reference::CsrRef ref{2, rowptr.data(), a.colind.data(), a.values.data()};
  const double x[2] = {1.0, 1e-20}, b[2] = {1.0, 0.0};
  double r[2], denom[2], row_max[2], normwise = -1.0;
  int64_t row_len[2];
  EXPECT_DOUBLE_EQ(reference::residual_and_backward_error(ref, false, b, x, r, denom, row_max, row_len, &normwise),
                   1.0);
  EXPECT_NEAR(normwise, 1e-20, 1e-35);  // omega2 = 1e-20 / (1e-20 + 1 * 1), omega1 = 0
  // In the equilibration's scale: column 2 scaled by 1e-20 makes x_2 = 1e-20 the size of x_1
  // (x / d = [1 1]): the row is not noise there, and counts componentwise again.
  const double row_scale[2] = {1.0, 1.0}, col_scale[2] = {1.0, 1e-20};
  ref.row_scale = row_scale;
  ref.col_scale = col_scale;
  reference::residual_and_backward_error(ref, false, b, x, r, denom, row_max, row_len, &normwise);
  EXPECT_DOUBLE_EQ(normwise, 1.0);
  ref.row_scale = ref.col_scale = nullptr;
  // An O(1) error in a component that is not noise is an O(1) backward error in both.
  const double wrong[2] = {1.0, 0.5};
  EXPECT_GT(reference::residual_and_backward_error(ref, false, b, wrong, r, denom, row_max, row_len, &normwise), 0.3);
  EXPECT_GT(normwise, 0.3);
  // A NaN is infinitely wrong.
  const double nan[2] = {1.0, std::nan("")};
  EXPECT_TRUE(std::isinf(reference::residual_and_backward_error(ref, false, b, nan, r, denom, row_max, row_len, &normwise)));
  EXPECT_TRUE(std::isinf(normwise));
}

// Refinement's stopping rule (core/numeric_types.hpp RefineTarget): with the normwise target
// accepted, a solve already within it takes no correction step, where the componentwise target
// alone pays a correction solve and a residual that cannot lower the error (a correction that
// keeps x's noise component, as ts ex5's rows of an absent species do).
TEST(TriangularSolve, refinement_stops_at_an_accepted_normwise_target) {
  std::vector<Triplet<int32_t, double>> t{{0, 0, 1.0}, {1, 1, 1.0}};
  const auto a = csr_from_triplets<int32_t, double>(2, 2, t);
  std::vector<int64_t> rowptr(a.rowptr.begin(), a.rowptr.end());
  const reference::CsrRef ref{2, rowptr.data(), a.colind.data(), a.values.data()};
  const double b[2] = {1.0, 0.0};
  int corrections = 0;
  // d = r + 1e-20 e_2: x_2 never reaches 0, so every step leaves the componentwise error at 1.
  const reference::CorrectionSolve noisy = [&](const double* r, double* d) {
    ++corrections;
    d[0] = r[0];
    d[1] = r[1] + 1e-20;
  };
  reference::RefineWork w;
  w.resize(2);
  double x[2] = {1.0, 1e-20};
  reference::RefineOutcome out = reference::refine_with(noisy, ref, false, b, x, 3, RefineTarget(1e-15), w);
  EXPECT_EQ(corrections, 1);  // one step tried and discarded: it did not lower the error
  EXPECT_EQ(out.steps, 0);
  EXPECT_DOUBLE_EQ(out.backward_error, 1.0);
  EXPECT_NEAR(out.normwise_error, 1e-20, 1e-35);
  corrections = 0;
  out = reference::refine_with(noisy, ref, false, b, x, 3, RefineTarget(1e-15, 1e-12), w);
  EXPECT_EQ(corrections, 0);
  EXPECT_DOUBLE_EQ(out.backward_error, 1.0);
  EXPECT_NEAR(out.normwise_error, 1e-20, 1e-35);
  // A solve that misses the normwise target too is still refined.
  double wrong[2] = {1.0, 0.5};
  reference::refine_with(noisy, ref, false, b, wrong, 3, RefineTarget(1e-15, 1e-12), w);
  EXPECT_EQ(corrections, 1);
}

// Blocks [1 1 0; 1 1 1; 0 1 1] on the diagonal (nonsingular, but the second pivot of each
// is exactly 0 under static pivoting) and random coupling from each block's last row to
// later columns only: the zero pivots stay exactly zero (every block needs a perturbed
// pivot), and the 1/perturbation multipliers of a block never reach another block's
// columns, whose maxima scale the perturbations.
CsrMatrix<int32_t, double> zero_pivot_blocks(int32_t blocks, uint64_t seed) {
  Rng rng(seed);
  const int32_t n = 3 * blocks;
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t b = 0; b < blocks; ++b) {
    const int32_t o = 3 * b;
    for (auto [i, j] : {std::pair{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}}) t.push_back({o + i, o + j, 1.0});
    for (int e = 0; e < 3 && o + 3 < n; ++e) t.push_back({o + 2, o + 3 + rng.below(n - o - 3), 0.5 * rng.symmetric()});
  }
  return csr_from_triplets<int32_t, double>(n, n, t);
}

TEST(TriangularSolve, refinement_restores_accuracy_of_a_perturbed_factor) {
  const auto a = zero_pivot_blocks(40, 8);
  const Schedule s = naive_schedule(a);
  std::vector<double> f(s.f_rowind.size());
  reference::scatter_values(s, a.values.data(), f.data());
  PivotRule rule;
  rule.policy = PivotPolicy::perturb;
  const NumericStats st = reference::factor_levels(s, f.data(), rule, 1);
  ASSERT_EQ(st.status, Status::ok);
  ASSERT_EQ(st.perturbed_pivots, 40);

  std::vector<int64_t> rowptr(a.rowptr.begin(), a.rowptr.end());
  const reference::CsrRef ref{a.nrows, rowptr.data(), a.colind.data(), a.values.data()};
  for (bool transpose : {false, true}) {
    const std::vector<double> b = rhs_for_known_solution(a, 9);
    std::vector<double> x(b.size()), work(b.size());
    if (transpose)
      reference::solve_transpose_with_factor(s, f.data(), b.data(), x.data(), work.data());
    else
      reference::solve_with_factor(s, f.data(), b.data(), x.data(), work.data());
    std::vector<double> r(b.size()), denom(b.size()), row_max(b.size());
    std::vector<int64_t> row_len(b.size());
    const double before = reference::residual_and_backward_error(ref, transpose, b.data(), x.data(), r.data(), denom.data(),
                                                                 row_max.data(), row_len.data());
    EXPECT_GT(before, 1e-12) << "the perturbation should cost accuracy before refinement";
    reference::RefineWork w;
    w.resize(a.nrows);
    const reference::RefineOutcome out = reference::refine(s, f.data(), ref, transpose, b.data(), x.data(), 10, 1e-15, w);
    EXPECT_GT(out.steps, 0);
    EXPECT_LE(out.backward_error, 1e-15);
    const double after = reference::residual_and_backward_error(ref, transpose, b.data(), x.data(), r.data(), denom.data(),
                                                                row_max.data(), row_len.data());
    EXPECT_EQ(after, out.backward_error);
  }
}

}  // namespace
}  // namespace gpuglu::test
