// copy_device_to_host / copy_host_to_device (core/numeric_engine.hpp): the copies SparseLU
// makes where device-resident data meets an engine of host arrays. cudaMemcpyDefault: the
// pointer says where the data is (unified addressing), whichever device it belongs to.
#include <cuda_runtime.h>

#include "api/cuda_module.hpp"
#include "cuda/common/cuda_check.hpp"

namespace gpuglu::cuda_entry {

void copy_device_to_host(const double* d_src, double* h_dst, int64_t n) {
  if (n <= 0) return;
  GPUGLU_CUDA_CHECK(cudaMemcpy(h_dst, d_src, static_cast<size_t>(n) * sizeof(double), cudaMemcpyDefault));
}

void copy_host_to_device(const double* h_src, double* d_dst, int64_t n) {
  if (n <= 0) return;
  GPUGLU_CUDA_CHECK(cudaMemcpy(d_dst, h_src, static_cast<size_t>(n) * sizeof(double), cudaMemcpyDefault));
}

}  // namespace gpuglu::cuda_entry
