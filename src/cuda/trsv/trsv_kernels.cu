// The sparse triangular-solve kernels: LEVR, LEVC, SLFR, SLFC (R. Li, Sec. 4.3).
//
// Lanes per unknown. Each unknown gets a group of G lanes (kernel_choice.hpp's group_size);
// the group splits the unknown's row (R kernels) or column (C kernels) and reduces or
// broadcasts with shuffles masked to the group, so groups of one warp never wait on each
// other at a shuffle.
//
// Self-scheduled kernels and deadlock freedom. SLFR / SLFC solve the whole triangle in one
// launch, a warp task (<= 32 / G unknowns of one level, consecutive in jlev) per warp. Block
// b does NOT take tasks by blockIdx: its first thread takes a ticket from a global counter
// when the block is already running, and the block's warps take tasks ticket * 8 + warp.
// Hence when a block holds ticket t, tickets 0..t-1 belong to blocks that are resident or
// finished. Every unknown depends only on unknowns of lower levels, which sit earlier in
// jlev, so in earlier tasks, i.e. with smaller tickets or earlier in the same block. By
// induction on the jlev position, the first unsolved unknown whose task is taken waits on
// nothing unsolved, and its warp is resident, so it finishes; once all taken tasks finish,
// their blocks retire and new blocks take the next tickets. No wait is ever on a warp that
// has not started, whatever the number of resident blocks (tested on 1M-row triangles).
// Assigning by blockIdx instead would deadlock once a late block is resident and an early
// one is not (CUDA does not promise to schedule blocks in order).
//
// Memory ordering. SLFR: the solution vector is its own ready flag (pre-filled with
// kPending). A dependent spins on x[j] with a relaxed GPU-scope load, which returns the
// value itself: one L2 round trip per hop, no fence. SLFC (Li's Algorithm 4): a producer
// adds its contributions to x[r] with atomics, __threadfence(), then decrements r's counter;
// the consumer's acquire load of its counter orders its following read of x[i].
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/programmatic_launch.cuh"
#include "cuda/trsv/trsv_kernels.cuh"

#include <algorithm>

