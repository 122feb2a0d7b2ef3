// Which GPU a process takes (include/gpuglu/device.hpp): ranks on a node round-robin over the
// devices CUDA shows them (CUDA_VISIBLE_DEVICES applied by the runtime), by node-local rank;
// and the factors of a SparseLU live on the device it reports: its device memory is taken
// from that device and from no other. On a one-GPU machine every rank maps to device 0, which
// is what is checked there; with several GPUs each rank's own. A process with several
// devices spreads its factors over them (DeviceClaim). Skipped without a usable GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
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

// One process (no launcher: every device is its own) making several factors, as bjacobi's
// local blocks or fieldsplit's do: they spread over the devices, one each before any
// device holds two; each factor's memory is on its own device; work interleaved between
// them (the current device switching under them) stays right; a factor destroyed frees its
// device for the next one.
TEST(DeviceSelection, a_process_spreads_its_factors_over_its_devices) {
  GPUGLU_REQUIRE_GPU();
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALRANKID",
                           "MPI_LOCALNRANKS", "SLURM_LOCALID", "SLURM_TASKS_PER_NODE", "PMIX_LOCAL_RANK",
                           "PMIX_LOCAL_SIZE"})
    if (std::getenv(name)) GTEST_SKIP() << "runs outside an MPI launcher (" << name << " is set)";
  const int32_t count = query_device().device_count;
  const int32_t factors = 2 * count;
  std::vector<CsrMatrix<int32_t, double>> a;
  for (int32_t f = 0; f < factors; ++f) a.push_back(gen::from_spec("lap3d7:" + std::to_string(24 + f) + "x24x24"));
  std::vector<std::unique_ptr<SparseLU>> lu;
  std::vector<int32_t> on(static_cast<size_t>(count), 0);
  for (int32_t f = 0; f < factors; ++f) {
    lu.push_back(std::make_unique<SparseLU>(default_cuda_options()));
    lu.back()->analyze(a[f].view());
    ASSERT_EQ(lu.back()->factor(a[f].view()).status, Status::ok);
    const int32_t d = lu.back()->device_info().ordinal;
    ASSERT_GE(d, 0);
    ASSERT_LT(d, count);
    EXPECT_EQ(d, f % count) << "factor " << f << ": the least-claimed device, lowest first";
    ++on[static_cast<size_t>(d)];
  }
  for (int32_t d = 0; d < count; ++d) EXPECT_EQ(on[static_cast<size_t>(d)], 2) << "device " << d;
  for (int round = 0; round < 2; ++round)
    for (int32_t f = factors - 1; f >= 0; --f) {  // refactor and solve, alternating devices
      std::vector<double> xtrue(static_cast<size_t>(a[f].nrows)), b(xtrue.size()), x(xtrue.size());
      for (size_t i = 0; i < xtrue.size(); ++i) xtrue[i] = 1.0 + static_cast<double>(i % 7) + round;
      spmv(a[f].view(), xtrue.data(), b.data());
      ASSERT_EQ(lu[f]->factor(a[f].view()).status, Status::ok);
      lu[f]->solve(b.data(), x.data());
      EXPECT_LT(relative_residual(a[f].view(), x.data(), b.data()), 1e-12) << "factor " << f;
    }
  if (count > 1) {
    lu[1].reset();  // device 1 now holds one factor fewer than the others
    SparseLU next(default_cuda_options());
    next.analyze(a[1].view());
    ASSERT_EQ(next.factor(a[1].view()).status, Status::ok);
    EXPECT_EQ(next.device_info().ordinal, 1);
  }
  Options pinned = default_cuda_options();  // an ordinal asked for is what a factor gets
  pinned.device = count - 1;
  SparseLU asked(pinned);
  asked.analyze(a[0].view());
  ASSERT_EQ(asked.factor(a[0].view()).status, Status::ok);
  EXPECT_EQ(asked.device_info().ordinal, count - 1);
}

}  // namespace
}  // namespace gpuglu::test
