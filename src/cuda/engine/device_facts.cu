// device_facts and ensure_max_dynamic_smem (device_facts.hpp). Both tables are process-wide
// and never shrink: a DeviceFacts handed out stays valid, and an attribute once raised on a
// device stays raised for the life of its context.
#include "cuda/engine/device_facts.hpp"

#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_memory.hpp"

namespace gpuglu::cuda {
namespace {

int attribute(cudaDeviceAttr what, int device) {
  int value = 0;
  GPUGLU_CUDA_CHECK(cudaDeviceGetAttribute(&value, what, device));
  return value;
}

DeviceFacts read_facts(int device) {
  DeviceFacts f;
  f.device = device;
  f.sm_count = attribute(cudaDevAttrMultiProcessorCount, device);
  f.max_smem_per_block = attribute(cudaDevAttrMaxSharedMemoryPerBlock, device);
  f.max_smem_per_block_optin = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  f.max_smem_per_sm = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
  f.max_threads_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, device);
  f.max_threads_per_block = attribute(cudaDevAttrMaxThreadsPerBlock, device);
  f.warp_size = attribute(cudaDevAttrWarpSize, device);
  f.cc_major = attribute(cudaDevAttrComputeCapabilityMajor, device);
  f.cc_minor = attribute(cudaDevAttrComputeCapabilityMinor, device);
  f.cooperative_launch = attribute(cudaDevAttrCooperativeLaunch, device) != 0;
  return f;
}

int current_device() {
  int device = 0;
  GPUGLU_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

}  // namespace

const DeviceFacts& device_facts(int device) {
  if (device < 0) device = current_device();
  // The launchers ask on every launch: a thread's last answer is kept without a lock (the
  // table's entries never move or change once inserted).
  thread_local const DeviceFacts* last = nullptr;
  if (last != nullptr && last->device == device) return *last;
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<const DeviceFacts>> table;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = table.find(device);
  if (it == table.end()) it = table.emplace(device, std::make_unique<const DeviceFacts>(read_facts(device))).first;
  last = it->second.get();
  return *last;
}

const DeviceFacts& current_device_facts() { return device_facts(current_device()); }

void ensure_max_dynamic_smem(const void* kernel, int device, int bytes) {
  if (device < 0) device = current_device();
  // Launchers ask on every launch: what this thread saw raised is answered without the lock.
  struct Raised {
    const void* kernel;
    int device;
    int bytes;
  };
  thread_local std::vector<Raised> seen;
  for (const Raised& r : seen)
    if (r.kernel == kernel && r.device == device && r.bytes >= bytes) return;
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, int> raised;  // (kernel, device) -> bytes set
  std::lock_guard<std::mutex> lock(mutex);
  int& done = raised[{kernel, device}];
  if (bytes > done) {
    DeviceScope scope(device);
    GPUGLU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    done = bytes;
  }
  seen.push_back({kernel, device, done});
}

}  // namespace gpuglu::cuda
