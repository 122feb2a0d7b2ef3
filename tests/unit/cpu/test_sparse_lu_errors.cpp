// SparseLU's contract on bad input and misuse: every failure is a status or an Error
// naming its cause, never a silently wrong answer.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "reference_test_support.hpp"
#include "error_status.hpp"

namespace gpuglu::test {
namespace {

CsrMatrix<int32_t, double> from(int32_t n, const std::vector<Triplet<int32_t, double>>& t, int32_t ncols = -1) {
  return csr_from_triplets<int32_t, double>(n, ncols < 0 ? n : ncols, t);
}

Options plain(Ordering ordering = Ordering::natural) {
  Options o;
  o.matching = false;
  o.scaling = false;
  o.ordering = ordering;
  return o;
}

TEST(SparseLUErrors, non_square_matrix_is_not_square) {
  const auto a = from(3, {{0, 0, 1.0}, {1, 1, 1.0}, {2, 2, 1.0}, {2, 3, 1.0}}, 4);
  SparseLU lu;
  EXPECT_EQ(status_of([&] { lu.analyze(a.view()); }), Status::not_square);
  EXPECT_FALSE(lu.analyzed());
}

TEST(SparseLUErrors, structurally_singular_matrix_is_reported) {
  // Rows 1 and 2 only touch column 0: structural rank 2, yet no row or column is empty.
  const auto a = from(3, {{0, 0, 1.0}, {0, 1, 2.0}, {0, 2, 3.0}, {1, 0, 4.0}, {2, 0, 5.0}});
  for (bool matching : {true, false}) {
    Options o;
    o.matching = matching;
    SparseLU lu(o);
    EXPECT_EQ(status_of([&] { lu.analyze(a.view()); }), Status::structurally_singular) << "matching " << matching;
  }
}

TEST(SparseLUErrors, empty_row_is_reported) {
  const auto a = from(3, {{0, 0, 1.0}, {0, 1, 1.0}, {2, 1, 1.0}, {2, 2, 1.0}});
  SparseLU lu;
  EXPECT_EQ(status_of([&] { lu.analyze(a.view()); }), Status::empty_row);
}

// Column 5 = column 3 + column 4 exactly (its diagonal stays stored); the rest is a well-conditioned tridiagonal.
CsrMatrix<int32_t, double> dependent_column_matrix() {
  const int32_t n = 8;
  std::vector<double> dense(static_cast<size_t>(n) * n, 0.0);
  for (int32_t i = 0; i < n; ++i) {
    dense[i * n + i] = 4.0;
    if (i > 0) dense[i * n + i - 1] = -1.0;
    if (i + 1 < n) dense[i * n + i + 1] = -1.0;
  }
  for (int32_t i = 0; i < n; ++i) dense[i * n + 5] = dense[i * n + 3] + dense[i * n + 4];
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = 0; j < n; ++j)
      if (dense[i * n + j] != 0.0) t.push_back({i, j, dense[i * n + j]});
  return from(n, t);
}

TEST(SparseLUErrors, report_policy_names_the_singular_column_in_original_numbering) {
  const auto a = dependent_column_matrix();
  Options report = plain();
  report.pivot_policy = PivotPolicy::report;
  {
    SparseLU lu(report);
    lu.analyze(a.view());
    const FactorStats& st = lu.factor(a.view());
    EXPECT_EQ(st.status, Status::numerically_singular);
    EXPECT_EQ(st.pivot_column, 5);
    EXPECT_EQ(st.pivot_column_original, 5);
    EXPECT_LE(std::fabs(st.pivot_value), 1e-14);
    EXPECT_FALSE(lu.factored());
    std::vector<double> b(8, 1.0), x(8);
    EXPECT_EQ(status_of([&] { lu.solve(b.data(), x.data()); }), Status::not_factored);
  }
  {
    // A given ordering that puts column 5 first and column 3 last: the zero pivot
    // then appears in column 3, position 7 of C.
    Options o = plain(Ordering::given);
    o.pivot_policy = PivotPolicy::report;
    SparseLU lu(o);
    const int32_t perm[8] = {5, 0, 1, 2, 4, 6, 7, 3};
    lu.analyze(a.view(), perm);
    const FactorStats& st = lu.factor(a.view());
    EXPECT_EQ(st.status, Status::numerically_singular);
    EXPECT_EQ(st.pivot_column, 7);
    EXPECT_EQ(st.pivot_column_original, 3);
  }
}

// Blocks [1 1 0; 1 1 1; 0 1 1]: nonsingular, but their second static pivot is exactly 0.
CsrMatrix<int32_t, double> zero_pivot_blocks(int32_t blocks) {
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t b = 0; b < blocks; ++b) {
    const int32_t o = 3 * b;
    for (auto [i, j] : {std::pair{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}}) t.push_back({o + i, o + j, 1.0});
    if (b + 1 < blocks) t.push_back({o + 2, o + 3, 0.25});
  }
  return from(3 * blocks, t);
}

