// PivotPolicy::automatic on the CPU backend, both LU engines: failed static pivots recover (a
// fresh analysis, the column engine's static order after a supernodal one, then KLU's partial
// pivoting) or fail visibly; never a success with a wrong answer.
// The scenarios are shared with the CUDA tests (recovery_checks.hpp).
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "gpuglu/lu.hpp"
#include "recovery_checks.hpp"

namespace gpuglu::test {
namespace {

Options cpu_options(LuEngine engine = LuEngine::column) {
  Options o;
  o.backend = Backend::cpu;
  o.lu_engine = engine;
  return o;
}

// Every scenario on both LU engines (the supernodal one is the GPU's default): a recovery
// must not depend on which engine the static pivots ran on.
template <class Check>
void for_each_engine(Check check) {
  for (LuEngine e : {LuEngine::column, LuEngine::supernodal}) {
    SCOPED_TRACE(std::string(to_string(e)) + " engine");
    check(cpu_options(e));
  }
}

TEST(SparseLURecovery, auto_is_the_default_policy_and_parses) {
  EXPECT_EQ(Options().pivot_policy, PivotPolicy::automatic);
  EXPECT_EQ(to_string(PivotPolicy::automatic), "auto");
  EXPECT_EQ(parse_pivot_policy("auto"), PivotPolicy::automatic);
}

TEST(SparseLURecovery, a_zero_static_pivot_re_pivots) {
  for_each_engine([](const Options& o) { check_auto_recovers_a_zero_static_pivot(o); });
}

TEST(SparseLURecovery, refactorization_is_independent_of_history) {
  for_each_engine([](const Options& o) { check_refactorization_is_independent_of_history(o); });
}

TEST(SparseLURecovery, suspicious_growth_is_checked_in_the_factorization) {
  for_each_engine([](const Options& o) { check_suspicious_growth_is_checked_in_the_factorization(o); });
}

TEST(SparseLURecovery, a_solve_above_the_tolerance_recovers_in_the_solve) {
  for_each_engine([](const Options& o) { check_a_solve_above_the_tolerance_recovers(o); });
}

TEST(SparseLURecovery, report_fails_and_perturb_flags_an_inaccurate_solve) {
  for_each_engine([](const Options& o) { check_report_and_perturb_on_an_inaccurate_solve(o); });
}

TEST(SparseLURecovery, never_a_success_with_a_wrong_answer) {
  for_each_engine([](const Options& o) { check_auto_never_succeeds_with_a_wrong_answer(o); });
}

TEST(SparseLURecovery, nan_mid_sequence_fails_only_its_factorization) {
  for_each_engine([](const Options& o) { check_nan_mid_sequence(o); });
}

// Many right-hand sides: a recovery in one column leaves the columns before it (already
// within the tolerance) and solves the rest with the new factor.
TEST(SparseLURecovery, many_right_hand_sides_recover_once) {
  const CsrMatrix<int32_t, double> a = unstable_static_matrix();
  Options o = static_diagonal(cpu_options());
  o.check_growth = 1e300;
  SparseLU lu(o);
  lu.analyze(a.view());
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  const int32_t n = a.nrows, nrhs = 3;
  std::vector<double> b(static_cast<size_t>(n) * nrhs), x(b.size());
  for (int32_t c = 0; c < nrhs; ++c) {
    const std::vector<double> bc = rhs_for_known_solution(a, 10 + c);
    std::copy(bc.begin(), bc.end(), b.begin() + static_cast<size_t>(c) * n);
  }
  const SolveStats& ss = lu.solve(nrhs, b.data(), n, x.data(), n);
  ASSERT_EQ(ss.status, Status::ok);
  EXPECT_TRUE(ss.recovered);
  EXPECT_EQ(lu.factor_stats().repivots, 1);
  for (int32_t c = 0; c < nrhs; ++c)
    EXPECT_LE(backward_error(a.view(), x.data() + static_cast<size_t>(c) * n, b.data() + static_cast<size_t>(c) * n),
              1e-14)
        << "column " << c;
}

// Out-of-range options fail at construction, naming the field (a thread count in the
// thousands used to abort the OpenMP runtime; a NaN threshold disables its test).
TEST(SparseLURecovery, options_out_of_range_are_rejected_by_name) {
  auto rejected = [](Options o, const char* field) {
    try {
      SparseLU lu(o);
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::invalid_input);
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << field << " was accepted";
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Options o;
  o.num_threads = 100000;
  rejected(o, "num_threads");
  o = Options();
  o.num_threads = max_cpu_threads() + 1;
  rejected(o, "num_threads");
  o = Options();
  o.pivot_threshold = nan;
  rejected(o, "pivot_threshold");
  o = Options();
  o.perturbation = 0.0;
  rejected(o, "perturbation");
  o = Options();
  o.refine_tolerance = -1.0;
  rejected(o, "refine_tolerance");
  o = Options();
  o.backward_error_tolerance = std::numeric_limits<double>::infinity();
  rejected(o, "backward_error_tolerance");
  o = Options();
  o.check_growth = 0.5;
  rejected(o, "check_growth");
  o = Options();
  o.refine_steps = -2;
  rejected(o, "refine_steps");
  o = Options();
  o.modes.max_block_threads = 96;
  rejected(o, "max_block_threads");
  o = Options();
  o.num_threads = max_cpu_threads();
  EXPECT_NO_THROW(SparseLU{o});
}

}  // namespace
}  // namespace gpuglu::test
