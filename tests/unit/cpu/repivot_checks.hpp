#pragma once
// PivotPolicy::repivot end to end: matrices whose static pivots fail, and the scenarios
// both backends must pass (tests/unit/cpu/test_sparse_lu_repivot.cpp on the CPU,
// tests/gpu/test_sparse_lu_cuda.cpp with backend cuda). Each scenario takes the options
// to start from, so the backend (and anything else) is the caller's choice.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "reference_test_support.hpp"
#include "sparse_lu_checks.hpp"

namespace gpuglu::test {

// A row diagonally dominant random matrix with rows i and i + 1 swapped for every i
// divisible by 10, and the entries that the swap would put on the diagonal dropped: well
// conditioned, but A(i, i) and A(i + 1, i + 1) are structurally zero. Without matching and
// in the natural order, column 0's static pivot is exactly 0 (nothing updates it).
inline CsrMatrix<int32_t, double> swapped_pairs_matrix(int32_t n, uint64_t seed) {
  const CsrMatrix<int32_t, double> m = random_matrix(n, 3, seed, 1.5);
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t i = 0; i < n; ++i) {
    const bool top = i % 10 == 0 && i + 1 < n;
    const bool bottom = i % 10 == 1;
    const int32_t row = top ? i + 1 : bottom ? i - 1 : i;
    for (int32_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p) {
      if (m.colind[p] == row && row != i) continue;  // would land on the diagonal
      t.push_back({row, m.colind[p], m.values[p]});
    }
  }
  return csr_from_triplets<int32_t, double>(n, n, t);
}

// Row 7 is a copy of row 3: numerically singular with a full structural rank.
inline CsrMatrix<int32_t, double> identical_rows_matrix(int32_t n, uint64_t seed) {
  const CsrMatrix<int32_t, double> m = random_matrix(n, 3, seed, 1.5);
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t src = i == 7 ? 3 : i;
    for (int32_t p = m.rowptr[src]; p < m.rowptr[src + 1]; ++p) t.push_back({i, m.colind[p], m.values[p]});
  }
  return csr_from_triplets<int32_t, double>(n, n, t);
}

inline Options with_policy(Options o, PivotPolicy policy) {
  o.pivot_policy = policy;
  return o;
}

inline Options static_diagonal(Options o) {
  o.matching = false;
  o.scaling = false;
  o.ordering = Ordering::natural;
  return o;
}

// Plain and transposed solves with lu's factor of a, against KLU's on the same systems:
// with the default refinement, componentwise backward error <= 1e-14 and relative residual
// <= 1e-12 (well conditioned); without refinement (the bare factor, i.e. KLU's pivots run
// by our engine) a backward error within 10x of KLU's own. Solutions agree with KLU's to
// what both backward errors allow. Returns the worst bare backward error seen.
inline double expect_accurate_solves(SparseLU& lu, const CsrMatrix<int32_t, double>& a) {
  const int32_t refine_steps = lu.options().refine_steps;
  const double refine_tolerance = lu.options().refine_tolerance;
  Klu klu(a);
  const double cond = klu.condest();
  const CsrMatrix<int32_t, double> at = transpose(a.view());
  double worst_bare = 0.0;
  for (bool transposed : {false, true}) {
    SCOPED_TRACE(transposed ? "transposed" : "plain");
    const CsrMatrix<int32_t, double>& op = transposed ? at : a;
    const std::vector<double> b = rhs_for_known_solution(op, 11);
    const std::vector<double> x_klu = klu.solve(b, transposed);
    const double berr_klu = backward_error(op.view(), x_klu.data(), b.data());
    std::vector<double> x(b.size());
    for (int32_t steps : {-1, 0}) {
      SCOPED_TRACE("refinement steps " + std::to_string(steps));
      lu.set_refinement(steps, 1e-15);
      if (transposed)
        lu.solve_transpose(b.data(), x.data());
      else
        lu.solve(b.data(), x.data());
      const double berr = backward_error(op.view(), x.data(), b.data());
      if (steps != 0) {
        EXPECT_LE(berr, 1e-14);
        if (cond <= kWellConditioned) EXPECT_LE(relative_residual(op.view(), x.data(), b.data()), 1e-12);
      } else {
        EXPECT_LE(berr, std::max(1e-14, 10.0 * berr_klu)) << "KLU's backward error " << berr_klu;
        worst_bare = std::max(worst_bare, berr);
      }
      EXPECT_LE(rel_diff_inf(x, x_klu), std::max(solution_tolerance(cond), 10.0 * cond * (berr + berr_klu)));
    }
  }
  lu.set_refinement(refine_steps, refine_tolerance);
  return worst_bare;
}

