// Phase 2 of the LDL^T on the GPU (Chen & Wang, Algorithm 4, lines 6-11): per target
// column j of a level, its sources k (the level's columns with L(j, k) != 0) in ascending
// order, each
//   u = L(j, k) * d_k,   F(i, j) -= L(i, k) * u   over the rows i >= j of L(:, k)
// (i = j updates d_j), exactly as reference::factor_ldlt_levels computes them:
// explicit __dmul_rn / __dsub_rn (device_scalar.cuh's mul / sub) keep nvcc from fusing the
// two into an FMA, and the sources of a target apply one after the other, so a real F is the
// CPU's bit for bit. Complex: u = conj(L(j, k)) d_k under LDL^H.
//
// Where the paper has every column of a level update its subcolumns at once through
// atomics and two dense n-sized temporaries per column (its pseudo-codes 3-5), the
// schedule's update lists are grouped by target: one warp or block owns a target column,
// no atomics, and no n-sized scratch. Row i of L(:, k) is located in column j's own
// storage: the rows of L(:, k) from j on are a subset of column j's rows (the elimination
// tree's fill property), both ascending, so where the two counts agree - the dense
// trailing blocks of the late levels - F(i, j) sits at the same offset as L(i, k), and
// otherwise a binary search in the window the row's rank leaves finds it.
//
// Programmatic dependent launch: the schedule (never written during a factorization) is
// read before wait_for_previous_kernel(), F and the state only after it.
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/programmatic_launch.cuh"
#include "cuda/ldlt/ldlt_kernels.cuh"
#include "cuda/lu/level_device.cuh"

