// trsv::analyze against naive computations: levels by fixed-point relaxation, jlev a
// topological order grouped by level, dependency counts, the CSC map; the kernel shape
// (group size, warp tasks) and the auto rule; every validation error by its status.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "gpuglu/status.hpp"
#include "gpuglu/trsv_kernel.hpp"
#include "analysis/kernel_choice.hpp"
#include "analysis/trsv_analysis.hpp"
#include "trsv_test_support.hpp"

namespace gpuglu::test {
namespace {

using trsv::Diag;
using trsv::Fill;

// Longest-path levels by relaxing every edge until nothing changes (O(n * nnz)).
std::vector<int32_t> naive_levels(const trsv::TriangleView& t) {
  std::vector<int32_t> lev(t.n, 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (int32_t i = 0; i < t.n; ++i)
      for (int64_t k = t.rowptr[i]; k < t.rowptr[i + 1]; ++k) {
        const int32_t j = t.colind[k];
        if (j != i && lev[j] + 1 > lev[i]) {
          lev[i] = lev[j] + 1;
          changed = true;
        }
      }
  }
  return lev;
}

struct Case {
  std::string name;
  trsv::Triangle t;
};

std::vector<Case> cases() {
  std::vector<Case> c;
  c.push_back({"random_lower_stored", random_triangle(300, 4, Fill::lower, Diag::stored, 1)});
  c.push_back({"random_upper_unit", random_triangle(300, 4, Fill::upper, Diag::unit, 2)});
  c.push_back({"random_upper_stored", random_triangle(257, 9, Fill::upper, Diag::stored, 3)});
  c.push_back({"chain_lower", chain_triangle(100, Fill::lower, Diag::stored)});
  c.push_back({"chain_upper_unit", chain_triangle(100, Fill::upper, Diag::unit)});
  c.push_back({"diagonal", diagonal_triangle(50, Diag::stored)});
  c.push_back({"identity", diagonal_triangle(50, Diag::unit)});
  c.push_back({"lap2d5_lower", spec_triangle("lap2d5:9x7", Fill::lower, Diag::stored)});
  c.push_back({"lap2d9_upper", spec_triangle("lap2d9:6x8", Fill::upper, Diag::stored)});
  c.push_back({"lap3d27_lower_unit", spec_triangle("lap3d27:4x5x3", Fill::lower, Diag::unit)});
  return c;
}

TEST(TrsvAnalysis, levels_match_naive_relaxation) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const trsv::TrsvAnalysis a = trsv::analyze(c.t.view());
    const std::vector<int32_t> naive = naive_levels(c.t.view());
    EXPECT_EQ(a.level, naive);
    EXPECT_EQ(a.num_levels, c.t.n > 0 ? *std::max_element(naive.begin(), naive.end()) + 1 : 0);
  }
}

TEST(TrsvAnalysis, laplacian_level_counts_follow_li_section_4_1) {
  // nlev = nx + ny - 1 for 2-D 5-point, nx + ny + nz - 2 for 3-D 7-point (Li, Sec. 4.1).
  EXPECT_EQ(trsv::analyze(spec_triangle("lap2d5:13x7", Fill::lower, Diag::stored).view()).num_levels, 13 + 7 - 1);
  EXPECT_EQ(trsv::analyze(spec_triangle("lap2d5:13x7", Fill::upper, Diag::unit).view()).num_levels, 13 + 7 - 1);
  EXPECT_EQ(trsv::analyze(spec_triangle("lap3d7:5x6x4", Fill::lower, Diag::stored).view()).num_levels, 5 + 6 + 4 - 2);
  EXPECT_EQ(trsv::analyze(chain_triangle(77, Fill::upper, Diag::stored).view()).num_levels, 77);
  EXPECT_EQ(trsv::analyze(diagonal_triangle(77, Diag::stored).view()).num_levels, 1);
}

