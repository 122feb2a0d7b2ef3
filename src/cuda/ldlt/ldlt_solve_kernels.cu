// The D^{-1} step of the LDL^T solve (reference::solve_symmetric_with_factor's
// work[k] /= f[diag[k]]), read straight from F: D needs no triangular solver of its own,
// nor a gather after each factorization.
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_scalar.cuh"
#include "cuda/ldlt/ldlt_kernels.cuh"

namespace gpuglu::cuda::kernels {

namespace {

constexpr int kBlock = 256;

template <class T>
__global__ void __launch_bounds__(kBlock) divide_by_diagonal_kernel(int32_t n, const int64_t* __restrict__ diag,
                                                                    const T* __restrict__ f, const T* in, T* out) {
  const int32_t k = static_cast<int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k < n) out[k] = div(in[k], f[diag[k]]);
}

}  // namespace

template <class T>
void launch_divide_by_diagonal(int32_t n, const int64_t* diag, const T* f, const T* in, T* out, cudaStream_t stream) {
  if (n <= 0) return;
  const unsigned blocks = static_cast<unsigned>((static_cast<int64_t>(n) + kBlock - 1) / kBlock);
  divide_by_diagonal_kernel<T><<<blocks, kBlock, 0, stream>>>(n, diag, f, in, out);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

template void launch_divide_by_diagonal(int32_t, const int64_t*, const double*, const double*, double*, cudaStream_t);
template void launch_divide_by_diagonal(int32_t, const int64_t*, const DComplex*, const DComplex*, DComplex*,
                                        cudaStream_t);

}  // namespace gpuglu::cuda::kernels
