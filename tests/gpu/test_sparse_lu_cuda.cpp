// SparseLU end to end with backend cuda: the same accuracy contract as the CPU backend
// (sparse_lu_checks.hpp: residual, backward error, agreement with KLU) on the generated
// matrices and on every matrix of ../shared/matrices, refactorization with new values, and
// the automatic backend's choice. Skipped without a usable GPU.
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
    expect_matches_klu(m.a, cuda_options(), klu, klu.condest());
  }
}

TEST(SparseLUCuda, refactorization_with_new_values_matches_klu) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = gen::from_spec("circuit:20000:200:3");
  SparseLU lu(cuda_options());
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
    expect_matches_klu(a, cuda_options(), klu, klu.condest());
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
  o.auto_gpu_min_factor_nnz = -1;  // never the GPU
  SparseLU never(o);
  never.analyze(a.view());
  EXPECT_EQ(never.active_backend(), Backend::cpu);
}

}  // namespace
}  // namespace gpuglu::test
