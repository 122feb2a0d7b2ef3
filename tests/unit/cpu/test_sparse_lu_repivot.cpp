// PivotPolicy::repivot on the CPU backend: a tiny static pivot re-analyzes with KLU's
// partial pivoting once, later factorizations reuse KLU's order, a singular matrix stays
// reported, and the NaN/Inf path never re-pivots. (The GPU runs the same scenarios.)
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "repivot_checks.hpp"

namespace gpuglu::test {
namespace {

// The column engine, whose static pivots the recovery re-pivots (the supernodal LU pivots
// inside its supernodes first).
Options cpu_options() {
  Options o;
  o.backend = Backend::cpu;
  o.lu_engine = LuEngine::column;
  return o;
}

TEST(SparseLURepivot, policy_name_round_trips) {
  EXPECT_EQ(to_string(PivotPolicy::repivot), "repivot");
  EXPECT_EQ(parse_pivot_policy("repivot"), PivotPolicy::repivot);
  EXPECT_EQ(parse_pivot_policy("perturb"), PivotPolicy::perturb);
  EXPECT_FALSE(parse_pivot_policy("pivot").has_value());
}

TEST(SparseLURepivot, recovers_a_zero_static_pivot) {
  for (bool right_looking : {false, true}) {
    SCOPED_TRACE(right_looking ? "right-looking" : "gather");
    Options o = cpu_options();
    o.cpu_right_looking = right_looking;
    check_repivot_recovers_a_zero_static_pivot(o);
  }
}

TEST(SparseLURepivot, recovers_when_new_values_zero_a_matched_pivot) {
  check_repivot_after_values_change(cpu_options());
}

TEST(SparseLURepivot, singular_matrix_stays_numerically_singular) {
  check_repivot_reports_a_singular_matrix(cpu_options());
}

TEST(SparseLURepivot, int64_indices_give_the_same_factor) {
  const CsrMatrix<int32_t, double> a = swapped_pairs_matrix(200, 5);
  const CsrMatrix<int64_t, double> a64 = convert_indices<int64_t>(a.view());
  const Options o = with_policy(static_diagonal(cpu_options()), PivotPolicy::repivot);
  SparseLU lu32(o), lu64(o);
  lu32.analyze(a.view());
  lu64.analyze(a64.view());
  ASSERT_EQ(lu32.factor(a.view()).status, Status::ok);
  const FactorStats& st = lu64.factor(a64.view());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_TRUE(st.repivoted);
  EXPECT_EQ(lu64.schedule().row_perm, lu32.schedule().row_perm);
  EXPECT_EQ(lu64.schedule().col_perm, lu32.schedule().col_perm);
  EXPECT_EQ(lu64.factor_values(), lu32.factor_values());
  expect_accurate_solves(lu64, a);
}

// With a threshold KLU's own pivots cannot meet (its tolerance is 0.001), the re-pivoted
// factorization fails too: reported, and the next call re-analyzes once more (never loops).
TEST(SparseLURepivot, each_factorization_re_analyzes_at_most_once) {
  const CsrMatrix<int32_t, double> a = random_matrix(150, 5, 31, 0.0);
  Options o = with_policy(static_diagonal(cpu_options()), PivotPolicy::repivot);
  o.pivot_threshold = 0.5;
  SparseLU lu(o);
  lu.analyze(a.view());
  for (int64_t call = 1; call <= 2; ++call) {
    const FactorStats& st = lu.factor(a.view());
    EXPECT_EQ(st.status, Status::numerically_singular);
    EXPECT_TRUE(st.repivoted);
    EXPECT_EQ(st.repivots, call);
    EXPECT_GE(st.pivot_column, 0);
    EXPECT_EQ(st.pivot_column_original, lu.schedule().col_perm[st.pivot_column]);
    EXPECT_EQ(lu.analysis_count(), 1 + call);
    EXPECT_FALSE(lu.factored());
  }
}

TEST(SparseLURepivot, nan_input_does_not_re_pivot) {
  const CsrMatrix<int32_t, double> a = swapped_pairs_matrix(50, 3);
  SparseLU lu(with_policy(cpu_options(), PivotPolicy::repivot));
  lu.analyze(a.view());
  std::vector<double> v = a.values;
  v[4] = std::numeric_limits<double>::quiet_NaN();
  const FactorStats& st = lu.refactor(v.data());
  EXPECT_EQ(st.status, Status::nan_or_inf);
  EXPECT_FALSE(st.repivoted);
  EXPECT_FALSE(st.repivot_singular);
  EXPECT_EQ(st.repivots, 0);
  EXPECT_EQ(lu.analysis_count(), 1);
  EXPECT_EQ(lu.refactor(a.values.data()).status, Status::ok);
}

// Under the other policies nothing re-analyzes.
TEST(SparseLURepivot, report_and_perturb_never_re_analyze) {
  const CsrMatrix<int32_t, double> a = swapped_pairs_matrix(200, 5);
  for (PivotPolicy policy : {PivotPolicy::report, PivotPolicy::perturb}) {
    SparseLU lu(with_policy(static_diagonal(cpu_options()), policy));
    lu.analyze(a.view());
    const FactorStats& st = lu.factor(a.view());
    EXPECT_EQ(st.status, policy == PivotPolicy::report ? Status::numerically_singular : Status::ok);
    EXPECT_FALSE(st.repivoted);
    EXPECT_EQ(lu.analysis_count(), 1);
    EXPECT_FALSE(lu.schedule().repivoted);
  }
}

}  // namespace
}  // namespace gpuglu::test
