// The level executor against the column-by-column oracle (GLU3.0 Algorithm 2), on
// schedules built by the naive builder: levels are complete (shuffling columns inside
// a level changes nothing), the executor is deterministic, pivots are handled per policy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "gpuglu/analysis.hpp"
#include "naive_schedule.hpp"
#include "cpu/column_executor.hpp"
#include "cpu/level_numeric.hpp"
#include "cpu/scatter.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {
namespace {


std::vector<double> scattered(const Schedule& s, const CsrMatrix<int32_t, double>& a) {
  std::vector<double> f(s.f_rowind.size());
  reference::scatter_values(s, a.values.data(), f.data());
  return f;
}

double max_rel_diff(const std::vector<double>& x, const std::vector<double>& y) {
  double num = 0.0, den = 0.0;
  for (size_t p = 0; p < x.size(); ++p) {
    num = std::max(num, std::fabs(x[p] - y[p]));
    den = std::max(den, std::fabs(y[p]));
  }
  return num / den;
}

std::vector<double> factor_shuffled(const Schedule& s, const CsrMatrix<int32_t, double>& a, uint64_t seed,
                                    bool reverse) {
  std::vector<int32_t> cols = s.level_cols;
  Rng rng(seed);
  for (int32_t l = 0; l < s.num_levels(); ++l) {
    auto b = cols.begin() + s.level_ptr[l], e = cols.begin() + s.level_ptr[l + 1];
    if (reverse) {
      std::reverse(b, e);
    } else {
      for (auto i = e - b - 1; i > 0; --i) std::swap(b[i], b[rng.below(static_cast<int32_t>(i + 1))]);
    }
  }
  std::vector<double> f = scattered(s, a);
  const NumericStats st = reference::factor_columns(s, s.level_ptr, cols, f.data(), PivotRule());
  EXPECT_EQ(st.status, Status::ok);
  return f;
}

// max relative difference between the sequential LU and any of several orders inside levels
double worst_shuffle_difference(const Schedule& s, const CsrMatrix<int32_t, double>& a) {
  std::vector<double> seq = scattered(s, a);
  EXPECT_EQ(reference::factor_columns_sequential(s, seq.data(), PivotRule()).status, Status::ok);
  double worst = max_rel_diff(factor_shuffled(s, a, 0, true), seq);
  for (uint64_t seed = 1; seed <= 4; ++seed) worst = std::max(worst, max_rel_diff(factor_shuffled(s, a, seed, false), seq));
  return worst;
}

struct Case {
  int32_t n;
  int32_t per_row;
  uint64_t seed;
  double diag_boost;
  bool permuted;  // rows scrambled and recovered by row_perm (as a matching would), scaled
};

struct Problem {
  CsrMatrix<int32_t, double> a;
  NaiveTransform t;
};

Problem problem_for(const Case& c) {
  Problem p{random_matrix(c.n, c.per_row, c.seed, c.diag_boost), {}};
  if (!c.permuted) return p;
  Rng rng(c.seed * 7 + 3);
  p.t.row_perm = random_permutation(c.n, rng);
  p.a = scramble_rows(p.a, p.t.row_perm);
  for (int32_t i = 0; i < c.n; ++i) {
    p.t.row_scale.push_back(std::ldexp(1.0, rng.below(9) - 4));
    p.t.col_scale.push_back(std::ldexp(1.0, rng.below(9) - 4));
  }
  return p;
}

const Case kCases[] = {
    {40, 2, 1, 1.5, false}, {80, 3, 2, 1.5, false}, {120, 3, 3, 0.4, false}, {150, 4, 4, 1.5, true},
    {200, 2, 5, 0.4, true}, {90, 5, 6, 0.0, false}, {60, 6, 7, 1.5, true},
};

TEST(LevelNumeric, shuffled_levels_match_sequential) {
  for (const Case& c : kCases) {
    SCOPED_TRACE("n=" + std::to_string(c.n) + " seed=" + std::to_string(c.seed));
    const Problem pr = problem_for(c);
    const auto& a = pr.a;
    const Schedule s = naive_schedule(a, pr.t);
    ASSERT_GT(s.num_levels(), 2);
    ASSERT_LT(s.num_levels(), c.n);  // some level holds several columns, or the test is void
    EXPECT_LE(worst_shuffle_difference(s, a), 1e-12);

    std::vector<double> seq = scattered(s, a);
    reference::factor_columns_sequential(s, seq.data(), PivotRule());
    std::vector<double> lev = scattered(s, a);
    const NumericStats st = reference::factor_levels(s, lev.data(), PivotRule(), 2);
    ASSERT_EQ(st.status, Status::ok);
    EXPECT_LE(max_rel_diff(lev, seq), 1e-12);
    std::vector<double> by_level = scattered(s, a);
    reference::factor_columns_by_level(s, by_level.data(), PivotRule());
    EXPECT_LE(max_rel_diff(lev, by_level), 1e-12);
  }
}

TEST(LevelNumeric, merged_dependent_levels_are_detected_by_shuffling) {
  int checked = 0;
  for (const Case& c : kCases) {
    const Problem pr = problem_for(c);
    const auto& a = pr.a;
    const Schedule s = naive_schedule(a, pr.t);
    const int32_t l = first_dependent_level_pair(s);
    if (l < 0) continue;
    const Schedule broken = merge_levels(s, l);
    EXPECT_GT(worst_shuffle_difference(broken, a), 1e-8) << "n=" << c.n << " seed=" << c.seed;
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST(LevelNumeric, bitwise_identical_for_1_2_4_threads) {
  const auto a = random_matrix(600, 4, 11, 0.5);
  const Schedule s = naive_schedule(a);
  std::vector<double> one = scattered(s, a);
  const NumericStats st1 = reference::factor_levels(s, one.data(), PivotRule(), 1);
  ASSERT_EQ(st1.status, Status::ok);
  for (int threads : {2, 4}) {
    std::vector<double> f = scattered(s, a);
    const NumericStats st = reference::factor_levels(s, f.data(), PivotRule(), threads);
    EXPECT_EQ(0, std::memcmp(f.data(), one.data(), f.size() * sizeof(double))) << threads << " threads";
    EXPECT_EQ(st.min_pivot_ratio, st1.min_pivot_ratio);
    EXPECT_EQ(st.max_active, st1.max_active);
  }
}

TEST(LevelNumeric, factor_reproduces_c) {
  // L U == C entry by entry (dense check on a small matrix with a permutation and scaling).
  const Case c{50, 3, 21, 0.5, true};
  const Problem pr = problem_for(c);
  const auto& a = pr.a;
  const NaiveTransform& t = pr.t;
  const Schedule s = naive_schedule(a, t);
  std::vector<double> f = scattered(s, a);
  ASSERT_EQ(reference::factor_levels(s, f.data(), PivotRule(), 2).status, Status::ok);
  const int32_t n = c.n;
  std::vector<double> l(static_cast<size_t>(n) * n, 0.0), u(l.size(), 0.0), cd(l.size(), 0.0);
  for (int32_t j = 0; j < n; ++j) {
    l[static_cast<size_t>(j) * n + j] = 1.0;
    for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p)
      (s.f_rowind[p] > j ? l : u)[static_cast<size_t>(s.f_rowind[p]) * n + j] = f[p];
  }
  double cmax = 0.0;
  for (int32_t r = 0; r < n; ++r) {
    for (int32_t q = a.rowptr[r]; q < a.rowptr[r + 1]; ++q) {
      const double v = t.row_scale[r] * a.values[q] * t.col_scale[a.colind[q]];
      cd[static_cast<size_t>(s.row_perm_inv[r]) * n + s.col_perm_inv[a.colind[q]]] = v;
      cmax = std::max(cmax, std::fabs(v));
    }
  }
  double worst = 0.0;
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t k = 0; k < n; ++k) {
      double sum = 0.0;
      for (int32_t m = 0; m < n; ++m) sum += l[static_cast<size_t>(i) * n + m] * u[static_cast<size_t>(m) * n + k];
      worst = std::max(worst, std::fabs(sum - cd[static_cast<size_t>(i) * n + k]));
    }
  }
  EXPECT_LE(worst, 1e-13 * cmax);
}

