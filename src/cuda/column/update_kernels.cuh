#pragma once
// Phase 2 of the level loop, written once for the LU (lu_kernels.cu) and the LDL^T
// (ldlt/ldlt_kernels.cu): the target-grouped updates as kernels - a warp per target, a block
// per target, the persistent self-scheduled loop - and their host launchers, the
// BasicUpdateKernels table LevelLoop runs (common/factor_kernels.cuh). What differs between the engines
// is a Rule: where a target's rows are, what one source is (its pattern and multiplier), and
// which rows of the source update which of the target's.
//
// A Rule is a struct with Scalar (double or DComplex), Source and Target types and static
// __device__ functions:
//   Target target(a, t)                       target t's bounds, from the schedule
//   Source pattern(a, e)                      source e's pattern (the schedule only)
//   Scalar multiplier<Coherent>(a, source)    its multiplier, from F (final for the level)
//   Source broadcast(mine, r)                 lane r's source, to the whole warp
//   bool apply<Coherent>(a, source, target, tid, nthreads)   the update; true: a row missed
// Every source of a target is applied in ascending order with the group synchronized between
// sources, so two sources touching the same entry apply in the CPU's order: no atomics, and
// the factor is bitwise the same for every launch shape.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/programmatic_launch.cuh"
#include "cuda/engine/device_facts.hpp"
#include "cuda/common/level_device.cuh"
#include "cuda/common/factor_kernels.cuh"

namespace gpuglu::cuda::kernels {

// F(t) -= F(s) * u over the rows of a source segment [src_begin, src_end) into the target
// segment [tgt_begin, tgt_end) of one column, split over a group of nthreads; both segments'
// rows ascend, and (complete factors) the source's rows are a subset of the target's. Returns
// true when a source row is missing from the target (a broken fill pattern). u is taken by
// value: a register for the whole loop, not a reload from the shared source list per row.
// - incomplete (ILU/ICC): a row the target lacks is dropped.
// - same count, same rows (the dense trailing blocks of late levels): F(i, target) sits at the
//   source's offset, no search; the rows are still compared (one coalesced load), so a broken
//   pattern is reported rather than updated wrongly.
// - otherwise the r-th source row sits at or after the target's r-th row and leaves room for
//   the source rows after it, which bounds each row's binary search.
template <bool Coherent = false, class T>
__device__ __forceinline__ bool apply_column_update(const BasicLevelArgs<T>& a, int64_t src_begin, int64_t src_end,
                                                    int64_t tgt_begin, int64_t tgt_end, const T u, int tid,
                                                    int nthreads) {
  const int32_t* __restrict__ rowind = a.rowind;
  T* f = a.f;
  if (a.incomplete) {
    int64_t lo = tgt_begin;  // a thread's rows ascend: each search starts after its last hit
    for (int64_t p = src_begin + tid; p < src_end; p += nthreads) {
      const int32_t i = rowind[p];
      lo = first_row_at_least(rowind, lo, tgt_end, i);
      if (lo == tgt_end) break;       // no target row at or after i: the rest is dropped
      if (rowind[lo] != i) continue;  // i is not in the incomplete pattern: dropped
      f[lo] = sub(load_f<Coherent>(f + lo), mul(load_f<Coherent>(f + p), u));
      ++lo;
    }
    return false;
  }
  bool missing = false;
  if (tgt_end - tgt_begin == src_end - src_begin) {
    const int64_t shift = tgt_begin - src_begin;
    for (int64_t p0 = src_begin + tid; p0 < src_end; p0 += kUnroll * nthreads) {
      int32_t li[kUnroll], ti[kUnroll];
      T lv[kUnroll], tv[kUnroll];
#pragma unroll
      for (int r = 0; r < kUnroll; ++r) {
        const int64_t p = p0 + static_cast<int64_t>(r) * nthreads;
        if (p < src_end) {
          li[r] = rowind[p];
          ti[r] = rowind[p + shift];
          lv[r] = load_f<Coherent>(f + p);
          tv[r] = load_f<Coherent>(f + p + shift);
        }
      }
#pragma unroll
      for (int r = 0; r < kUnroll; ++r) {
        const int64_t p = p0 + static_cast<int64_t>(r) * nthreads;
        if (p < src_end) {
          if (li[r] != ti[r])
            missing = true;
          else
            f[p + shift] = sub(tv[r], mul(lv[r], u));
        }
      }
    }
    return missing;
  }
  for (int64_t p = src_begin + tid; p < src_end; p += nthreads) {
    const int32_t i = rowind[p];
    const int64_t to = tgt_end - (src_end - p) + 1;
    const int64_t q = first_row_at_least(rowind, tgt_begin + (p - src_begin), to, i);
    if (q >= to || rowind[q] != i) return true;
    f[q] = sub(load_f<Coherent>(f + q), mul(load_f<Coherent>(f + p), u));
  }
  return false;
}

// A warp per target. The sources' pattern is read 32 at a time, one per lane (the first 32
// before waiting for the previous kernel), and broadcast, so the chain of loads behind a
// source is paid once per 32 sources.
template <class Rule>
__global__ void __launch_bounds__(1024)
    update_warp_kernel(BasicLevelArgs<typename Rule::Scalar> a, int32_t level, int64_t t_begin, int64_t ntargets) {
  using Source = typename Rule::Source;
  const int64_t w = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = static_cast<int>(threadIdx.x & 31);
  const bool active = w < ntargets;  // idle warps still wait, so the whole grid waits alike
  typename Rule::Target target{};
  int64_t e_begin = 0, e_end = 0;
  Source mine{};
  if (active) {
    const int64_t t = t_begin + w;
    target = Rule::target(a, t);
    e_begin = a.src_ptr[t];
    e_end = a.src_ptr[t + 1];
    if (lane < e_end - e_begin) mine = Rule::pattern(a, e_begin + lane);
  }
  wait_for_previous_kernel();
  if (!active || update_skipped(a.state, level)) return;  // whole warps leave together
  bool missing = false;
  for (int64_t e0 = e_begin; e0 < e_end; e0 += 32) {
    const int cnt = e_end - e0 < 32 ? static_cast<int>(e_end - e0) : 32;
    if (e0 != e_begin && lane < cnt) mine = Rule::pattern(a, e0 + lane);
    if (lane < cnt) mine.u = Rule::template multiplier<false>(a, mine);
    for (int r = 0; r < cnt; ++r) {
      missing |= Rule::template apply<false>(a, Rule::broadcast(mine, r), target, lane, 32);
      __syncwarp();
    }
  }
  if (missing) a.state->missing_fill = 1;
}

// The block-per-target update of target t. pdl_wait: wait for the previous kernel after
// reading the schedule (level kernels); the persistent kernel has waited already.
template <class Rule, bool Coherent>
__device__ void update_target_block(const BasicLevelArgs<typename Rule::Scalar>& a, int32_t level, int64_t t,
                                    bool pdl_wait) {
  using Source = typename Rule::Source;
  __shared__ Source sources[32];
  const int tid = static_cast<int>(threadIdx.x);
  const int nthreads = static_cast<int>(blockDim.x);
  const typename Rule::Target target = Rule::target(a, t);
  const int64_t e_begin = a.src_ptr[t];
  const int64_t e_end = a.src_ptr[t + 1];
  Source mine{};
  if (tid < 32 && tid < e_end - e_begin) mine = Rule::pattern(a, e_begin + tid);
  if (pdl_wait) wait_for_previous_kernel();
  if (update_skipped(a.state, level)) return;
  bool missing = false;
  for (int64_t e0 = e_begin; e0 < e_end; e0 += 32) {
    const int cnt = e_end - e0 < 32 ? static_cast<int>(e_end - e0) : 32;
    if (tid < cnt) {
      if (e0 != e_begin) mine = Rule::pattern(a, e0 + tid);
      mine.u = Rule::template multiplier<Coherent>(a, mine);
      sources[tid] = mine;
    }
    __syncthreads();
    for (int r = 0; r < cnt; ++r) {
      missing |= Rule::template apply<Coherent>(a, sources[r], target, tid, nthreads);
      __syncthreads();  // also keeps sources[] alive until every thread is done with it
    }
  }
  if (missing) a.state->missing_fill = 1;
}

template <class Rule>
__global__ void __launch_bounds__(1024)
    update_block_kernel(BasicLevelArgs<typename Rule::Scalar> a, int32_t level, int64_t t_begin) {
  update_target_block<Rule, false>(a, level, t_begin + blockIdx.x, true);
}

// The whole level loop in one launch (level_device.cuh's task loop) with the block-per-target
// update.
template <class Rule>
__global__ void __launch_bounds__(kPersistentThreads)
    persistent_update_kernel(BasicLevelArgs<typename Rule::Scalar> a, PersistentArgs p) {
  run_persistent_tasks(a, p, [&](int32_t level, int64_t t) { update_target_block<Rule, true>(a, level, t, false); });
}

// --- host side ---

// The launchers of Rule's kernels and their table.
template <class Rule>
struct UpdateLaunchers {
  using T = typename Rule::Scalar;

