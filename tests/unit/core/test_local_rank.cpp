// The node-local MPI rank from the launcher's environment (include/gpuglu/device.hpp), which
// picks a rank's GPU round-robin: Open MPI's variable first, then MPICH/Hydra's, Slurm's and
// PMIx's; values that are not a non-negative integer are skipped; 0 outside MPI.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpuglu/device.hpp"

namespace gpuglu::test {
namespace {

const std::vector<std::string> kNames = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID",
                                         "PMIX_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS",
                                         "PMIX_LOCAL_SIZE", "SLURM_TASKS_PER_NODE"};

// Clears the launchers' variables for one test and puts back what the process had.
class LocalRankEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& n : kNames) {
      const char* v = std::getenv(n.c_str());
      saved_.push_back(v ? std::optional<std::string>(v) : std::nullopt);
      unsetenv(n.c_str());
    }
  }
  void TearDown() override {
    for (size_t i = 0; i < kNames.size(); ++i) {
      if (saved_[i])
        setenv(kNames[i].c_str(), saved_[i]->c_str(), 1);
      else
        unsetenv(kNames[i].c_str());
    }
  }
  std::vector<std::optional<std::string>> saved_;
};

TEST_F(LocalRankEnvironment, outside_mpi_the_rank_is_zero) { EXPECT_EQ(local_rank_from_environment(), 0); }

TEST_F(LocalRankEnvironment, each_launchers_variable_is_read) {
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(kNames[i]);
    setenv(kNames[i].c_str(), std::to_string(3 + i).c_str(), 1);
    EXPECT_EQ(local_rank_from_environment(), static_cast<int32_t>(3 + i));
    unsetenv(kNames[i].c_str());
  }
}

TEST_F(LocalRankEnvironment, open_mpi_comes_first_and_bad_values_are_skipped) {
  setenv("SLURM_LOCALID", "5", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "2", 1);
  EXPECT_EQ(local_rank_from_environment(), 2);
  for (const char* bad : {"", "x", "-1", "3x", "99999999999"}) {
    SCOPED_TRACE(std::string("OMPI_COMM_WORLD_LOCAL_RANK=") + bad);
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", bad, 1);
    EXPECT_EQ(local_rank_from_environment(), 5);  // Slurm's
  }
}

TEST_F(LocalRankEnvironment, the_local_size_is_read_from_each_launcher_and_unknown_outside_mpi) {
  EXPECT_EQ(local_size_from_environment(), 0);
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMIX_LOCAL_SIZE"}) {
    SCOPED_TRACE(name);
    setenv(name, "6", 1);
    EXPECT_EQ(local_size_from_environment(), 6);
    setenv(name, "0", 1);  // no launcher runs zero ranks: skipped
    EXPECT_EQ(local_size_from_environment(), 0);
    unsetenv(name);
  }
  // Slurm's per-node list: one count (repeated or not) reads as that count, mixed counts do not.
  for (const auto& [value, size] : std::vector<std::pair<std::string, int32_t>>{
           {"4", 4}, {"4(x3)", 4}, {"2(x3),1", 0}, {"x", 0}}) {
    SCOPED_TRACE("SLURM_TASKS_PER_NODE=" + value);
    setenv("SLURM_TASKS_PER_NODE", value.c_str(), 1);
    EXPECT_EQ(local_size_from_environment(), size);
  }
}

// devices_of_rank: ranks >= devices share them round-robin, fewer ranks split them.
TEST(DevicesOfRank, ranks_share_or_split_the_nodes_devices) {
  using V = std::vector<int32_t>;
  EXPECT_EQ(devices_of_rank(0, 0, 1), V{});
  EXPECT_EQ(devices_of_rank(2, 0, 0), (V{0, 1}));  // one process, no launcher: every device
  EXPECT_EQ(devices_of_rank(4, 0, 1), (V{0, 1, 2, 3}));
  EXPECT_EQ(devices_of_rank(4, 0, 2), (V{0, 2}));
  EXPECT_EQ(devices_of_rank(4, 1, 2), (V{1, 3}));
  EXPECT_EQ(devices_of_rank(4, 2, 3), (V{2}));
  EXPECT_EQ(devices_of_rank(2, 1, 2), V{1});
  EXPECT_EQ(devices_of_rank(2, 3, 4), V{1});  // more ranks than devices: rank % count
  EXPECT_EQ(devices_of_rank(2, 3, 0), V{1});  // a rank but no size: the same
  // Every device is some rank's and no two ranks share one while ranks < devices.
  for (int32_t count = 1; count <= 8; ++count)
    for (int32_t size = 1; size < count; ++size) {
      std::vector<int> owners(static_cast<size_t>(count), 0);
      for (int32_t r = 0; r < size; ++r)
        for (int32_t d : devices_of_rank(count, r, size)) ++owners[static_cast<size_t>(d)];
      for (int o : owners) EXPECT_EQ(o, 1) << count << " devices, " << size << " ranks";
    }
}

}  // namespace
}  // namespace gpuglu::test
