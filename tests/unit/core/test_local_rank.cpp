// The node-local MPI rank from the launcher's environment (include/gpuglu/device.hpp), which
// picks a rank's GPU round-robin: Open MPI's variable first, then MPICH/Hydra's, Slurm's and
// PMIx's; values that are not a non-negative integer are skipped; 0 outside MPI.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "gpuglu/device.hpp"

namespace gpuglu::test {
namespace {

const std::vector<std::string> kNames = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID",
                                         "PMIX_LOCAL_RANK"};

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
  for (size_t i = 0; i < kNames.size(); ++i) {
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

}  // namespace
}  // namespace gpuglu::test
