// SparseLU end to end with backend cuda: the same accuracy contract as the CPU backend
// (sparse_lu_checks.hpp: residual, backward error, agreement with KLU) on the generated
// matrices and on every matrix of ../shared/matrices (on the column engine and the default,
// supernodal one), refactorization with new values, and the automatic backend's and engine's
// choices. Skipped without a usable GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "gpuglu/device.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_market.hpp"
#include "sparse_lu_checks.hpp"

namespace gpuglu::test {
namespace {

TEST(SparseLUCuda, generated_matrices_match_klu) {
  GPUGLU_REQUIRE_GPU();
  for (const NamedMatrix& m : accuracy_matrices()) {
    SCOPED_TRACE(m.name);
    Klu klu(m.a);
    for (const Options& o : {cuda_options(), default_cuda_options()}) expect_matches_klu(m.a, o, klu, klu.condest());
  }
}

TEST(SparseLUCuda, refactorization_with_new_values_matches_klu) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = gen::from_spec("circuit:20000:200:3");
  SparseLU lu(default_cuda_options());
  lu.analyze(a.view());
  ASSERT_EQ(lu.active_backend(), Backend::cuda);
  for (int step = 0; step < 3; ++step) {
    const CsrMatrix<int32_t, double> b = newton_step_values(a, step);
    ASSERT_EQ(lu.factor(b.view()).status, Status::ok);
    Klu klu(b);
    const std::vector<double> rhs = rhs_for_known_solution(b, step);
    std::vector<double> x(rhs.size());
    lu.solve(rhs.data(), x.data());
    EXPECT_LE(relative_residual(b.view(), x.data(), rhs.data()), 1e-12);
    EXPECT_LE(rel_diff_inf(x, klu.solve(rhs)), solution_tolerance(klu.condest()));
  }
  EXPECT_EQ(lu.analysis_count(), 1);
  EXPECT_GT(lu.device_bytes(), 0);
}

TEST(SparseLUCuda, shared_matrices_match_klu) {
  GPUGLU_REQUIRE_GPU();
  const std::filesystem::path dir(GPUGLU_MATRIX_DIR);
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no matrices in " << GPUGLU_MATRIX_DIR;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".mtx") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const CsrMatrix<int32_t, double> a = read_matrix_market(file);
    Klu klu(a);
    for (const Options& o : {cuda_options(), default_cuda_options()}) expect_matches_klu(a, o, klu, klu.condest());
  }
}

TEST(SparseLUCuda, automatic_backend_follows_the_crossover) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = gen::from_spec("lap2d5:30x30");
  Options o;
  o.auto_gpu_min_factor_nnz = 0;  // every factor is "large"
  SparseLU big(o);
  big.analyze(a.view());
  EXPECT_EQ(big.active_backend(), Backend::cuda);
  EXPECT_EQ(big.lu_engine(), LuEngine::supernodal);
  o.auto_gpu_min_factor_nnz = -1;  // never the GPU
  SparseLU never(o);
  never.analyze(a.view());
  EXPECT_EQ(never.active_backend(), Backend::cpu);
  EXPECT_EQ(never.lu_engine(), LuEngine::supernodal);  // the automatic engine on either backend
  o.auto_gpu_min_factor_nnz = 1000000000;  // the GPU in view, but this factor stays on the CPU
  SparseLU small(o);
  small.analyze(a.view());
  EXPECT_EQ(small.active_backend(), Backend::cpu);
  EXPECT_EQ(small.lu_engine(), LuEngine::supernodal);
}

// LuEngine::automatic: supernodal where the GPU factors a real complete LU, the column engine
// for ILU and for an explicit choice; the answers are the CPU's.
TEST(SparseLUCuda, the_default_engine_is_supernodal_on_the_gpu) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = gen::from_spec("lap2d5:150x150");  // ILU(1) needs no pivoting either
  std::vector<double> xtrue(static_cast<size_t>(a.nrows)), b(xtrue.size()), x(xtrue.size());
  for (size_t i = 0; i < xtrue.size(); ++i) xtrue[i] = 1.0 + 0.001 * static_cast<double>(i % 97);
  spmv(a.view(), xtrue.data(), b.data());
  struct Case {
    Options options;
    LuEngine engine;
  };
  Options ilu = default_cuda_options();
  ilu.ilu_levels = 1;
  const Case cases[] = {{default_cuda_options(), LuEngine::supernodal},
                        {cuda_options(), LuEngine::column},
                        {Options{}, LuEngine::supernodal},  // backend automatic: this factor is large
                        {ilu, LuEngine::column}};
  for (const Case& c : cases) {
    SparseLU lu(c.options);
    lu.analyze(a.view());
    SCOPED_TRACE(std::string(to_string(c.options.backend)) + " " + std::string(to_string(c.options.lu_engine)));
    EXPECT_EQ(lu.active_backend(), Backend::cuda);
    EXPECT_EQ(lu.lu_engine(), c.engine);
    EXPECT_EQ(lu.schedule().supernodal(), c.engine == LuEngine::supernodal);
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
    if (c.options.ilu_levels >= 0) continue;
    lu.solve(b.data(), x.data());
    EXPECT_LT(relative_residual(a.view(), x.data(), b.data()), 1e-12);
  }
}

}  // namespace
}  // namespace gpuglu::test
