// The max-product matching (MC64 job 5): the matched, scaled matrix has a unit diagonal that dominates
// every column and row (|c_ij| <= 1); orderings are permutations; PETSc's ordering is used as given.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "gpuglu/analysis.hpp"
#include "analysis_test_support.hpp"

namespace gpuglu::test {
namespace {

bool is_permutation_of_n(const std::vector<int32_t>& p, int32_t n) {
  std::vector<int32_t> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  for (int32_t i = 0; i < n; ++i)
    if (sorted[i] != i) return false;
  return static_cast<int32_t>(p.size()) == n;
}

TEST(Matching, mc64_puts_a_unit_dominant_diagonal_on_c) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const auto a = scrambled_matrix(300, 4, seed);  // mostly structurally zero diagonal
    const Schedule s = analyze(a.view(), column_analysis());
    ASSERT_TRUE(s.matched);
    ASSERT_TRUE(s.scaled);
    ASSERT_TRUE(is_permutation_of_n(s.row_perm, s.n));
    ASSERT_TRUE(is_permutation_of_n(s.col_perm, s.n));
    for (int32_t r = 0; r < a.nrows; ++r)
      for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
        const double c = std::fabs(a.values[p]) * s.value_scale[p];
        EXPECT_LE(c, 1.0 + 1e-12);
        if (s.row_perm_inv[r] == s.col_perm_inv[a.colind[p]]) EXPECT_NEAR(c, 1.0, 1e-12);
      }
  }
}

// Rows and columns scaled by powers of ten up to 10^+-300: the scaling must undo them
// with scales that are normal doubles (none clamped, none given up), C unit-dominant.
TEST(Matching, scales_of_badly_scaled_matrices_are_normal_and_make_c_unit_dominant) {
  const int32_t n = 200;
  struct Case {
    const char* name;
    int32_t row_lo, row_hi, col_lo, col_hi;
  };
  const Case cases[] = {{"rows 1e+-180", -180, 180, 0, 0},      {"rows 1e+-300", -300, 300, 0, 0},
                        {"columns 1e+-180", 0, 0, -180, 180},   {"columns 1e+-300", 0, 0, -300, 300},
                        {"rows 1e+-150, columns 1e+-150", -150, 150, -150, 150},
                        {"rows 1e-300..1, columns 1..1e300", -300, 0, 0, 300},
                        {"rows 1..1e300, columns 1e-300..1", 0, 300, -300, 0}};
  for (const Case& c : cases) {
    for (uint64_t seed = 1; seed <= 2; ++seed) {
      SCOPED_TRACE(std::string(c.name) + " seed " + std::to_string(seed));
      Rng rng(seed + 31);
      const std::vector<int32_t> row_exp = random_exponents(n, c.row_lo, c.row_hi, rng);
      const std::vector<int32_t> col_exp = random_exponents(n, c.col_lo, c.col_hi, rng);
      const auto a = scaled_by_powers_of_ten(scrambled_matrix(n, 4, seed), row_exp, col_exp);
      const Schedule s = analyze(a.view(), column_analysis());
      ASSERT_TRUE(s.scaled);
      EXPECT_EQ(s.scales_clamped, 0);
      for (int32_t i = 0; i < n; ++i) {
        EXPECT_TRUE(std::isnormal(s.row_scale[i]) && s.row_scale[i] > 0) << "row " << i << ": " << s.row_scale[i];
        EXPECT_TRUE(std::isnormal(s.col_scale[i]) && s.col_scale[i] > 0) << "column " << i << ": " << s.col_scale[i];
      }
      for (int32_t r = 0; r < n; ++r)
        for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
          ASSERT_TRUE(std::isnormal(s.value_scale[p])) << s.value_scale[p];
          const double cv = std::fabs(a.values[p]) * s.value_scale[p];
          EXPECT_LE(cv, 1.0 + 1e-12);
          if (s.row_perm_inv[r] == s.col_perm_inv[a.colind[p]]) EXPECT_NEAR(cv, 1.0, 1e-12);
        }
    }
  }
}

