// The graph of B + B^T that METIS and CHOLMOD read (analysis/symmetric_graph.hpp) against a
// brute-force one, on any thread count; and the ordering cache (analysis/ordering_cache.hpp):
// an equal pattern is ordered once, by the LU and the LDL^T alike, and never when the option
// is off.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "analysis/metis_random.hpp"
#include "analysis/nested_dissection.hpp"
#include "analysis/ordering.hpp"
#include "analysis/ordering_cache.hpp"
#include "analysis/symmetric_graph.hpp"
#include "analysis_test_support.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/generators.hpp"

namespace gpuglu::test {
namespace {

analysis::MatchedPattern pattern_of(const CsrMatrix<int32_t, double>& a) {
  // CSR of A read as CSC of A^T: a pattern all the same, rows ascending per column.
  analysis::MatchedPattern b;
  b.n = a.nrows;
  b.colptr.assign(a.rowptr.begin(), a.rowptr.end());
  b.rowind.assign(a.colind.begin(), a.colind.end());
  return b;
}

// METIS's per-thread generator draws what the C library's rand() draws after the same seed,
// so a single-threaded METIS orders as it did; on Debian's x86-64 build the redirection of
// libmetis's rand/srand succeeds (metis_random.hpp), which the parallel dissection needs.
TEST(MetisRandom, the_per_thread_generator_is_the_c_librarys_and_metis_uses_it) {
  for (unsigned seed : {1u, 4321u, 97u}) {
    srand(seed);
    std::vector<int> libc(1000), ours(1000);
    for (int& r : libc) r = rand();
    analysis::thread_srand(seed);
    for (int& r : ours) r = analysis::thread_rand();
    EXPECT_EQ(libc, ours) << "seed " << seed;
  }
#if defined(__x86_64__) && defined(__linux__)
  EXPECT_TRUE(analysis::metis_draws_per_thread());
#endif
}

// The dissection's halves run as tasks: the ordering is the same on any team, oversubscribed
// too, and a permutation. randdd:3000:100 is a dense graph of few vertices (below kDissectFrom,
// above kDissectFromEdges), which splits by its edges.
TEST(NestedDissection, orders_the_same_on_every_thread_count) {
  for (const char* spec : {"lap2d5:300x300", "circuit:60000:600", "lap3d7:30x30x30", "randdd:3000:100:3"}) {
    SCOPED_TRACE(spec);
    const analysis::SymmetricGraph g = analysis::symmetric_graph(pattern_of(gen::from_spec(spec)), 1);
    if (g.n < analysis::kDissectFrom) EXPECT_GE(g.edges(), analysis::kDissectFromEdges);
    const std::vector<int32_t> one = analysis::nested_dissection(g, 1);
    std::vector<char> seen(one.size(), 0);
    for (int32_t v : one) {
      ASSERT_TRUE(v >= 0 && v < g.n && !seen[v]);
      seen[v] = 1;
    }
    for (int threads : {2, 4, 7}) EXPECT_EQ(analysis::nested_dissection(g, threads), one) << threads << " threads";
  }
}

TEST(SymmetricGraph, is_the_pattern_of_B_plus_B_transposed_without_its_diagonal) {
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    // Large enough for the parallel loops, unsymmetric, with empty off-diagonal columns.
    const CsrMatrix<int32_t, double> a = scrambled_matrix(40000, 3, 5);
    const analysis::MatchedPattern b = pattern_of(a);
    const analysis::SymmetricGraph g = analysis::symmetric_graph(b, threads);
    std::vector<std::set<int32_t>> want(static_cast<size_t>(b.n));
    for (int32_t j = 0; j < b.n; ++j)
      for (int32_t p = b.colptr[j]; p < b.colptr[j + 1]; ++p)
        if (b.rowind[p] != j) want[j].insert(b.rowind[p]), want[b.rowind[p]].insert(j);
    ASSERT_EQ(g.n, b.n);
    for (int32_t j = 0; j < b.n; ++j) {
      const std::vector<int32_t> got(g.adjncy.begin() + g.xadj[j], g.adjncy.begin() + g.xadj[j + 1]);
      ASSERT_EQ(got, std::vector<int32_t>(want[j].begin(), want[j].end())) << "vertex " << j;
    }
    EXPECT_EQ(analysis::graph_fingerprint(g), analysis::graph_fingerprint(analysis::symmetric_graph(b, 1)));
  }
}

Options metis_options(bool cache) {
  Options o;
  o.ordering = Ordering::metis;
  o.ordering_cache = cache;
  return o;
}

TEST(OrderingCache, an_equal_pattern_is_ordered_once_by_the_lu_and_the_ldlt) {
  analysis::clear_ordering_cache();
  const CsrMatrix<int32_t, double> a = gen::from_spec("lap3d7:12x12x12");  // symmetric, MC64's matching the identity
  Options lu = metis_options(true);
  lu.lu_engine = LuEngine::supernodal;
  const uint64_t hits = analysis::ordering_cache_hits();
  const Schedule first = analyze(a.view(), lu);
  EXPECT_EQ(analysis::ordering_cache_hits(), hits);
  EXPECT_EQ(analysis::ordering_cache_size(), 1u);
  const Schedule again = analyze(a.view(), lu);
  EXPECT_EQ(analysis::ordering_cache_hits(), hits + 1);
  EXPECT_EQ(again.col_perm, first.col_perm);
  EXPECT_EQ(again.value_map, first.value_map);
  // The LDL^T orders the same graph (A's pattern without its diagonal).
  const Schedule ldlt = analyze_symmetric(a.view(), StoredTriangle::full, metis_options(true));
  EXPECT_EQ(analysis::ordering_cache_hits(), hits + 2);
  EXPECT_EQ(analysis::ordering_cache_size(), 1u);
  // The column LU's METIS ordering is the same graph's too; another method is another entry.
  Options amd = metis_options(true);
  amd.ordering = Ordering::amd;
  analyze(a.view(), amd);
  EXPECT_EQ(analysis::ordering_cache_size(), 2u);
  (void)ldlt;
}

TEST(OrderingCache, is_not_asked_when_off_and_forgets_the_oldest_beyond_its_size) {
  analysis::clear_ordering_cache();
  const uint64_t hits = analysis::ordering_cache_hits();
  const CsrMatrix<int32_t, double> a = gen::from_spec("lap2d5:30x30");
  analyze(a.view(), metis_options(false));
  analyze(a.view(), metis_options(false));
  EXPECT_EQ(analysis::ordering_cache_size(), 0u);
  EXPECT_EQ(analysis::ordering_cache_hits(), hits);
  for (size_t k = 0; k < analysis::kOrderingCacheEntries + 3; ++k) {
    const CsrMatrix<int32_t, double> m = gen::from_spec("lap2d5:20x" + std::to_string(10 + k));
    analyze(m.view(), metis_options(true));
  }
  EXPECT_EQ(analysis::ordering_cache_size(), analysis::kOrderingCacheEntries);
  analysis::clear_ordering_cache();
  EXPECT_EQ(analysis::ordering_cache_size(), 0u);
}

}  // namespace
}  // namespace gpuglu::test
