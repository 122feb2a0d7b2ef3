// Which GPU a process takes (include/gpuglu/device.hpp): ranks on a node round-robin over the
// devices CUDA shows them (CUDA_VISIBLE_DEVICES applied by the runtime), by node-local rank;
// and the factors of a SparseLU live on the device it reports: its device memory is taken
// from that device and from no other. On a one-GPU machine every rank maps to device 0, which
// is what is checked there; with several GPUs each rank's own. Skipped without a usable GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpuglu/device.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::test {
namespace {

TEST(DeviceSelection, ranks_map_round_robin_over_the_visible_devices) {
  GPUGLU_REQUIRE_GPU();
  const int32_t count = query_device().device_count;
  ASSERT_GE(count, 1);
  for (int32_t rank = 0; rank < 3 * count; ++rank) {
    const DeviceInfo d = query_device(-1, rank);
    ASSERT_TRUE(d.usable) << d.reason;
    EXPECT_EQ(d.ordinal, rank % count) << "rank " << rank;
  }
  EXPECT_EQ(query_device(count - 1, 7).ordinal, count - 1);  // an explicit ordinal wins
  const DeviceInfo missing = query_device(count, 0);
  EXPECT_FALSE(missing.usable);
  EXPECT_NE(missing.reason.find("requested"), std::string::npos) << missing.reason;
}

// Free memory of every visible device (each one's context made first, so that creating it
// is not counted as a factor's).
std::vector<size_t> free_memory(int32_t count) {
  std::vector<size_t> free(static_cast<size_t>(count));
  for (int32_t d = 0; d < count; ++d) {
    size_t total = 0;
    EXPECT_EQ(cudaSetDevice(d), cudaSuccess);
    EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
    EXPECT_EQ(cudaMemGetInfo(&free[d], &total), cudaSuccess);
  }
  return free;
}

TEST(DeviceSelection, a_ranks_factor_lives_on_its_device) {
  GPUGLU_REQUIRE_GPU();
  const int32_t count = query_device().device_count;
  const CsrMatrix<int32_t, double> a = gen::from_spec("circuit:100000:1000");  // tens of MB on the device
  std::vector<double> xtrue(static_cast<size_t>(a.nrows), 1.0), b(xtrue.size()), x(xtrue.size());
  spmv(a.view(), xtrue.data(), b.data());
  const char* saved = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  const std::string saved_value = saved ? saved : "";
  for (int32_t rank = 0; rank < std::min(count + 1, 5); ++rank) {
    SCOPED_TRACE("local rank " + std::to_string(rank));
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", std::to_string(rank).c_str(), 1);
    for (LuEngine engine : {LuEngine::automatic, LuEngine::column}) {
      Options o = default_cuda_options();
      o.lu_engine = engine;
      const std::vector<size_t> before = free_memory(count);
      {
        SparseLU lu(o);
        lu.analyze(a.view());
        ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
        lu.solve(b.data(), x.data());
        EXPECT_LT(relative_residual(a.view(), x.data(), b.data()), 1e-12);
        const int32_t mine = rank % count;
        EXPECT_EQ(lu.device_info().ordinal, mine);
        ASSERT_GT(lu.device_bytes(), int64_t{16} << 20);
        const std::vector<size_t> during = free_memory(count);
        for (int32_t d = 0; d < count; ++d) {
          const double taken = static_cast<double>(before[d]) - static_cast<double>(during[d]);
          if (d == mine)  // the engine's own allocations, and what CUDA's libraries keep there
            EXPECT_GE(taken, 0.9 * static_cast<double>(lu.device_bytes())) << "device " << d;
          else
            EXPECT_LT(taken, 0.05 * static_cast<double>(lu.device_bytes())) << "device " << d;
        }
      }
    }
  }
  if (saved)
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", saved_value.c_str(), 1);
  else
    unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
}

}  // namespace
}  // namespace gpuglu::test
