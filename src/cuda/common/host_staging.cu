// HostStaging (host_staging.hpp): the pinned buffers and the copy rule.
#include "cuda/common/host_staging.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "cuda/common/cuda_check.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

void* HostStaging::pinned_bytes(size_t bytes, const char* what) {
  bytes = std::max<size_t>(bytes, 16);
  void* p = nullptr;
  const cudaError_t err = cudaMallocHost(&p, bytes);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    throw Error(Status::out_of_memory, "cudaMallocHost of " + std::to_string(bytes) + " bytes for " + what +
                                           " failed: " + cudaGetErrorString(err));
  }
  buffers_.push_back(p);
  return p;
}

void HostStaging::release() noexcept {
  for (void* p : buffers_) cudaFreeHost(p);
  buffers_.clear();
}

bool HostStaging::copies_directly(size_t bytes) const {
  switch (rule_) {
    case Staging::pinned:
      return false;
    case Staging::direct:
      return true;
    case Staging::automatic:
    default:
      return bytes >= kDirectCopyBytes;
  }
}

void HostStaging::upload(void* dev, const void* host, void* pinned, size_t bytes, cudaStream_t stream) const {
  if (bytes == 0) return;
  if (copies_directly(bytes)) {
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, stream));
    return;
  }
  std::memcpy(pinned, host, bytes);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(dev, pinned, bytes, cudaMemcpyHostToDevice, stream));
}

void HostStaging::download(void* host, const void* dev, void* pinned, size_t bytes, cudaStream_t stream) const {
  if (bytes == 0) {
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  const bool direct = copies_directly(bytes);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(direct ? host : pinned, dev, bytes, cudaMemcpyDeviceToHost, stream));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (!direct) std::memcpy(host, pinned, bytes);
}

}  // namespace gpuglu::cuda
