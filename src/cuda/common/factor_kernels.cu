// The factorization kernels every engine shares: the state's reset, the scatter of A's values
// into the factor's storage (the column engines' F, the supernodal LU's panels), the
// diagonal shift, and the column pivots of the level loop (the column LU and LDL^T; the
// supernodal panel kernels call the same pivot_column on their columns).
//
// Arithmetic matches reference::pivot_and_scale operation for operation: explicit
// __dmul_rn / __ddiv_rn keep nvcc from contracting, so F comes out as the CPU executors
// compute it.
//
// Programmatic dependent launch: the level loop's kernels may be launched so that they
// start while the previous kernel drains. Each reads only the schedule (constant during a
// factorization) before wait_for_previous_kernel(), and F and the state only after it.
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/factor_kernels.cuh"
#include "cuda/common/level_device.cuh"
#include "cuda/common/programmatic_launch.cuh"
#include "cuda/engine/device_facts.hpp"

#include <type_traits>

namespace gpuglu::cuda::kernels {

namespace {


__global__ void reset_kernel(FactorState* st, int32_t policy, double threshold, double zero_pivot,
                             double perturbation) {
  st->failed_level = kNoLevel;
  st->failure_key = kNoEntry;
  st->missing_fill = 0;
  st->unstable_panel = 0;
  st->policy = policy;
  st->bad_entry = kNoEntry;
  st->perturbed = 0;
  st->first_perturbed = kNoEntry;
  st->min_ratio_bits = kPlusInfBits;
  st->max_active_bits = 0;
  st->max_input_bits = 0;
  st->threshold = threshold;
  st->zero_pivot = zero_pivot;
  st->perturbation = perturbation;
}

// Accumulate: several entries may share a position (a symmetric schedule's full-storage
// input sends both halves of an off-diagonal pair, each halved, to one entry of L). At
// most two meet, on a zeroed F: 0 + a is exact and a + b = b + a, so atomicAdd's order
// does not show and F is reference::scatter_values' bit for bit.
template <bool Accumulate, class T>
__global__ void __launch_bounds__(256) scatter_kernel(int64_t nnz, const T* __restrict__ a,
                                                      const int64_t* __restrict__ map,
                                                      const double* __restrict__ scale, T* f,
                                                      const uint8_t* __restrict__ conjugate, FactorState* st) {
  double m = 0.0;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t p = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < nnz; p += stride) {
    T v = a[p];
    if (conjugate) v = conj_if(conjugate[p] != 0, v);
    const T c = mul_real(v, scale[p]);
    if constexpr (Accumulate)
      atomic_add(f + map[p], c);
    else
      f[map[p]] = c;
    const double ac = magnitude(c);
    m = ac > m ? ac : m;
    if (!finite(v)) atomicMin(&st->bad_entry, static_cast<unsigned long long>(p));
  }
  m = block_max(m);
  if (threadIdx.x == 0) atomic_max_nonneg(&st->max_input_bits, m);
}

template <class T>
__global__ void __launch_bounds__(256) pivot_warp_kernel(BasicLevelArgs<T> a, int32_t level, int64_t col_begin,
                                                         int32_t ncols) {
  let_next_kernel_start();  // the update kernel reads its schedule meanwhile, then waits
  const int64_t w = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int32_t j = w < ncols ? a.level_cols[col_begin + w] : 0;
  wait_for_previous_kernel();
  if (w >= ncols) return;  // whole warps leave together
  if (pivot_skipped(a.state, level)) return;
  pivot_column<false>(a, level, j, static_cast<int>(threadIdx.x & 31), 32);
}

template <class T>
__global__ void __launch_bounds__(1024) pivot_block_kernel(BasicLevelArgs<T> a, int32_t level, int64_t col_begin) {
  let_next_kernel_start();
  const int32_t j = a.level_cols[col_begin + blockIdx.x];
  wait_for_previous_kernel();
  if (pivot_skipped(a.state, level)) return;
  pivot_column<true>(a, level, j, static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x));
}

}  // namespace


void launch_reset(FactorState* state, const PivotRule& rule, cudaStream_t stream) {
  reset_kernel<<<1, 1, 0, stream>>>(state, static_cast<int32_t>(rule.policy), rule.threshold, rule.zero_pivot,
                                    rule.perturbation);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_scatter(int64_t nnz, const T* a, const int64_t* map, const double* scale, T* f, FactorState* state,
                    bool accumulate, const uint8_t* conjugate, cudaStream_t stream) {
  if (nnz <= 0) return;
  const unsigned grid = grid_for(nnz, 256, current_device_facts().grid_stride_blocks());
  if (accumulate)
    scatter_kernel<true><<<grid, 256, 0, stream>>>(nnz, a, map, scale, f, conjugate, state);
  else
    scatter_kernel<false><<<grid, 256, 0, stream>>>(nnz, a, map, scale, f, conjugate, state);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

// The shift is real: it moves the real part only (reference: f[d] += shift).
template <class T>
__global__ void __launch_bounds__(256) shift_diagonal_kernel(int32_t n, const int64_t* __restrict__ diag, T* f,
                                                              double shift) {
  for (int64_t j = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    if constexpr (std::is_same_v<T, double>)
      f[diag[j]] += shift;
    else
      f[diag[j]].re += shift;
  }
}

template <class T>
void launch_shift_diagonal(int32_t n, const int64_t* diag, T* f, double shift, cudaStream_t stream) {
  if (n <= 0 || shift == 0.0) return;
  const unsigned grid = grid_for(n, 256, current_device_facts().grid_stride_blocks());
  shift_diagonal_kernel<<<grid, 256, 0, stream>>>(n, diag, f, shift);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

bool programmatic_launch_supported(int device) {
  // The kernels wait for their predecessor only where compiled for sm_90+ (the waits are
  // compiled out below that): a binary for an older target JIT-run on a Hopper must not
  // overlap kernels.
  cudaFuncAttributes attr{};
  GPUGLU_CUDA_CHECK(cudaFuncGetAttributes(&attr, pivot_block_kernel<double>));
  return device_facts(device).cc_major >= 9 && attr.ptxVersion >= 90 && attr.binaryVersion >= 90;
}

template <class T>
void launch_pivot(const BasicLevelArgs<T>& a, int32_t level, int64_t col_begin, int32_t ncols, int threads_per_column,
                  bool programmatic, cudaStream_t stream) {
  if (ncols <= 0) return;
  if (threads_per_column == 32) {
    constexpr int kWarpsPerBlock = 8;
    launch_maybe_programmatic(pivot_warp_kernel<T>, grid_for(ncols, kWarpsPerBlock), kWarpsPerBlock * 32,
                              programmatic, stream, a, level, col_begin, ncols);
  } else {
    launch_maybe_programmatic(pivot_block_kernel<T>, static_cast<unsigned>(ncols), threads_per_column, programmatic,
                              stream, a, level, col_begin);
  }
}

#define GPUGLU_FACTOR_KERNELS(T)                                                                                    \
  template void launch_scatter(int64_t, const T*, const int64_t*, const double*, T*, FactorState*, bool,          \
                               const uint8_t*, cudaStream_t);                                                      \
  template void launch_shift_diagonal(int32_t, const int64_t*, T*, double, cudaStream_t);                          \
  template void launch_pivot(const BasicLevelArgs<T>&, int32_t, int64_t, int32_t, int, bool, cudaStream_t);
GPUGLU_FACTOR_KERNELS(double)
GPUGLU_FACTOR_KERNELS(DComplex)
#undef GPUGLU_FACTOR_KERNELS

}  // namespace gpuglu::cuda::kernels
