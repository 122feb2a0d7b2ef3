#pragma once
// What GPU (if any) this process can use. Works in every build: a CPU-only build
// reports no device with the reason "built without CUDA".
#include <cstdint>
#include <string>

namespace gpuglu {

struct DeviceInfo {
  bool usable = false;        // a CUDA device was found and selected
  int32_t ordinal = -1;       // CUDA device ordinal
  int32_t device_count = 0;   // devices visible to this process
  std::string name;           // e.g. "NVIDIA H100 80GB HBM3"
  int32_t sm_count = 0;
  int32_t warps_per_sm = 0;   // max resident warps per SM
  int64_t memory_bytes = 0;   // total device memory
  int32_t compute_capability = 0;  // major * 10 + minor
  std::string reason;         // why not usable ("no CUDA device", "built without CUDA", CUDA error)

  // Eq. 7 of GLU3.0 divides the device's resident warps among a level's columns.
  int32_t total_warps() const { return sm_count * warps_per_sm; }
};

// Whether this library was compiled with the CUDA backend.
bool built_with_cuda() noexcept;

// Picks a device: ordinal >= 0 selects it; -1 selects local_rank % device_count, so
// MPI ranks on a node share the node's GPUs round-robin. Never throws: problems are
// reported in DeviceInfo::reason.
DeviceInfo query_device(int32_t ordinal = -1, int32_t local_rank = 0) noexcept;

// Creates the device's CUDA context (the runtime's primary context) and initializes cuBLAS
// and cuSOLVER on it (a handle each, created and destroyed) from the calling thread: the
// facades call it on a helper thread while the CPU analysis runs. Errors are left for the
// engine to meet and report. Nothing without CUDA.
void prepare_device(int32_t ordinal) noexcept;

// The node-local MPI rank from the launcher's environment (Open MPI, MPICH, Slurm, PMIx);
// 0 outside MPI.
int32_t local_rank_from_environment() noexcept;

}  // namespace gpuglu
