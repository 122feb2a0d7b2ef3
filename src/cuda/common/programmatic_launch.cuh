#pragma once
// Programmatic dependent launch (Hopper, sm_90+), shared by the LU level loop and the
// level-scheduled triangular solves: a kernel launched with programmatic stream
// serialization may start while the previous kernel on the stream drains; it reads what
// no kernel writes (the schedule) first, then wait_for_previous_kernel(), then the rest.
#include <cuda_runtime.h>

#include "cuda/common/cuda_check.hpp"

namespace gpuglu::cuda {

// Both are no-ops for a kernel launched plainly (and compiled out below sm_90).
__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
}
__device__ __forceinline__ void let_next_kernel_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

// A launch with programmatic stream serialization when `programmatic` (plain otherwise).
template <class... Params, class... Args>
void launch_maybe_programmatic(void (*kernel)(Params...), unsigned grid, int block, bool programmatic,
                               cudaStream_t stream, Args... args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(static_cast<unsigned>(block));
  cfg.dynamicSmemBytes = 0;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = programmatic ? 1 : 0;
  GPUGLU_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, static_cast<Params>(args)...));
}

}  // namespace gpuglu::cuda
