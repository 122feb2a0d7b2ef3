// SparseLU end to end on the generated test matrices, against KLU: every ordering,
// matching on and off where the matrix allows, plain and transposed solves, many
// right-hand sides, refactorization with new values, thread-count determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "reference_test_support.hpp"
#include "sparse_lu_checks.hpp"

namespace gpuglu::test {
namespace {

TEST(SparseLUAccuracy, solves_match_klu_for_every_ordering_and_matching) {
  int runs = 0;
  for (const NamedMatrix& m : accuracy_matrices()) {
    Klu klu(m.a);
    const double cond = klu.condest();
    for (bool matching : {true, false}) {
      if (!matching && !has_nonzero_diagonal(m.a)) continue;  // static pivots need the matching
      for (Ordering ordering : {Ordering::amd, Ordering::colamd, Ordering::metis, Ordering::natural}) {
        SCOPED_TRACE(m.name + " ordering " + std::string(to_string(ordering)) + " matching " +
                     std::to_string(matching) + " condest " + std::to_string(cond));
        Options o;
        o.ordering = ordering;
        o.matching = matching;
        o.scaling = matching;
        expect_matches_klu(m.a, o, klu, cond);
        ++runs;
      }
    }
  }
  EXPECT_GE(runs, 20);
}

TEST(SparseLUAccuracy, many_right_hand_sides_equal_column_by_column_solves) {
  for (const NamedMatrix& m : accuracy_matrices()) {
    SCOPED_TRACE(m.name);
    SparseLU lu;
    lu.analyze(m.a.view());
    ASSERT_EQ(lu.factor(m.a.view()).status, Status::ok);
    const int64_t n = m.a.nrows;
    const int64_t ldb = n + 5;
    Rng rng(17);
    std::vector<double> b(static_cast<size_t>(ldb * 3));
    for (double& v : b) v = rng.symmetric();
    std::vector<double> x(b.size(), 0.0);
    lu.solve(3, b.data(), ldb, x.data(), ldb);
    for (int c = 0; c < 3; ++c) {
      std::vector<double> bc(b.begin() + c * ldb, b.begin() + c * ldb + n), xc(static_cast<size_t>(n));
      lu.solve(bc.data(), xc.data());
      EXPECT_EQ(0, std::memcmp(xc.data(), x.data() + c * ldb, static_cast<size_t>(n) * sizeof(double))) << "column " << c;
    }
    // In place, B overwritten by X.
    std::vector<double> inplace = b;
    lu.solve(3, inplace.data(), ldb, inplace.data(), ldb);
    for (int c = 0; c < 3; ++c)
      EXPECT_EQ(0, std::memcmp(inplace.data() + c * ldb, x.data() + c * ldb, static_cast<size_t>(n) * sizeof(double)));
  }
}

TEST(SparseLUAccuracy, refactor_reuses_analysis) {
  for (const NamedMatrix& m : accuracy_matrices()) {
    SCOPED_TRACE(m.name);
    for (bool matching : {true, false}) {
      if (!matching && !has_nonzero_diagonal(m.a)) continue;
      Options o;
      // The column engine: the supernodal LU's supernodes that pivoted in an earlier
      // factorization keep pivoting, so a fresh factor may differ from a refactorization.
      o.lu_engine = LuEngine::column;
      o.matching = matching;
      o.scaling = matching;
      SparseLU lu(o);
      lu.analyze(m.a.view());
      for (int step = 1; step <= 5; ++step) {
        const CsrMatrix<int32_t, double> ak = newton_step_values(m.a, step);
        const FactorStats& st = step % 2 ? lu.factor(ak.view()) : lu.refactor(ak.values.data());
        ASSERT_EQ(st.status, Status::ok) << "step " << step;
        EXPECT_EQ(st.factorizations, step);
        EXPECT_EQ(lu.analysis_count(), 1);

        SparseLU fresh(o);
        fresh.analyze(ak.view());
        ASSERT_EQ(fresh.factor(ak.view()).status, Status::ok);
        if (!matching) {
          // Same pattern, same schedule: the factors are the same numbers.
          EXPECT_EQ(lu.factor_values(), fresh.factor_values());
        }
        const std::vector<double> b = rhs_for_known_solution(ak, 100 + step);
        std::vector<double> x(b.size()), y(b.size());
        lu.solve(b.data(), x.data());
        fresh.solve(b.data(), y.data());
        // With the matching, a fresh analysis may pick other scalings (computed from the
        // new values): agreement then is to the conditioning, as against KLU.
        EXPECT_LE(rel_diff_inf(x, y), solution_tolerance(Klu(ak).condest()));
      }
    }
  }
}

TEST(SparseLUAccuracy, factors_are_bitwise_identical_for_1_2_4_threads) {
  for (const NamedMatrix& m : accuracy_matrices()) {
    SCOPED_TRACE(m.name);
    std::vector<double> first;
    for (int threads : {1, 2, 4}) {
      Options o;
      // The column engine's updates are atomic-free (docs/design.md); the supernodal
      // engines add their updates with atomics, in an order that depends on the threads.
      o.lu_engine = LuEngine::column;
      o.num_threads = threads;
      SparseLU lu(o);
      lu.analyze(m.a.view());
      ASSERT_EQ(lu.factor(m.a.view()).status, Status::ok);
      if (first.empty())
        first = lu.factor_values();
      else
        EXPECT_EQ(0, std::memcmp(first.data(), lu.factor_values().data(), first.size() * sizeof(double)))
            << threads << " threads";
    }
  }
}

TEST(SparseLUAccuracy, statistics_describe_the_factorization) {
  for (const NamedMatrix& m : accuracy_matrices()) {
    SCOPED_TRACE(m.name);
    SparseLU lu;
    lu.analyze(m.a.view());
    const FactorStats& st = lu.factor(m.a.view());
    ASSERT_EQ(st.status, Status::ok);
    EXPECT_EQ(st.pivot_column, -1);
    EXPECT_EQ(st.perturbed_pivots, 0);
    EXPECT_GT(st.min_pivot_ratio, 0.0);
    EXPECT_LE(st.min_pivot_ratio, 1.0);
    EXPECT_GT(st.growth, 0.0);
    EXPECT_GE(st.factor_ms, 0.0);
    const std::vector<double> b = rhs_for_known_solution(m.a, 1);
    std::vector<double> x(b.size());
    const SolveStats& ss = lu.solve(b.data(), x.data());
    // Automatic refinement: the backward error is always measured, and these well-scaled
    // matrices need at most one step to bring it below the tolerance.
    EXPECT_LE(ss.refine_steps, 1);
    EXPECT_GE(ss.backward_error, 0.0);
    EXPECT_LE(ss.backward_error, lu.options().refine_tolerance);
  }
}

TEST(SparseLUAccuracy, explicit_refinement_reports_backward_error) {
  for (const NamedMatrix& m : accuracy_matrices()) {
    SCOPED_TRACE(m.name);
    Options o;
    o.refine_steps = 2;
    SparseLU lu(o);
    lu.analyze(m.a.view());
    ASSERT_EQ(lu.factor(m.a.view()).status, Status::ok);
    const std::vector<double> b = rhs_for_known_solution(m.a, 2);
    std::vector<double> x(b.size());
    const SolveStats& ss = lu.solve(b.data(), x.data());
    EXPECT_LE(ss.refine_steps, 2);
    EXPECT_GE(ss.backward_error, 0.0);
    EXPECT_LE(ss.backward_error, 1e-14);
    EXPECT_NEAR(ss.backward_error, backward_error(m.a.view(), x.data(), b.data()), 1e-17);
  }
}

}  // namespace
}  // namespace gpuglu::test

