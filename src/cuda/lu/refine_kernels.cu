// Iterative refinement on the device (reference/refinement.cpp is the CPU original):
// the residual r = b - A x and the componentwise backward error
//   max_i |r_i| / (|b_i| + sum_p |a_ip x_p|)
// in one pass over A's rows (a warp per row), with A's values as given to factor(), and
// x + d for the next iterate. For A^T the same kernel runs over A's transpose (CSR of
// A^T with a map into A's values).
#include <cfloat>

#include "cuda/common/cuda_check.hpp"
#include "cuda/lu/lu_kernels.cuh"

namespace gpuglu::cuda::kernels {

namespace {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr unsigned long long kInfBits = 0x7ff0000000000000ull;

__global__ void __launch_bounds__(256) residual_kernel(int32_t n, const int64_t* __restrict__ rowptr,
                                                       const int32_t* __restrict__ colind,
                                                       const double* __restrict__ values,
                                                       const int64_t* __restrict__ value_of,
                                                       const double* __restrict__ b, const double* __restrict__ x,
                                                       double* __restrict__ r, unsigned long long* berr_bits) {
  const int64_t row = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = static_cast<int>(threadIdx.x & 31);
  if (row >= n) return;
  double sum = 0.0, mag = 0.0;
  for (int64_t p = rowptr[row] + lane; p < rowptr[row + 1]; p += 32) {
    const double t = values[value_of ? value_of[p] : p] * x[colind[p]];
    sum += t;
    mag += fabs(t);
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    sum += __shfl_xor_sync(kFullMask, sum, offset);
    mag += __shfl_xor_sync(kFullMask, mag, offset);
  }
  if (lane != 0) return;
  const double ri = b[row] - sum;
  r[row] = ri;
  const double num = fabs(ri);
  if (num == 0.0) return;
  const double denom = fabs(b[row]) + mag;
  // A NaN residual must never look like convergence: it counts as infinitely wrong.
  const double e = denom > 0.0 ? num / denom : __longlong_as_double(static_cast<long long>(kInfBits));
  const unsigned long long bits = e == e ? static_cast<unsigned long long>(__double_as_longlong(e)) : kInfBits;
  atomicMax(berr_bits, bits);  // non-negative doubles order like their bit patterns
}

__global__ void __launch_bounds__(256) add_kernel(int32_t n, const double* __restrict__ x,
                                                  const double* __restrict__ d, double* __restrict__ out) {
  const int32_t i = static_cast<int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = x[i] + d[i];
}

}  // namespace

void launch_residual(int32_t n, const int64_t* rowptr, const int32_t* colind, const double* values,
                     const int64_t* value_of, const double* b, const double* x, double* r,
                     unsigned long long* berr_bits, cudaStream_t stream) {
  if (n <= 0) return;
  const unsigned blocks = static_cast<unsigned>((static_cast<int64_t>(n) * 32 + 255) / 256);
  residual_kernel<<<blocks, 256, 0, stream>>>(n, rowptr, colind, values, value_of, b, x, r, berr_bits);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_add(int32_t n, const double* x, const double* d, double* out, cudaStream_t stream) {
  if (n <= 0) return;
  add_kernel<<<static_cast<unsigned>((static_cast<int64_t>(n) + 255) / 256), 256, 0, stream>>>(n, x, d, out);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::kernels