// A zero static pivot (matching off): report stops, repivot re-analyzes once and solves.
inline void check_repivot_recovers_a_zero_static_pivot(const Options& base) {
  const CsrMatrix<int32_t, double> a = swapped_pairs_matrix(200, 5);
  {
    SparseLU lu(with_policy(static_diagonal(base), PivotPolicy::report));
    lu.analyze(a.view());
    const FactorStats& st = lu.factor(a.view());
    ASSERT_EQ(st.status, Status::numerically_singular);
    EXPECT_EQ(st.pivot_column_original, 0);
    EXPECT_FALSE(st.repivoted);
  }
  SparseLU lu(with_policy(static_diagonal(base), PivotPolicy::repivot));
  lu.analyze(a.view());
  const int64_t nnz_static = lu.schedule().nnz_factor();
  const FactorStats& st = lu.factor(a.view());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_TRUE(lu.factored());
  EXPECT_TRUE(st.repivoted);
  EXPECT_FALSE(st.repivot_singular);
  EXPECT_EQ(st.repivots, 1);
  EXPECT_EQ(st.repivot_column_original, 0);
  EXPECT_EQ(st.repivot_pivot_value, 0.0);
  EXPECT_EQ(st.repivot_nnz_before, nnz_static);
  EXPECT_EQ(st.perturbed_pivots, 0);
  EXPECT_EQ(st.factorizations, 1);
  EXPECT_EQ(lu.analysis_count(), 2);
  EXPECT_TRUE(lu.schedule().repivoted);
  EXPECT_FALSE(lu.schedule().matched);
  expect_accurate_solves(lu, a);
  // KLU's order serves the next factorizations without another re-analysis.
  const CsrMatrix<int32_t, double> next = newton_step_values(a, 1);
  const FactorStats& st2 = lu.factor(next.view());
  ASSERT_EQ(st2.status, Status::ok);
  EXPECT_FALSE(st2.repivoted);
  EXPECT_EQ(st2.repivots, 1);
  EXPECT_EQ(st2.factorizations, 2);
  EXPECT_EQ(lu.analysis_count(), 2);
  expect_accurate_solves(lu, next);
}

// Matching on: values that change after the analysis zero a matched (static) pivot.
inline void check_repivot_after_values_change(const Options& base) {
  Rng rng(99);
  const CsrMatrix<int32_t, double> a = scramble_rows(random_matrix(300, 4, 17, 1.5), random_permutation(300, rng));
  SparseLU lu(with_policy(base, PivotPolicy::repivot));
  lu.analyze(a.view());
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  ASSERT_TRUE(lu.schedule().matched);
  // C(0, 0) is the first pivot: nothing updates it, so zeroing its entry of A makes it 0.
  const int32_t row = lu.schedule().row_perm[0];
  const int32_t col = lu.schedule().col_perm[0];
  CsrMatrix<int32_t, double> b = a;
  for (int32_t p = b.rowptr[row]; p < b.rowptr[row + 1]; ++p)
    if (b.colind[p] == col) b.values[p] = 0.0;
  {
    SparseLU report(with_policy(base, PivotPolicy::report));
    report.analyze(a.view());
    const FactorStats& st = report.factor(b.view());
    ASSERT_EQ(st.status, Status::numerically_singular);
    EXPECT_EQ(st.pivot_column, 0);
  }
  const int64_t nnz_matched = lu.schedule().nnz_factor();
  const FactorStats& st = lu.factor(b.view());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_TRUE(st.repivoted);
  EXPECT_EQ(st.repivots, 1);
  EXPECT_EQ(st.repivot_column_original, col);
  EXPECT_EQ(st.repivot_pivot_value, 0.0);
  EXPECT_EQ(st.repivot_nnz_before, nnz_matched);
  EXPECT_EQ(lu.analysis_count(), 2);
  expect_accurate_solves(lu, b);
  // The same values again: the new schedule holds, no second re-analysis.
  const FactorStats& again = lu.factor(b.view());
  ASSERT_EQ(again.status, Status::ok);
  EXPECT_FALSE(again.repivoted);
  EXPECT_EQ(again.repivots, 1);
  expect_accurate_solves(lu, b);
  // The original values on KLU's order of the changed ones.
  const FactorStats& original = lu.refactor(a.values.data());
  ASSERT_EQ(original.status, Status::ok);
  EXPECT_FALSE(original.repivoted);
  EXPECT_EQ(original.repivots, 1);
  EXPECT_EQ(lu.analysis_count(), 2);
  expect_accurate_solves(lu, a);
  // A new analysis starts over: MC64 again, no re-pivots counted.
  lu.analyze(a.view());
  EXPECT_EQ(lu.analysis_count(), 3);
  EXPECT_FALSE(lu.schedule().repivoted);
  const FactorStats& fresh = lu.factor(a.view());
  EXPECT_EQ(fresh.status, Status::ok);
  EXPECT_EQ(fresh.repivots, 0);
}

// A singular matrix stays singular: one re-analysis at most, no loop, no usable factor.
inline void check_repivot_reports_a_singular_matrix(const Options& base) {
  const CsrMatrix<int32_t, double> a = identical_rows_matrix(100, 23);
  for (bool matching : {true, false}) {
    SCOPED_TRACE(matching ? "matching" : "static diagonal");
    SparseLU lu(with_policy(matching ? base : static_diagonal(base), PivotPolicy::repivot));
    lu.analyze(a.view());
    for (int call = 1; call <= 2; ++call) {
      const FactorStats& st = lu.factor(a.view());
      EXPECT_EQ(st.status, Status::numerically_singular);
      EXPECT_TRUE(st.repivoted || st.repivot_singular);
      EXPECT_LE(st.repivots, call);
      EXPECT_FALSE(lu.factored());
      EXPECT_LE(lu.analysis_count(), 1 + call);
    }
    std::vector<double> rhs(100, 1.0), x(100);
    try {
      lu.solve(rhs.data(), x.data());
      ADD_FAILURE() << "solve() after a failed factorization";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::not_factored);
    }
  }
}

}  // namespace gpuglu::test
