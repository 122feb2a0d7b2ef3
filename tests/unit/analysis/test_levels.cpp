// GLU3.0's relaxed dependency detection must find every dependency GLU2.0's exact
// double-U detection (paper Algorithm 3, implemented here as the check) finds, so its
// level count is at least GLU2.0's, and should be close to it. The update lists must
// hold each right-looking update exactly once, in the level of its source.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <utility>

#include "gpuglu/analysis.hpp"
#include "analysis_test_support.hpp"

namespace gpuglu::test {
namespace {

bool has_l(const Schedule& s, int32_t i) { return s.f_colptr[i + 1] - s.f_diag[i] > 1; }

// Dependencies i -> t (t depends on i) of GLU2.0: the updates (U(i, t) != 0 with a
// nonempty L(:, i)) plus the double-U ones of Algorithm 3, on F's pattern.
std::vector<std::pair<int32_t, int32_t>> exact_dependencies(const Schedule& s) {
  const int32_t n = s.n;
  std::vector<std::set<int32_t>> row(static_cast<size_t>(n));  // all nonzero columns of row i of F
  for (int32_t c = 0; c < n; ++c)
    for (int64_t p = s.f_colptr[c]; p < s.f_colptr[c + 1]; ++p) row[s.f_rowind[p]].insert(c);
  std::set<std::pair<int32_t, int32_t>> deps;
  for (int32_t k = 0; k < n; ++k)
    for (int64_t p = s.f_colptr[k]; p < s.f_diag[k]; ++p)
      if (has_l(s, s.f_rowind[p])) deps.insert({s.f_rowind[p], k});
  for (int32_t i = 0; i < n; ++i) {
    for (int64_t p = s.f_diag[i] + 1; p < s.f_colptr[i + 1]; ++p) {  // t with F(t, i) != 0, t > i
      const int32_t t = s.f_rowind[p];
      std::vector<int32_t> js{t};
      for (int64_t q = s.f_diag[t] + 1; q < s.f_colptr[t + 1]; ++q) js.push_back(s.f_rowind[q]);
      bool found = false;
      for (int32_t j : js) {
        for (auto it = row[i].upper_bound(t); it != row[i].end() && !found; ++it) found = row[j].count(*it) > 0;
        if (found) break;
      }
      if (found) deps.insert({i, t});
    }
  }
  return {deps.begin(), deps.end()};
}

int32_t levels_of(int32_t n, const std::vector<std::pair<int32_t, int32_t>>& deps) {
  std::vector<int32_t> level(static_cast<size_t>(n), 0);
  auto sorted = deps;
  std::sort(sorted.begin(), sorted.end(), [](auto a, auto b) { return a.second < b.second; });
  int32_t most = n > 0 ? 1 : 0;
  for (auto [i, t] : sorted) {
    level[t] = std::max(level[t], level[i] + 1);
    most = std::max(most, level[t] + 1);
  }
  return most;
}

TEST(Levels, relaxed_detection_covers_glu2_and_stays_close) {
  int64_t relaxed_total = 0, exact_total = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    for (bool matching : {false, true}) {
      const auto a = matching ? scrambled_matrix(250, 2 + static_cast<int32_t>(seed % 3), seed) : random_matrix(250, 2 + static_cast<int32_t>(seed % 3), seed);
      Options o = column_analysis();
      o.matching = matching;
      const Schedule s = analyze(a.view(), o);
      const auto exact = exact_dependencies(s);
      for (auto [i, t] : exact) ASSERT_LT(s.level_of[i], s.level_of[t]) << "missed dependency " << i << " -> " << t;
      const int32_t exact_levels = levels_of(s.n, exact);
      EXPECT_GE(s.num_levels(), exact_levels);
      EXPECT_LE(s.num_levels(), exact_levels + exact_levels / 4 + 2) << "seed " << seed;
      relaxed_total += s.num_levels();
      exact_total += exact_levels;
    }
  }
  std::printf("levels: relaxed (GLU3.0) %lld, exact (GLU2.0) %lld over 20 matrices\n",
              static_cast<long long>(relaxed_total), static_cast<long long>(exact_total));
}

TEST(Levels, levels_partition_the_columns_in_ascending_order) {
  const auto a = random_matrix(400, 3, 5);
  const Schedule s = analyze(a.view(), column_analysis());
  ASSERT_EQ(s.level_ptr.front(), 0);
  ASSERT_EQ(s.level_ptr.back(), s.n);
  std::vector<int> seen(static_cast<size_t>(s.n), 0);
  for (int32_t l = 0; l < s.num_levels(); ++l) {
    ASSERT_LT(s.level_ptr[l], s.level_ptr[l + 1]) << "empty level " << l;
    for (int64_t c = s.level_ptr[l]; c < s.level_ptr[l + 1]; ++c) {
      EXPECT_EQ(s.level_of[s.level_cols[c]], l);
      if (c > s.level_ptr[l]) EXPECT_LT(s.level_cols[c - 1], s.level_cols[c]);
      ++seen[s.level_cols[c]];
    }
  }
  for (int v : seen) EXPECT_EQ(v, 1);
}

TEST(Levels, update_lists_hold_every_update_once_in_its_source_level) {
  const auto a = scrambled_matrix(300, 3, 9);
  const Schedule s = analyze(a.view(), column_analysis());
  std::set<std::pair<int32_t, int32_t>> expected, listed;
  for (int32_t k = 0; k < s.n; ++k)
    for (int64_t p = s.f_colptr[k]; p < s.f_diag[k]; ++p)
      if (has_l(s, s.f_rowind[p])) expected.insert({s.f_rowind[p], k});
  ASSERT_EQ(static_cast<int32_t>(s.level_target_ptr.size()), s.num_levels() + 1);
  for (int32_t l = 0; l < s.num_levels(); ++l) {
    for (int64_t t = s.level_target_ptr[l]; t < s.level_target_ptr[l + 1]; ++t) {
      const int32_t k = s.target_col[t];
      if (t > s.level_target_ptr[l]) EXPECT_LT(s.target_col[t - 1], k);
      EXPECT_GT(s.level_of[k], l);
      for (int64_t e = s.target_src_ptr[t]; e < s.target_src_ptr[t + 1]; ++e) {
        const int64_t pos = s.target_src[e];
        const int32_t j = s.f_rowind[pos];
        ASSERT_GE(pos, s.f_colptr[k]);
        ASSERT_LT(pos, s.f_diag[k]);
        EXPECT_EQ(s.level_of[j], l);
        if (e > s.target_src_ptr[t]) EXPECT_LT(s.target_src[e - 1], pos);
        EXPECT_TRUE(listed.insert({j, k}).second) << "update " << j << " -> " << k << " listed twice";
      }
    }
  }
  EXPECT_EQ(listed, expected);
}

TEST(Levels, kernel_modes_follow_the_thresholds) {
  const auto a = random_matrix(2000, 2, 13);
  Options o = column_analysis();
  o.modes.stream_max_columns = 16;
  o.modes.total_warps = 4096;
  const Schedule s = analyze(a.view(), o);
  for (int32_t l = 0; l < s.num_levels(); ++l) {
    const int64_t size = s.level_ptr[l + 1] - s.level_ptr[l];
    if (size <= 16) {
      EXPECT_EQ(s.level_mode[l], KernelMode::stream);
    } else if (4096 / size >= 32) {
      EXPECT_EQ(s.level_mode[l], KernelMode::large_block);
      EXPECT_EQ(s.level_warps[l], 32);
    } else {
      EXPECT_EQ(s.level_mode[l], KernelMode::small_block);
      const int32_t w = s.level_warps[l];
      EXPECT_TRUE(w == 2 || w == 4 || w == 8 || w == 16) << w;
      EXPECT_LE(w, std::max<int64_t>(2, 4096 / size));
    }
  }
  EXPECT_EQ(s.levels_in_mode(KernelMode::stream) + s.levels_in_mode(KernelMode::large_block) +
                s.levels_in_mode(KernelMode::small_block),
            s.num_levels());
  EXPECT_GT(s.levels_in_mode(KernelMode::small_block), 0);
}

TEST(Levels, bad_kernel_mode_thresholds_are_rejected) {
  const auto a = random_matrix(50, 2, 1);
  Options o = column_analysis();
  o.modes.max_warps = 64;
  EXPECT_THROW(analyze(a.view(), o), Error);
}

TEST(Levels, bad_update_launch_shapes_are_rejected) {
  const auto a = random_matrix(50, 2, 1);
  for (const auto& [threads, rows] : {std::pair{100, 4}, std::pair{16, 4}, std::pair{2048, 4}, std::pair{128, 0}}) {
    Options o = column_analysis();
    o.modes.max_block_threads = threads;
    o.modes.rows_per_thread = rows;
    EXPECT_THROW(analyze(a.view(), o), Error) << threads << " threads, " << rows << " rows per thread";
  }
  Options ok = column_analysis();
  ok.modes.max_block_threads = 1024;
  ok.modes.rows_per_thread = 1;
  EXPECT_NO_THROW(analyze(a.view(), ok));
}

}  // namespace
}  // namespace gpuglu::test