namespace gpuglu::cuda::kernels {

namespace {

// One source k of a target j: L(j, k)'s position (the first of the rows i >= j of L(:, k)),
// how many rows of L(:, k) that is (a column has at most n rows: 32 bits, which keeps the
// warp kernel's registers in bounds), d_k's position, and u = L(j, k) * d_k. Both factors
// are final once the level's pivots are done, and no target of the level writes column k (a
// target is an ancestor of k in the elimination tree, so in a later level): u can be read
// ahead of the updates.
template <class T>
struct SymSource {
  int64_t pos;
  int64_t dk;
  int32_t rows;
  T u;
};

template <class T>
__device__ __forceinline__ SymSource<T> sym_source_pattern(const BasicLevelArgs<T>& a, int64_t e) {
  SymSource<T> s;
  s.pos = a.src[e];
  const int32_t k = a.src_col[e];
  s.rows = static_cast<int32_t>(a.colptr[k + 1] - s.pos);
  s.dk = a.diag[k];
  s.u = T{};
  return s;
}

// The reference's u = f[pos] * f[diag[k]] (conj(f[pos]) under LDL^H), operands in its order.
template <bool Coherent, class T>
__device__ __forceinline__ T source_multiplier(const BasicLevelArgs<T>& a, const SymSource<T>& s) {
  return mul(conj_if(a.hermitian, load_f<Coherent>(a.f + s.pos)), load_f<Coherent>(a.f + s.dk));
}

// F(i, j) -= L(i, k) * u for the rows i >= j of L(:, k) (positions pos .. pos + rows), split
// over a group of nthreads; column j's rows are [jbegin, jend), jbegin its diagonal. Returns
// true when a row of L(:, k) is missing from column j (a broken fill pattern).
template <bool Coherent = false, class T>
__device__ __forceinline__ bool apply_sym_source(const BasicLevelArgs<T>& a, const SymSource<T>& src, int64_t jbegin,
                                                 int64_t jend, int tid, int nthreads) {
  const int32_t* __restrict__ rowind = a.rowind;
  T* f = a.f;
  const int64_t pos = src.pos;
  const int64_t kend = src.pos + src.rows;
  const T u = src.u;
  if (a.incomplete) {
    int64_t lo = jbegin;  // a thread's rows ascend: each search starts after its last hit
    for (int64_t p = pos + tid; p < kend; p += nthreads) {
      const int32_t i = rowind[p];
      lo = first_row_at_least(rowind, lo, jend, i);
      if (lo == jend) break;          // no row of column j at or after i: the rest is dropped
      if (rowind[lo] != i) continue;  // (i, j) is not in the incomplete pattern: dropped
      f[lo] = sub(load_f<Coherent>(f + lo), mul(load_f<Coherent>(f + p), u));
      ++lo;
    }
    return false;
  }
  bool missing = false;
  // Same count, same rows: F(i, j) at L(i, k)'s offset. The rows are still compared (one
  // coalesced load), so a broken pattern is reported rather than updated wrongly.
  if (jend - jbegin == kend - pos) {
    const int64_t shift = jbegin - pos;
    for (int64_t p0 = pos + tid; p0 < kend; p0 += kUnroll * nthreads) {
      int32_t li[kUnroll], ti[kUnroll];
      T lv[kUnroll], tv[kUnroll];
#pragma unroll
      for (int r = 0; r < kUnroll; ++r) {
        const int64_t p = p0 + static_cast<int64_t>(r) * nthreads;
        if (p < kend) {
          li[r] = rowind[p];
          ti[r] = rowind[p + shift];
          lv[r] = load_f<Coherent>(f + p);
          tv[r] = load_f<Coherent>(f + p + shift);
        }
      }
#pragma unroll
      for (int r = 0; r < kUnroll; ++r) {
        const int64_t p = p0 + static_cast<int64_t>(r) * nthreads;
        if (p < kend) {
          if (li[r] != ti[r])
            missing = true;
          else
            f[p + shift] = sub(tv[r], mul(lv[r], u));
        }
      }
    }
    return missing;
  }
  // Search: the r-th row of L(:, k) from j on sits at or after column j's r-th row, and
  // leaves room for the rows of L(:, k) after it.
  for (int64_t p = pos + tid; p < kend; p += nthreads) {
    const int32_t i = rowind[p];
    const int64_t to = jend - (kend - p) + 1;
    const int64_t q = first_row_at_least(rowind, jbegin + (p - pos), to, i);
    if (q >= to || rowind[q] != i) return true;
    f[q] = sub(load_f<Coherent>(f + q), mul(load_f<Coherent>(f + p), u));
  }
  return false;
}

// A warp per target. The group synchronizes between sources, so two sources touching the
// same F(i, j) apply in the CPU's order. The sources' pattern is read 32 at a time, one
// per lane (the first 32 before waiting for the previous kernel), and broadcast.
template <class T>
__global__ void __launch_bounds__(1024) ldlt_update_warp_kernel(BasicLevelArgs<T> a, int32_t level, int64_t t_begin,
                                                                int64_t ntargets) {
  const int64_t w = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = static_cast<int>(threadIdx.x & 31);
  const bool active = w < ntargets;  // idle warps still wait, so the whole grid waits alike
  int64_t jbegin = 0, jend = 0, e_begin = 0, e_end = 0;
  SymSource<T> mine{0, 0, 0, T{}};
  if (active) {
    const int64_t t = t_begin + w;
    const int32_t j = a.target_col[t];
    jbegin = a.diag[j];
    jend = a.colptr[j + 1];
    e_begin = a.src_ptr[t];
    e_end = a.src_ptr[t + 1];
    if (lane < e_end - e_begin) mine = sym_source_pattern(a, e_begin + lane);
  }
  wait_for_previous_kernel();
  if (!active || update_skipped(a.state, level)) return;  // whole warps leave together
  bool missing = false;
  for (int64_t e0 = e_begin; e0 < e_end; e0 += 32) {
    const int cnt = e_end - e0 < 32 ? static_cast<int>(e_end - e0) : 32;
    if (e0 != e_begin && lane < cnt) mine = sym_source_pattern(a, e0 + lane);
    if (lane < cnt) mine.u = source_multiplier<false>(a, mine);
    for (int r = 0; r < cnt; ++r) {
      SymSource<T> s;
      s.pos = __shfl_sync(kFullMask, mine.pos, r);
      s.rows = __shfl_sync(kFullMask, mine.rows, r);
      s.dk = 0;  // only u, which carries d_k, is needed from here on
      s.u = shfl(kFullMask, mine.u, r);
      missing |= apply_sym_source(a, s, jbegin, jend, lane, 32);
      __syncwarp();
    }
  }
  if (missing) a.state->missing_fill = 1;
}

// A block per target t. pdl_wait: wait for the previous kernel after reading the schedule
// (level kernels); the persistent kernel has waited already.
template <bool Coherent, class T>
__device__ void update_sym_target_block(const BasicLevelArgs<T>& a, int32_t level, int64_t t, bool pdl_wait) {
  __shared__ SymSource<T> sources[32];
  const int tid = static_cast<int>(threadIdx.x);
  const int nthreads = static_cast<int>(blockDim.x);
  const int32_t j = a.target_col[t];
  const int64_t jbegin = a.diag[j];
  const int64_t jend = a.colptr[j + 1];
  const int64_t e_begin = a.src_ptr[t];
  const int64_t e_end = a.src_ptr[t + 1];
  SymSource<T> mine{0, 0, 0, T{}};
  if (tid < 32 && tid < e_end - e_begin) mine = sym_source_pattern(a, e_begin + tid);
  if (pdl_wait) wait_for_previous_kernel();
  if (update_skipped(a.state, level)) return;
  bool missing = false;
  for (int64_t e0 = e_begin; e0 < e_end; e0 += 32) {
    const int cnt = e_end - e0 < 32 ? static_cast<int>(e_end - e0) : 32;
    if (tid < cnt) {
      if (e0 != e_begin) mine = sym_source_pattern(a, e0 + tid);
      mine.u = source_multiplier<Coherent>(a, mine);
      sources[tid] = mine;
    }
    __syncthreads();
    for (int r = 0; r < cnt; ++r) {
      missing |= apply_sym_source<Coherent>(a, sources[r], jbegin, jend, tid, nthreads);
      __syncthreads();  // also keeps sources[] alive until every thread is done with it
    }
  }
  if (missing) a.state->missing_fill = 1;
}

template <class T>
__global__ void __launch_bounds__(1024) ldlt_update_block_kernel(BasicLevelArgs<T> a, int32_t level,
                                                                 int64_t t_begin) {
  update_sym_target_block<false>(a, level, t_begin + blockIdx.x, true);
}

template <class T>
__global__ void __launch_bounds__(kPersistentThreads) ldlt_persistent_kernel(BasicLevelArgs<T> a, PersistentArgs p) {
  run_persistent_tasks(a, p, [&](int32_t level, int64_t t) { update_sym_target_block<true>(a, level, t, false); });
}

unsigned blocks_for(int64_t items, int64_t per_block) {
  constexpr int64_t kMaxGrid = 2147483647;  // gridDim.x limit
  const int64_t blocks = (items + per_block - 1) / per_block;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxGrid ? kMaxGrid : blocks));
}

}  // namespace