TEST(TrsvAnalysis, jlev_is_a_topological_order_grouped_by_level) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const trsv::TriangleView t = c.t.view();
    const trsv::TrsvAnalysis a = trsv::analyze(t);
    ASSERT_EQ(static_cast<int32_t>(a.jlev.size()), t.n);
    ASSERT_EQ(static_cast<int32_t>(a.level_ptr.size()), a.num_levels + 1);
    EXPECT_EQ(a.level_ptr.front(), 0);
    EXPECT_EQ(a.level_ptr.back(), t.n);
    std::vector<int32_t> pos(t.n, -1);
    for (int32_t p = 0; p < t.n; ++p) {
      ASSERT_EQ(pos[a.jlev[p]], -1) << "row " << a.jlev[p] << " appears twice";
      pos[a.jlev[p]] = p;
    }
    for (int32_t l = 0; l < a.num_levels; ++l) {
      EXPECT_LT(a.level_ptr[l], a.level_ptr[l + 1]) << "empty level " << l;
      for (int32_t p = a.level_ptr[l]; p < a.level_ptr[l + 1]; ++p) EXPECT_EQ(a.level[a.jlev[p]], l);
    }
    for (int32_t i = 0; i < t.n; ++i)
      for (int64_t k = t.offdiag_begin(i); k < t.offdiag_end(i); ++k)
        EXPECT_LT(pos[t.colind[k]], pos[i]) << "row " << i << " precedes its dependency " << t.colind[k];
  }
}

TEST(TrsvAnalysis, dependency_counts_are_off_diagonal_row_counts) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const trsv::TriangleView t = c.t.view();
    const trsv::TrsvAnalysis a = trsv::analyze(t);
    int64_t total = 0;
    int32_t longest = 0;
    for (int32_t i = 0; i < t.n; ++i) {
      int32_t off = 0;
      for (int64_t k = t.rowptr[i]; k < t.rowptr[i + 1]; ++k) off += t.colind[k] != i;
      EXPECT_EQ(a.dep_count[i], off);
      total += off;
      longest = std::max(longest, off);
    }
    EXPECT_EQ(a.offdiag_nnz, total);
    EXPECT_EQ(a.max_row_offdiag, longest);
    EXPECT_EQ(a.nnz, t.nnz());
  }
}

TEST(TrsvAnalysis, csc_map_points_at_the_same_entries) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const trsv::TriangleView t = c.t.view();
    const trsv::TrsvAnalysis a = trsv::analyze(t);
    ASSERT_EQ(static_cast<int32_t>(a.csc_colptr.size()), t.n + 1);
    ASSERT_EQ(a.csc_colptr.back(), a.offdiag_nnz);
    std::vector<int> seen(static_cast<size_t>(t.nnz()), 0);
    for (int32_t j = 0; j < t.n; ++j)
      for (int64_t k = a.csc_colptr[j]; k < a.csc_colptr[j + 1]; ++k) {
        const int32_t r = a.csc_rowind[k];
        const int64_t p = a.csc_map[k];
        ASSERT_GE(p, t.offdiag_begin(r));
        ASSERT_LT(p, t.offdiag_end(r));
        EXPECT_EQ(t.colind[p], j);
        if (k > a.csc_colptr[j]) EXPECT_LT(a.csc_rowind[k - 1], r) << "rows of column " << j << " not ascending";
        ++seen[p];
      }
    for (int32_t i = 0; i < t.n; ++i)
      for (int64_t k = t.offdiag_begin(i); k < t.offdiag_end(i); ++k) EXPECT_EQ(seen[k], 1);
  }
}

TEST(TrsvKernelShape, group_size_follows_mean_row_length) {
  EXPECT_EQ(trsv::group_size(trsv::analyze(diagonal_triangle(10, Diag::stored).view())), 1);
  EXPECT_EQ(trsv::group_size(trsv::analyze(chain_triangle(10, Fill::lower, Diag::stored).view())), 1);
  EXPECT_EQ(trsv::group_size(trsv::analyze(spec_triangle("lap2d5:30x30", Fill::lower, Diag::stored).view())), 2);
  EXPECT_EQ(trsv::group_size(trsv::analyze(spec_triangle("lap3d7:12x12x12", Fill::upper, Diag::stored).view())), 4);
  EXPECT_EQ(trsv::group_size(trsv::analyze(spec_triangle("lap3d27:12x12x12", Fill::lower, Diag::unit).view())), 16);
  EXPECT_EQ(trsv::group_size(trsv::analyze(random_triangle(200, 60, Fill::lower, Diag::stored, 5).view())), 32);
}

TEST(TrsvKernelShape, warp_tasks_hold_one_level_and_at_most_a_warp) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const trsv::TrsvAnalysis a = trsv::analyze(c.t.view());
    for (int32_t group : {1, 2, 4, 8, 16, 32}) {
      const std::vector<int32_t> tasks = trsv::warp_tasks(a, group);
      ASSERT_EQ(tasks.front(), 0);
      ASSERT_EQ(tasks.back(), a.n);
      for (size_t w = 0; w + 1 < tasks.size(); ++w) {
        ASSERT_LT(tasks[w], tasks[w + 1]);
        EXPECT_LE(tasks[w + 1] - tasks[w], 32 / group);
        EXPECT_EQ(a.level[a.jlev[tasks[w]]], a.level[a.jlev[tasks[w + 1] - 1]]) << "task " << w << " spans levels";
      }
    }
  }
}

