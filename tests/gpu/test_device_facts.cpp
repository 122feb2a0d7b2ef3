// The per-device facts the kernels' launches read (src/cuda/engine/device_facts.hpp): one
// entry per device of the process, read once, equal to what CUDA reports for that device,
// and the same object on every call and from every thread. Skipped without a usable GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <cuda_runtime.h>

#include <thread>
#include <vector>

#include "api/cuda_module.hpp"
#include "cuda/engine/device_facts.hpp"
#include "cuda/supernodal/panel_smem.hpp"

namespace gpuglu::test {
namespace {

TEST(DeviceFacts, every_device_reports_its_own_attributes) {
  GPUGLU_REQUIRE_GPU();
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    ASSERT_EQ(cudaGetDeviceProperties(&prop, d), cudaSuccess);
    const cuda::DeviceFacts& f = cuda::device_facts(d);
    EXPECT_EQ(f.device, d);
    EXPECT_EQ(f.sm_count, prop.multiProcessorCount);
    EXPECT_EQ(f.max_smem_per_block, static_cast<int>(prop.sharedMemPerBlock));
    EXPECT_EQ(f.max_smem_per_block_optin, static_cast<int>(prop.sharedMemPerBlockOptin));
    EXPECT_EQ(f.max_smem_per_sm, static_cast<int>(prop.sharedMemPerMultiprocessor));
    EXPECT_EQ(f.max_threads_per_sm, prop.maxThreadsPerMultiProcessor);
    EXPECT_EQ(f.max_threads_per_block, prop.maxThreadsPerBlock);
    EXPECT_EQ(f.warp_size, prop.warpSize);
    EXPECT_EQ(f.cc_major, prop.major);
    EXPECT_EQ(f.cc_minor, prop.minor);
    EXPECT_EQ(&cuda::device_facts(d), &f);  // read once, the same entry afterwards
    // The panel kernels' shared memory fits what a block of this device may opt in to.
    EXPECT_LE(cuda::kernels::panel_smem_limit(f), static_cast<size_t>(f.max_smem_per_block_optin));
    if (prop.major == 9) EXPECT_EQ(cuda::kernels::panel_smem_limit(f), size_t{200} * 1024);  // H100, H200
  }
}

TEST(DeviceFacts, the_current_device_and_other_threads_get_the_same_entry) {
  GPUGLU_REQUIRE_GPU();
  int count = 0, current = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(&cuda::current_device_facts(), &cuda::device_facts(current));
  EXPECT_EQ(&cuda::device_facts(-1), &cuda::device_facts(current));
  std::vector<const cuda::DeviceFacts*> seen(static_cast<size_t>(4 * count), nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&seen, i, count] { seen[i] = &cuda::device_facts(static_cast<int>(i) % count); });
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], &cuda::device_facts(static_cast<int>(i) % count));
}

// auto's cold-start rules read whether CUDA runs from the driver library's presence among the
// loaded objects (api/cuda_module.hpp): with a GPU in use it must be there.
TEST(DeviceFacts, cuda_counts_as_running_once_a_device_is_used) {
  GPUGLU_REQUIRE_GPU();
  EXPECT_TRUE(cuda_running());
}

}  // namespace
}  // namespace gpuglu::test
