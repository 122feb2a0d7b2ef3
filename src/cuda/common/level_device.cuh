#pragma once
// Device code the factorization kernels share (factor_kernels.cu's pivots, the column
// engines' update rules lu/lu_kernels.cu and ldlt/ldlt_kernels.cu, the supernodal panel
// kernels): the statistics' lock-free reductions, the early exits, the pivot test and
// scaling of one column, the sorted-row search, and the persistent kernel's task loop. The
// build compiles each .cu on its own (no separable compilation), so what they share lives
// here, inline.
//
// Arithmetic matches reference::pivot_and_scale operation for operation: explicit
// __dmul_rn / __ddiv_rn (common/device_scalar.cuh's mul / div for either scalar) keep nvcc
// from contracting, so both engines' real factors come out bitwise as the CPU executors
// compute them (complex ones to rounding: device_scalar.cuh says why).
#include <cfloat>
#include <type_traits>

#include "core/numeric_types.hpp"
#include "cuda/common/device_scalar.cuh"
#include "cuda/common/factor_kernels.cuh"

namespace gpuglu::cuda::kernels {

constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ unsigned long long bits_of(double x) {
  return static_cast<unsigned long long>(__double_as_longlong(x));
}

// v >= 0 or NaN. NaN is skipped, as std::max / std::min with the running value first skip it.
__device__ __forceinline__ void atomic_max_nonneg(unsigned long long* addr, double v) {
  if (v > 0.0) atomicMax(addr, bits_of(v));
}
__device__ __forceinline__ void atomic_min_nonneg(unsigned long long* addr, double v) {
  if (v == v) atomicMin(addr, bits_of(v));
}

__device__ __forceinline__ double warp_max(double v) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    const double w = __shfl_xor_sync(kFullMask, v, offset);
    v = w > v ? w : v;
  }
  return v;
}

