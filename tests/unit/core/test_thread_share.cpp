// The default thread count of a rank that shares its node (rank_share_of_threads): the PETSc
// adapter resolves -mat_gpuglu_threads 0 with it, so 16 ranks of a 16-core node run one
// thread each instead of OpenMP's 16; a gathered factor's root adds its waiting ranks' spare
// processors (root_share_of_threads).
#include <gtest/gtest.h>

#include <algorithm>

#include "gpuglu/options.hpp"

namespace gpuglu::test {
namespace {

TEST(ThreadShare, ranks_split_the_node_evenly) {
  EXPECT_EQ(rank_share_of_threads(16, 16, 1), 16);
  EXPECT_EQ(rank_share_of_threads(16, 16, 4), 4);
  EXPECT_EQ(rank_share_of_threads(16, 16, 16), 1);
  EXPECT_EQ(rank_share_of_threads(64, 64, 3), 21);  // rounded down: 3 x 21 <= 64
}

TEST(ThreadShare, never_more_than_the_processors_the_rank_may_run_on) {
  EXPECT_EQ(rank_share_of_threads(1, 16, 2), 1);  // bound to one core by mpiexec
  EXPECT_EQ(rank_share_of_threads(2, 16, 1), 2);  // a cpuset of two
}

TEST(ThreadShare, at_least_one_thread_when_ranks_outnumber_processors) {
  EXPECT_EQ(rank_share_of_threads(2, 2, 4), 1);
  EXPECT_EQ(rank_share_of_threads(1, 1, 1000), 1);
}

TEST(ThreadShare, an_unknown_count_does_not_limit) {
  EXPECT_EQ(rank_share_of_threads(0, 16, 4), 4);   // affinity unreadable
  EXPECT_EQ(rank_share_of_threads(8, 0, 4), 8);    // node size unknown
  EXPECT_EQ(rank_share_of_threads(8, 16, 0), 8);   // ranks unknown: as one rank
  EXPECT_EQ(rank_share_of_threads(0, 0, 0), 1);
}

// A gathered factor's root (root_share_of_threads): the ranks of its group on its node wait for
// it, each busy on one processor, and lend it the rest of their shares.
TEST(ThreadShare, a_gathered_root_takes_what_its_waiting_ranks_leave) {
  // At most max_cpu_threads(), four per processor of the machine running the test.
  const int32_t cap = max_cpu_threads();
  EXPECT_EQ(root_share_of_threads(4, 3, 16), std::min(13, cap));  // 4 ranks on 16 cores, unbound
  EXPECT_EQ(root_share_of_threads(4, 0, 16), 4);    // alone in its group on this node
  EXPECT_EQ(root_share_of_threads(1, 15, 16), 1);   // one core each: nothing to lend
  EXPECT_EQ(root_share_of_threads(4, 3, 13), std::min(13, cap));  // unbound: 16 less the 3 waiting
  EXPECT_EQ(root_share_of_threads(4, 3, 7), 7);     // bound to a socket of 8 that one waiting rank shares
  EXPECT_EQ(root_share_of_threads(4, 3, 4), 4);     // bound to its own four cores
  EXPECT_EQ(root_share_of_threads(4, 3, 0), std::min(13, cap));   // affinity unknown: does not limit
  EXPECT_EQ(root_share_of_threads(0, 3, 16), 1);    // at least one thread
}

}  // namespace
}  // namespace gpuglu::test
