// ILU(k) with backend cuda: the GPU's update kernels drop the fill outside the pattern
// exactly as the IKJ oracle does (ilu_checks.hpp). Skipped without a usable GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <string>

#include "gpuglu/device.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "ilu_checks.hpp"

namespace gpuglu::test {
namespace {

TEST(SparseLUCudaIlu, factors_match_the_ikj_loop) {
  GPUGLU_REQUIRE_GPU();
  for (const char* spec : {"lap2d5:12x10", "convdiff3d:5x4x4", "lap3d7:5x5x4", "randdd:150:5:3"}) {
    const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
    for (int32_t k : {0, 1, 2}) {
      SCOPED_TRACE(std::string(spec) + " ILU(" + std::to_string(k) + ")");
      DenseIlu d = dense_ilu(a, k);
      Options o = cuda_options();
      o.ordering = Ordering::natural;
      o.ilu_levels = k;
      SparseLU lu(o);
      lu.analyze(a.view());
      ASSERT_EQ(lu.active_backend(), Backend::cuda);
      ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
      EXPECT_LT(ilu_difference(lu, d, k), 1e-13);
    }
  }
}

}  // namespace
}  // namespace gpuglu::test
