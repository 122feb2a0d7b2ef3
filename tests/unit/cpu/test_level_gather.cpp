// The CPU backend's left-looking level executor: same factors as the sequential
// Algorithm 2 (up to rounding), bitwise reproducible across thread counts, and the
// same failure reporting as the right-looking executor.
#include <gtest/gtest.h>

#include <cstring>

#include "gpuglu/analysis.hpp"
#include "naive_schedule.hpp"
#include "cpu/column_executor.hpp"
#include "cpu/level_gather.hpp"
#include "cpu/level_numeric.hpp"
#include "cpu/scatter.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {
namespace {


std::vector<double> scattered_values(const Schedule& s, const CsrMatrix<int32_t, double>& a) {
  std::vector<double> f(s.f_rowind.size());
  reference::scatter_values(s, a.values.data(), f.data());
  return f;
}

double max_rel(const std::vector<double>& x, const std::vector<double>& y) {
  double scale = 0, diff = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    scale = std::max(scale, std::fabs(y[i]));
    diff = std::max(diff, std::fabs(x[i] - y[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

TEST(LevelGather, matches_sequential_and_right_looking_on_analyzed_schedules) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const auto a = random_matrix(400, 2 + static_cast<int32_t>(seed % 4), seed, seed % 2 ? 1.5 : 0.5);
    Options o = column_analysis();
    o.matching = seed % 3 != 0;
    const Schedule s = analyze(a.view(), o);
    std::vector<double> seq = scattered_values(s, a), rl = seq, lg = seq;
    ASSERT_EQ(reference::factor_columns_sequential(s, seq.data(), PivotRule()).status, Status::ok);
    ASSERT_EQ(reference::factor_levels(s, rl.data(), PivotRule(), 2).status, Status::ok);
    const NumericStats st = reference::factor_levels_gather(s, lg.data(), PivotRule(), 2);
    ASSERT_EQ(st.status, Status::ok);
    EXPECT_LE(max_rel(lg, seq), 1e-12) << "seed " << seed;
    EXPECT_LE(max_rel(lg, rl), 1e-12) << "seed " << seed;
  }
}

TEST(LevelGather, bitwise_identical_for_1_2_4_threads) {
  const auto a = random_matrix(800, 4, 17, 0.5);
  const Schedule s = analyze(a.view(), column_analysis());
  std::vector<double> one = scattered_values(s, a);
  const NumericStats st1 = reference::factor_levels_gather(s, one.data(), PivotRule(), 1);
  ASSERT_EQ(st1.status, Status::ok);
  for (int threads : {2, 4}) {
    std::vector<double> f = scattered_values(s, a);
    const NumericStats st = reference::factor_levels_gather(s, f.data(), PivotRule(), threads);
    EXPECT_EQ(0, std::memcmp(f.data(), one.data(), f.size() * sizeof(double))) << threads << " threads";
    EXPECT_EQ(st.min_pivot_ratio, st1.min_pivot_ratio);
    EXPECT_EQ(st.max_active, st1.max_active);
  }
}

TEST(LevelGather, reports_the_smallest_failing_column_like_the_level_executor) {
  // A singular matrix: two equal rows make a zero pivot appear during elimination.
  auto a = random_matrix(120, 3, 23, 1.5);
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) t.push_back({i, a.colind[p], a.values[p]});
  for (int32_t p = a.rowptr[5]; p < a.rowptr[6]; ++p) t.push_back({7, a.colind[p], 0.0});
  auto b = csr_from_triplets<int32_t, double>(a.nrows, a.ncols, t);
  for (int32_t p = b.rowptr[7], q = b.rowptr[5]; p < b.rowptr[8]; ++p) {
    while (q < b.rowptr[6] && b.colind[q] < b.colind[p]) ++q;
    b.values[p] = (q < b.rowptr[6] && b.colind[q] == b.colind[p]) ? b.values[q] : 0.0;
  }
  Options o = column_analysis();
  o.matching = false;
  const Schedule s = analyze(b.view(), o);
  std::vector<double> f1 = scattered_values(s, b), f2 = f1;
  const NumericStats rl = reference::factor_levels(s, f1.data(), PivotRule(), 1);
  const NumericStats lg = reference::factor_levels_gather(s, f2.data(), PivotRule(), 2);
  ASSERT_EQ(rl.status, Status::numerically_singular);
  EXPECT_EQ(lg.status, Status::numerically_singular);
  EXPECT_EQ(lg.pivot_column, rl.pivot_column);
}

TEST(LevelGather, missing_fill_entry_is_an_error) {
  const auto a = random_matrix(200, 3, 5, 1.5);
  Schedule s = naive_schedule(a);
  // Take an entry an update needs out of its column (its row index becomes -1): the
  // gather must notice that the update has nowhere to go instead of dropping it.
  int32_t col = -1;
  for (int32_t j = 0; j < s.n && col < 0; ++j)
    if (s.f_colptr[j + 1] - s.f_diag[j] > 2 && s.u_rowptr[j + 1] > s.u_rowptr[j]) col = j;
  ASSERT_GE(col, 0);
  // Entry F(r, k) for the first subcolumn k of col, with r = the last row of L(:, col).
  const int32_t k = s.u_colind[s.u_rowptr[col]];
  const int32_t r = s.f_rowind[s.f_colptr[col + 1] - 1];
  const auto first = s.f_rowind.begin() + s.f_colptr[k];
  const auto last = s.f_rowind.begin() + s.f_colptr[k + 1];
  const auto it = std::lower_bound(first, last, r);
  ASSERT_TRUE(it != last && *it == r);
  // Erase the entry from column k (r lies below k's diagonal, so diag[k] stays): the
  // gather reads only f_colptr, f_rowind and f_diag, which stay consistent.
  const int64_t pos = it - s.f_rowind.begin();
  s.f_rowind.erase(s.f_rowind.begin() + pos);
  for (int32_t c = k + 1; c <= s.n; ++c) --s.f_colptr[c];
  for (int32_t c = k + 1; c < s.n; ++c) --s.f_diag[c];
  std::vector<double> f(s.f_rowind.size(), 1.0);
  for (int32_t j = 0; j < s.n; ++j) f[s.f_diag[j]] = 4.0;
  EXPECT_THROW(reference::factor_levels_gather(s, f.data(), PivotRule(), 1), Error);
}

}  // namespace
}  // namespace gpuglu::test
