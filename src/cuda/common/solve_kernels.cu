// Permutation and scaling around the triangular solves (schedule.hpp notation,
// reference/triangular_solve.hpp):
//   A x = b:    c[k] = rs[rp[k]] b[rp[k]]   (gather_scaled with rp, rs)
//               x[cp[l]] = cs[cp[l]] z[l]   (scatter_scaled with cp, cs)
//   A^T x = b:  d[l] = cs[cp[l]] b[cp[l]]   (gather_scaled with cp, cs)
//               x[rp[k]] = rs[rp[k]] w[k]   (scatter_scaled with rp, rs)
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_scalar.cuh"
#include "cuda/common/factor_kernels.cuh"

namespace gpuglu::cuda::kernels {

namespace {

template <class T>
__global__ void __launch_bounds__(256) gather_scaled_kernel(int32_t n, const int32_t* __restrict__ perm,
                                                            const double* __restrict__ scale, const T* __restrict__ in,
                                                            T* __restrict__ out) {
  const int32_t k = static_cast<int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k >= n) return;
  const int32_t o = perm[k];
  out[k] = mul_real(in[o], scale[o]);
}

template <class T>
__global__ void __launch_bounds__(256) scatter_scaled_kernel(int32_t n, const int32_t* __restrict__ perm,
                                                             const double* __restrict__ scale,
                                                             const T* __restrict__ in, T* __restrict__ out) {
  const int32_t k = static_cast<int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k >= n) return;
  const int32_t o = perm[k];
  out[o] = mul_real(in[k], scale[o]);
}

unsigned blocks_for(int32_t n) { return static_cast<unsigned>((static_cast<int64_t>(n) + 255) / 256); }

}  // namespace

template <class T>
void launch_gather_scaled(int32_t n, const int32_t* perm, const double* scale, const T* in, T* out,
                          cudaStream_t stream) {
  if (n <= 0) return;
  gather_scaled_kernel<<<blocks_for(n), 256, 0, stream>>>(n, perm, scale, in, out);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_scatter_scaled(int32_t n, const int32_t* perm, const double* scale, const T* in, T* out,
                           cudaStream_t stream) {
  if (n <= 0) return;
  scatter_scaled_kernel<<<blocks_for(n), 256, 0, stream>>>(n, perm, scale, in, out);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

template void launch_gather_scaled(int32_t, const int32_t*, const double*, const double*, double*, cudaStream_t);
template void launch_gather_scaled(int32_t, const int32_t*, const double*, const DComplex*, DComplex*, cudaStream_t);
template void launch_scatter_scaled(int32_t, const int32_t*, const double*, const double*, double*, cudaStream_t);
template void launch_scatter_scaled(int32_t, const int32_t*, const double*, const DComplex*, DComplex*, cudaStream_t);

}  // namespace gpuglu::cuda::kernels