// [[1 1 0] [1 1 0] [0 0 2]] plus a copy of it on rows/columns 3..5: after eliminating
// column 0 the pivot of column 1 is exactly 0, and likewise column 4.
CsrMatrix<int32_t, double> two_singular_blocks(double d) {
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t o : {0, 3}) {
    t.push_back({o, o, 1.0});
    t.push_back({o, o + 1, 1.0});
    t.push_back({o + 1, o, 1.0});
    t.push_back({o + 1, o + 1, 1.0 + d});
    t.push_back({o + 2, o + 2, 2.0});
  }
  return csr_from_triplets<int32_t, double>(6, 6, t);
}

TEST(LevelNumeric, report_policy_names_the_smallest_tiny_pivot_column) {
  const auto a = two_singular_blocks(0.0);
  const Schedule s = naive_schedule(a);
  ASSERT_EQ(s.level_of[1], s.level_of[4]);
  for (int threads : {1, 2}) {
    std::vector<double> f = scattered(s, a);
    const NumericStats st = reference::factor_levels(s, f.data(), PivotRule(), threads);
    EXPECT_EQ(st.status, Status::numerically_singular);
    EXPECT_EQ(st.pivot_column, 1);
    EXPECT_EQ(st.pivot_value, 0.0);
  }
  std::vector<double> f = scattered(s, a);
  EXPECT_EQ(reference::factor_columns_sequential(s, f.data(), PivotRule()).pivot_column, 1);
}

