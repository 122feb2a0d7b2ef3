// HostStaging (src/cuda/common/host_staging.hpp): every path a host array takes to the device
// and back - pinned and memcpy'd (small), direct from pageable memory (between the
// thresholds), pinned in chunks over threads with each chunk's DMA queued as it is copied
// (large: an odd size, so the last chunk is partial) - under each Staging rule, against the
// host array itself, bit for bit. Skipped without a usable GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/common/host_staging.hpp"
#include "gpu_test_support.hpp"

namespace gpuglu::test {
namespace {

using cuda::HostStaging;

std::vector<double> pattern_of(size_t count) {
  std::vector<double> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = static_cast<double>(i % 1009) * 0.5 - static_cast<double>(i % 7);
  return v;
}

void expect_round_trip(Staging rule, size_t bytes) {
  SCOPED_TRACE(std::string("rule ") + std::string(to_string(rule)) + ", " + std::to_string(bytes) + " bytes");
  const size_t count = bytes / sizeof(double);
  const std::vector<double> host = pattern_of(count);
  HostStaging staging(rule);
  double* pinned = staging.copies_directly(bytes) ? nullptr : staging.pinned<double>(count, "the test's buffer");
  double* dev = nullptr;
  ASSERT_EQ(cudaMalloc(&dev, bytes), cudaSuccess);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  staging.upload(dev, host.data(), pinned, bytes, stream);
  std::vector<double> back(count, -1.0);
  staging.download(back.data(), dev, pinned, bytes, stream);
  EXPECT_EQ(back, host);
  // What the device holds, by a plain copy too.
  std::vector<double> plain(count, -2.0);
  ASSERT_EQ(cudaMemcpy(plain.data(), dev, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(plain, host);
  cudaStreamDestroy(stream);
  cudaFree(dev);
}

TEST(HostStaging, every_path_moves_the_array_unchanged) {
  GPUGLU_REQUIRE_GPU();
  const size_t small = 4096 * sizeof(double);
  const size_t middle = HostStaging::kDirectCopyBytes + 8 * sizeof(double);
  const size_t large = HostStaging::kParallelStagingBytes + 3 * HostStaging::kStagingChunkBytes / 2 + 24;
  for (Staging rule : {Staging::automatic, Staging::pinned, Staging::direct})
    for (size_t bytes : {small, middle, large}) expect_round_trip(rule, bytes);
  HostStaging automatic(Staging::automatic);
  EXPECT_FALSE(automatic.copies_directly(small));
  EXPECT_TRUE(automatic.copies_directly(middle));
  EXPECT_FALSE(automatic.copies_directly(large));
}

}  // namespace
}  // namespace gpuglu::test
