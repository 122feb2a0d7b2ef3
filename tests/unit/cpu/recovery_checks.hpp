#pragma once
// PivotPolicy::automatic end to end: the scenarios a static pivot order can fail in, and
// what the default policy must make of each (tests/unit/cpu/test_sparse_lu_recovery.cpp
// on the CPU, tests/gpu/test_sparse_lu_cuda_recovery.cpp with backend cuda). Each takes the
// options to start from, so the backend is the caller's choice.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "reference_test_support.hpp"
#include "repivot_checks.hpp"

namespace gpuglu::test {

// Blocks [delta 1; 1 1] coupled weakly, in the natural order without matching: the static
// pivot delta passes the threshold test for delta >= 1e-13, the factor's growth is 1/delta,
// and one refinement step repairs the solve (the error sits in one entry per block).
inline CsrMatrix<int32_t, double> small_pivot_blocks(int32_t blocks, double delta) {
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t b = 0; b < blocks; ++b) {
    const int32_t o = 2 * b;
    t.push_back({o, o, delta});
    t.push_back({o, o + 1, 1.0});
    t.push_back({o + 1, o, 1.0});
    t.push_back({o + 1, o + 1, 1.0});
    if (b + 1 < blocks) t.push_back({o + 1, o + 2, 0.125});
  }
  return csr_from_triplets<int32_t, double>(2 * blocks, 2 * blocks, t);
}

// Random n x n with diagonal entries of magnitude 10^-12 .. 1 and three O(1) entries per row:
// in the natural order without matching the static pivots pass the threshold test but grow
// without bound, while partial pivoting stays stable. This seed gives n = 7, growth 1.7e17
// and a backward error of 2e-2 after refinement, where KLU's is 3e-16 (found by a search over
// seeds; any seed with the same behaviour would do).
inline CsrMatrix<int32_t, double> unstable_static_matrix(uint64_t seed = 399) {
  Rng rng(seed);
  const int32_t n = 4 + rng.below(12);
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t i = 0; i < n; ++i) {
    t.push_back({i, i, std::pow(10.0, -12.0 * rng.uniform()) * (rng.uniform() < 0.5 ? -1.0 : 1.0)});
    for (int e = 0; e < 3; ++e) {
      const int32_t j = rng.below(n);
      if (j != i) t.push_back({i, j, rng.symmetric()});
    }
  }
  return csr_from_triplets<int32_t, double>(n, n, t);
}

// A1 = [1 1; 1 0] and A2 = [1 1; 0 1] in the leading block (same pattern, explicit zeros),
// a well-conditioned tridiagonal rest coupled to it. MC64 on A1 must match row 1 with
// column 0, a pivot A2 makes exactly zero: the order of the first analysis cannot serve A2.
inline CsrMatrix<int32_t, double> history_matrix(int32_t n, bool second) {
  std::vector<Triplet<int32_t, double>> t = {{0, 0, 1.0}, {0, 1, 1.0}, {1, 0, second ? 0.0 : 1.0},
                                            {1, 1, second ? 1.0 : 0.0}, {1, 2, 0.5}};
  for (int32_t i = 2; i < n; ++i) {
    t.push_back({i, i - 1, -1.0});
    t.push_back({i, i, 4.0});
    if (i + 1 < n) t.push_back({i, i + 1, -1.0});
  }
  return csr_from_triplets<int32_t, double>(n, n, t);
}

// Solves op(A) x = b with lu (b for a known solution) and checks the answer by the test's
// own backward error and against KLU's.
inline void expect_solves_like_klu(SparseLU& lu, const CsrMatrix<int32_t, double>& a) {
  const std::vector<double> b = rhs_for_known_solution(a, 3);
  std::vector<double> x(b.size());
  const SolveStats& ss = lu.solve(b.data(), x.data());
  ASSERT_EQ(ss.status, Status::ok);
  EXPECT_LE(ss.backward_error, lu.options().backward_error_tolerance);
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14);
  // Both solutions are as close as their backward errors and A's condition allow.
  Klu klu(a);
  const std::vector<double> x_klu = klu.solve(b);
  const double cond = klu.condest();
  const double berrs = backward_error(a.view(), x.data(), b.data()) + backward_error(a.view(), x_klu.data(), b.data());
  EXPECT_LE(rel_diff_inf(x, x_klu), std::max(solution_tolerance(cond), 10.0 * cond * berrs));
}

// The ladder's rungs: the supernodal engine's pivoting inside supernodes, which finds these
// zero pivots' partners in their own supernodes before any rung, is off here
// (test_supernodal_lu_pivoting.cpp has it).
inline Options ladder_only(Options o) {
  o.lu_supernode_pivoting = false;
  return o;
}