TEST(TrsvKernelShape, run_group_size_covers_the_mean_row_with_four_entries_a_lane) {
  EXPECT_EQ(trsv::run_group_size(trsv::analyze(diagonal_triangle(10, Diag::stored).view())), 1);
  EXPECT_EQ(trsv::run_group_size(trsv::analyze(spec_triangle("lap2d5:30x30", Fill::lower, Diag::stored).view())), 1);
  EXPECT_EQ(trsv::run_group_size(trsv::analyze(spec_triangle("lap2d9:30x30", Fill::lower, Diag::unit).view())), 1);
  EXPECT_EQ(trsv::run_group_size(trsv::analyze(spec_triangle("lap3d7:12x12x12", Fill::upper, Diag::stored).view())), 1);
  EXPECT_EQ(trsv::run_group_size(trsv::analyze(spec_triangle("lap3d27:12x12x12", Fill::lower, Diag::unit).view())), 4);
  EXPECT_EQ(trsv::run_group_size(trsv::analyze(random_triangle(200, 60, Fill::lower, Diag::stored, 5).view())), 16);
}

TEST(TrsvKernelShape, level_segments_cover_all_levels_and_merge_narrow_runs) {
  for (int32_t capacity : {0, 1, 5, 30, 1000}) {
    for (const trsv::Triangle* t : {new trsv::Triangle(spec_triangle("lap2d5:30x30", Fill::lower, Diag::stored)),
                                    new trsv::Triangle(spec_triangle("lap3d7:12x12x12", Fill::upper, Diag::unit)),
                                    new trsv::Triangle(random_triangle(300, 4, Fill::lower, Diag::stored, 3))}) {
      const trsv::TrsvAnalysis a = trsv::analyze(t->view());
      const std::vector<trsv::LevelSegment> segs = trsv::level_segments(a, capacity);
      int32_t next = 0;
      for (size_t s = 0; s < segs.size(); ++s) {
        EXPECT_EQ(segs[s].begin, next);
        EXPECT_GT(segs[s].end, segs[s].begin);
        if (!segs[s].run) EXPECT_EQ(segs[s].end, segs[s].begin + 1);
        if (s > 0 && segs[s].run) EXPECT_FALSE(segs[s - 1].run);  // maximal runs
        for (int32_t l = segs[s].begin; l < segs[s].end; ++l)
          EXPECT_EQ(segs[s].run, a.level_ptr[l + 1] - a.level_ptr[l] <= capacity) << "level " << l;
        next = segs[s].end;
      }
      EXPECT_EQ(next, a.num_levels);
      delete t;
    }
  }
  // A 30x30 5-point grid: every level is at most 30 wide, so one run holds all 59 levels.
  const trsv::TrsvAnalysis a = trsv::analyze(spec_triangle("lap2d5:30x30", Fill::lower, Diag::stored).view());
  const std::vector<trsv::LevelSegment> segs = trsv::level_segments(a, 30);
  ASSERT_EQ(segs.size(), 1u);
  EXPECT_TRUE(segs[0].run);
  EXPECT_EQ(segs[0].end, 59);
}

TEST(TrsvKernelShape, auto_picks_levr_the_measured_fastest) {
  const trsv::TrsvAnalysis diag = trsv::analyze(diagonal_triangle(10, Diag::stored).view());
  const trsv::TrsvAnalysis lap = trsv::analyze(spec_triangle("lap2d5:10x10", Fill::lower, Diag::stored).view());
  EXPECT_EQ(trsv::choose_kernel(diag), TrsvKernel::levr);
  EXPECT_EQ(trsv::choose_kernel(lap), TrsvKernel::levr);
  for (TrsvKernel k : {TrsvKernel::levr, TrsvKernel::levc, TrsvKernel::slfr, TrsvKernel::slfc, TrsvKernel::cusparse})
    EXPECT_EQ(trsv::choose_kernel(lap, k), k);
}

