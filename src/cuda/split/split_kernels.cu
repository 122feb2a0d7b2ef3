#include "cuda/split/split_kernels.cuh"

#include "cuda/common/cuda_check.hpp"

namespace gpuglu::cuda::kernels {

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    gather_or_zero_kernel(int64_t count, const int64_t* __restrict__ map, const double* __restrict__ in,
                          double* __restrict__ out) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= count) return;
  const int64_t from = map[e];
  out[e] = from >= 0 ? in[from] : 0.0;
}

__global__ void __launch_bounds__(kThreads)
    scatter_kernel(int64_t count, const int64_t* __restrict__ map, const double* __restrict__ in,
                   double* __restrict__ out) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= count) return;
  out[map[e]] = in[e];
}

unsigned blocks_for(int64_t count) { return static_cast<unsigned>((count + kThreads - 1) / kThreads); }

}  // namespace

void launch_gather_or_zero(int64_t count, const int64_t* map, const double* in, double* out, cudaStream_t stream) {
  if (count <= 0) return;
  gather_or_zero_kernel<<<blocks_for(count), kThreads, 0, stream>>>(count, map, in, out);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_scatter(int64_t count, const int64_t* map, const double* in, double* out, cudaStream_t stream) {
  if (count <= 0) return;
  scatter_kernel<<<blocks_for(count), kThreads, 0, stream>>>(count, map, in, out);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::kernels
