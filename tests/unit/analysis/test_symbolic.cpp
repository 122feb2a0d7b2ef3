// The symbolic factorization (DFS with symmetric pruning) must give exactly the pattern
// of a dense boolean elimination under the same permutations, and the value map must
// put every input entry where C says it belongs.
#include <gtest/gtest.h>

#include "gpuglu/analysis.hpp"
#include "naive_schedule.hpp"
#include "analysis_test_support.hpp"

namespace gpuglu::test {
namespace {

void expect_same_pattern(const Schedule& s, const Schedule& naive) {
  ASSERT_EQ(s.n, naive.n);
  ASSERT_EQ(s.f_colptr, naive.f_colptr);
  ASSERT_EQ(s.f_rowind, naive.f_rowind);
  EXPECT_EQ(s.f_diag, naive.f_diag);
  EXPECT_EQ(s.nnz_l, naive.nnz_l);
  EXPECT_EQ(s.nnz_u, naive.nnz_u);
}

TEST(Symbolic, matches_dense_boolean_elimination_on_random_patterns) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    for (Ordering ordering : {Ordering::amd, Ordering::natural, Ordering::colamd, Ordering::metis}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " ordering " + std::string(to_string(ordering)));
      const auto a = random_matrix(120 + 10 * static_cast<int32_t>(seed), 1 + static_cast<int32_t>(seed % 4), seed);
      Options o = column_analysis();
      o.ordering = ordering;
      o.matching = seed % 2 == 0;
      const Schedule s = analyze(a.view(), o);
      NaiveTransform t;
      t.row_perm = s.row_perm;
      t.col_perm = s.col_perm;
      expect_same_pattern(s, naive_schedule(a, t));
    }
  }
}

TEST(Symbolic, value_map_places_every_entry_of_c) {
  const auto a = scrambled_matrix(200, 3, 7);  // zero diagonals: the matching permutes rows
  const Schedule s = analyze(a.view(), column_analysis());
  ASSERT_TRUE(s.matched);
  ASSERT_EQ(static_cast<int32_t>(s.value_map.size()), a.nnz());
  for (int32_t r = 0; r < a.nrows; ++r)
    for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
      const int32_t c = a.colind[p];
      const int64_t pos = s.value_map[p];
      const int32_t l = s.col_perm_inv[c];
      ASSERT_GE(pos, s.f_colptr[l]);
      ASSERT_LT(pos, s.f_colptr[l + 1]);
      EXPECT_EQ(s.f_rowind[pos], s.row_perm_inv[r]);
      EXPECT_DOUBLE_EQ(s.value_scale[p], s.row_scale[r] * s.col_scale[c]);
    }
}

TEST(Symbolic, row_views_list_the_factor_entries_by_rows) {
  const auto a = random_matrix(150, 3, 3);
  const Schedule s = analyze(a.view(), column_analysis());
  int64_t upper = 0, lower = 0;
  for (int32_t i = 0; i < s.n; ++i) {
    for (int64_t e = s.u_rowptr[i]; e < s.u_rowptr[i + 1]; ++e) {
      EXPECT_GT(s.u_colind[e], i);
      EXPECT_EQ(s.f_rowind[s.u_pos[e]], i);
      EXPECT_LT(s.u_pos[e], s.f_diag[s.u_colind[e]]);
      if (e > s.u_rowptr[i]) EXPECT_LT(s.u_colind[e - 1], s.u_colind[e]);
    }
    for (int64_t e = s.l_rowptr[i]; e < s.l_rowptr[i + 1]; ++e) {
      EXPECT_LT(s.l_colind[e], i);
      EXPECT_EQ(s.f_rowind[s.l_pos[e]], i);
      EXPECT_GT(s.l_pos[e], s.f_diag[s.l_colind[e]]);
    }
    upper += s.u_rowptr[i + 1] - s.u_rowptr[i];
    lower += s.l_rowptr[i + 1] - s.l_rowptr[i];
  }
  EXPECT_EQ(upper + s.n, s.nnz_u);
  EXPECT_EQ(lower, s.nnz_l);
}

// Operations of a right-looking elimination on a dense boolean copy of the pattern: column k
// divides each L(i, k) by the pivot and updates F(i, j) -= L(i, k) * U(k, j) for every U(k, j),
// j > k. fill adds the updated entries to the pattern (complete LU); without it the pattern
// stays fixed (ILU, where the schedule counts the dropped updates too).
double dense_elimination_flops(std::vector<std::vector<char>> f, bool fill) {
  const size_t n = f.size();
  double flops = 0.0;
  for (size_t k = 0; k < n; ++k)
    for (size_t i = k + 1; i < n; ++i) {
      if (!f[i][k]) continue;
      flops += 1.0;
      for (size_t j = k + 1; j < n; ++j)
        if (f[k][j]) {
          flops += 2.0;
          if (fill) f[i][j] = 1;
        }
    }
  return flops;
}

TEST(Symbolic, factor_flops_count_a_dense_elimination_of_c) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const auto a = scrambled_matrix(60, 3, seed);
    const Schedule s = analyze(a.view(), column_analysis());
    std::vector<std::vector<char>> c(static_cast<size_t>(s.n), std::vector<char>(static_cast<size_t>(s.n), 0));
    for (int32_t r = 0; r < a.nrows; ++r)
      for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) c[s.row_perm_inv[r]][s.col_perm_inv[a.colind[p]]] = 1;
    const double expected = dense_elimination_flops(c, /*fill=*/true);
    EXPECT_GT(expected, 0.0);
    EXPECT_EQ(s.factor_flops, expected);
  }
  // A dense n x n matrix: sum over m = 0..n-1 of m divisions and m^2 multiply-adds.
  const int32_t n = 7;
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = 0; j < n; ++j) t.push_back({i, j, i == j ? 10.0 : 1.0});
  const auto dense = csr_from_triplets<int32_t, double>(n, n, t);
  EXPECT_EQ(analyze(dense.view(), column_analysis()).factor_flops, n * (n - 1) / 2 + (n - 1) * n * (2 * n - 1) / 3);
}

TEST(Symbolic, ilu_factor_flops_count_every_update_of_the_fixed_pattern) {
  const auto a = random_matrix(80, 3, 5);
  for (int32_t levels : {0, 1, 2}) {
    SCOPED_TRACE("levels " + std::to_string(levels));
    Options o = column_analysis();
    o.ilu_levels = levels;
    const Schedule s = analyze(a.view(), o);
    ASSERT_TRUE(s.incomplete);
    std::vector<std::vector<char>> f(static_cast<size_t>(s.n), std::vector<char>(static_cast<size_t>(s.n), 0));
    for (int32_t j = 0; j < s.n; ++j)
      for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p) f[s.f_rowind[p]][j] = 1;
    EXPECT_EQ(s.factor_flops, dense_elimination_flops(f, /*fill=*/false));
  }
}

TEST(Symbolic, int64_input_gives_the_same_schedule) {
  const auto a = scrambled_matrix(180, 4, 11);
  const auto a64 = convert_indices<int64_t>(a.view());
  const Schedule s32 = analyze(a.view(), column_analysis());
  const Schedule s64 = analyze(a64.view(), column_analysis());
  EXPECT_EQ(s32.row_perm, s64.row_perm);
  EXPECT_EQ(s32.col_perm, s64.col_perm);
  EXPECT_EQ(s32.f_rowind, s64.f_rowind);
  EXPECT_EQ(s32.level_of, s64.level_of);
  EXPECT_EQ(s32.value_map, s64.value_map);
}

TEST(Symbolic, fill_reducing_orderings_beat_natural_on_a_grid) {
  // 2-D 5-point Laplacian on a 30 x 30 grid: natural order fills the band completely.
  const int32_t m = 30, n = m * m;
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t y = 0; y < m; ++y)
    for (int32_t x = 0; x < m; ++x) {
      const int32_t i = y * m + x;
      t.push_back({i, i, 4.0});
      if (x > 0) t.push_back({i, i - 1, -1.0});
      if (x + 1 < m) t.push_back({i, i + 1, -1.0});
      if (y > 0) t.push_back({i, i - m, -1.0});
      if (y + 1 < m) t.push_back({i, i + m, -1.0});
    }
  const auto a = csr_from_triplets<int32_t, double>(n, n, t);
  Options o = column_analysis();
  o.ordering = Ordering::natural;
  const int64_t natural = analyze(a.view(), o).nnz_factor();
  for (Ordering ordering : {Ordering::amd, Ordering::metis, Ordering::colamd}) {
    o.ordering = ordering;
    EXPECT_LT(analyze(a.view(), o).nnz_factor(), natural * 3 / 4) << to_string(ordering);
  }
}

}  // namespace
}  // namespace gpuglu::test
