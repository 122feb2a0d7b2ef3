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
    ASSERT_TRUE(s.supernodal);
    expect_targets_of(s.supernodes);
  }
  Options o;
  o.lu_engine = LuEngine::supernodal;
  expect_targets_of(analyze(scrambled_matrix(2000, 6, 5).view(), o).supernodes);
}

}  // namespace
}  // namespace gpuglu::test