TEST(SparseLUErrors, perturb_policy_recovers_a_nonsingular_matrix_by_refinement) {
  const auto a = zero_pivot_blocks(20);
  Options o = plain();
  o.pivot_policy = PivotPolicy::perturb;
  SparseLU lu(o);
  lu.analyze(a.view());
  const FactorStats& st = lu.factor(a.view());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_EQ(st.perturbed_pivots, 20);
  const std::vector<double> b = rhs_for_known_solution(a, 3);
  std::vector<double> x(b.size());
  const SolveStats& ss = lu.solve(b.data(), x.data());
  EXPECT_GT(ss.refine_steps, 0);
  EXPECT_LE(ss.backward_error, 1e-12);
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-12);
  Klu klu(a);
  EXPECT_LE(rel_diff_inf(x, klu.solve(b)), 1e-9);
}

TEST(SparseLUErrors, perturb_policy_on_a_singular_matrix_never_returns_a_silently_wrong_answer) {
  const auto a = dependent_column_matrix();
  Options o = plain();
  o.pivot_policy = PivotPolicy::perturb;
  SparseLU lu(o);
  lu.analyze(a.view());
  const FactorStats& st = lu.factor(a.view());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_GT(st.perturbed_pivots, 0);
  // Whatever x comes back, the stats must carry its true backward error: a small value
  // then really means x solves a nearby system, a large one flags the failure.
  for (int32_t hot : {0, 5}) {
    std::vector<double> b(8, 0.0);
    b[hot] = 1.0;
    std::vector<double> x(8);
    const SolveStats& ss = lu.solve(b.data(), x.data());
    const double actual = backward_error(a.view(), x.data(), b.data());
    EXPECT_GE(ss.backward_error, 0.0);
    EXPECT_NEAR(ss.backward_error, actual, 1e-6 * actual);
  }
}

TEST(SparseLUErrors, nan_or_inf_values_fail_the_factorization) {
  auto a = from(3, {{0, 0, 2.0}, {0, 2, 1.0}, {1, 1, 3.0}, {2, 0, 1.0}, {2, 2, 4.0}});
  SparseLU lu(plain());
  lu.analyze(a.view());
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    auto v = a.values;
    v[1] = bad;  // entry (0, 2)
    const FactorStats& st = lu.refactor(v.data());
    EXPECT_EQ(st.status, Status::nan_or_inf);
    EXPECT_EQ(st.pivot_column_original, 2);
    EXPECT_FALSE(lu.factored());
    std::vector<double> b(3, 1.0), x(3);
    EXPECT_EQ(status_of([&] { lu.solve(b.data(), x.data()); }), Status::not_factored);
  }
  EXPECT_EQ(lu.refactor(a.values.data()).status, Status::ok);  // recovers with good values
}

