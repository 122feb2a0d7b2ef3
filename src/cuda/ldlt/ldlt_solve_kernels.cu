// The D^{-1} step of the LDL^T solve (reference::solve_symmetric_with_factor's
// work[k] /= f[diag[k]]), read straight from F: D needs no triangular solver of its own,
// nor a gather after each factorization.
#include "cuda/common/cuda_check.hpp"
#include "cuda/ldlt/ldlt_kernels.cuh"

namespace gpuglu::cuda::kernels {

namespace {

constexpr int kBlock = 256;

__global__ void __launch_bounds__(kBlock) divide_by_diagonal_kernel(int32_t n, const int64_t* __restrict__ diag,
                                                                    const double* __restrict__ f, const double* in,
                                                                    double* out) {
  const int32_t k = static_cast<int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k < n) out[k] = __ddiv_rn(in[k], f[diag[k]]);
}

}  // namespace

void launch_divide_by_diagonal(int32_t n, const int64_t* diag, const double* f, const double* in, double* out,
                               cudaStream_t stream) {
  if (n <= 0) return;
  const unsigned blocks = static_cast<unsigned>((static_cast<int64_t>(n) + kBlock - 1) / kBlock);
  divide_by_diagonal_kernel<<<blocks, kBlock, 0, stream>>>(n, diag, f, in, out);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::kernels
