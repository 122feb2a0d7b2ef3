// Device discovery for the CUDA backend and for -ksp_view: the module's side of query_device
// and prepare_device (api/cuda_module.hpp; gpuglu/device.hpp says what they do).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <map>
#include <mutex>
#include <string>

#include "api/cuda_module.hpp"

namespace gpuglu::cuda_entry {

DeviceInfo query_device(int32_t ordinal, int32_t local_rank) noexcept {
  DeviceInfo info;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    // A machine without a GPU or driver lands here: not an error for the CPU backend.
    info.reason = std::string("no CUDA device (") + cudaGetErrorString(err) + ")";
    cudaGetLastError();
    return info;
  }
  info.device_count = count;
  if (count == 0) {
    info.reason = "no CUDA device";
    return info;
  }
  const int dev = ordinal >= 0 ? ordinal : (local_rank >= 0 ? local_rank : 0) % count;
  if (dev >= count) {
    info.reason = "CUDA device " + std::to_string(dev) + " requested but only " + std::to_string(count) + " present";
    return info;
  }
  // A device's properties do not change while the process runs, and every analysis asks
  // for them (the engine choice, the backend choice): read once per device.
  static std::mutex properties_mutex;
  static std::map<int, cudaDeviceProp> properties;
  cudaDeviceProp prop{};
  {
    std::lock_guard<std::mutex> lock(properties_mutex);
    auto it = properties.find(dev);
    if (it == properties.end()) {
      err = cudaGetDeviceProperties(&prop, dev);
      if (err != cudaSuccess) {
        info.reason = std::string("cudaGetDeviceProperties failed: ") + cudaGetErrorString(err);
        return info;
      }
      it = properties.emplace(dev, prop).first;
    }
    prop = it->second;
  }
  info.usable = true;
  info.ordinal = dev;
  info.name = prop.name;
  info.sm_count = prop.multiProcessorCount;
  info.warps_per_sm = prop.maxThreadsPerMultiProcessor / prop.warpSize;
  info.memory_bytes = static_cast<int64_t>(prop.totalGlobalMem);
  info.compute_capability = prop.major * 10 + prop.minor;
  return info;
}

void prepare_device(int32_t ordinal) noexcept {
  // This thread's device only (each host thread has its own current device); cudaFree(nullptr)
  // is the documented way to create the context. A failure here is met again, and reported,
  // by the engine.
  if (cudaSetDevice(ordinal) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  // The first handle of each library initializes it in this process (the supernodal
  // engines create theirs when built, right after the analysis): done here, it overlaps the
  // analysis instead. Best effort, as above.
  cublasHandle_t blas = nullptr;
  if (cublasCreate(&blas) == CUBLAS_STATUS_SUCCESS) cublasDestroy(blas);
  cusolverDnHandle_t solver = nullptr;
  if (cusolverDnCreate(&solver) == CUSOLVER_STATUS_SUCCESS) cusolverDnDestroy(solver);
}

}  // namespace gpuglu::cuda_entry