TEST(SparseLUErrors, empty_matrix_needs_no_work) {
  CsrMatrix<int32_t, double> a;  // 0 x 0
  SparseLU lu;
  lu.analyze(a.view());
  EXPECT_EQ(lu.factor(a.view()).status, Status::ok);
  EXPECT_TRUE(lu.factored());
  EXPECT_EQ(lu.solve(nullptr, nullptr).refine_steps, 0);
  EXPECT_EQ(lu.solve_transpose(nullptr, nullptr).refine_steps, 0);
  EXPECT_EQ(lu.solve(3, nullptr, 0, nullptr, 0).refine_steps, 0);
}

TEST(SparseLUErrors, misuse_is_reported_by_status) {
  const auto a = from(2, {{0, 0, 2.0}, {1, 1, 3.0}});
  SparseLU lu;
  std::vector<double> b(2, 1.0), x(2);
  EXPECT_EQ(status_of([&] { lu.solve(b.data(), x.data()); }), Status::not_factored);
  EXPECT_EQ(status_of([&] { lu.factor(a.view()); }), Status::not_analyzed);
  EXPECT_EQ(status_of([&] { lu.refactor(a.values.data()); }), Status::not_analyzed);
  EXPECT_EQ(status_of([&] { lu.schedule(); }), Status::not_analyzed);
  lu.analyze(a.view());
  EXPECT_EQ(status_of([&] { lu.solve(b.data(), x.data()); }), Status::not_factored);
  lu.factor(a.view());
  EXPECT_EQ(status_of([&] { lu.solve(1, b.data(), 1, x.data(), 2); }), Status::invalid_input);  // ldb < n
}

// Backend cuda where it cannot run: a CPU-only build says "unsupported", a CUDA build on a
// machine without a GPU says "no_device" with the CUDA runtime's reason. automatic runs.
TEST(SparseLUErrors, cuda_backend_without_a_gpu_is_an_error) {
  const auto a = from(2, {{0, 0, 2.0}, {1, 1, 3.0}});
  if (query_device().usable) GTEST_SKIP() << "a GPU is usable here";
  Options o;
  o.backend = Backend::cuda;
  SparseLU lu(o);
  try {
    lu.analyze(a.view());
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    if (built_with_cuda()) {
      EXPECT_EQ(e.status(), Status::no_device);
      EXPECT_NE(std::string(e.what()).find("backend cuda: "), std::string::npos);
    } else {
      EXPECT_EQ(e.status(), Status::unsupported);
      EXPECT_NE(std::string(e.what()).find("backend cpu or auto"), std::string::npos);
    }
  }
  SparseLU automatic;
  automatic.analyze(a.view());
  EXPECT_EQ(automatic.active_backend(), Backend::cpu);
}

TEST(SparseLUErrors, changed_pattern_is_rejected_with_the_row) {
  const auto a = from(3, {{0, 0, 2.0}, {0, 1, 1.0}, {1, 1, 3.0}, {2, 0, 1.0}, {2, 2, 4.0}});
  SparseLU lu;
  lu.analyze(a.view());
  // Same entry count, one column index moved in row 2.
  const auto moved = from(3, {{0, 0, 2.0}, {0, 1, 1.0}, {1, 1, 3.0}, {2, 1, 1.0}, {2, 2, 4.0}});
  // One entry more in row 1.
  const auto grown = from(3, {{0, 0, 2.0}, {0, 1, 1.0}, {1, 0, 1.0}, {1, 1, 3.0}, {2, 0, 1.0}, {2, 2, 4.0}});
  for (const auto* m : {&moved, &grown}) {
    try {
      lu.factor(m->view());
      FAIL() << "expected Error(pattern_changed)";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::pattern_changed);
      EXPECT_NE(std::string(e.what()).find(m == &moved ? "row 2" : "row 1"), std::string::npos) << e.what();
    }
  }
  // The 64-bit index path checks just the same.
  const auto moved64 = convert_indices<int64_t>(moved.view());
  EXPECT_EQ(status_of([&] { lu.factor(moved64.view()); }), Status::pattern_changed);
  const auto a64 = convert_indices<int64_t>(a.view());
  EXPECT_EQ(lu.factor(a64.view()).status, Status::ok);
  EXPECT_EQ(lu.analysis_count(), 1);
}

}  // namespace
}  // namespace gpuglu::test
