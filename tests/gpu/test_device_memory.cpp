// Out of device memory: backend cuda names the bytes it asked for, or, with
// Options::cpu_fallback (and always under backend automatic), hands the work to the CPU
// backend and says why in backend_note(). The device is filled first with allocations of
// this test, so the factor cannot fit. Skipped without a usable GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpuglu/device.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::test {
namespace {

// Holds nearly all free device memory for its lifetime (down to `leave` bytes).
class DeviceMemoryHog {
 public:
  explicit DeviceMemoryHog(size_t leave) {
    for (size_t chunk = size_t(1) << 30; chunk >= (size_t(1) << 20); chunk /= 2) {
      for (;;) {
        size_t free_bytes = 0, total = 0;
        if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess || free_bytes < leave + chunk) break;
        void* p = nullptr;
        if (cudaMalloc(&p, chunk) != cudaSuccess) {
          (void)cudaGetLastError();
          break;
        }
        blocks_.push_back(p);
      }
    }
  }
  ~DeviceMemoryHog() {
    for (void* p : blocks_) cudaFree(p);
  }
  DeviceMemoryHog(const DeviceMemoryHog&) = delete;
  DeviceMemoryHog& operator=(const DeviceMemoryHog&) = delete;

 private:
  std::vector<void*> blocks_;
};

TEST(DeviceMemory, out_of_memory_errors_or_falls_back_to_the_cpu_by_option) {
  const DeviceInfo d = query_device();
  if (!d.usable) GTEST_SKIP() << "no usable GPU: " << d.reason;
  ASSERT_EQ(cudaSetDevice(d.ordinal), cudaSuccess);
  const CsrMatrix<int32_t, double> a = gen::from_spec("circuit:100000:1000");  // factor ~40 MB on the device
  std::vector<double> xtrue(static_cast<size_t>(a.nrows), 1.0), b(xtrue.size()), x(xtrue.size());
  spmv(a.view(), xtrue.data(), b.data());
  DeviceMemoryHog hog(size_t(4) << 20);

  Options strict;
  strict.backend = Backend::cuda;
  SparseLU lu_strict(strict);
  try {
    lu_strict.analyze(a.view());
    FAIL() << "backend cuda fit a ~40 MB factor into 4 MiB of free device memory";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::out_of_memory);
    EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
  }

  for (Backend backend : {Backend::cuda, Backend::automatic}) {
    Options o;
    o.backend = backend;
    o.cpu_fallback = backend == Backend::cuda;
    o.auto_gpu_min_factor_nnz = 0;
    SparseLU lu(o);
    lu.analyze(a.view());
    EXPECT_EQ(lu.active_backend(), Backend::cpu) << to_string(backend);
    EXPECT_NE(lu.backend_note().find("bytes"), std::string::npos) << lu.backend_note();
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
    lu.solve(b.data(), x.data());
    EXPECT_LT(relative_residual(a.view(), x.data(), b.data()), 1e-12);
  }
}

}  // namespace
}  // namespace gpuglu::test
