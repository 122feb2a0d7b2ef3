// Indistinguishable vertices merged before nested dissection (analysis/graph_compression.hpp):
// 3-D elasticity's three unknowns per node form one group of weight 3, a scalar Laplacian
// has none to merge, an ordering of the quotient graph expands to a permutation keeping each
// group together, and the dissection of a compressible graph is the same on every thread
// count and fills about as the uncompressed one does.
#include <gtest/gtest.h>

#include <vector>

#include "analysis/graph_compression.hpp"
#include "analysis/nested_dissection.hpp"
#include "analysis/ordering.hpp"
#include "analysis/symmetric_graph.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"

namespace gpuglu::test {
namespace {

analysis::SymmetricGraph graph_of(const char* spec) {
  const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
  analysis::MatchedPattern b;
  b.n = a.nrows;
  b.colptr.assign(a.rowptr.begin(), a.rowptr.end());
  b.rowind.assign(a.colind.begin(), a.colind.end());
  return analysis::symmetric_graph(b, 1);
}

bool is_permutation(const std::vector<int32_t>& q, int32_t n) {
  if (static_cast<int32_t>(q.size()) != n) return false;
  std::vector<char> seen(q.size(), 0);
  for (int32_t v : q) {
    if (v < 0 || v >= n || seen[v]) return false;
    seen[v] = 1;
  }
  return true;
}

TEST(GraphCompression, elasticity_merges_each_nodes_three_unknowns) {
  const analysis::SymmetricGraph g = graph_of("elast3d:6x5x4");
  analysis::CompressedGraph c;
  ASSERT_TRUE(analysis::compress_indistinguishable(g, 2, c));
  ASSERT_EQ(c.g.n * 3, g.n);
  for (int32_t k = 0; k < c.g.n; ++k) {
    ASSERT_EQ(c.weight[k], 3);
    const int32_t first = c.members[c.ptr[k]];
    EXPECT_EQ(c.members[c.ptr[k] + 1], first + 1);  // the generator numbers a node's unknowns together
    EXPECT_EQ(c.members[c.ptr[k] + 2], first + 2);
  }
  EXPECT_EQ(c.g.edges() * 9, g.edges() - 6 * c.g.n);  // every edge between nodes, 9 times; 3 inside each
  // The quotient's adjacency is symmetric, ascending, without loops.
  for (int32_t k = 0; k < c.g.n; ++k)
    for (int32_t e = c.g.xadj[k]; e < c.g.xadj[k + 1]; ++e) {
      ASSERT_NE(c.g.adjncy[e], k);
      if (e > c.g.xadj[k]) ASSERT_LT(c.g.adjncy[e - 1], c.g.adjncy[e]);
    }
  std::vector<int32_t> qc(static_cast<size_t>(c.g.n));
  for (int32_t k = 0; k < c.g.n; ++k) qc[k] = c.g.n - 1 - k;
  const std::vector<int32_t> q = analysis::expand_ordering(c, qc);
  ASSERT_TRUE(is_permutation(q, g.n));
  EXPECT_EQ(q[0], c.members[c.ptr[c.g.n - 1]]);
}

TEST(GraphCompression, a_scalar_laplacian_has_nothing_to_merge) {
  analysis::CompressedGraph c;
  EXPECT_FALSE(analysis::compress_indistinguishable(graph_of("lap3d7:10x9x8"), 2, c));
  EXPECT_FALSE(analysis::compress_indistinguishable(graph_of("lap2d5:30x30"), 2, c));
}

TEST(GraphCompression, the_weighted_dissection_is_thread_invariant_and_fills_as_the_plain_one) {
  const analysis::SymmetricGraph g = graph_of("elast3d:14x14x14");
  analysis::CompressedGraph c;
  ASSERT_TRUE(analysis::compress_indistinguishable(g, 4, c));
  const std::vector<int32_t> one = analysis::expand_ordering(c, analysis::nested_dissection(c.g, 1, &c.weight));
  ASSERT_TRUE(is_permutation(one, g.n));
  for (int threads : {2, 5})
    EXPECT_EQ(analysis::expand_ordering(c, analysis::nested_dissection(c.g, threads, &c.weight)), one) << threads;
  // Fill of both orderings through the same symmetric analysis (a given ordering).
  const CsrMatrix<int32_t, double> a = gen::from_spec("elast3d:14x14x14");
  Options o;
  o.ordering = Ordering::given;
  o.scaling = false;
  o.matching = false;
  const std::vector<int32_t> plain = analysis::nested_dissection(g, 2);
  const Schedule sc = analyze_symmetric(a.view(), StoredTriangle::full, o, one.data());
  const Schedule sp = analyze_symmetric(a.view(), StoredTriangle::full, o, plain.data());
  EXPECT_LE(sc.nnz_factor(), 1.1 * sp.nnz_factor()) << "plain " << sp.nnz_factor();
}

}  // namespace
}  // namespace gpuglu::test
