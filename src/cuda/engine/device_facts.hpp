#pragma once
// What the kernels' launches need to know about a device - its SM count, its shared-memory
// and thread limits, its compute capability - read from the device once and kept for the
// life of the process, one entry per device (a process may drive several: one rank per GPU,
// or a test that factors on each). Launch shapes are derived from these (a few waves of the
// device: grid_stride_blocks()), never from the numbers of one GPU written into the code.
// And the one place where a kernel's attributes are set: per (kernel, device), since a CUDA
// function attribute belongs to the device's context and setting it on one device leaves
// every other device at its default.
//
// Plain C++ (no CUDA header): host planning code (supernodal_plan.cpp) takes the facts too.
#include <cstdint>

namespace gpuglu::cuda {

struct DeviceFacts {
  int device = 0;                     // the ordinal these facts are of
  int sm_count = 0;                   // cudaDevAttrMultiProcessorCount
  int max_smem_per_block = 0;         // bytes a block gets without opting in (48 KiB)
  int max_smem_per_block_optin = 0;   // bytes a block may opt in to (227 KiB on an H100)
  int max_smem_per_sm = 0;            // bytes per SM, shared by its resident blocks
  int max_threads_per_sm = 0;
  int max_threads_per_block = 0;
  int warp_size = 0;
  int cc_major = 0;                   // compute capability
  int cc_minor = 0;
  bool cooperative_launch = false;    // cudaLaunchCooperativeKernel is supported

  int warps_per_sm() const { return warp_size > 0 ? max_threads_per_sm / warp_size : 0; }
  // Warps the whole device holds at full occupancy.
  int64_t resident_warps() const { return static_cast<int64_t>(sm_count) * warps_per_sm(); }
  // The grid of a grid-stride loop over a large array (a copy, a scatter): a few waves of the
  // device are plenty; more blocks only add scheduling. 2112 on an H100 (132 SMs).
  static constexpr int kGridStrideBlocksPerSm = 16;
  int64_t grid_stride_blocks() const { return static_cast<int64_t>(sm_count) * kGridStrideBlocksPerSm; }
};

// The facts of `device` (an ordinal; < 0: the current device), read with
// cudaDeviceGetAttribute on first use and cached: later calls, from any thread, return the
// same object, valid until the process ends. Throws gpuglu::Error (through
// GPUGLU_CUDA_CHECK) when the device cannot be queried.
const DeviceFacts& device_facts(int device);
// device_facts of the calling thread's current device (cudaGetDevice).
const DeviceFacts& current_device_facts();

// Raises kernel's cudaFuncAttributeMaxDynamicSharedMemorySize to at least `bytes` on
// `device` (< 0: the current device), once per (kernel, device): later calls with no more
// bytes cost a lookup under a mutex. kernel: the __global__ function's address (cast to
// const void*). The attribute is set with `device` current; the caller's current device is
// restored. Throws like device_facts when CUDA refuses (bytes beyond the device's opt-in limit).
void ensure_max_dynamic_smem(const void* kernel, int device, int bytes);

}  // namespace gpuglu::cuda