TEST(LevelNumeric, relative_threshold_flags_a_tiny_but_nonzero_pivot) {
  const auto a = two_singular_blocks(1e-15);  // pivot 1e-15 against a column max of 1
  const Schedule s = naive_schedule(a);
  std::vector<double> f = scattered(s, a);
  PivotRule rule;
  rule.threshold = 1e-13;
  EXPECT_EQ(reference::factor_levels(s, f.data(), rule, 1).status, Status::numerically_singular);
  f = scattered(s, a);
  rule.threshold = 1e-16;
  EXPECT_EQ(reference::factor_levels(s, f.data(), rule, 1).status, Status::ok);
  f = scattered(s, a);
  rule.zero_pivot = 1e-14;  // PETSc's absolute zeropivot catches it again
  EXPECT_EQ(reference::factor_levels(s, f.data(), rule, 1).status, Status::numerically_singular);
}

TEST(LevelNumeric, perturb_policy_replaces_tiny_pivots_by_scaled_sign) {
  const auto a = two_singular_blocks(0.0);
  const Schedule s = naive_schedule(a);
  std::vector<double> f = scattered(s, a);
  PivotRule rule;
  rule.policy = PivotPolicy::perturb;
  const NumericStats st = reference::factor_levels(s, f.data(), rule, 2);
  EXPECT_EQ(st.status, Status::ok);
  EXPECT_EQ(st.perturbed_pivots, 2);
  EXPECT_EQ(st.min_pivot_ratio, 0.0);
  // Column 1 after the update: U(0,1) = 1, pivot 0, no L part: column max 1.
  EXPECT_EQ(f[s.f_diag[1]], rule.perturbation);
  EXPECT_EQ(f[s.f_diag[4]], rule.perturbation);
}

TEST(LevelNumeric, statistics_of_a_diagonal_matrix) {
  std::vector<Triplet<int32_t, double>> t{{0, 0, 4.0}, {1, 1, -2.0}, {2, 2, 0.5}};
  const auto a = csr_from_triplets<int32_t, double>(3, 3, t);
  const Schedule s = naive_schedule(a);
  EXPECT_EQ(s.num_levels(), 1);
  std::vector<double> f = scattered(s, a);
  const NumericStats st = reference::factor_levels(s, f.data(), PivotRule(), 1);
  EXPECT_EQ(st.min_pivot_ratio, 1.0);
  EXPECT_EQ(st.max_active, 4.0);
  EXPECT_EQ(f, std::vector<double>({4.0, -2.0, 0.5}));
}

TEST(LevelNumeric, overflow_during_elimination_fails_under_either_policy) {
  // L(1, 0) * U(0, 1) = 1e10 * 1e300 overflows in the update of column 1 (column 0 itself
  // passes the pivot test): no perturbation can make that factor usable.
  std::vector<Triplet<int32_t, double>> t{{0, 0, 1.0}, {0, 1, 1e300}, {1, 0, 1e10}, {1, 1, 1.0}};
  const auto a = csr_from_triplets<int32_t, double>(2, 2, t);
  const Schedule s = naive_schedule(a);
  for (PivotPolicy policy : {PivotPolicy::report, PivotPolicy::perturb}) {
    std::vector<double> f = scattered(s, a);
    PivotRule rule;
    rule.policy = policy;
    const NumericStats st = reference::factor_levels(s, f.data(), rule, 1);
    EXPECT_EQ(st.status, Status::numerically_singular);
    EXPECT_EQ(st.pivot_column, 1);
  }
}

