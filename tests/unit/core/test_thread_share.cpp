// The default thread count of a rank that shares its node (rank_share_of_threads): the PETSc
// adapter resolves -mat_gpuglu_threads 0 with it, so 16 ranks of a 16-core node run one
// thread each instead of OpenMP's 16.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gpuglu::test
