// PivotPolicy::repivot with backend cuda: the scenarios of the CPU tests
// (tests/unit/cpu/repivot_checks.hpp), with the CUDA engine rebuilt for KLU's
// pattern and reused by the next factorizations. Skipped without a usable GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include "gpuglu/device.hpp"
#include "gpuglu/lu.hpp"
#include "repivot_checks.hpp"

namespace gpuglu::test {
namespace {

TEST(SparseLUCudaRepivot, recovers_a_zero_static_pivot) {
  GPUGLU_REQUIRE_GPU();
  check_repivot_recovers_a_zero_static_pivot(cuda_options());
}

TEST(SparseLUCudaRepivot, recovers_when_new_values_zero_a_matched_pivot) {
  GPUGLU_REQUIRE_GPU();
  check_repivot_after_values_change(cuda_options());
}

TEST(SparseLUCudaRepivot, singular_matrix_stays_numerically_singular) {
  GPUGLU_REQUIRE_GPU();
  check_repivot_reports_a_singular_matrix(cuda_options());
}

// The GPU factor of KLU's order equals the CPU right-looking reference's, entry for entry
// (the engines' contract), and the engine stays on the GPU.
TEST(SparseLUCudaRepivot, matches_the_cpu_reference_bitwise) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = swapped_pairs_matrix(2000, 7);
  Options cpu = with_policy(static_diagonal(Options()), PivotPolicy::repivot);
  cpu.backend = Backend::cpu;
  cpu.lu_engine = LuEngine::column;
  cpu.cpu_right_looking = true;
  Options gpu = cpu;
  gpu.backend = Backend::cuda;
  SparseLU on_cpu(cpu), on_gpu(gpu);
  on_cpu.analyze(a.view());
  on_gpu.analyze(a.view());
  ASSERT_EQ(on_cpu.factor(a.view()).status, Status::ok);
  const FactorStats& st = on_gpu.factor(a.view());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_TRUE(st.repivoted);
  EXPECT_EQ(on_gpu.active_backend(), Backend::cuda);
  EXPECT_GT(on_gpu.device_bytes(), 0);
  EXPECT_EQ(on_gpu.schedule().row_perm, on_cpu.schedule().row_perm);
  EXPECT_EQ(on_gpu.factor_values(), on_cpu.factor_values());
  expect_accurate_solves(on_gpu, a);
}

}  // namespace
}  // namespace gpuglu::test