// Max over the block, returned to every thread. Values are >= 0 and never NaN.
__device__ inline double block_max(double v) {
  __shared__ double partial[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  v = warp_max(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const int nwarps = (blockDim.x + 31) >> 5;
    double w = lane < nwarps ? partial[lane] : 0.0;
    w = warp_max(w);
    if (lane == 0) partial[0] = w;
  }
  __syncthreads();
  const double out = partial[0];
  __syncthreads();  // partial may be reused by the caller's next reduction
  return out;
}

__device__ __forceinline__ void record_failure(FactorState* st, int32_t level, int32_t j) {
  atomicMin(&st->failure_key, (static_cast<unsigned long long>(level) << 32) | static_cast<uint32_t>(j));
  atomicMin(&st->failed_level, level);
}

// Early exits, read once at kernel entry. Both conditions are uniform over a block:
// bad_entry is written only by the scatter and missing_fill only by update kernels
// (earlier launches); failed_level changes during a pivot kernel only to its own level,
// which "< level" does not see, and never during an update kernel.
__device__ __forceinline__ bool pivot_skipped(const FactorState* st, int32_t level) {
  const volatile FactorState* v = st;
  return v->bad_entry != kNoEntry || v->missing_fill != 0 || v->failed_level < level;
}
__device__ __forceinline__ bool update_skipped(const FactorState* st, int32_t level) {
  const volatile FactorState* v = st;
  return v->bad_entry != kNoEntry || v->failed_level <= level;
}

// F as read by the persistent kernel (Coherent): values written by other blocks during the
// same launch must not come from this SM's L1, so they are loaded at L2 (ld.global.cg).
template <bool Coherent, class T>
__device__ __forceinline__ T load_f(const T* p) {
  if constexpr (Coherent)
    return load_cg(p);
  else
    return *p;
}

// reference::pivot_and_scale for column j by a group of nthreads (a warp, or the block).
// The column holds its pivot at diag[j] and L's entries after it: U(:, j) above it (LU), or
// nothing (LDL^T, whose columns start with d_j), only enter the column's max. A Hermitian
// LDL^H's pivot loses its imaginary part first (reference::factor_ldlt_levels).
template <bool Block, bool Coherent = false, class T>
__device__ void pivot_column(const BasicLevelArgs<T>& a, int32_t level, int32_t j, int tid, int nthreads) {
  T* f = a.f;
  FactorState* st = a.state;
  const int64_t begin = a.colptr[j];
  const int64_t end = a.colptr[j + 1];
  const int64_t d = a.diag[j];
  T pivot0 = load_f<Coherent>(f + d);  // read by every thread before thread 0 may overwrite it
  if constexpr (!std::is_same_v<T, double>) {
    if (a.hermitian) pivot0.im = 0.0;
  }
  double colmax = 0.0;
  bool finite = true;
  // pivot0 differs from f[d] only under LDL^H (its imaginary part dropped): the real loop
  // stays as it was, one load per entry.
  constexpr bool kComplex = !std::is_same_v<T, double>;
  for (int64_t p = begin + tid; p < end; p += nthreads) {
    const double v = kComplex && p == d ? magnitude(pivot0) : magnitude(load_f<Coherent>(f + p));
    colmax = v > colmax ? v : colmax;
    finite &= v <= DBL_MAX;  // false for NaN and Inf
  }
  if (Block) {
    colmax = block_max(colmax);
    finite = __syncthreads_and(finite) != 0;
  } else {
    colmax = warp_max(colmax);
    finite = __all_sync(kFullMask, finite) != 0;
  }
  const double apiv = magnitude(pivot0);
  const double ratio = colmax > 0.0 ? __ddiv_rn(apiv, colmax) : 0.0;
  if (tid == 0) {
    atomic_min_nonneg(&st->min_ratio_bits, ratio);
    atomic_max_nonneg(&st->max_active_bits, colmax);
  }
  if (!finite) {
    if (tid == 0) record_failure(st, level, j);
    return;
  }
  const bool tiny = pivot_is_tiny(apiv, colmax, st->threshold, st->zero_pivot);
  T pivot = pivot0;
  if (tiny) {
    if (st->policy == static_cast<int32_t>(PivotPolicy::report)) {
      if (tid == 0) record_failure(st, level, j);
      return;
    }
    pivot = perturbed_pivot(pivot0, perturbed_pivot_size(st->perturbation, colmax));
    if (tid == 0) {
      atomicAdd(&st->perturbed, 1ull);
      atomicMin(&st->first_perturbed, static_cast<unsigned long long>(j));
    }
  }
  if constexpr (std::is_same_v<T, double>) {
    if (tiny && tid == 0) f[d] = pivot;
  } else {
    if ((tiny || a.hermitian) && tid == 0) f[d] = pivot;
  }
  for (int64_t p = d + 1 + tid; p < end; p += nthreads) f[p] = div(load_f<Coherent>(f + p), pivot);
}

constexpr int kUnroll = 4;  // rows in flight per thread: independent loads overlap their latency

// The first position in [lo, hi) of the ascending rowind whose row is at least i (hi
// where there is none): where target row i sits, or would sit, in a column.
__device__ __forceinline__ int64_t first_row_at_least(const int32_t* __restrict__ rowind, int64_t lo, int64_t hi,
                                                      int32_t i) {
  while (lo < hi) {
    const int64_t mid = lo + ((hi - lo) >> 1);
    if (rowind[mid] < i)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

__device__ __forceinline__ void wait_until(const int32_t* counter, int32_t value) {
  const volatile int32_t* c = counter;
  while (*c < value) __nanosleep(32);
}

// The whole level loop in one launch (self-scheduled, no level barriers): blocks take the
// tasks (each level's pivots, then its targets) in order from a ticket counter, so every
// task waits only on tasks that a running block already holds, and cannot deadlock
// however few blocks are resident. A pivot of column j waits until every update of j is
// done (col_done[j] reaches its count); a target of level l waits for the pivots of
// level l and for the previous update of its column (the CPU's order, so the result is
// bitwise the level loop's). update_target(level, t) applies target t with the whole
// block, reading F coherently (load_f<true>).
// A pivot task decides once, for the whole block, whether it is skipped: missing_fill may
// be set by a concurrent target task meanwhile, and threads that disagreed would part at
// pivot_column's barriers.
template <class T, class UpdateTarget>
__device__ void run_persistent_tasks(const BasicLevelArgs<T>& a, const PersistentArgs& p, UpdateTarget update_target) {
  __shared__ int64_t task;
  __shared__ bool skip_pivot;
  const int tid = static_cast<int>(threadIdx.x);
  const int nthreads = static_cast<int>(blockDim.x);
  for (;;) {
    if (tid == 0) task = static_cast<int64_t>(atomicAdd(p.ticket, 1ull));
    __syncthreads();
    const int64_t i = task;
    __syncthreads();
    if (i >= p.ntasks) return;
    const int32_t level = p.task_level[i];
    const int64_t arg = p.task_arg[i];
    if (p.task_is_pivot[i]) {
      const int32_t j = a.level_cols[arg];
      if (tid == 0) {
        wait_until(p.col_done + j, p.task_count[i]);
        __threadfence();
        skip_pivot = pivot_skipped(a.state, level);
      }
      __syncthreads();
      if (!skip_pivot) pivot_column<true, true>(a, level, j, tid, nthreads);
      __syncthreads();
      if (tid == 0) {
        __threadfence();
        atomicAdd(p.level_pivots_done + level, 1);
      }
    } else {
      const int32_t k = a.target_col[arg];
      if (tid == 0) {
        wait_until(p.level_pivots_done + level, static_cast<int32_t>(p.level_ptr[level + 1] - p.level_ptr[level]));
        wait_until(p.col_done + k, p.task_count[i]);
        __threadfence();
      }
      __syncthreads();
      update_target(level, arg);
      __syncthreads();
      if (tid == 0) {
        __threadfence();
        atomicAdd(p.col_done + k, 1);
      }
    }
  }
}

}  // namespace gpuglu::cuda::kernels
