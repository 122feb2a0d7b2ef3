// The one gather kernel of src/cuda (gather_kernels.cuh).
#include "cuda/common/gather_kernels.cuh"

#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_scalar.cuh"
#include "cuda/engine/device_facts.hpp"

namespace gpuglu::cuda {
namespace {

constexpr int kBlock = 256;

template <class T>
__global__ void __launch_bounds__(kBlock) gather_kernel(int64_t count, const int64_t* __restrict__ map,
                                                        const T* __restrict__ in, T* __restrict__ out,
                                                        bool conjugate) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count; e += stride)
    out[e] = conj_if(conjugate, in[map[e]]);
}

}  // namespace

template <class T>
void launch_gather(int64_t count, const int64_t* map, const T* in, T* out, cudaStream_t stream, bool conjugate) {
  if (count <= 0) return;
  const int64_t blocks = (count + kBlock - 1) / kBlock;
  const int64_t max_blocks = current_device_facts().grid_stride_blocks();  // a grid-stride loop
  gather_kernel<T><<<static_cast<unsigned>(blocks < max_blocks ? blocks : max_blocks), kBlock, 0, stream>>>(
      count, map, in, out, conjugate);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

template void launch_gather(int64_t, const int64_t*, const double*, double*, cudaStream_t, bool);
template void launch_gather(int64_t, const int64_t*, const DComplex*, DComplex*, cudaStream_t, bool);

}  // namespace gpuglu::cuda
