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
#include "cuda/lu/level_device.cuh"
#include "cuda/lu/lu_kernels.cuh"

#include <type_traits>

namespace gpuglu::cuda::kernels {

namespace {

// One source of a target: U(j, k)'s position in column k and the rows of L(:, j) (from
// the schedule), and U(j, k)'s value. U(j, k) is final when the level starts (j's own
// updates came from earlier levels, and no column of this level updates row j of
// another), so it can be read ahead of the updates.
template <class T>
struct Source {
  int64_t pos;
  int64_t lbegin;
  int64_t lend;
  T u;
};

template <class T>
__device__ __forceinline__ Source<T> source_pattern(const BasicLevelArgs<T>& a, int64_t e) {
  Source<T> s;
  s.pos = a.src[e];
  const int32_t j = a.rowind[s.pos];
  s.lbegin = a.diag[j] + 1;
  s.lend = a.colptr[j + 1];
  s.u = T{};
  return s;
}

// F(i, k) -= L(i, j) * U(j, k) for the rows of L(:, j), split over a group of nthreads.
// Returns true when a row had no (i, k) entry in column k (a broken fill pattern).
template <bool Coherent = false, class T>
__device__ __forceinline__ bool apply_source(const BasicLevelArgs<T>& a, const Source<T>& s, int64_t qend, int tid,
                                             int nthreads) {
  const int32_t* __restrict__ rowind = a.rowind;
  T* f = a.f;
  const int64_t first = s.pos + 1;
  bool missing = false;
  if (a.incomplete) {
    int64_t lo = first;  // a thread's rows ascend: each search starts after its last hit
    for (int64_t p = s.lbegin + tid; p < s.lend; p += nthreads) {
      const int32_t i = rowind[p];
      lo = first_row_at_least(rowind, lo, qend, i);
      if (lo == qend) break;         // no row of column k at or after i: the rest is dropped
      if (rowind[lo] != i) continue;  // (i, k) is not in the ILU pattern: dropped
      f[lo] = sub(load_f<Coherent>(f + lo), mul(load_f<Coherent>(f + p), s.u));
      ++lo;
    }
    return false;
  }
  // Column k holds every row of L(:, j) below U(j, k) (the fill pattern guarantees it).
  // Where it holds exactly those rows, as in the dense trailing blocks of late levels,
  // F(i, k) sits at the same offset as L(i, j): no search at all. The row indices are
  // still compared (one coalesced load), so a broken pattern is reported.
  if (qend - first == s.lend - s.lbegin) {
    const int64_t shift = first - s.lbegin;
    for (int64_t p0 = s.lbegin + tid; p0 < s.lend; p0 += kUnroll * nthreads) {
      int32_t li[kUnroll], ti[kUnroll];
      T lv[kUnroll], tv[kUnroll];
#pragma unroll
      for (int r = 0; r < kUnroll; ++r) {
        const int64_t p = p0 + static_cast<int64_t>(r) * nthreads;
        if (p < s.lend) {
          li[r] = rowind[p];
          ti[r] = rowind[p + shift];
          lv[r] = load_f<Coherent>(f + p);
          tv[r] = load_f<Coherent>(f + p + shift);
        }
      }
#pragma unroll
      for (int r = 0; r < kUnroll; ++r) {
        const int64_t p = p0 + static_cast<int64_t>(r) * nthreads;
        if (p < s.lend) {
          if (li[r] != ti[r])
            missing = true;
          else
            f[p + shift] = sub(tv[r], mul(lv[r], s.u));
        }
      }
    }
    return missing;
  }
  // Otherwise search: the r-th row of L(:, j) below j is at least the r-th row of column k
  // below U(j, k), and leaves room for the L rows after it, which bounds the window.
  for (int64_t p = s.lbegin + tid; p < s.lend; p += nthreads) {
    const int32_t i = rowind[p];
    const int64_t to = qend - (s.lend - p) + 1;
    const int64_t lo = first_row_at_least(rowind, first + (p - s.lbegin), to, i);
    if (lo == to || rowind[lo] != i) return true;
    f[lo] = sub(load_f<Coherent>(f + lo), mul(load_f<Coherent>(f + p), s.u));
  }
  return false;
}

// All updates of target t: for its sources in ascending order, F(i, k) -= L(i, j) * U(j, k)
// with the rows of L(:, j) split over the group. The group synchronizes between sources,
// so two sources touching the same (i, k) apply in the CPU's order: no atomics, and the
// result is the same for every launch shape. The sources' pattern is read 32 at a time,
// one per lane, so the chain src -> U(j, k) -> L(:, j)'s bounds is paid once per 32
// sources (and, for the first 32, before waiting for the previous kernel).
template <class T>
__global__ void __launch_bounds__(1024) update_warp_kernel(BasicLevelArgs<T> a, int32_t level, int64_t t_begin,
                                                           int64_t ntargets) {
  const int64_t w = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = static_cast<int>(threadIdx.x & 31);
  const bool active = w < ntargets;  // idle warps still wait, so the whole grid waits alike
  int64_t t = 0, qend = 0, e_begin = 0, e_end = 0;
  Source<T> mine{0, 0, 0, T{}};
  if (active) {
    t = t_begin + w;
    qend = a.colptr[a.target_col[t] + 1];
    e_begin = a.src_ptr[t];
    e_end = a.src_ptr[t + 1];
    if (lane < e_end - e_begin) mine = source_pattern(a, e_begin + lane);
  }
  wait_for_previous_kernel();
  if (!active || update_skipped(a.state, level)) return;  // whole warps leave together
  bool missing = false;
  for (int64_t e0 = e_begin; e0 < e_end; e0 += 32) {
    const int cnt = e_end - e0 < 32 ? static_cast<int>(e_end - e0) : 32;
    if (e0 != e_begin && lane < cnt) mine = source_pattern(a, e0 + lane);
    if (lane < cnt) mine.u = a.f[mine.pos];
    for (int r = 0; r < cnt; ++r) {
      Source<T> s;
      s.pos = __shfl_sync(kFullMask, mine.pos, r);
      s.lbegin = __shfl_sync(kFullMask, mine.lbegin, r);
      s.lend = __shfl_sync(kFullMask, mine.lend, r);
      s.u = shfl(kFullMask, mine.u, r);
      missing |= apply_source(a, s, qend, lane, 32);
      __syncwarp();
    }
  }
  if (missing) a.state->missing_fill = 1;
}

// The block-per-target update of target t. pdl_wait: wait for the previous kernel after
// reading the schedule (level kernels); the persistent kernel has waited already.
template <bool Coherent, class T>
__device__ void update_target_block(const BasicLevelArgs<T>& a, int32_t level, int64_t t, bool pdl_wait) {
  __shared__ Source<T> sources[32];
  const int tid = static_cast<int>(threadIdx.x);
  const int nthreads = static_cast<int>(blockDim.x);
  const int64_t qend = a.colptr[a.target_col[t] + 1];
  const int64_t e_begin = a.src_ptr[t];
  const int64_t e_end = a.src_ptr[t + 1];
  Source<T> mine{0, 0, 0, T{}};
  if (tid < 32 && tid < e_end - e_begin) mine = source_pattern(a, e_begin + tid);
  if (pdl_wait) wait_for_previous_kernel();
  if (update_skipped(a.state, level)) return;
  bool missing = false;
  for (int64_t e0 = e_begin; e0 < e_end; e0 += 32) {
    const int cnt = e_end - e0 < 32 ? static_cast<int>(e_end - e0) : 32;
    if (tid < cnt) {
      if (e0 != e_begin) mine = source_pattern(a, e0 + tid);
      mine.u = load_f<Coherent>(a.f + mine.pos);
      sources[tid] = mine;
    }
    __syncthreads();
    for (int r = 0; r < cnt; ++r) {
      missing |= apply_source<Coherent>(a, sources[r], qend, tid, nthreads);
      __syncthreads();  // also keeps sources[] alive until every thread is done with it
    }
  }
  if (missing) a.state->missing_fill = 1;
}

template <class T>
__global__ void __launch_bounds__(1024) update_block_kernel(BasicLevelArgs<T> a, int32_t level, int64_t t_begin) {
  update_target_block<false>(a, level, t_begin + blockIdx.x, true);
}

// The whole level loop in one launch (level_device.cuh's task loop) with the LU's
// block-per-target update.
template <class T>
__global__ void __launch_bounds__(kPersistentThreads) persistent_kernel(BasicLevelArgs<T> a, PersistentArgs p) {
  run_persistent_tasks(a, p, [&](int32_t level, int64_t t) { update_target_block<true>(a, level, t, false); });
}

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

unsigned grid_for(int64_t items, int64_t per_block, int64_t max_blocks) {
  int64_t blocks = (items + per_block - 1) / per_block;
  if (blocks < 1) blocks = 1;
  if (blocks > max_blocks) blocks = max_blocks;
  return static_cast<unsigned>(blocks);
}

constexpr int64_t kMaxGrid = 2147483647;      // gridDim.x limit
constexpr int64_t kStreamingGrid = 132 * 16;  // grid-stride loops: a few waves of an H100 are plenty

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
  const unsigned grid = grid_for(nnz, 256, kStreamingGrid);
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
  shift_diagonal_kernel<<<grid_for(n, 256, kStreamingGrid), 256, 0, stream>>>(n, diag, f, shift);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

bool programmatic_launch_supported(int device) {
  // The kernels wait for their predecessor only where compiled for sm_90+ (the waits are
  // compiled out below that): a binary for an older target JIT-run on a Hopper must not
  // overlap kernels.
  int major = 0;
  GPUGLU_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  cudaFuncAttributes attr{};
  GPUGLU_CUDA_CHECK(cudaFuncGetAttributes(&attr, update_block_kernel<double>));
  return major >= 9 && attr.ptxVersion >= 90 && attr.binaryVersion >= 90;
}

template <class T>
void launch_pivot(const BasicLevelArgs<T>& a, int32_t level, int64_t col_begin, int32_t ncols, int threads_per_column,
                  bool programmatic, cudaStream_t stream) {
  if (ncols <= 0) return;
  if (threads_per_column == 32) {
    constexpr int kWarpsPerBlock = 8;
    launch_maybe_programmatic(pivot_warp_kernel<T>, grid_for(ncols, kWarpsPerBlock, kMaxGrid), kWarpsPerBlock * 32,
                              programmatic, stream, a, level, col_begin, ncols);
  } else {
    launch_maybe_programmatic(pivot_block_kernel<T>, static_cast<unsigned>(ncols), threads_per_column, programmatic,
                              stream, a, level, col_begin);
  }
}

template <class T>
void launch_update_warps(const BasicLevelArgs<T>& a, int32_t level, int64_t t_begin, int64_t ntargets,
                         int warps_per_block, bool programmatic, cudaStream_t stream) {
  if (ntargets <= 0) return;
  launch_maybe_programmatic(update_warp_kernel<T>, grid_for(ntargets, warps_per_block, kMaxGrid), warps_per_block * 32,
                            programmatic, stream, a, level, t_begin, ntargets);
}

template <class T>
void launch_update_blocks(const BasicLevelArgs<T>& a, int32_t level, int64_t t_begin, int64_t ntargets, int threads,
                          bool programmatic, cudaStream_t stream) {
  if (ntargets <= 0) return;
  launch_maybe_programmatic(update_block_kernel<T>, grid_for(ntargets, 1, kMaxGrid), threads, programmatic, stream, a,
                            level, t_begin);
}

template <class T>
int persistent_blocks(int device) {
  int sms = 0, per_sm = 0;
  GPUGLU_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPUGLU_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persistent_kernel<T>, kPersistentThreads, 0));
  return sms * (per_sm > 0 ? per_sm : 1);
}

