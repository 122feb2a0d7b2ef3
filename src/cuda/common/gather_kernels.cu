// The one gather kernel of src/cuda (gather_kernels.cuh).
#include "cuda/common/gather_kernels.cuh"

#include "cuda/common/cuda_check.hpp"

namespace gpuglu::cuda {
namespace {

constexpr int kBlock = 256;
// A grid-stride loop: a few waves of an H100 (132 SMs) are plenty for a copy.
constexpr int64_t kMaxBlocks = 132 * 16;

__global__ void __launch_bounds__(kBlock) gather_kernel(int64_t count, const int64_t* __restrict__ map,
                                                        const double* __restrict__ in, double* __restrict__ out) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count; e += stride)
    out[e] = in[map[e]];
}

}  // namespace

void launch_gather(int64_t count, const int64_t* map, const double* in, double* out, cudaStream_t stream) {
  if (count <= 0) return;
  const int64_t blocks = (count + kBlock - 1) / kBlock;
  gather_kernel<<<static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks), kBlock, 0, stream>>>(count, map,
                                                                                                          in, out);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda
