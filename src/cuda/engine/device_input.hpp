#pragma once
// A's values on the device, for every engine on the shell (device_engine.hpp): the one
// buffer the factorization scatters from and the refinement's residuals read, filled from
// the host through a pinned staging buffer (HostStaging's pageable-vs-pinned rule) or
// across from device memory of this process, and read back when a recovery needs A's values
// on the host. Scalar: double or std::complex<double>; the device holds the same bytes.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/common/device_memory.hpp"
#include "cuda/common/device_scalar.hpp"
#include "cuda/common/host_staging.hpp"

namespace gpuglu::cuda {

template <class Scalar>
class BasicDeviceInput {
 public:
  using T = device_scalar_t<Scalar>;
  // input_nnz values in mem, their staging buffer from staging.
  BasicDeviceInput(int64_t input_nnz, DeviceMemory& mem, HostStaging& staging);
  BasicDeviceInput(const BasicDeviceInput&) = delete;
  BasicDeviceInput& operator=(const BasicDeviceInput&) = delete;

  const T* values() const { return dev_; }
  int64_t size() const { return nnz_; }

  // A's values (CSR order) from the host, asynchronous on stream.
  void upload(const Scalar* a_values, cudaStream_t stream);
  // The same from device memory of this process (any device): one copy on stream, no host.
  void copy(const Scalar* d_values, cudaStream_t stream);
  // The last values to the host, synchronous.
  void download(Scalar* a_values, cudaStream_t stream) const;

 private:
  const HostStaging& staging_;
  int64_t nnz_;
  T* dev_ = nullptr;
  T* pinned_ = nullptr;
};

}  // namespace gpuglu::cuda