template <class T>
void launch_persistent(const BasicLevelArgs<T>& a, const PersistentArgs& p, int blocks, cudaStream_t stream) {
  if (p.ntasks <= 0) return;
  persistent_kernel<T><<<static_cast<unsigned>(blocks), kPersistentThreads, 0, stream>>>(a, p);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

template <class T>
const BasicUpdateKernels<T>& lu_update_kernels() {
  static const BasicUpdateKernels<T> k{launch_update_warps<T>, launch_update_blocks<T>, persistent_blocks<T>,
                                       launch_persistent<T>};
  return k;
}

#define GPUGLU_LU_KERNELS(T)                                                                                        \
  template void launch_scatter(int64_t, const T*, const int64_t*, const double*, T*, FactorState*, bool,          \
                               const uint8_t*, cudaStream_t);                                                      \
  template void launch_shift_diagonal(int32_t, const int64_t*, T*, double, cudaStream_t);                          \
  template void launch_pivot(const BasicLevelArgs<T>&, int32_t, int64_t, int32_t, int, bool, cudaStream_t);        \
  template void launch_update_warps(const BasicLevelArgs<T>&, int32_t, int64_t, int64_t, int, bool, cudaStream_t); \
  template void launch_update_blocks(const BasicLevelArgs<T>&, int32_t, int64_t, int64_t, int, bool, cudaStream_t); \
  template int persistent_blocks<T>(int);                                                                           \
  template void launch_persistent(const BasicLevelArgs<T>&, const PersistentArgs&, int, cudaStream_t);             \
  template const BasicUpdateKernels<T>& lu_update_kernels<T>();
GPUGLU_LU_KERNELS(double)
GPUGLU_LU_KERNELS(DComplex)
#undef GPUGLU_LU_KERNELS

}  // namespace gpuglu::cuda::kernels