  static void by_warps(const BasicLevelArgs<T>& a, int32_t level, int64_t t_begin, int64_t ntargets,
                       int warps_per_block, bool programmatic, cudaStream_t stream) {
    if (ntargets <= 0) return;
    launch_maybe_programmatic(update_warp_kernel<Rule>, grid_for(ntargets, warps_per_block), warps_per_block * 32,
                              programmatic, stream, a, level, t_begin, ntargets);
  }

  static void by_blocks(const BasicLevelArgs<T>& a, int32_t level, int64_t t_begin, int64_t ntargets, int threads,
                        bool programmatic, cudaStream_t stream) {
    if (ntargets <= 0) return;
    launch_maybe_programmatic(update_block_kernel<Rule>, grid_for(ntargets, 1), threads, programmatic, stream, a,
                              level, t_begin);
  }

  // The persistent grid: every block resident at once on `device` (its SMs times the blocks
  // of kPersistentThreads one SM holds), so that blocks waiting on others never starve them.
  static int persistent_blocks(int device) {
    DeviceScope scope(device);  // the occupancy is the current device's
    int per_sm = 0;
    GPUGLU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persistent_update_kernel<Rule>,
                                                                    kPersistentThreads, 0));
    return device_facts(device).sm_count * (per_sm > 0 ? per_sm : 1);
  }

  static void persistent(const BasicLevelArgs<T>& a, const PersistentArgs& p, int blocks, cudaStream_t stream) {
    if (p.ntasks <= 0) return;
    persistent_update_kernel<Rule><<<static_cast<unsigned>(blocks), kPersistentThreads, 0, stream>>>(a, p);
    GPUGLU_CUDA_CHECK(cudaGetLastError());
  }

  static const BasicUpdateKernels<T>& table() {
    static const BasicUpdateKernels<T> k{by_warps, by_blocks, persistent_blocks, persistent};
    return k;
  }
};

}  // namespace gpuglu::cuda::kernels
