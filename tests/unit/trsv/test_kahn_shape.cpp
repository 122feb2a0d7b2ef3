// The launch shape of the GPU level analysis (src/cuda/kahn_shape.hpp), a host rule: lanes
// per frontier row follow the mean column length, the grid never exceeds the resident blocks
// nor what n rows can use, and the narrow-frontier bound stays within block 0's shared memory.
#include <gtest/gtest.h>

#include "cuda/trsv/kahn_shape.hpp"

namespace gpuglu::test {
namespace {

using cuda::kahn::choose_shape;
using cuda::kahn::kBlock;
using cuda::kahn::kNarrowCapacity;

TEST(KahnShape, group_is_the_smallest_power_of_two_covering_the_mean_column) {
  EXPECT_EQ(choose_shape(1000, 0, 132, 4).group, 1);        // diagonal: no edges
  EXPECT_EQ(choose_shape(1000, 1000, 132, 4).group, 1);     // mean 1
  EXPECT_EQ(choose_shape(1000, 2000, 132, 4).group, 2);     // 2-D 5-point: 2 per row
  EXPECT_EQ(choose_shape(1000, 3000, 132, 4).group, 4);     // 3-D 7-point: 3 per row
  EXPECT_EQ(choose_shape(1000, 13000, 132, 4).group, 16);   // 3-D 27-point: 13 per row
  EXPECT_EQ(choose_shape(1000, 500000, 132, 4).group, 32);  // capped at a warp
}

TEST(KahnShape, grid_is_one_block_per_sm_unless_n_needs_fewer_or_asked_for_more) {
  EXPECT_EQ(choose_shape(1 << 20, 3 << 20, 132, 4).blocks, 132);
  EXPECT_EQ(choose_shape(1 << 20, 3 << 20, 132, 4, 2).blocks, 264);
  EXPECT_EQ(choose_shape(1 << 20, 3 << 20, 132, 4, 9).blocks, 4 * 132);  // clamped to what fits
  EXPECT_EQ(choose_shape(1 << 20, 3 << 20, 132, 0).blocks, 132);         // occupancy unknown: one
  // 1000 rows at 4 lanes each fill 8 blocks of 512 threads (128 rows a block) at most.
  EXPECT_EQ(choose_shape(1000, 3000, 132, 4).blocks, 8);
  EXPECT_EQ(choose_shape(1, 0, 132, 4).blocks, 1);
  EXPECT_EQ(choose_shape(0, 0, 132, 4).blocks, 1);
}

TEST(KahnShape, narrow_frontiers_default_to_two_passes_of_one_block_within_capacity) {
  EXPECT_EQ(choose_shape(1 << 20, 0, 132, 4).narrow_rows, 2 * kBlock);        // group 1
  EXPECT_EQ(choose_shape(1 << 20, 3 << 20, 132, 4).narrow_rows, 2 * kBlock / 4);
  EXPECT_EQ(choose_shape(1 << 20, 3 << 20, 132, 4, -1, 0).narrow_rows, 0);    // grid barriers only
  EXPECT_EQ(choose_shape(1 << 20, 3 << 20, 132, 4, -1, 77).narrow_rows, 77);
  EXPECT_EQ(choose_shape(1 << 20, 3 << 20, 132, 4, -1, 1 << 20).narrow_rows, kNarrowCapacity);
  for (int32_t n : {1, 100, 1 << 16})
    for (int64_t edges : {int64_t{0}, int64_t{n}, int64_t{40} * n}) {
      const auto s = choose_shape(n, edges, 114, 3);
      EXPECT_LE(s.narrow_rows, kNarrowCapacity);
      EXPECT_GE(s.blocks, 1);
      EXPECT_LE(s.blocks, 114 * 3);
      EXPECT_EQ(32 % s.group, 0);
    }
}

}  // namespace
}  // namespace gpuglu::test
