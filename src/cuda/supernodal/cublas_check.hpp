#pragma once
// cuBLAS calls go through GPUGLU_CUBLAS_CHECK as CUDA calls go through GPUGLU_CUDA_CHECK
// (common/cuda_check.hpp): the call, the library's error string and where; an allocation
// failure inside cuBLAS keeps out_of_memory. Only the supernodal engine calls cuBLAS, so the
// header stays here and no other file includes cublas_v2.h.
#include <cublas_v2.h>

#include <string>

#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

[[noreturn]] inline void throw_cublas_error(cublasStatus_t err, const char* call, const char* file, int line) {
  const Status s = (err == CUBLAS_STATUS_ALLOC_FAILED) ? Status::out_of_memory : Status::device_error;
  throw Error(s, std::string(call) + " failed: " + cublasGetStatusString(err) + " (cublasStatus_t " +
                     std::to_string(static_cast<int>(err)) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace gpuglu::cuda

#define GPUGLU_CUBLAS_CHECK(call)                                                                 \
  do {                                                                                            \
    const cublasStatus_t gpuglu_blas_err_ = (call);                                               \
    if (gpuglu_blas_err_ != CUBLAS_STATUS_SUCCESS)                                                \
      ::gpuglu::cuda::throw_cublas_error(gpuglu_blas_err_, #call, __FILE__, __LINE__);            \
  } while (0)