// Unit diagonal, 1e300 below it: C(i+1, i) <= 1 needs r_{i+1} <= r_i / 1e300 (s_i = 1 / r_i),
// so any scaling spans 1e300^(n-1) and no shift fits it in the double range. The scales that
// cannot be represented are clamped, the rest kept, and value_scale stays finite even at the
// explicit zero A(0, n-1), whose exact r_0 * s_{n-1} >= 1e1500 overflows.
TEST(Matching, unrepresentable_scales_are_clamped_and_counted_not_dropped) {
  const int32_t n = 6;
  std::vector<Triplet<int32_t, double>> t{{0, n - 1, 0.0}};
  for (int32_t i = 0; i < n; ++i) {
    t.push_back({i, i, 1.0});
    if (i + 1 < n) t.push_back({i + 1, i, 1e300});
  }
  const auto a = csr_from_triplets<int32_t, double>(n, n, t);
  const Schedule s = analyze(a.view(), column_analysis());
  ASSERT_TRUE(s.scaled);
  EXPECT_GT(s.scales_clamped, 0);
  EXPECT_LT(s.scales_clamped, 2 * n);
  for (int32_t i = 0; i < n; ++i) {
    EXPECT_TRUE(std::isnormal(s.row_scale[i])) << s.row_scale[i];
    EXPECT_TRUE(std::isnormal(s.col_scale[i])) << s.col_scale[i];
  }
  for (int32_t r = 0; r < n; ++r)
    for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
      ASSERT_TRUE(std::isfinite(s.value_scale[p])) << s.value_scale[p];
      EXPECT_GT(s.value_scale[p], 0.0);
      EXPECT_TRUE(std::isfinite(a.values[p] * s.value_scale[p]));
    }
  // The diagonal is still matched and scaled to 1: clamping moved r_i and s_i together.
  for (int32_t i = 0; i < n; ++i) EXPECT_NEAR(s.row_scale[i] * s.col_scale[i], 1.0, 1e-12) << i;
}

TEST(Matching, off_keeps_the_rows_and_values) {
  const auto a = random_matrix(200, 3, 2);
  Options o = column_analysis();
  o.matching = false;
  const Schedule s = analyze(a.view(), o);
  EXPECT_FALSE(s.matched);
  EXPECT_FALSE(s.scaled);
  EXPECT_EQ(s.row_perm, s.col_perm);  // symmetric ordering of A itself
  for (double v : s.value_scale) EXPECT_EQ(v, 1.0);
}

TEST(Matching, matching_without_scaling) {
  const auto a = scrambled_matrix(200, 3, 4);
  Options o = column_analysis();
  o.scaling = false;
  const Schedule s = analyze(a.view(), o);
  EXPECT_TRUE(s.matched);
  EXPECT_FALSE(s.scaled);
  for (double v : s.value_scale) EXPECT_EQ(v, 1.0);
  for (int32_t k = 0; k < s.n; ++k) {  // the matched diagonal is structurally present in A
    const int32_t r = s.row_perm[k], c = s.col_perm[k];
    EXPECT_TRUE(std::binary_search(a.colind.begin() + a.rowptr[r], a.colind.begin() + a.rowptr[r + 1], c));
  }
}

TEST(Ordering, every_ordering_gives_permutations) {
  const auto a = scrambled_matrix(300, 3, 8);
  for (Ordering ordering : {Ordering::amd, Ordering::colamd, Ordering::metis, Ordering::natural}) {
    Options o = column_analysis();
    o.ordering = ordering;
    const Schedule s = analyze(a.view(), o);
    EXPECT_EQ(s.ordering, ordering);
    EXPECT_TRUE(is_permutation_of_n(s.col_perm, s.n)) << to_string(ordering);
    EXPECT_TRUE(is_permutation_of_n(s.row_perm, s.n)) << to_string(ordering);
  }
}

