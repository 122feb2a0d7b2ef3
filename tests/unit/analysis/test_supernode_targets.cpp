// supernode_targets (analysis/supernode_targets.hpp), the self-scheduled panel solves'
// dependencies, against their definition: t's targets are exactly the supernodes of its rows
// below, each a proper ancestor of t in the supernodal tree on a later level (so a sweep in
// level order never waits on a supernode after it), and the sources are their transpose.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "analysis/supernode_targets.hpp"
#include "analysis_test_support.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/generators.hpp"

namespace gpuglu::test {
namespace {

void expect_targets_of(const Supernodes& sn) {
  const SupernodeTargets d = supernode_targets(sn);
  ASSERT_EQ(d.target_ptr.size(), static_cast<size_t>(sn.count) + 1);
  ASSERT_EQ(d.source_ptr.size(), static_cast<size_t>(sn.count) + 1);
  std::vector<int32_t> level(static_cast<size_t>(sn.count));
  for (int32_t l = 0; l < sn.num_levels(); ++l)
    for (int64_t i = sn.level_ptr[l]; i < sn.level_ptr[l + 1]; ++i) level[sn.level_nodes[i]] = l;
  std::vector<std::set<int32_t>> sources(static_cast<size_t>(sn.count));
  for (int32_t t = 0; t < sn.count; ++t) {
    std::set<int32_t> want;
    for (int64_t p = sn.rows_ptr[t] + sn.cols(t); p < sn.rows_ptr[t + 1]; ++p) want.insert(sn.of_col[sn.rows[p]]);
    const std::vector<int32_t> got(d.target.begin() + d.target_ptr[t], d.target.begin() + d.target_ptr[t + 1]);
    ASSERT_EQ(got, std::vector<int32_t>(want.begin(), want.end())) << "supernode " << t;
    std::set<int32_t> ancestors;
    for (int32_t q = sn.parent[t]; q >= 0; q = sn.parent[q]) ancestors.insert(q);
    for (int32_t q : got) {
      EXPECT_TRUE(ancestors.count(q)) << q << " is not an ancestor of " << t;
      EXPECT_GT(level[q], level[t]);
      sources[q].insert(t);
    }
  }
  for (int32_t q = 0; q < sn.count; ++q) {
    const std::vector<int32_t> got(d.source.begin() + d.source_ptr[q], d.source.begin() + d.source_ptr[q + 1]);
    EXPECT_EQ(got, std::vector<int32_t>(sources[q].begin(), sources[q].end())) << "supernode " << q;
  }
}

TEST(SupernodeTargets, are_the_supernodes_of_the_rows_below_and_the_sources_their_transpose) {
  for (const std::string spec : {"lap2d5:40x40", "lap3d7:12x12x12", "circuit:5000:50", "powergrid:4000:40"}) {
    SCOPED_TRACE(spec);
    Options o;
    o.lu_engine = LuEngine::supernodal;
    const Schedule s = analyze(gen::from_spec(spec).view(), o);
    ASSERT_TRUE(s.supernodal());
    expect_targets_of(s.supernodes);
  }
  Options o;
  o.lu_engine = LuEngine::supernodal;
  expect_targets_of(analyze(scrambled_matrix(2000, 6, 5).view(), o).supernodes);
}

// sweep_tasks: every tile of every supernode exactly once, in level order, tiles ascending; a
// warps' group holds only small one-tile supernodes of one level, at most `warps` of them, and
// every other group exactly one task (a group that took a whole-block task and a small one
// would leave the small one unsolved: the sweep would wait forever).
void expect_tasks_of(const Supernodes& sn, int32_t warps) {
  const SweepTasks w = sweep_tasks(sn, 32, 16, 64, warps);
  ASSERT_EQ(w.node.size(), w.tile.size());
  ASSERT_EQ(w.group_ptr.size(), w.by_warps.size() + 1);
  ASSERT_EQ(w.group_ptr.front(), 0);
  ASSERT_EQ(static_cast<size_t>(w.group_ptr.back()), w.node.size());
  std::vector<int32_t> level(static_cast<size_t>(sn.count));
  for (int32_t l = 0; l < sn.num_levels(); ++l)
    for (int64_t i = sn.level_ptr[l]; i < sn.level_ptr[l + 1]; ++i) level[sn.level_nodes[i]] = l;
  size_t i = 0;
  for (int32_t t : sn.level_nodes)
    for (int32_t q = 0; q < SweepTasks::tiles(sn, t, 32); ++q, ++i) {
      ASSERT_LT(i, w.node.size());
      ASSERT_EQ(w.node[i], t);
      ASSERT_EQ(w.tile[i], q);
    }
  ASSERT_EQ(i, w.node.size());
  int64_t small_groups = 0;
  for (size_t g = 0; g + 1 < w.group_ptr.size(); ++g) {
    const int32_t size = w.group_ptr[g + 1] - w.group_ptr[g];
    ASSERT_GE(size, 1);
    if (!w.by_warps[g]) {
      EXPECT_EQ(size, 1) << "group " << g;
      continue;
    }
    ++small_groups;
    EXPECT_LE(size, warps);
    for (int32_t k = w.group_ptr[g]; k < w.group_ptr[g + 1]; ++k) {
      const int32_t t = w.node[k];
      EXPECT_LE(sn.cols(t), 16);
      EXPECT_LE(sn.nrows(t) - sn.cols(t), 64);
      EXPECT_EQ(level[t], level[w.node[w.group_ptr[g]]]);
    }
  }
  EXPECT_GT(small_groups, 0);
}

TEST(SupernodeTargets, sweep_tasks_cover_every_tile_once_and_group_only_small_supernodes_of_a_level) {
  for (const std::string spec : {"circuit:5000:50", "lap3d7:12x12x12", "powergrid:4000:40"}) {
    SCOPED_TRACE(spec);
    Options o;
    o.lu_engine = LuEngine::supernodal;
    const Schedule s = analyze(gen::from_spec(spec).view(), o);
    for (int32_t warps : {1, 3, 8, 16}) expect_tasks_of(s.supernodes, warps);
  }
}

}  // namespace
}  // namespace gpuglu::test
