// Iterative refinement on the device (reference/refinement.cpp is the CPU original):
// ||x||_inf in a first pass, then the residual r = b - A x and the backward error of
// core/backward_error.hpp in one pass over A's rows (a warp per row), with A's values as
// given to factor(), and x + d for the next iterate. For A^T the same kernel runs over A's
// transpose (CSR of A^T with a map into A's values).
#include <cfloat>
#include <type_traits>

#include "core/backward_error.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_scalar.cuh"
#include "cuda/common/factor_kernels.cuh"

namespace gpuglu::cuda::kernels {

namespace {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr unsigned long long kInfBits = 0x7ff0000000000000ull;

// Non-negative doubles order like their bit patterns; NaN counts as +Inf.
__device__ __forceinline__ void atomic_max_nonneg(unsigned long long* bits, double v) {
  atomicMax(bits, v == v ? static_cast<unsigned long long>(__double_as_longlong(v)) : kInfBits);
}

template <class T>
__global__ void __launch_bounds__(256) max_abs_kernel(int32_t n, const T* __restrict__ x,
                                                      const double* __restrict__ d, unsigned long long* bits) {
  double m = 0.0;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const double v = d ? magnitude(x[i]) / d[i] : magnitude(x[i]);
    m = (v > m || v != v) ? v : m;
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    const double o = __shfl_xor_sync(kFullMask, m, offset);
    m = (o > m || o != o) ? o : m;
  }
  if ((threadIdx.x & 31) == 0 && m != 0.0) atomic_max_nonneg(bits, m);
}

// Sums here may contract (a residual needs no bitwise reproducibility): double uses the
// plain operators, as before; complex the device_scalar.cuh ones.
template <class T>
__global__ void __launch_bounds__(256) residual_kernel(int32_t n, const int64_t* __restrict__ rowptr,
                                                       const int32_t* __restrict__ colind, const T* __restrict__ values,
                                                       const int64_t* __restrict__ value_of,
                                                       const double* __restrict__ d, const T* __restrict__ b,
                                                       const T* __restrict__ x, T* __restrict__ r,
                                                       unsigned long long* bits) {
  const int64_t row = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = static_cast<int>(threadIdx.x & 31);
  if (row >= n) return;
  T sum = dzero(T{});
  double mag = 0.0, big = 0.0;
  for (int64_t p = rowptr[row] + lane; p < rowptr[row + 1]; p += 32) {
    const T a = values[value_of ? value_of[p] : p];
    const int32_t j = colind[p];
    const double aa = magnitude(a);
    if constexpr (std::is_same_v<T, double>) {
      const double t = a * x[j];
      sum += t;
      mag += fabs(t);
    } else {
      const T t = mul(a, x[j]);
      sum = add(sum, t);
      mag += magnitude(t);
    }
    big = fmax(big, d ? aa * d[j] : aa);
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    if constexpr (std::is_same_v<T, double>)
      sum += __shfl_xor_sync(kFullMask, sum, offset);
    else
      sum = add(sum, shfl_xor(kFullMask, sum, offset));
    mag += __shfl_xor_sync(kFullMask, mag, offset);
    big = fmax(big, __shfl_xor_sync(kFullMask, big, offset));
  }
  if (lane != 0) return;
  T ri;
  if constexpr (std::is_same_v<T, double>)
    ri = b[row] - sum;
  else
    ri = sub(b[row], sum);
  r[row] = ri;
  const double x_norm = __longlong_as_double(static_cast<long long>(bits[0]));  // written by the kernel before
  const double bmag = magnitude(b[row]);
  const RowError e = row_backward_error(magnitude(ri), bmag + mag, big, bmag, rowptr[row + 1] - rowptr[row], x_norm);
  if (e.value != 0.0) atomic_max_nonneg(bits + (e.noise ? 2 : 1), e.value);
  if (e.componentwise != 0.0) atomic_max_nonneg(bits + 3, e.componentwise);
}

template <class T>
__global__ void __launch_bounds__(256) add_kernel(int32_t n, const T* __restrict__ x, const T* __restrict__ d,
                                                  T* __restrict__ out) {
  const int32_t i = static_cast<int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = add(x[i], d[i]);
}

}  // namespace

template <class T>
void launch_residual(int32_t n, const int64_t* rowptr, const int32_t* colind, const T* values, const int64_t* value_of,
                     const double* d, const T* b, const T* x, T* r, unsigned long long* bits, cudaStream_t stream) {
  if (n <= 0) return;
  const int64_t norm_blocks = (static_cast<int64_t>(n) + 255) / 256;
  max_abs_kernel<T><<<static_cast<unsigned>(norm_blocks < 1024 ? norm_blocks : 1024), 256, 0, stream>>>(n, x, d, bits);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
  const unsigned blocks = static_cast<unsigned>((static_cast<int64_t>(n) * 32 + 255) / 256);
  residual_kernel<T><<<blocks, 256, 0, stream>>>(n, rowptr, colind, values, value_of, d, b, x, r, bits);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_add(int32_t n, const T* x, const T* d, T* out, cudaStream_t stream) {
  if (n <= 0) return;
  add_kernel<T><<<static_cast<unsigned>((static_cast<int64_t>(n) + 255) / 256), 256, 0, stream>>>(n, x, d, out);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

template void launch_residual(int32_t, const int64_t*, const int32_t*, const double*, const int64_t*, const double*,
                              const double*, const double*, double*, unsigned long long*, cudaStream_t);
template void launch_residual(int32_t, const int64_t*, const int32_t*, const DComplex*, const int64_t*, const double*,
                              const DComplex*, const DComplex*, DComplex*, unsigned long long*, cudaStream_t);
template void launch_add(int32_t, const double*, const double*, double*, cudaStream_t);
template void launch_add(int32_t, const DComplex*, const DComplex*, DComplex*, cudaStream_t);

}  // namespace gpuglu::cuda::kernels
