#pragma once
// Every CUDA call goes through GPUGLU_CUDA_CHECK: a failure becomes a gpuglu::Error
// carrying the call, the CUDA error string and what was being done, so the PETSc
// adapter can show it unchanged. Out-of-memory keeps its own status.
#include <cuda_runtime.h>

#include <string>

#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

// The Status a CUDA error is reported as: out_of_memory and no_device keep their meaning
// (SparseLU falls back to the CPU on them), everything else is a device_error.
inline Status status_of(cudaError_t err) noexcept {
  if (err == cudaErrorMemoryAllocation) return Status::out_of_memory;
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver) return Status::no_device;
  return Status::device_error;
}

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  throw Error(status_of(err), std::string(call) + " failed: " + cudaGetErrorName(err) + " (" +
                                  cudaGetErrorString(err) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace gpuglu::cuda

#define GPUGLU_CUDA_CHECK(call)                                                                 \
  do {                                                                                          \
    const cudaError_t gpuglu_err_ = (call);                                                     \
    if (gpuglu_err_ != cudaSuccess) ::gpuglu::cuda::throw_cuda_error(gpuglu_err_, #call, __FILE__, __LINE__); \
  } while (0)

// cuSPARSE calls go through GPUGLU_CUSPARSE_CHECK the same way: the call, the library's
// error string and where; an allocation failure inside cuSPARSE keeps out_of_memory.
#include <cusparse.h>

namespace gpuglu::cuda {

[[noreturn]] inline void throw_cusparse_error(cusparseStatus_t err, const char* call, const char* file, int line) {
  const Status s = (err == CUSPARSE_STATUS_ALLOC_FAILED) ? Status::out_of_memory : Status::device_error;
  throw Error(s, std::string(call) + " failed: " + cusparseGetErrorString(err) + " (cusparseStatus_t " +
                     std::to_string(static_cast<int>(err)) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace gpuglu::cuda

#define GPUGLU_CUSPARSE_CHECK(call)                                                                 \
  do {                                                                                              \
    const cusparseStatus_t gpuglu_sp_err_ = (call);                                                 \
    if (gpuglu_sp_err_ != CUSPARSE_STATUS_SUCCESS)                                                  \
      ::gpuglu::cuda::throw_cusparse_error(gpuglu_sp_err_, #call, __FILE__, __LINE__);              \
  } while (0)