inline void check_auto_recovers_a_zero_static_pivot(const Options& base) {
  const CsrMatrix<int32_t, double> a = swapped_pairs_matrix(200, 5);
  SparseLU lu(ladder_only(static_diagonal(base)));
  ASSERT_EQ(lu.options().pivot_policy, PivotPolicy::automatic);
  lu.analyze(a.view());
  const bool supernodal = lu.lu_engine() == LuEngine::supernodal;
  const FactorStats& st = lu.factor(a.view());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_EQ(st.recovery, RecoveryReason::tiny_pivot);
  // The schedule was analyzed from these very values: no fresh analysis of the same kind;
  // after a supernodal schedule the column engine's static one (which meets a zero pivot
  // too: no matching), then KLU's order.
  EXPECT_EQ(st.reanalyzed, supernodal);
  EXPECT_TRUE(st.repivoted);
  EXPECT_EQ(lu.lu_engine(), LuEngine::column);
  // A column of a swapped pair (zero diagonal): which one the engine meets first depends on
  // its elimination order (0 for the column engine, another pair for the supernodal one).
  EXPECT_GE(st.repivot_column_original, 0);
  EXPECT_LE(st.repivot_column_original % 10, 1) << st.repivot_column_original;
  EXPECT_EQ(st.repivots, 1);
  EXPECT_EQ(lu.analysis_count(), supernodal ? 3 : 2);
  expect_solves_like_klu(lu, a);
}

// The outcome of a refactorization does not depend on the matrices factored before it.
inline void check_refactorization_is_independent_of_history(const Options& base_options) {
  const Options base = ladder_only(base_options);
  const CsrMatrix<int32_t, double> a1 = history_matrix(50, false), a2 = history_matrix(50, true);
  std::vector<double> x_first(50);
  {
    SparseLU first(base);
    first.analyze(a2.view());
    ASSERT_EQ(first.factor(a2.view()).status, Status::ok);
    const std::vector<double> b = rhs_for_known_solution(a2, 3);
    first.solve(b.data(), x_first.data());
  }
  SparseLU lu(base);
  lu.analyze(a1.view());
  ASSERT_EQ(lu.factor(a1.view()).status, Status::ok);
  expect_solves_like_klu(lu, a1);
  const FactorStats& st = lu.factor(a2.view());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_EQ(st.recovery, RecoveryReason::tiny_pivot);
  EXPECT_TRUE(st.reanalyzed);    // the fast path again: MC64 on A2's values...
  EXPECT_FALSE(st.repivoted);    // ...which needs no partial pivoting
  EXPECT_EQ(st.reanalyses, 1);
  EXPECT_FALSE(lu.schedule().repivoted);
  expect_solves_like_klu(lu, a2);
  const std::vector<double> b = rhs_for_known_solution(a2, 3);
  std::vector<double> x(50);
  lu.solve(b.data(), x.data());
  EXPECT_LE(rel_diff_inf(x, x_first), 1e-12);  // as if A2 had come first
  // A1 again on A2's schedule: its diagonal pivots serve A1 too, no further recovery.
  const FactorStats& back = lu.factor(a1.view());
  ASSERT_EQ(back.status, Status::ok);
  EXPECT_EQ(back.recovery, RecoveryReason::none);
  expect_solves_like_klu(lu, a1);
}

// Growth beyond check_growth: a solve checks the factor in the factorization. A factor that
// refinement repairs is kept; one it cannot repair is replaced by KLU's pivot order there.
inline void check_suspicious_growth_is_checked_in_the_factorization(const Options& base) {
  {
    const CsrMatrix<int32_t, double> a = small_pivot_blocks(40, 1e-9);
    SparseLU lu(static_diagonal(base));
    lu.analyze(a.view());
    const FactorStats& st = lu.factor(a.view());
    ASSERT_EQ(st.status, Status::ok);
    EXPECT_GT(st.growth, lu.options().check_growth);
    EXPECT_GE(st.check_backward_error, 0.0);
    EXPECT_LE(st.check_backward_error, lu.options().backward_error_tolerance);
    EXPECT_EQ(st.recovery, RecoveryReason::none);
    expect_solves_like_klu(lu, a);
  }
  const CsrMatrix<int32_t, double> a = unstable_static_matrix();
  SparseLU lu(static_diagonal(base));
  lu.analyze(a.view());
  const FactorStats& st = lu.factor(a.view());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_EQ(st.recovery, RecoveryReason::growth);
  EXPECT_TRUE(st.repivoted);
  EXPECT_LT(st.growth, 10.0);  // KLU's pivots
  expect_solves_like_klu(lu, a);
}

// The same factor with the factorization's check off: the first solve finds the backward
// error above the tolerance, re-pivots and solves again, and the factor it leaves serves
// the next solves.
inline void check_a_solve_above_the_tolerance_recovers(const Options& base) {
  const CsrMatrix<int32_t, double> a = unstable_static_matrix();
  Options o = static_diagonal(base);
  o.check_growth = 1e300;
  SparseLU lu(o);
  lu.analyze(a.view());
  const FactorStats& st = lu.factor(a.view());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_EQ(st.recovery, RecoveryReason::none);
  EXPECT_LT(st.check_backward_error, 0.0);
  const std::vector<double> b = rhs_for_known_solution(a, 3);
  std::vector<double> x = b;  // b and x alias: the recovery must still see the right-hand side
  const int32_t n = a.nrows;
  const SolveStats& ss = lu.solve(x.data(), x.data());
  ASSERT_EQ(ss.status, Status::ok);
  EXPECT_TRUE(ss.recovered);
  EXPECT_LE(ss.backward_error, o.backward_error_tolerance);
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14);
  EXPECT_EQ(lu.factor_stats().recovery, RecoveryReason::backward_error);
  EXPECT_TRUE(lu.factor_stats().repivoted);
  EXPECT_TRUE(lu.factored());
  const SolveStats& next = lu.solve(b.data(), x.data());
  EXPECT_FALSE(next.recovered);
  EXPECT_LE(next.backward_error, o.backward_error_tolerance);
  // The transposed solve of the new factor too.
  const CsrMatrix<int32_t, double> at = transpose(a.view());
  const std::vector<double> bt = rhs_for_known_solution(at, 4);
  x.assign(static_cast<size_t>(n), 0.0);
  lu.solve_transpose(bt.data(), x.data());
  EXPECT_LE(backward_error(at.view(), x.data(), bt.data()), 1e-14);
}