template <class T>
void launch_ldlt_update_warps(const BasicLevelArgs<T>& a, int32_t level, int64_t t_begin, int64_t ntargets,
                              int warps_per_block, bool programmatic, cudaStream_t stream) {
  if (ntargets <= 0) return;
  launch_maybe_programmatic(ldlt_update_warp_kernel<T>, blocks_for(ntargets, warps_per_block), warps_per_block * 32,
                            programmatic, stream, a, level, t_begin, ntargets);
}

template <class T>
void launch_ldlt_update_blocks(const BasicLevelArgs<T>& a, int32_t level, int64_t t_begin, int64_t ntargets,
                               int threads, bool programmatic, cudaStream_t stream) {
  if (ntargets <= 0) return;
  launch_maybe_programmatic(ldlt_update_block_kernel<T>, blocks_for(ntargets, 1), threads, programmatic, stream, a,
                            level, t_begin);
}

template <class T>
int ldlt_persistent_blocks(int device) {
  int sms = 0, per_sm = 0;
  GPUGLU_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPUGLU_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ldlt_persistent_kernel<T>, kPersistentThreads, 0));
  return sms * (per_sm > 0 ? per_sm : 1);
}

template <class T>
void launch_ldlt_persistent(const BasicLevelArgs<T>& a, const PersistentArgs& p, int blocks, cudaStream_t stream) {
  if (p.ntasks <= 0) return;
  ldlt_persistent_kernel<T><<<static_cast<unsigned>(blocks), kPersistentThreads, 0, stream>>>(a, p);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

template <class T>
const BasicUpdateKernels<T>& ldlt_update_kernels() {
  static const BasicUpdateKernels<T> k{launch_ldlt_update_warps<T>, launch_ldlt_update_blocks<T>,
                                       ldlt_persistent_blocks<T>, launch_ldlt_persistent<T>};
  return k;
}

template const BasicUpdateKernels<double>& ldlt_update_kernels<double>();
template const BasicUpdateKernels<DComplex>& ldlt_update_kernels<DComplex>();

}  // namespace gpuglu::cuda::kernels