TEST(TrsvKernelNames, round_trip_and_reject_unknown_names) {
  for (TrsvKernel k : {TrsvKernel::automatic, TrsvKernel::levr, TrsvKernel::levc, TrsvKernel::slfr, TrsvKernel::slfc,
                       TrsvKernel::cusparse})
    EXPECT_EQ(parse_trsv_kernel(to_string(k)), k);
  EXPECT_EQ(to_string(TrsvKernel::automatic), "auto");
  EXPECT_FALSE(parse_trsv_kernel("automatic").has_value());
  EXPECT_FALSE(parse_trsv_kernel("SLFC").has_value());
  EXPECT_FALSE(parse_trsv_kernel("").has_value());
}

// --- validation errors -------------------------------------------------------------------

Status status_of(const trsv::Triangle& t, std::string* message = nullptr) {
  try {
    trsv::analyze(t.view());
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.status();
  }
  return Status::ok;
}

TEST(TrsvAnalysisErrors, entry_on_the_wrong_side_names_it) {
  trsv::Triangle t = spec_triangle("lap2d5:3x3", Fill::lower, Diag::stored);
  t.fill = Fill::upper;  // the same entries declared upper: (1, 0) is below the diagonal
  std::string msg;
  EXPECT_EQ(status_of(t, &msg), Status::invalid_input);
  EXPECT_NE(msg.find("not in the upper triangle"), std::string::npos) << msg;
}

TEST(TrsvAnalysisErrors, missing_diagonal_is_structurally_singular) {
  trsv::Triangle t = spec_triangle("lap2d5:3x3", Fill::lower, Diag::unit);
  t.diag = Diag::stored;
  std::string msg;
  EXPECT_EQ(status_of(t, &msg), Status::structurally_singular);
  EXPECT_NE(msg.find("row 0 has no stored diagonal"), std::string::npos) << msg;
}

TEST(TrsvAnalysisErrors, stored_diagonal_under_unit_is_rejected) {
  trsv::Triangle t = spec_triangle("lap2d5:3x3", Fill::lower, Diag::stored);
  t.diag = Diag::unit;
  std::string msg;
  EXPECT_EQ(status_of(t, &msg), Status::invalid_input);
  EXPECT_NE(msg.find("declared unit"), std::string::npos) << msg;
}

TEST(TrsvAnalysisErrors, zero_diagonal_is_numerically_singular) {
  trsv::Triangle t = chain_triangle(5, Fill::lower, Diag::stored);
  t.values[t.view().diag_position(3)] = 0.0;
  std::string msg;
  EXPECT_EQ(status_of(t, &msg), Status::numerically_singular);
  EXPECT_NE(msg.find("(3, 3) is zero"), std::string::npos) << msg;
}

TEST(TrsvAnalysisErrors, nan_and_inf_values_are_named) {
  trsv::Triangle t = chain_triangle(5, Fill::upper, Diag::stored);
  t.values[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(status_of(t), Status::nan_or_inf);
  t.values[2] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(status_of(t), Status::nan_or_inf);
  t.values.clear();  // pattern-only: nothing to check
  EXPECT_EQ(status_of(t), Status::ok);
}

TEST(TrsvAnalysisErrors, unsorted_duplicate_and_out_of_range_columns) {
  trsv::Triangle t = random_triangle(20, 3, Fill::lower, Diag::stored, 7);
  trsv::Triangle dup = t;
  const int32_t row = 10;
  ASSERT_GE(dup.rowptr[row + 1] - dup.rowptr[row], 2);
  dup.colind[dup.rowptr[row]] = dup.colind[dup.rowptr[row] + 1];
  EXPECT_EQ(status_of(dup), Status::invalid_input);
  trsv::Triangle out = t;
  out.colind[out.rowptr[row]] = -1;
  EXPECT_EQ(status_of(out), Status::invalid_input);
  trsv::Triangle big = t;
  big.colind.back() = big.n;
  EXPECT_EQ(status_of(big), Status::invalid_input);
  trsv::Triangle ptr = t;
  ptr.rowptr[0] = 1;
  EXPECT_EQ(status_of(ptr), Status::invalid_input);
}

TEST(TrsvAnalysis, empty_triangle_has_no_levels) {
  trsv::Triangle t;
  const trsv::TrsvAnalysis a = trsv::analyze(t.view());
  EXPECT_EQ(a.n, 0);
  EXPECT_EQ(a.num_levels, 0);
  EXPECT_EQ(trsv::warp_tasks(a, 4), std::vector<int32_t>{0});
}

}  // namespace
}  // namespace gpuglu::test
