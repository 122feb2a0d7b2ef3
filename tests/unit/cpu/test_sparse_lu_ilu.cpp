// SparseLU with Options::ilu_levels: the incomplete factorization ILU(k) on the reference
// backend (both CPU executors) against the textbook IKJ loop; it drops exactly the fill
// outside the levels-of-fill pattern, does not refine, and never re-pivots.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "ilu_checks.hpp"

namespace gpuglu::test {
namespace {

Options ilu_options(int32_t k, bool right_looking) {
  Options o;
  o.backend = Backend::cpu;
  o.ordering = Ordering::natural;
  o.ilu_levels = k;
  o.cpu_right_looking = right_looking;
  o.num_threads = 2;
  return o;
}

TEST(SparseLUIlu, factors_match_the_ikj_loop) {
  for (const char* spec : {"lap2d5:12x10", "convdiff3d:5x4x4", "lap3d7:5x5x4", "randdd:150:5:3"}) {
    const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
    for (int32_t k : {0, 1, 2}) {
      DenseIlu d = dense_ilu(a, k);
      for (bool right_looking : {false, true}) {
        SCOPED_TRACE(std::string(spec) + " ILU(" + std::to_string(k) + ")" + (right_looking ? " right" : " gather"));
        SparseLU lu(ilu_options(k, right_looking));
        lu.analyze(a.view());
        ASSERT_TRUE(lu.schedule().incomplete);
        ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
        EXPECT_LT(ilu_difference(lu, d, k), 1e-13);
      }
    }
  }
}

TEST(SparseLUIlu, more_levels_approach_the_exact_solve_and_nothing_refines) {
  const CsrMatrix<int32_t, double> a = gen::from_spec("convdiff3d:8x8x8");
  std::vector<double> xtrue(static_cast<size_t>(a.nrows), 1.0), b(xtrue.size()), x(xtrue.size());
  spmv(a.view(), xtrue.data(), b.data());
  double previous = INFINITY;
  for (int32_t k : {0, 1, 3}) {
    SparseLU lu(ilu_options(k, false));
    lu.analyze(a.view());
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
    const SolveStats& st = lu.solve(b.data(), x.data());
    EXPECT_EQ(st.refine_steps, 0);
    const double r = relative_residual(a.view(), x.data(), b.data());
    EXPECT_LT(r, 1.0) << "ILU(" << k << ") is no preconditioner at all";
    EXPECT_LT(r, previous) << "ILU(" << k << ") is not closer to A than fewer levels";
    previous = r;
  }
  SparseLU full(ilu_options(1000, false));
  full.analyze(a.view());
  ASSERT_EQ(full.factor(a.view()).status, Status::ok);
  full.solve(b.data(), x.data());
  EXPECT_LT(relative_residual(a.view(), x.data(), b.data()), 1e-12) << "ILU(n) is the complete LU";
}

TEST(SparseLUIlu, a_zero_pivot_is_reported_not_re_pivoted) {
  // [0 1; 1 0] blocks on the diagonal: ILU(0) meets a zero pivot in the first column.
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t b = 0; b < 10; ++b) t.push_back({2 * b, 2 * b + 1, 1.0}), t.push_back({2 * b + 1, 2 * b, 1.0});
  const auto a = csr_from_triplets<int32_t, double>(20, 20, t);
  Options o = ilu_options(0, false);
  o.pivot_policy = PivotPolicy::repivot;
  SparseLU lu(o);
  lu.analyze(a.view());
  const FactorStats& st = lu.factor(a.view());
  EXPECT_EQ(st.status, Status::numerically_singular);
  EXPECT_EQ(lu.analysis_count(), 1);
}

}  // namespace
}  // namespace gpuglu::test