// Under report the same solve fails the factor instead (no recovery); under perturb it is
// only flagged, the factor being a preconditioner by the user's choice.
inline void check_report_and_perturb_on_an_inaccurate_solve(const Options& base) {
  const CsrMatrix<int32_t, double> a = unstable_static_matrix();
  const std::vector<double> b = rhs_for_known_solution(a, 3);
  std::vector<double> x(b.size());
  for (PivotPolicy policy : {PivotPolicy::report, PivotPolicy::perturb}) {
    SCOPED_TRACE(to_string(policy));
    SparseLU lu(with_policy(static_diagonal(base), policy));
    lu.analyze(a.view());
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
    const SolveStats& ss = lu.solve(b.data(), x.data());
    EXPECT_TRUE(ss.inaccurate);
    EXPECT_FALSE(ss.recovered);
    EXPECT_GT(ss.backward_error, lu.options().backward_error_tolerance);
    if (policy == PivotPolicy::report) {
      EXPECT_EQ(ss.status, Status::numerically_singular);
      EXPECT_EQ(lu.factor_stats().status, Status::numerically_singular);
      EXPECT_FALSE(lu.factored());
    } else {
      EXPECT_EQ(ss.status, Status::ok);
      EXPECT_TRUE(lu.factored());
    }
  }
}

// A numerically singular matrix fails after every recovery, without a loop, and a solution
// no double can hold fails its solve: never a success with a wrong answer.
inline void check_auto_never_succeeds_with_a_wrong_answer(const Options& base) {
  const CsrMatrix<int32_t, double> singular = identical_rows_matrix(100, 23);
  for (bool matching : {true, false}) {
    SCOPED_TRACE(matching ? "matching" : "static diagonal");
    SparseLU lu(matching ? base : static_diagonal(base));
    lu.analyze(singular.view());
    for (int call = 1; call <= 2; ++call) {
      const FactorStats& st = lu.factor(singular.view());
      EXPECT_EQ(st.status, Status::numerically_singular);
      EXPECT_FALSE(lu.factored());
    }
  }
  // x(0) = 1e10 / 1e-300 overflows: every pivot is fine, no solve can be.
  std::vector<Triplet<int32_t, double>> t = {{0, 0, 1e-300}, {1, 1, 2.0}, {1, 2, 1.0}, {2, 1, 1.0}, {2, 2, 3.0}};
  const CsrMatrix<int32_t, double> a = csr_from_triplets<int32_t, double>(3, 3, t);
  SparseLU lu(base);
  lu.analyze(a.view());
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  std::vector<double> b = {1e10, 1.0, 1.0}, x(3);
  const SolveStats& ss = lu.solve(b.data(), x.data());
  EXPECT_EQ(ss.status, Status::numerically_singular);
  EXPECT_FALSE(lu.factored());
  EXPECT_EQ(lu.factor_stats().status, Status::numerically_singular);
  // New values the solve can serve: the factor works again.
  CsrMatrix<int32_t, double> fine = a;
  fine.values[0] = 1.0;
  ASSERT_EQ(lu.factor(fine.view()).status, Status::ok);
  expect_solves_like_klu(lu, fine);
}

// A NaN from a bad Newton step fails that factorization only; the next good values factor
// on the same schedule, without a recovery (no pivot order repairs an input NaN).
inline void check_nan_mid_sequence(const Options& base) {
  Rng rng(7);
  const CsrMatrix<int32_t, double> a = scramble_rows(random_matrix(300, 4, 31, 1.5), random_permutation(300, rng));
  SparseLU lu(base);
  lu.analyze(a.view());
  for (int step = 0; step < 4; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    CsrMatrix<int32_t, double> m = newton_step_values(a, step);
    if (step == 2) m.values[17] = std::nan("");
    const FactorStats& st = lu.factor(m.view());
    if (step == 2) {
      EXPECT_EQ(st.status, Status::nan_or_inf);
      EXPECT_EQ(st.recovery, RecoveryReason::none);
      EXPECT_FALSE(lu.factored());
      continue;
    }
    ASSERT_EQ(st.status, Status::ok);
    expect_solves_like_klu(lu, m);
  }
  EXPECT_EQ(lu.analysis_count(), 1);
}

}  // namespace gpuglu::test
