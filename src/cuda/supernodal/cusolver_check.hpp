#pragma once
// cuSOLVER calls go through GPUGLU_CUSOLVER_CHECK as cuBLAS calls go through
// GPUGLU_CUBLAS_CHECK (cublas_check.hpp): the call, the status and where; an allocation
// failure inside cuSOLVER keeps out_of_memory. The supernodal engines' dense LU calls cuSOLVER
// (and common/device.cu's warm-up creates a handle).
#include <cusolverDn.h>

#include <string>

#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

[[noreturn]] inline void throw_cusolver_error(cusolverStatus_t err, const char* call, const char* file, int line) {
  const Status s = (err == CUSOLVER_STATUS_ALLOC_FAILED) ? Status::out_of_memory : Status::device_error;
  throw Error(s, std::string(call) + " failed: cusolverStatus_t " + std::to_string(static_cast<int>(err)) + " at " +
                     file + ":" + std::to_string(line));
}

}  // namespace gpuglu::cuda

#define GPUGLU_CUSOLVER_CHECK(call)                                                               \
  do {                                                                                            \
    const cusolverStatus_t gpuglu_solver_err_ = (call);                                           \
    if (gpuglu_solver_err_ != CUSOLVER_STATUS_SUCCESS)                                            \
      ::gpuglu::cuda::throw_cusolver_error(gpuglu_solver_err_, #call, __FILE__, __LINE__);        \
  } while (0)