TEST(LevelNumeric, scatter_finds_nan_and_inf_entries) {
  auto a = random_matrix(30, 3, 5);
  const Schedule s = naive_schedule(a);
  std::vector<double> f(s.f_rowind.size());
  EXPECT_EQ(reference::scatter_values(s, a.values.data(), f.data()).bad_entry, -1);
  a.values[17] = std::numeric_limits<double>::quiet_NaN();
  a.values[40] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(reference::scatter_values(s, a.values.data(), f.data()).bad_entry, 17);
  a.values[17] = 1.0;
  EXPECT_EQ(reference::scatter_values(s, a.values.data(), f.data()).bad_entry, 40);
}

TEST(LevelNumeric, missing_fill_entry_is_an_error_not_a_wrong_factor) {
  const auto a = random_matrix(80, 3, 9, 1.5);
  Schedule s = naive_schedule(a);
  // Find an update U(j, k) whose L(:, j) reaches the last row of column k, then drop that row.
  bool broken = false;
  for (int32_t j = 0; j < s.n && !broken; ++j) {
    if (s.f_colptr[j + 1] - 1 == s.f_diag[j]) continue;
    const int32_t last_l = s.f_rowind[s.f_colptr[j + 1] - 1];
    for (int64_t e = s.u_rowptr[j]; e < s.u_rowptr[j + 1] && !broken; ++e) {
      const int32_t k = s.u_colind[e];
      const int64_t last = s.f_colptr[k + 1] - 1;
      if (s.f_rowind[last] == last_l && last > s.f_diag[k]) {
        s.f_rowind[last] = s.n;  // still sorted, but (last_l, k) is gone
        broken = true;
      }
    }
  }
  ASSERT_TRUE(broken);
  std::vector<double> f = scattered(s, a);
  EXPECT_THROW(reference::factor_levels(s, f.data(), PivotRule(), 2), Error);
  f = scattered(s, a);
  EXPECT_THROW(reference::factor_columns_sequential(s, f.data(), PivotRule()), Error);
}

}  // namespace
}  // namespace gpuglu::test

namespace gpuglu::test {
namespace {

// The same checks on schedules from src/analysis: its levels must be complete for every
// ordering, with and without the matching (which permutes rows and scales).
TEST(LevelNumeric, analyzed_levels_shuffled_match_sequential) {
  int with_multi_column_levels = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    for (bool matching : {false, true}) {
      for (Ordering ordering : {Ordering::amd, Ordering::colamd, Ordering::metis, Ordering::natural}) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " matching " + std::to_string(matching) + " ordering " +
                     std::string(to_string(ordering)));
        auto a = random_matrix(300, 3, seed, seed % 2 ? 1.5 : 0.4);
        if (matching) {
          Rng rng(seed + 50);
          a = scramble_rows(a, random_permutation(a.nrows, rng));
        }
        Options o = column_analysis();
        o.matching = matching;
        o.scaling = matching;
        o.ordering = ordering;
        const Schedule s = analyze(a.view(), o);
        with_multi_column_levels += s.num_levels() < s.n;
        EXPECT_LE(worst_shuffle_difference(s, a), 1e-12);
        std::vector<double> seq = scattered(s, a);
        ASSERT_EQ(reference::factor_columns_sequential(s, seq.data(), PivotRule()).status, Status::ok);
        for (int threads : {1, 2}) {
          std::vector<double> lev = scattered(s, a);
          ASSERT_EQ(reference::factor_levels(s, lev.data(), PivotRule(), threads).status, Status::ok);
          EXPECT_LE(max_rel_diff(lev, seq), 1e-12);
        }
      }
    }
  }
  EXPECT_GT(with_multi_column_levels, 40);
}

TEST(LevelNumeric, analyzed_levels_merged_are_detected) {
  int checked = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const auto a = random_matrix(300, 3, seed, 1.5);
    Options o = column_analysis();
    o.matching = false;
    const Schedule s = analyze(a.view(), o);
    const int32_t l = first_dependent_level_pair(s);
    if (l < 0) continue;
    EXPECT_GT(worst_shuffle_difference(merge_levels(s, l), a), 1e-8);
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

}  // namespace
}  // namespace gpuglu::test
