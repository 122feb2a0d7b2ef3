#pragma once
// cuBLAS's workspace for the supernodal engines' handles (SchurGemm's, the LDL^T lanes', the
// pivoted panels'), given from the engine's DeviceMemory so that device_bytes() counts it,
// instead of cuBLAS allocating its own per stream.
#include <cublas_v2.h>

#include <cstddef>

#include "cuda/common/device_memory.hpp"
#include "cuda/supernodal/cublas_check.hpp"

namespace gpuglu::cuda {

// Hopper's default is 32 MiB a handle, and an engine holds up to five handles (four lanes and
// the pivoted panels'). The engines' GEMMs and TRSMs ran as fast with 4 MiB (docs/performance.md,
// issue 28's third step, run 23), which saves 112 MiB of device memory per engine.
constexpr size_t kCublasWorkspaceBytes = size_t{4} << 20;

// h's workspace: kCublasWorkspaceBytes of mem.
inline void give_cublas_workspace(cublasHandle_t h, DeviceMemory& mem) {
  void* ws = mem.allocate_bytes(kCublasWorkspaceBytes, "cuBLAS's workspace");
  GPUGLU_CUBLAS_CHECK(cublasSetWorkspace(h, ws, kCublasWorkspaceBytes));
}

}  // namespace gpuglu::cuda
