#include "cuda/engine/device_input.hpp"

#include <complex>

#include "cuda/common/cuda_check.hpp"

namespace gpuglu::cuda {

template <class Scalar>
BasicDeviceInput<Scalar>::BasicDeviceInput(int64_t input_nnz, DeviceMemory& mem, HostStaging& staging)
    : staging_(staging), nnz_(input_nnz) {
  dev_ = mem.allocate<T>(static_cast<size_t>(nnz_), "the input values");
  pinned_ = staging.pinned<T>(static_cast<size_t>(nnz_), "the input values' staging buffer");
}

template <class Scalar>
void BasicDeviceInput<Scalar>::upload(const Scalar* a_values, cudaStream_t stream) {
  staging_.upload(dev_, a_values, pinned_, static_cast<size_t>(nnz_) * sizeof(T), stream);
}

template <class Scalar>
void BasicDeviceInput<Scalar>::copy(const Scalar* d_values, cudaStream_t stream) {
  if (nnz_ == 0) return;
  GPUGLU_CUDA_CHECK(
      cudaMemcpyAsync(dev_, d_values, static_cast<size_t>(nnz_) * sizeof(T), cudaMemcpyDefault, stream));
}

template <class Scalar>
void BasicDeviceInput<Scalar>::download(Scalar* a_values, cudaStream_t stream) const {
  if (nnz_ == 0) return;
  GPUGLU_CUDA_CHECK(
      cudaMemcpyAsync(a_values, dev_, static_cast<size_t>(nnz_) * sizeof(T), cudaMemcpyDeviceToHost, stream));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template class BasicDeviceInput<double>;
template class BasicDeviceInput<std::complex<double>>;

}  // namespace gpuglu::cuda
