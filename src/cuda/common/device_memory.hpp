#pragma once
// Host-side RAII for the CUDA engines (lu/, trsv/): device allocations that are counted and
// named when they fail, and scopes that make one device current.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/common/cuda_check.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

// Owns device allocations and counts their bytes; a failed cudaMalloc names the request,
// the bytes asked and those already held by `owner`.
class DeviceMemory {
 public:
  explicit DeviceMemory(const char* owner) : owner_(owner) {}
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory() { release(); }

  void* allocate_bytes(size_t bytes, const char* what) {
    if (bytes == 0) bytes = 16;  // never a null pointer, even for an empty array
    void* p = nullptr;
    const cudaError_t err = cudaMalloc(&p, bytes);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();  // clear a non-sticky error
      throw Error(status_of(err), "cudaMalloc of " + std::to_string(bytes) + " bytes for " + what + " failed: " +
                          cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + "); " + std::to_string(bytes_) +
                          " bytes already held by " + owner_);
    }
    blocks_.push_back(p);
    bytes_ += static_cast<int64_t>(bytes);
    return p;
  }
  template <class T>
  T* allocate(size_t count, const char* what) {
    return static_cast<T*>(allocate_bytes(count * sizeof(T), what));
  }
  // Synchronous in full: cudaMemcpy from pageable memory returns once the data is staged,
  // not once it has arrived, and the engines' kernels run on non-blocking streams that do
  // not wait for the legacy stream's copies (a gather right after an upload read stale
  // positions: the first transposed solve of a factor went wrong on the H100).
  template <class T>
  T* upload(const T* host, size_t count, const char* what) {
    T* p = allocate<T>(count, what);
    if (count > 0) {
      GPUGLU_CUDA_CHECK(cudaMemcpy(p, host, count * sizeof(T), cudaMemcpyHostToDevice));
      GPUGLU_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
    }
    return p;
  }
  template <class T>
  T* upload(const std::vector<T>& v, const char* what) {
    return upload(v.data(), v.size(), what);
  }
  void release() noexcept {
    for (void* p : blocks_) cudaFree(p);
    blocks_.clear();
    bytes_ = 0;
  }
  int64_t bytes() const { return bytes_; }

 private:
  const char* owner_;
  std::vector<void*> blocks_;
  int64_t bytes_ = 0;
};

// Makes `device` current for a scope and restores the caller's device afterwards.
class DeviceScope {
 public:
  explicit DeviceScope(int device) : device_(device) {
    GPUGLU_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != device_) GPUGLU_CUDA_CHECK(cudaSetDevice(device_));
  }
  ~DeviceScope() {
    if (previous_ != device_) cudaSetDevice(previous_);
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int device_;
  int previous_ = -1;
};

// DeviceScope for destructors: best effort, never throws (a failed switch leaves the
// current device as it is, and the releases that follow are best effort too).
class ReleaseScope {
 public:
  explicit ReleaseScope(int device) noexcept {
    switched_ = cudaGetDevice(&previous_) == cudaSuccess && previous_ != device && cudaSetDevice(device) == cudaSuccess;
  }
  ~ReleaseScope() {
    if (switched_) cudaSetDevice(previous_);
  }
  ReleaseScope(const ReleaseScope&) = delete;
  ReleaseScope& operator=(const ReleaseScope&) = delete;

 private:
  int previous_ = -1;
  bool switched_ = false;
};

}  // namespace gpuglu::cuda