namespace gpuglu::test {
namespace {

TEST(SparseLUAccuracy, refinement_can_change_between_solves) {
  const NamedMatrix& m = accuracy_matrices().front();
  SparseLU lu;
  lu.analyze(m.a.view());
  ASSERT_EQ(lu.factor(m.a.view()).status, Status::ok);
  const std::vector<double> b = rhs_for_known_solution(m.a, 3);
  std::vector<double> x(b.size());
  EXPECT_GE(lu.solve(b.data(), x.data()).backward_error, 0.0);  // automatic: measured
  lu.set_refinement(0, 1e-15);
  const SolveStats& ss = lu.solve(b.data(), x.data());
  EXPECT_EQ(ss.refine_steps, 0);
  EXPECT_EQ(ss.backward_error, -1.0);  // not measured without refinement
  EXPECT_FALSE(ss.inaccurate);
  EXPECT_LE(relative_residual(m.a.view(), x.data(), b.data()), 1e-12);
  EXPECT_EQ(lu.analysis_count(), 1);
  EXPECT_THROW(lu.set_refinement(-2, 1e-15), Error);
  EXPECT_THROW(lu.set_refinement(1, -1.0), Error);
}

// Options::refine_check_interval: under automatic refinement, once a solve of a factorization
// met the target with no correction, only every interval-th later solve measures its backward
// error; a new factorization checks again from its first solve; a factor whose solves never
// meet the target, or explicit refinement steps, or an interval of 1, check every solve.
TEST(SparseLUAccuracy, automatic_refinement_checks_every_nth_solve_once_one_needed_no_step) {
  const NamedMatrix& m = accuracy_matrices().front();
  const std::vector<double> b = rhs_for_known_solution(m.a, 3);
  std::vector<double> x(b.size());
  // Which of 2 * interval + 1 solves of one factorization measured their backward error.
  auto checked = [&](const Options& o) {
    SparseLU lu(o);
    lu.analyze(m.a.view());
    std::string seen;
    for (int factorization = 0; factorization < 2; ++factorization) {
      EXPECT_EQ(lu.factor(m.a.view()).status, Status::ok);
      for (int solve = 0; solve <= 2 * o.refine_check_interval; ++solve) {
        const SolveStats& ss = lu.solve(b.data(), x.data());
        EXPECT_LE(relative_residual(m.a.view(), x.data(), b.data()), 1e-12);
        seen += ss.backward_error >= 0.0 ? 'c' : '-';
      }
      seen += '|';
    }
    return seen;
  };
  Options o;
  o.refine_check_interval = 4;
  ASSERT_LE(SparseLU(o).options().refine_tolerance, 1e-14);
  EXPECT_EQ(checked(o), "c---c---c|c---c---c|");
  o.refine_check_interval = 1;
  EXPECT_EQ(checked(o), "ccc|ccc|");
  o.refine_check_interval = 4;
  o.refine_tolerance = 0.0;  // no solve meets it with no correction
  EXPECT_EQ(checked(o), "ccccccccc|ccccccccc|");
  o.refine_tolerance = 1e-14;
  o.refine_steps = 2;
  EXPECT_EQ(checked(o), "ccccccccc|ccccccccc|");
}

// The plain and transposed solves of one factorization are sampled apart: clean plain solves
// say nothing of A^T x = b, whose first solve is checked (lns_131 with matching and the natural
// ordering needs a correction there only).
TEST(SparseLUAccuracy, automatic_refinement_checks_the_first_transposed_solve_after_clean_plain_ones) {
  const NamedMatrix& m = accuracy_matrices().front();
  const CsrMatrix<int32_t, double> at = transpose(m.a.view());
  const std::vector<double> b = rhs_for_known_solution(m.a, 3);
  const std::vector<double> bt = rhs_for_known_solution(at, 3);
  std::vector<double> x(b.size());
  Options o;
  o.refine_check_interval = 2;
  SparseLU lu(o);
  lu.analyze(m.a.view());
  ASSERT_EQ(lu.factor(m.a.view()).status, Status::ok);
  std::string seen;
  for (const char* step : {"p", "p", "t", "p", "t", "t"}) {
    const bool transposed = step[0] == 't';
    const SolveStats& ss = transposed ? lu.solve_transpose(bt.data(), x.data()) : lu.solve(b.data(), x.data());
    EXPECT_LE(relative_residual((transposed ? at : m.a).view(), x.data(), (transposed ? bt : b).data()), 1e-12);
    seen += ss.backward_error >= 0.0 ? 'c' : '-';
  }
  // each direction: its first solve, then every second after it
  EXPECT_EQ(seen, "c-cc-c");
}

}  // namespace
}  // namespace gpuglu::test
