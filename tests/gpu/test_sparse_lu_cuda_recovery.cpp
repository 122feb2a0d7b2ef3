// PivotPolicy::automatic with backend cuda, on both LU engines: the scenarios of the CPU tests
// (tests/unit/cpu/recovery_checks.hpp). A recovery rebuilds the CUDA engine for the
// new schedule and the solves keep running on the device; the check after every solve reads
// its backward error with x, in the same synchronization. Skipped without a usable GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include "gpuglu/lu.hpp"
#include "recovery_checks.hpp"

namespace gpuglu::test {
namespace {

// Every scenario on the column engine and on the default one (supernodal for these real
// matrices): a recovery must not depend on which engine the static pivots ran on.
template <class Check>
void for_each_engine(Check check) {
  for (const Options& o : {cuda_options(), default_cuda_options()}) {
    SCOPED_TRACE(o.lu_engine == LuEngine::column ? "column engine" : "default engine");
    check(o);
  }
}

TEST(SparseLUCudaRecovery, a_zero_static_pivot_re_pivots) {
  GPUGLU_REQUIRE_GPU();
  for_each_engine([](const Options& o) { check_auto_recovers_a_zero_static_pivot(o); });
}

TEST(SparseLUCudaRecovery, refactorization_is_independent_of_history) {
  GPUGLU_REQUIRE_GPU();
  for_each_engine([](const Options& o) { check_refactorization_is_independent_of_history(o); });
}

TEST(SparseLUCudaRecovery, suspicious_growth_is_checked_in_the_factorization) {
  GPUGLU_REQUIRE_GPU();
  for_each_engine([](const Options& o) { check_suspicious_growth_is_checked_in_the_factorization(o); });
}

TEST(SparseLUCudaRecovery, a_solve_above_the_tolerance_recovers_in_the_solve) {
  GPUGLU_REQUIRE_GPU();
  for_each_engine([](const Options& o) { check_a_solve_above_the_tolerance_recovers(o); });
}

TEST(SparseLUCudaRecovery, report_fails_and_perturb_flags_an_inaccurate_solve) {
  GPUGLU_REQUIRE_GPU();
  for_each_engine([](const Options& o) { check_report_and_perturb_on_an_inaccurate_solve(o); });
}

TEST(SparseLUCudaRecovery, never_a_success_with_a_wrong_answer) {
  GPUGLU_REQUIRE_GPU();
  for_each_engine([](const Options& o) { check_auto_never_succeeds_with_a_wrong_answer(o); });
}

TEST(SparseLUCudaRecovery, nan_mid_sequence_fails_only_its_factorization) {
  GPUGLU_REQUIRE_GPU();
  for_each_engine([](const Options& o) { check_nan_mid_sequence(o); });
}

// The engine stays on the GPU through a recovery: the new schedule's factor is the device's.
TEST(SparseLUCudaRecovery, the_recovered_factor_lives_on_the_gpu) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = swapped_pairs_matrix(2000, 7);
  SparseLU lu(static_diagonal(cuda_options()));
  lu.analyze(a.view());
  const FactorStats& st = lu.factor(a.view());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_TRUE(st.repivoted);
  EXPECT_EQ(lu.active_backend(), Backend::cuda);
  EXPECT_GT(lu.device_bytes(), 0);
  expect_solves_like_klu(lu, a);
}

}  // namespace
}  // namespace gpuglu::test
