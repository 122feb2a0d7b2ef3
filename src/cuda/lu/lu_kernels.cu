// The numeric kernels of CudaLU: scatter, pivot and the atomic-free target updates
// (GLU3.0 Sec. III-B with the schedule's target-grouped update lists). The scatter and the
// pivot kernels serve the LDL^T engine (src/cuda/ldlt) as they are.
//
// Arithmetic matches reference::pivot_and_scale / factor_levels operation for operation:
// explicit __dmul_rn / __dsub_rn / __ddiv_rn keep nvcc from contracting a * b - c into a
// fused multiply-add, so F comes out as the CPU right-looking executor computes it.
//
// Locating F(i, k): the rows of column k below U(j, k) (positions pos + 1 .. colptr[k + 1])
// are sorted, so each thread binary-searches its row in a window bounded by the row's rank
// in L(:, j). No n-sized dense scratch per column in flight (GLU3.0 Eq. 8 limits parallel
// columns by exactly that scratch).
//
// Programmatic dependent launch: the level loop's kernels may be launched so that they
// start while the previous kernel drains. Each reads only the schedule (constant during a
// factorization) before wait_for_previous_kernel(), and F and the state only after it.
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/programmatic_launch.cuh"
#include "cuda/engine/device_facts.hpp"
#include "cuda/lu/level_device.cuh"
#include "cuda/lu/lu_kernels.cuh"
#include "cuda/lu/update_kernels.cuh"

#include <type_traits>

namespace gpuglu::cuda::kernels {

namespace {

// One source of a target: U(j, k)'s position in column k and the rows of L(:, j) (from
// the schedule), and U(j, k)'s value. U(j, k) is final when the level starts (j's own
// updates came from earlier levels, and no column of this level updates row j of
// another), so it can be read ahead of the updates.
template <class T>
struct LuSource {
  int64_t pos;
  int64_t lbegin;
  int64_t lend;
  T u;
};

template <class T>
__device__ __forceinline__ LuSource<T> source_pattern(const BasicLevelArgs<T>& a, int64_t e) {
  LuSource<T> s;
  s.pos = a.src[e];
  const int32_t j = a.rowind[s.pos];
  s.lbegin = a.diag[j] + 1;
  s.lend = a.colptr[j + 1];
  s.u = T{};
  return s;
}

// The LU's update rule (update_kernels.cuh): target t is column k = target_col[t], its rows
// below U(j, k) take F(i, k) -= L(i, j) * U(j, k) from each source j, over the rows of L(:, j).
template <class T>
struct LuUpdate {
  using Scalar = T;
  using Source = LuSource<T>;
  struct Target {
    int64_t qend;  // the end of column k
  };
  static __device__ __forceinline__ Target target(const BasicLevelArgs<T>& a, int64_t t) {
    return {a.colptr[a.target_col[t] + 1]};
  }
  static __device__ __forceinline__ Source pattern(const BasicLevelArgs<T>& a, int64_t e) {
    return source_pattern(a, e);
  }
  template <bool Coherent>
  static __device__ __forceinline__ T multiplier(const BasicLevelArgs<T>& a, const Source& s) {
    return load_f<Coherent>(a.f + s.pos);
  }
  static __device__ __forceinline__ Source broadcast(const Source& mine, int r) {
    Source s;
    s.pos = __shfl_sync(kFullMask, mine.pos, r);
    s.lbegin = __shfl_sync(kFullMask, mine.lbegin, r);
    s.lend = __shfl_sync(kFullMask, mine.lend, r);
    s.u = shfl(kFullMask, mine.u, r);
    return s;
  }
  // Column k holds every row of L(:, j) below U(j, k) (the fill pattern guarantees it), from
  // U(j, k)'s position on.
  template <bool Coherent>
  static __device__ __forceinline__ bool apply(const BasicLevelArgs<T>& a, const Source& s, const Target& target,
                                               int tid, int nthreads) {
    return apply_column_update<Coherent>(a, s.lbegin, s.lend, s.pos + 1, target.qend, s.u, tid, nthreads);
  }
};

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
  GPUGLU_CUDA_CHECK(cudaFuncGetAttributes(&attr, update_block_kernel<LuUpdate<double>>));
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

template <class T>
const BasicUpdateKernels<T>& lu_update_kernels() {
  return UpdateLaunchers<LuUpdate<T>>::table();
}

#define GPUGLU_LU_KERNELS(T)                                                                                        \
  template void launch_scatter(int64_t, const T*, const int64_t*, const double*, T*, FactorState*, bool,          \
                               const uint8_t*, cudaStream_t);                                                      \
  template void launch_shift_diagonal(int32_t, const int64_t*, T*, double, cudaStream_t);                          \
  template void launch_pivot(const BasicLevelArgs<T>&, int32_t, int64_t, int32_t, int, bool, cudaStream_t);        \
  template const BasicUpdateKernels<T>& lu_update_kernels<T>();
GPUGLU_LU_KERNELS(double)
GPUGLU_LU_KERNELS(DComplex)
#undef GPUGLU_LU_KERNELS

}  // namespace gpuglu::cuda::kernels