namespace gpuglu::cuda::trsv_kernels {
namespace {

constexpr int kLevelBlock = 256;
constexpr unsigned long long kCanonicalNaN = 0x7ff8000000000000ull;

__device__ __forceinline__ unsigned long long load_relaxed(const double* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void store_relaxed(double* p, double value) {
  unsigned long long v = static_cast<unsigned long long>(__double_as_longlong(value));
  if (v == kPending) v = kCanonicalNaN;  // never publish the sentinel (its dependents would spin forever)
  asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ int32_t load_acquire(const int32_t* p) {
  int32_t v;
  asm volatile("ld.acquire.gpu.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// Polls x[j] until it leaves kPending. Warps far ahead of the wavefront would otherwise poll
// the L2 continuously: measured on an H100 (lap2d9 1024^2), tight spinning by every resident
// warp made the self-scheduled kernels slower than cuSPARSE, so the poll interval doubles
// up to kMaxBackoffNs after each miss.
constexpr unsigned kMaxBackoffNs = 256;
__device__ __forceinline__ unsigned long long wait_value(const double* p) {
  unsigned long long bits = load_relaxed(p);
  unsigned ns = 16;
  while (bits == kPending) {
    __nanosleep(ns);
    ns = ns < kMaxBackoffNs ? 2 * ns : kMaxBackoffNs;
    bits = load_relaxed(p);
  }
  return bits;
}

__device__ __forceinline__ void wait_zero(const int32_t* p) {
  unsigned ns = 16;
  while (load_acquire(p) != 0) {
    __nanosleep(ns);
    ns = ns < kMaxBackoffNs ? 2 * ns : kMaxBackoffNs;
  }
}

template <int G>
__device__ __forceinline__ unsigned group_mask() {
  if constexpr (G == 32) {
    return 0xffffffffu;
  } else {
    const unsigned lane = threadIdx.x & 31u;
    return ((1u << G) - 1u) << (lane & ~static_cast<unsigned>(G - 1));
  }
}

template <int G>
__device__ __forceinline__ double group_sum(double v, unsigned mask) {
#pragma unroll
  for (int off = G / 2; off > 0; off /= 2) v += __shfl_xor_sync(mask, v, off, G);
  return v;
}

template <int G>
__device__ __forceinline__ double group_broadcast(double v, unsigned mask) {
  if constexpr (G == 1) return v;
  return __shfl_sync(mask, v, 0, G);
}

// Programmatic dependent launch (cuda/programmatic_launch.cuh): LEVR / LEVC kernels let
// the next level's kernel start at once; it reads the static schedule (jlev, row pointers,
// column indices, values, diagonal) and then waits for this grid to finish before it reads
// any x another unknown writes.

// Off-diagonal entries of CSR row i (the diagonal, when stored, is just outside).
__device__ __forceinline__ void offdiag_row(const DeviceTriangle& t, int32_t i, int64_t& b, int64_t& e) {
  b = t.rowptr[i];
  e = t.rowptr[i + 1];
  if (!t.unit) {
    if (t.upper) ++b;
    else --e;
  }
}

__device__ __forceinline__ double diag_value(const DeviceTriangle& t, int32_t i) {
  return t.upper ? t.values[t.rowptr[i]] : t.values[t.rowptr[i + 1] - 1];
}

// One row of LEVR, with everything that does not depend on other unknowns loaded ahead:
// the row's position, its first K * G off-diagonal entries (K per lane), the diagonal and
// x[i] itself (x[i] holds b_i until row i is solved, and only row i's solve writes it).
// Only the loads of x[colind] remain after the wait / barrier.
template <int K>
struct RowAhead {
  int32_t i;
  int64_t rb, re;  // off-diagonal entries [rb, re)
  double d, xb;
  int32_t col[K];
  double val[K];
};

template <int G, int K>
__device__ __forceinline__ void load_row_ahead(const DeviceTriangle& t, int32_t pos, int g, const double* x,
                                               RowAhead<K>& r) {
  r.i = t.jlev[pos];
  const int64_t b = t.rowptr[r.i], e = t.rowptr[r.i + 1];
  r.rb = b;
  r.re = e;
  r.d = 1.0;
  if (!t.unit) {
    if (t.upper) {
      if (g == 0) r.d = t.values[b];
      r.rb = b + 1;
    } else {
      if (g == 0) r.d = t.values[e - 1];
      r.re = e - 1;
    }
  }
  r.xb = g == 0 ? x[r.i] : 0.0;
#pragma unroll
  for (int m = 0; m < K; ++m) {
    const int64_t k = r.rb + g + static_cast<int64_t>(m) * G;
    r.col[m] = k < r.re ? t.colind[k] : 0;
    r.val[m] = k < r.re ? t.values[k] : 0.0;
  }
}

// x[i] = (b_i - sum_j a_ij x[j]) / a_ii for a row loaded ahead; the group's lanes split the
// row, lane 0 stores.
template <int G, int K>
__device__ __forceinline__ void solve_row_ahead(const DeviceTriangle& t, const RowAhead<K>& r, int g, double* x) {
  double sum = 0.0;
#pragma unroll
  for (int m = 0; m < K; ++m)
    if (r.rb + g + static_cast<int64_t>(m) * G < r.re) sum += r.val[m] * x[r.col[m]];
  for (int64_t k = r.rb + g + static_cast<int64_t>(K) * G; k < r.re; k += G) sum += t.values[k] * x[t.colind[k]];
  sum = group_sum<G>(sum, group_mask<G>());
  if (g == 0) {
    const double v = r.xb - sum;
    x[r.i] = t.unit ? v : v / r.d;
  }
}

// Block ticket -> first warp task of this block (see the deadlock argument above).
__device__ __forceinline__ int64_t take_task(uint32_t* ticket) {
  __shared__ uint32_t block_ticket;
  if (threadIdx.x == 0) block_ticket = atomicAdd(ticket, 1u);
  __syncthreads();
  return static_cast<int64_t>(block_ticket) * (kSelfScheduledBlock / 32) + threadIdx.x / 32;
}

constexpr int kAheadEntries = 4;  // off-diagonal entries per lane loaded ahead (RowAhead's K)

template <int G>
__global__ void __launch_bounds__(kLevelBlock) levr_kernel(DeviceTriangle t, int32_t l1, int32_t l2, double* x) {
  let_next_kernel_start();
  const int64_t gid = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t pos = l1 + gid / G;
  if (pos >= l2) return;  // the whole group leaves together
  const int g = static_cast<int>(threadIdx.x % G);
  RowAhead<kAheadEntries> r;
  load_row_ahead<G, kAheadEntries>(t, static_cast<int32_t>(pos), g, x, r);
  wait_for_previous_kernel();
  solve_row_ahead<G, kAheadEntries>(t, r, g, x);
}

// LEVR over a run of consecutive levels [lev_begin, lev_end) in ONE block: the levels are
// separated by __syncthreads() instead of kernel boundaries (a barrier costs tens of
// nanoseconds, a launch a microsecond or more). Thread group s of the block solves
// position level_ptr[l] + s (and + capacity, + 2 capacity, ... when a level is wider than
// the block's capacity = blockDim / G groups; those extra rows are not loaded ahead).
// Writes of x before a __syncthreads() are visible to the block's reads after it.
//
// Every level's rows are new memory (L2 or DRAM misses), and reaching a row's entries is a
// chain of dependent loads: level_ptr -> jlev -> rowptr -> colind / values. Done at the
// level, that chain would cost four memory latencies per level; so the chain is software-
// pipelined across levels: while level L is solved, the entries of level L + 1 (whose row
// pointers arrived during level L - 1), the row pointers of L + 2, the jlev entry of L + 3
// and level_ptr[L + 5] are loaded. Only the loads of x[colind] stay on the critical path.
constexpr int kRunBlock = 1024;
template <int G>
__global__ void __launch_bounds__(kRunBlock)
    levr_run_kernel(DeviceTriangle t, const int32_t* __restrict__ level_ptr, int32_t lev_begin, int32_t lev_end,
                    double* x) {
  let_next_kernel_start();
  constexpr int K = kAheadEntries;
  constexpr int32_t kCapacity = kRunBlock / G;
  const int g = static_cast<int>(threadIdx.x % G);
  const int32_t slot = static_cast<int32_t>(threadIdx.x / G);
  const int64_t lo_adjust = !t.unit && t.upper ? 1 : 0;  // the stored diagonal leads (U) or trails (L)
  const int64_t hi_adjust = !t.unit && !t.upper ? 1 : 0;
  auto lptr = [&](int32_t l) { return level_ptr[l < lev_end ? l : lev_end]; };  // empty levels past the run

  // Prologue: the pipeline's state at L = lev_begin.
  int32_t p0 = lptr(lev_begin), p1 = lptr(lev_begin + 1), p2 = lptr(lev_begin + 2), p3 = lptr(lev_begin + 3),
          p4 = lptr(lev_begin + 4);
  RowAhead<K> cur;  // level L, complete
  if (p0 + slot < p1) load_row_ahead<G, K>(t, p0 + slot, g, x, cur);
  int32_t i1 = 0, i2 = 0;  // levels L + 1 (with its row range) and L + 2
  int64_t rb1 = 0, re1 = 0;
  if (p1 + slot < p2) {
    i1 = t.jlev[p1 + slot];
    rb1 = t.rowptr[i1] + lo_adjust;
    re1 = t.rowptr[i1 + 1] - hi_adjust;
  }
  if (p2 + slot < p3) i2 = t.jlev[p2 + slot];
  wait_for_previous_kernel();

  for (int32_t l = lev_begin; l < lev_end; ++l) {
    // Issue the look-ahead loads; their addresses are already in registers.
    RowAhead<K> next;
    if (p1 + slot < p2) {
      next.i = i1;
      next.rb = rb1;
      next.re = re1;
      next.d = g == 0 && !t.unit ? t.values[t.upper ? rb1 - 1 : re1] : 1.0;
      next.xb = g == 0 ? x[i1] : 0.0;
#pragma unroll
      for (int m = 0; m < K; ++m) {
        const int64_t k = rb1 + g + static_cast<int64_t>(m) * G;
        next.col[m] = k < re1 ? t.colind[k] : 0;
        next.val[m] = k < re1 ? t.values[k] : 0.0;
      }
    }
    int64_t rb2 = 0, re2 = 0;
    if (p2 + slot < p3) {
      rb2 = t.rowptr[i2] + lo_adjust;
      re2 = t.rowptr[i2 + 1] - hi_adjust;
    }
    const int32_t i3 = p3 + slot < p4 ? t.jlev[p3 + slot] : 0;
    const int32_t p5 = lptr(l + 5);

    if (p0 + slot < p1) solve_row_ahead<G, K>(t, cur, g, x);
    for (int32_t pos = p0 + slot + kCapacity; pos < p1; pos += kCapacity) {  // wide levels only
      RowAhead<K> r;
      load_row_ahead<G, K>(t, pos, g, x, r);
      solve_row_ahead<G, K>(t, r, g, x);
    }
    __syncthreads();
    cur = next;
    i1 = i2;
    rb1 = rb2;
    re1 = re2;
    i2 = i3;
    p0 = p1;
    p1 = p2;
    p2 = p3;
    p3 = p4;
    p4 = p5;
  }
}

template <int G>
__global__ void __launch_bounds__(kLevelBlock) levc_kernel(DeviceTriangle t, int32_t l1, int32_t l2, double* x) {
  let_next_kernel_start();
  const int64_t gid = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t pos = l1 + gid / G;
  if (pos >= l2) return;
  const int g = static_cast<int>(threadIdx.x % G);
  const int32_t i = t.jlev[pos];
  const double d = g == 0 && !t.unit ? diag_value(t, i) : 1.0;
  const int64_t cb = t.colptr[i], ce = t.colptr[i + 1];
  wait_for_previous_kernel();  // x[i] is complete once every earlier level has finished
  double xi = 0.0;
  if (g == 0) xi = t.unit ? x[i] : x[i] / d;
  xi = group_broadcast<G>(xi, group_mask<G>());
  for (int64_t k = cb + g; k < ce; k += G) atomicAdd(&x[t.rowind[k]], -t.csc_values[k] * xi);
  if (g == 0) x[i] = xi;
}

template <int G>
__global__ void __launch_bounds__(kSelfScheduledBlock)
    slfr_kernel(DeviceTriangle t, const int32_t* __restrict__ tasks, int32_t num_tasks, const double* __restrict__ b,
                double* x, uint32_t* ticket) {
  const int64_t task = take_task(ticket);
  if (task >= num_tasks) return;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const int64_t pos = tasks[task] + lane / G;
  if (pos >= tasks[task + 1]) return;  // group-uniform
  const int g = lane % G;
  const int32_t i = t.jlev[pos];
  int64_t rb, re;
  offdiag_row(t, i, rb, re);
  // b[i] and the diagonal are loaded before the waits: the asm loads' memory clobber keeps
  // the compiler from moving any load across them, and a load after the last wait would add
  // a memory round trip to every hop of the critical path.
  const double bi = g == 0 ? b[i] : 0.0;
  const double d = g == 0 && !t.unit ? diag_value(t, i) : 1.0;
  double sum = 0.0;
  for (int64_t k = rb + g; k < re; k += G) {
    const double a = t.values[k];
    const double* xj = x + t.colind[k];
    sum += a * __longlong_as_double(static_cast<long long>(wait_value(xj)));
  }
  sum = group_sum<G>(sum, group_mask<G>());
  if (g == 0) {
    const double v = bi - sum;
    store_relaxed(x + i, t.unit ? v : v / d);
  }
}

template <int G>
__global__ void __launch_bounds__(kSelfScheduledBlock)
    slfc_kernel(DeviceTriangle t, const int32_t* __restrict__ tasks, int32_t num_tasks, double* x, int32_t* counters,
                uint32_t* ticket) {
  const int64_t task = take_task(ticket);
  if (task >= num_tasks) return;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const int64_t pos = tasks[task] + lane / G;
  if (pos >= tasks[task + 1]) return;
  const int g = lane % G;
  const int32_t i = t.jlev[pos];
  const int64_t cb = t.colptr[i], ce = t.colptr[i + 1];
  double xi = 0.0;
  if (g == 0) {
    const double d = t.unit ? 1.0 : diag_value(t, i);  // loaded before the wait
    wait_zero(counters + i);
    xi = __longlong_as_double(static_cast<long long>(load_relaxed(x + i)));
    if (!t.unit) xi /= d;
  }
  xi = group_broadcast<G>(xi, group_mask<G>());
  if (cb + g < ce) {
    for (int64_t k = cb + g; k < ce; k += G) atomicAdd(&x[t.rowind[k]], -t.csc_values[k] * xi);
    __threadfence();  // this lane's contributions are visible before its counters drop
    for (int64_t k = cb + g; k < ce; k += G) atomicSub(&counters[t.rowind[k]], 1);
  }
  if (g == 0) store_relaxed(x + i, xi);
}

unsigned blocks_for(int64_t threads, int block) { return static_cast<unsigned>((threads + block - 1) / block); }

// Expands LAUNCH(G) for the run-time group size (1, 2, 4, 8, 16, 32; anything else: 32).
#define GPUGLU_TRSV_DISPATCH_GROUP(group, LAUNCH) \
  switch (group) {                                \
    case 1: LAUNCH(1); break;                     \
    case 2: LAUNCH(2); break;                     \
    case 4: LAUNCH(4); break;                     \
    case 8: LAUNCH(8); break;                     \
    case 16: LAUNCH(16); break;                   \
    default: LAUNCH(32); break;                   \
  }

// The two level-scheduled kernels, launched alike: rows jlev[l1 .. l2), `group` lanes a row.
enum class LevelKernel { levr, levc };
template <LevelKernel K, int G>
auto level_kernel() {
  if constexpr (K == LevelKernel::levr)
    return levr_kernel<G>;
  else
    return levc_kernel<G>;
}

template <LevelKernel K>
void launch_level(const DeviceTriangle& t, int32_t l1, int32_t l2, int32_t group, double* x, cudaStream_t stream,
                  bool programmatic) {
  if (l2 <= l1) return;
  const unsigned blocks = blocks_for(static_cast<int64_t>(l2 - l1) * group, kLevelBlock);
#define GPUGLU_LEVEL(G) \
  launch_maybe_programmatic(level_kernel<K, G>(), blocks, kLevelBlock, programmatic, stream, t, l1, l2, x)
  GPUGLU_TRSV_DISPATCH_GROUP(group, GPUGLU_LEVEL)
#undef GPUGLU_LEVEL
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_levr(const DeviceTriangle& t, int32_t l1, int32_t l2, int32_t group, double* x, cudaStream_t stream,
                 bool programmatic) {
  launch_level<LevelKernel::levr>(t, l1, l2, group, x, stream, programmatic);
}

int32_t levr_run_capacity(int32_t group) { return kRunBlock / std::max<int32_t>(1, std::min<int32_t>(group, 32)); }

void launch_levr_run(const DeviceTriangle& t, const int32_t* level_ptr, int32_t lev_begin, int32_t lev_end,
                     int32_t group, double* x, cudaStream_t stream, bool programmatic) {
  if (lev_end <= lev_begin) return;
#define GPUGLU_LEVR_RUN(G) \
  launch_maybe_programmatic(levr_run_kernel<G>, 1u, kRunBlock, programmatic, stream, t, level_ptr, lev_begin, \
                            lev_end, x)
  GPUGLU_TRSV_DISPATCH_GROUP(group, GPUGLU_LEVR_RUN)
#undef GPUGLU_LEVR_RUN
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_levc(const DeviceTriangle& t, int32_t l1, int32_t l2, int32_t group, double* x, cudaStream_t stream,
                 bool programmatic) {
  launch_level<LevelKernel::levc>(t, l1, l2, group, x, stream, programmatic);
}

void launch_slfr(const DeviceTriangle& t, const int32_t* tasks, int32_t num_tasks, int32_t group, const double* b,
                 double* x, uint32_t* ticket, cudaStream_t stream) {
  if (num_tasks <= 0) return;
  const unsigned blocks = blocks_for(num_tasks, kSelfScheduledBlock / 32);
#define GPUGLU_SLFR(G) slfr_kernel<G><<<blocks, kSelfScheduledBlock, 0, stream>>>(t, tasks, num_tasks, b, x, ticket)
  GPUGLU_TRSV_DISPATCH_GROUP(group, GPUGLU_SLFR)
#undef GPUGLU_SLFR
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_slfc(const DeviceTriangle& t, const int32_t* tasks, int32_t num_tasks, int32_t group, double* x,
                 int32_t* counters, uint32_t* ticket, cudaStream_t stream) {
  if (num_tasks <= 0) return;
  const unsigned blocks = blocks_for(num_tasks, kSelfScheduledBlock / 32);
#define GPUGLU_SLFC(G) \
  slfc_kernel<G><<<blocks, kSelfScheduledBlock, 0, stream>>>(t, tasks, num_tasks, x, counters, ticket)
  GPUGLU_TRSV_DISPATCH_GROUP(group, GPUGLU_SLFC)
#undef GPUGLU_SLFC
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::trsv_kernels
