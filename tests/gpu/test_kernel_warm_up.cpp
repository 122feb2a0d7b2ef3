// The kernel warm-up beside a large factor's analysis (api/engine_choice.hpp's DeviceWarmUp
// with WarmUpKernels): a small factorization and solve on another thread, on the device the
// factor goes to, while the caller's analysis runs. It must leave the caller's factor, solve
// and device memory as they would be without it, also where several analyses start warm-ups
// at once on one device (the split's halves, a process's blocks). Skipped without a GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <thread>
#include <vector>

#include "api/engine_choice.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::test {
namespace {

// Large enough that its analysis starts the warm-up (warm_up_kernels).
CsrMatrix<int32_t, double> large_grid() {
  CsrMatrix<int32_t, double> a = gen::laplacian_3d(48, 48, 48);
  EXPECT_GE(a.nnz(), api::kWarmUpKernelsMinNnz);
  return a;
}

template <class Solver>
double solved_backward_error(Solver& s, const CsrMatrix<int32_t, double>& a) {
  std::vector<double> xtrue(static_cast<size_t>(a.nrows)), b(xtrue.size()), x(xtrue.size());
  for (size_t i = 0; i < xtrue.size(); ++i) xtrue[i] = 1.0 + static_cast<double>(i % 5);
  spmv(a.view(), xtrue.data(), b.data());
  s.analyze(a.view());
  EXPECT_EQ(s.active_backend(), Backend::cuda);
  EXPECT_EQ(s.factor(a.view()).status, Status::ok);
  s.solve(b.data(), x.data());
  return backward_error(a.view(), x.data(), b.data());
}

TEST(KernelWarmUp, a_large_lu_and_ldlt_factor_as_without_it) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = large_grid();
  ASSERT_EQ(api::warm_up_kernels(default_cuda_options(), a.nnz(), api::WarmUpKernels::lu), api::WarmUpKernels::lu);
  SparseLU lu(default_cuda_options());
  EXPECT_LE(solved_backward_error(lu, a), 1e-14);
  SparseLDLT ldlt(default_cuda_options());
  EXPECT_LE(solved_backward_error(ldlt, a), 1e-14);
}

TEST(KernelWarmUp, analyses_at_once_on_one_device) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = large_grid();
  Options o = default_cuda_options();
  o.device = 0;
  double berr[3] = {1, 1, 1};
  std::vector<std::thread> threads;
  threads.emplace_back([&] {
    SparseLU s(o);
    berr[0] = solved_backward_error(s, a);
  });
  threads.emplace_back([&] {
    SparseLDLT s(o);
    berr[1] = solved_backward_error(s, a);
  });
  SparseLU s(o);
  berr[2] = solved_backward_error(s, a);
  for (std::thread& t : threads) t.join();
  for (double e : berr) EXPECT_LE(e, 1e-14);
}

// The supernodal engines' analyses read no device fact, so none is queried before them (the
// query is the CUDA start-up, left to the warm-up's thread); the column engine's levels read
// the device's warps, and so does a column schedule a supernodal factor's recovery builds.
TEST(KernelWarmUp, only_a_column_schedule_asks_the_device_before_its_analysis) {
  GPUGLU_REQUIRE_GPU();
  Options o = default_cuda_options();
  o.modes.total_warps = 0;
  o.lu_engine = LuEngine::automatic;
  const Options supernodal = api::analysis_options<double>(o);
  EXPECT_EQ(supernodal.lu_engine, LuEngine::supernodal);
  EXPECT_EQ(supernodal.modes.total_warps, 0);
  EXPECT_EQ(api::with_device_warps(supernodal).modes.total_warps, query_device(0).total_warps());
  o.lu_engine = LuEngine::column;
  EXPECT_EQ(api::analysis_options<double>(o).modes.total_warps, query_device(0).total_warps());
  EXPECT_EQ(api::analysis_options<double>(o, /*query=*/false).modes.total_warps, 0);
  o.backend = Backend::cpu;  // the CPU reads no device
  EXPECT_EQ(api::analysis_options<double>(o).modes.total_warps, 0);
}

}  // namespace
}  // namespace gpuglu::test
