#pragma once
// A device copy of a host vector for the device-resident tests (cudaMalloc'd: aligned as the
// arrays a CUDA PETSc hands out, 16 bytes for a complex scalar), freed with the object.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace gpuglu::test {

template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<T>& h) : n_(h.size()) {
    void* p = nullptr;
    EXPECT_EQ(cudaMalloc(&p, std::max<size_t>(n_, 1) * sizeof(T)), cudaSuccess);
    d_ = static_cast<T*>(p);
    if (n_) EXPECT_EQ(cudaMemcpy(d_, h.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    // Complete, not just staged: the engines' non-blocking streams do not wait for this one.
    EXPECT_EQ(cudaStreamSynchronize(cudaStreamLegacy), cudaSuccess);
  }
  explicit DeviceArray(size_t n) : DeviceArray(std::vector<T>(n, T{})) {}
  ~DeviceArray() { cudaFree(d_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() { return d_; }
  std::vector<T> host() const {
    std::vector<T> h(n_);
    if (n_) EXPECT_EQ(cudaMemcpy(h.data(), d_, n_ * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
  }

 private:
  size_t n_;
  T* d_ = nullptr;
};

}  // namespace gpuglu::test