TEST(Ordering, given_permutation_is_applied_symmetrically_after_matching) {
  const auto a = random_matrix(100, 3, 6);
  std::vector<int32_t> q(100);
  std::iota(q.rbegin(), q.rend(), 0);  // reversed
  Options o = column_analysis();
  o.ordering = Ordering::given;
  o.matching = false;
  const Schedule s = analyze(a.view(), o, q.data());
  EXPECT_EQ(s.col_perm, q);
  EXPECT_EQ(s.row_perm, q);
}

TEST(Ordering, given_ordering_must_be_a_permutation) {
  const auto a = random_matrix(10, 2, 1);
  std::vector<int32_t> q{0, 1, 2, 3, 4, 5, 6, 7, 8, 8};
  Options o = column_analysis();
  o.ordering = Ordering::given;
  try {
    analyze(a.view(), o, q.data());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_input);
    EXPECT_NE(std::string(e.what()).find("not a permutation"), std::string::npos) << e.what();
  }
  EXPECT_THROW(analyze(a.view(), o, nullptr), Error);
}

TEST(Analysis, times_are_reported_per_stage) {
  const auto a = scrambled_matrix(3000, 3, 21);
  const Schedule s = analyze(a.view(), column_analysis());
  EXPECT_GE(s.times.matching_ms, 0.0);
  EXPECT_GT(s.times.total_ms, 0.0);
  EXPECT_NEAR(s.times.total_ms, s.times.matching_ms + s.times.ordering_ms + s.times.symbolic_ms + s.times.levels_ms,
              1e-9);
}

}  // namespace
}  // namespace gpuglu::test

#include "analysis/max_product_matching.hpp"

namespace gpuglu::test {
namespace {

// On tiny dense-ish matrices every permutation can be tried: the matching must reach
// the largest product of |a_{pi(j), j}|, and the scaled matrix must be unit-dominant.
TEST(Matching, max_product_matching_is_optimal_by_brute_force) {
  Rng rng(99);
  for (int trial = 0; trial < 200; ++trial) {
    const int32_t n = 2 + rng.below(6);
    std::vector<std::vector<double>> dense(n, std::vector<double>(n, 0.0));
    for (int32_t i = 0; i < n; ++i)
      for (int32_t j = 0; j < n; ++j)
        if (rng.uniform() < 0.6) dense[i][j] = std::exp(8.0 * rng.symmetric()) * (rng.uniform() < 0.5 ? -1 : 1);
    std::vector<int32_t> colptr{0}, rowind;
    std::vector<double> values;
    for (int32_t j = 0; j < n; ++j) {
      for (int32_t i = 0; i < n; ++i)
        if (dense[i][j] != 0.0) rowind.push_back(i), values.push_back(dense[i][j]);
      colptr.push_back(static_cast<int32_t>(rowind.size()));
    }
    std::vector<int32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    double best = -1.0;
    do {
      double prod = 1.0;
      for (int32_t j = 0; j < n; ++j) prod *= std::fabs(dense[perm[j]][j]);
      best = std::max(best, prod);
    } while (std::next_permutation(perm.begin(), perm.end()));

    analysis::ProductMatching m;
    const bool found = analysis::max_product_matching(n, colptr.data(), rowind.data(), values.data(), m);
    ASSERT_EQ(found, best > 0.0) << "trial " << trial;
    if (!found) continue;
    double prod = 1.0;
    for (int32_t j = 0; j < n; ++j) prod *= std::fabs(dense[m.row_of_col[j]][j]);
    EXPECT_NEAR(prod / best, 1.0, 1e-9) << "trial " << trial;
    for (int32_t j = 0; j < n; ++j)
      for (int32_t i = 0; i < n; ++i) {
        const double c = std::fabs(dense[i][j]) * m.row_scale[i] * m.col_scale[j];
        EXPECT_LE(c, 1.0 + 1e-9);
        if (i == m.row_of_col[j]) EXPECT_NEAR(c, 1.0, 1e-9);
      }
  }
}

}  // namespace
}  // namespace gpuglu::test
