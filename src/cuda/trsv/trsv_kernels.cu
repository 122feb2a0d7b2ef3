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
// value itself: one L2 round trip per hop, no fence. A DComplex is two 8-byte words, and
// nothing makes a 16-byte store single-copy atomic, so each part is its own flag: x[j] is
// read with one relaxed vector load (modelled as two relaxed 8-byte loads, each atomic) until
// NEITHER part is kPending. Each part is written exactly once after the memset (a computed
// part with the sentinel's bits is stored as the canonical NaN), so a part that is not
// kPending is already final: no half-written value can be seen, and neither side needs a
// fence. SLFC (Li's Algorithm 4): a producer adds its contributions to x[r] with atomics
// (per part for DComplex), __threadfence(), then decrements r's counter; the consumer's
// acquire load of its counter orders its following read of x[i].
//
// Arithmetic. The kernels are templates on T = double or DComplex, computing through the
// overloads of namespace arith below: for double the plain operators the kernels always
// used (s + a * x, which nvcc contracts into one fma), so the double kernels compile to the
// PTX they compiled to before the scalar templates; for DComplex device_scalar.cuh's
// operations, every product and sum rounded on its own.
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_scalar.cuh"
#include "cuda/common/programmatic_launch.cuh"
#include "cuda/common/spin_wait.cuh"
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
// Both parts of a DComplex in one 16-byte vector load; each part is a relaxed 8-byte load.
__device__ __forceinline__ void load_relaxed(const DComplex* p, unsigned long long& re, unsigned long long& im) {
  asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];" : "=l"(re), "=l"(im) : "l"(p) : "memory");
}
__device__ __forceinline__ double bits_to_double(unsigned long long v) {
  return __longlong_as_double(static_cast<long long>(v));
}
// A value's bits as published: never the sentinel (its dependents would spin forever).
__device__ __forceinline__ unsigned long long published_bits(double value) {
  const unsigned long long v = static_cast<unsigned long long>(__double_as_longlong(value));
  return v == kPending ? kCanonicalNaN : v;
}

__device__ __forceinline__ void store_relaxed(double* p, double value) {
  asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(p), "l"(published_bits(value)) : "memory");
}
__device__ __forceinline__ void store_relaxed(DComplex* p, DComplex value) {
  asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(published_bits(value.re)),
               "l"(published_bits(value.im))
               : "memory");
}

// x[j] read (after the counter's acquire in SLFC) with the relaxed load(s) above.
__device__ __forceinline__ double load_value_relaxed(const double* p) { return bits_to_double(load_relaxed(p)); }
__device__ __forceinline__ DComplex load_value_relaxed(const DComplex* p) {
  unsigned long long re, im;
  load_relaxed(p, re, im);
  return DComplex{bits_to_double(re), bits_to_double(im)};
}

// Polls x[j] until it leaves kPending (backing off: common/spin_wait.cuh).
__device__ __forceinline__ double wait_value(const double* p) {
  unsigned long long bits = load_relaxed(p);
  unsigned ns = kFirstBackoffNs;
  while (bits == kPending) {
    back_off(ns);
    bits = load_relaxed(p);
  }
  return bits_to_double(bits);
}
// Until neither part is kPending: each part is written once, so both are then final.
__device__ __forceinline__ DComplex wait_value(const DComplex* p) {
  unsigned long long re, im;
  load_relaxed(p, re, im);
  unsigned ns = kFirstBackoffNs;
  while (re == kPending || im == kPending) {
    back_off(ns);
    load_relaxed(p, re, im);
  }
  return DComplex{bits_to_double(re), bits_to_double(im)};
}

__device__ __forceinline__ void wait_zero(const int32_t* p) {
  spin_until(p, [](int32_t v) { return v == 0; });
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

// The kernels' arithmetic (see "Arithmetic" above).
namespace arith {
__device__ __forceinline__ double mul_add(double s, double a, double x) { return s + a * x; }  // s + a x
__device__ __forceinline__ DComplex mul_add(DComplex s, DComplex a, DComplex x) {
  return cuda::add(s, cuda::mul(a, x));
}
__device__ __forceinline__ double add(double a, double b) { return a + b; }
__device__ __forceinline__ DComplex add(DComplex a, DComplex b) { return cuda::add(a, b); }
__device__ __forceinline__ double sub(double a, double b) { return a - b; }
__device__ __forceinline__ DComplex sub(DComplex a, DComplex b) { return cuda::sub(a, b); }
__device__ __forceinline__ double div(double a, double b) { return a / b; }
__device__ __forceinline__ DComplex div(DComplex a, DComplex b) { return cuda::div(a, b); }
__device__ __forceinline__ double neg_mul(double a, double x) { return -a * x; }  // -a x
__device__ __forceinline__ DComplex neg_mul(DComplex a, DComplex x) { return cuda::mul(cuda::neg(a), x); }
}  // namespace arith

// Shuffles within a group of `width` lanes (device_scalar.cuh's take the whole warp).
__device__ __forceinline__ double shfl_xor_width(unsigned mask, double v, int off, int width) {
  return __shfl_xor_sync(mask, v, off, width);
}
__device__ __forceinline__ DComplex shfl_xor_width(unsigned mask, DComplex v, int off, int width) {
  return DComplex{__shfl_xor_sync(mask, v.re, off, width), __shfl_xor_sync(mask, v.im, off, width)};
}
__device__ __forceinline__ double shfl_width(unsigned mask, double v, int lane, int width) {
  return __shfl_sync(mask, v, lane, width);
}
__device__ __forceinline__ DComplex shfl_width(unsigned mask, DComplex v, int lane, int width) {
  return DComplex{__shfl_sync(mask, v.re, lane, width), __shfl_sync(mask, v.im, lane, width)};
}

template <int G, class T>
__device__ __forceinline__ T group_sum(T v, unsigned mask) {
#pragma unroll
  for (int off = G / 2; off > 0; off /= 2) v = arith::add(v, shfl_xor_width(mask, v, off, G));
  return v;
}

template <int G, class T>
__device__ __forceinline__ T group_broadcast(T v, unsigned mask) {
  if constexpr (G == 1) return v;
  return shfl_width(mask, v, 0, G);
}

// Programmatic dependent launch (cuda/programmatic_launch.cuh): LEVR / LEVC kernels let
// the next level's kernel start at once; it reads the static schedule (jlev, row pointers,
// column indices, values, diagonal) and then waits for this grid to finish before it reads
// any x another unknown writes.

// Off-diagonal entries of CSR row i (the diagonal, when stored, is just outside).
template <class T>
__device__ __forceinline__ void offdiag_row(const BasicDeviceTriangle<T>& t, int32_t i, int64_t& b, int64_t& e) {
  b = t.rowptr[i];
  e = t.rowptr[i + 1];
  if (!t.unit) {
    if (t.upper) ++b;
    else --e;
  }
}

template <class T>
__device__ __forceinline__ T diag_value(const BasicDeviceTriangle<T>& t, int32_t i) {
  return t.upper ? t.values[t.rowptr[i]] : t.values[t.rowptr[i + 1] - 1];
}

// One row of LEVR, with everything that does not depend on other unknowns loaded ahead:
// the row's position, its first K * G off-diagonal entries (K per lane), the diagonal and
// x[i] itself (x[i] holds b_i until row i is solved, and only row i's solve writes it).
// Only the loads of x[colind] remain after the wait / barrier.
template <int K, class T>
struct RowAhead {
  int32_t i;
  int64_t rb, re;  // off-diagonal entries [rb, re)
  T d, xb;
  int32_t col[K];
  T val[K];
};

template <int G, int K, class T>
__device__ __forceinline__ void load_row_ahead(const BasicDeviceTriangle<T>& t, int32_t pos, int g, const T* x,
                                               RowAhead<K, T>& r) {
  r.i = t.jlev[pos];
  const int64_t b = t.rowptr[r.i], e = t.rowptr[r.i + 1];
  r.rb = b;
  r.re = e;
  r.d = from_real<T>(1.0);
  if (!t.unit) {
    if (t.upper) {
      if (g == 0) r.d = t.values[b];
      r.rb = b + 1;
    } else {
      if (g == 0) r.d = t.values[e - 1];
      r.re = e - 1;
    }
  }
  r.xb = g == 0 ? x[r.i] : T{};
#pragma unroll
  for (int m = 0; m < K; ++m) {
    const int64_t k = r.rb + g + static_cast<int64_t>(m) * G;
    r.col[m] = k < r.re ? t.colind[k] : 0;
    r.val[m] = k < r.re ? t.values[k] : T{};
  }
}

// x[i] = (b_i - sum_j a_ij x[j]) / a_ii for a row loaded ahead; the group's lanes split the
// row, lane 0 stores.
template <int G, int K, class T>
__device__ __forceinline__ void solve_row_ahead(const BasicDeviceTriangle<T>& t, const RowAhead<K, T>& r, int g,
                                                T* x) {
  T sum{};
#pragma unroll
  for (int m = 0; m < K; ++m)
    if (r.rb + g + static_cast<int64_t>(m) * G < r.re) sum = arith::mul_add(sum, r.val[m], x[r.col[m]]);
  for (int64_t k = r.rb + g + static_cast<int64_t>(K) * G; k < r.re; k += G)
    sum = arith::mul_add(sum, t.values[k], x[t.colind[k]]);
  sum = group_sum<G>(sum, group_mask<G>());
  if (g == 0) {
    const T v = arith::sub(r.xb, sum);
    x[r.i] = t.unit ? v : arith::div(v, r.d);
  }
}

// Block ticket -> first warp task of this block (see the deadlock argument above).
__device__ __forceinline__ int64_t take_task(uint32_t* ticket) {
  __shared__ uint32_t block_ticket;
  if (threadIdx.x == 0) block_ticket = atomicAdd(ticket, 1u);
  __syncthreads();
  return static_cast<int64_t>(block_ticket) * (kSelfScheduledBlock / 32) + threadIdx.x / 32;
}

// Off-diagonal entries per lane loaded ahead (RowAhead's K): 4 doubles, 2 DComplex. LEVR's
// run kernel holds two RowAheads in its 64 registers (1024 threads); for DComplex ptxas -v
// reports ~150 bytes of spills with 4, ~90 with 2 and still ~70 with 1 (the pipeline's other
// state), so 2 keeps most of the look-ahead. Not measured on a GPU yet.
template <class T>
constexpr int kAheadEntries = sizeof(T) == sizeof(double) ? 4 : 2;

template <int G, class T>
__global__ void __launch_bounds__(kLevelBlock) levr_kernel(BasicDeviceTriangle<T> t, int32_t l1, int32_t l2, T* x) {
  let_next_kernel_start();
  const int64_t gid = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t pos = l1 + gid / G;
  if (pos >= l2) return;  // the whole group leaves together
  const int g = static_cast<int>(threadIdx.x % G);
  RowAhead<kAheadEntries<T>, T> r;
  load_row_ahead<G, kAheadEntries<T>>(t, static_cast<int32_t>(pos), g, x, r);
  wait_for_previous_kernel();
  solve_row_ahead<G, kAheadEntries<T>>(t, r, g, x);
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
template <int G, class T>
__global__ void __launch_bounds__(kRunBlock)
    levr_run_kernel(BasicDeviceTriangle<T> t, const int32_t* __restrict__ level_ptr, int32_t lev_begin,
                    int32_t lev_end, T* x) {
  let_next_kernel_start();
  constexpr int K = kAheadEntries<T>;
  constexpr int32_t kCapacity = kRunBlock / G;
  const int g = static_cast<int>(threadIdx.x % G);
  const int32_t slot = static_cast<int32_t>(threadIdx.x / G);
  const int64_t lo_adjust = !t.unit && t.upper ? 1 : 0;  // the stored diagonal leads (U) or trails (L)
  const int64_t hi_adjust = !t.unit && !t.upper ? 1 : 0;
  auto lptr = [&](int32_t l) { return level_ptr[l < lev_end ? l : lev_end]; };  // empty levels past the run

  // Prologue: the pipeline's state at L = lev_begin.
  int32_t p0 = lptr(lev_begin), p1 = lptr(lev_begin + 1), p2 = lptr(lev_begin + 2), p3 = lptr(lev_begin + 3),
          p4 = lptr(lev_begin + 4);
  RowAhead<K, T> cur;  // level L, complete
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
    RowAhead<K, T> next;
    if (p1 + slot < p2) {
      next.i = i1;
      next.rb = rb1;
      next.re = re1;
      next.d = g == 0 && !t.unit ? t.values[t.upper ? rb1 - 1 : re1] : from_real<T>(1.0);
      next.xb = g == 0 ? x[i1] : T{};
#pragma unroll
      for (int m = 0; m < K; ++m) {
        const int64_t k = rb1 + g + static_cast<int64_t>(m) * G;
        next.col[m] = k < re1 ? t.colind[k] : 0;
        next.val[m] = k < re1 ? t.values[k] : T{};
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
      RowAhead<K, T> r;
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

template <int G, class T>
__global__ void __launch_bounds__(kLevelBlock) levc_kernel(BasicDeviceTriangle<T> t, int32_t l1, int32_t l2, T* x) {
  let_next_kernel_start();
  const int64_t gid = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t pos = l1 + gid / G;
  if (pos >= l2) return;
  const int g = static_cast<int>(threadIdx.x % G);
  const int32_t i = t.jlev[pos];
  const T d = g == 0 && !t.unit ? diag_value(t, i) : from_real<T>(1.0);
  const int64_t cb = t.colptr[i], ce = t.colptr[i + 1];
  wait_for_previous_kernel();  // x[i] is complete once every earlier level has finished
  T xi{};
  if (g == 0) xi = t.unit ? x[i] : arith::div(x[i], d);
  xi = group_broadcast<G>(xi, group_mask<G>());
  for (int64_t k = cb + g; k < ce; k += G) atomic_add(&x[t.rowind[k]], arith::neg_mul(t.csc_values[k], xi));
  if (g == 0) x[i] = xi;
}

template <int G, class T>
__global__ void __launch_bounds__(kSelfScheduledBlock)
    slfr_kernel(BasicDeviceTriangle<T> t, const int32_t* __restrict__ tasks, int32_t num_tasks,
                const T* __restrict__ b, T* x, uint32_t* ticket) {
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
  const T bi = g == 0 ? b[i] : T{};
  const T d = g == 0 && !t.unit ? diag_value(t, i) : from_real<T>(1.0);
  T sum{};
  for (int64_t k = rb + g; k < re; k += G) {
    const T a = t.values[k];
    const T* xj = x + t.colind[k];
    sum = arith::mul_add(sum, a, wait_value(xj));
  }
  sum = group_sum<G>(sum, group_mask<G>());
  if (g == 0) {
    const T v = arith::sub(bi, sum);
    store_relaxed(x + i, t.unit ? v : arith::div(v, d));
  }
}

template <int G, class T>
__global__ void __launch_bounds__(kSelfScheduledBlock)
    slfc_kernel(BasicDeviceTriangle<T> t, const int32_t* __restrict__ tasks, int32_t num_tasks, T* x,
                int32_t* counters, uint32_t* ticket) {
  const int64_t task = take_task(ticket);
  if (task >= num_tasks) return;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const int64_t pos = tasks[task] + lane / G;
  if (pos >= tasks[task + 1]) return;
  const int g = lane % G;
  const int32_t i = t.jlev[pos];
  const int64_t cb = t.colptr[i], ce = t.colptr[i + 1];
  T xi{};
  if (g == 0) {
    const T d = t.unit ? from_real<T>(1.0) : diag_value(t, i);  // loaded before the wait
    wait_zero(counters + i);
    xi = load_value_relaxed(x + i);
    if (!t.unit) xi = arith::div(xi, d);
  }
  xi = group_broadcast<G>(xi, group_mask<G>());
  if (cb + g < ce) {
    for (int64_t k = cb + g; k < ce; k += G) atomic_add(&x[t.rowind[k]], arith::neg_mul(t.csc_values[k], xi));
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
template <LevelKernel K, int G, class T>
auto level_kernel() {
  if constexpr (K == LevelKernel::levr)
    return levr_kernel<G, T>;
  else
    return levc_kernel<G, T>;
}

template <LevelKernel K, class T>
void launch_level(const BasicDeviceTriangle<T>& t, int32_t l1, int32_t l2, int32_t group, T* x, cudaStream_t stream,
                  bool programmatic) {
  if (l2 <= l1) return;
  const unsigned blocks = blocks_for(static_cast<int64_t>(l2 - l1) * group, kLevelBlock);
#define GPUGLU_LEVEL(G) \
  launch_maybe_programmatic(level_kernel<K, G, T>(), blocks, kLevelBlock, programmatic, stream, t, l1, l2, x)
  GPUGLU_TRSV_DISPATCH_GROUP(group, GPUGLU_LEVEL)
#undef GPUGLU_LEVEL
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <class T>
void launch_levr(const BasicDeviceTriangle<T>& t, int32_t l1, int32_t l2, int32_t group, T* x, cudaStream_t stream,
                 bool programmatic) {
  launch_level<LevelKernel::levr>(t, l1, l2, group, x, stream, programmatic);
}

int32_t levr_run_capacity(int32_t group) { return kRunBlock / std::max<int32_t>(1, std::min<int32_t>(group, 32)); }

template <class T>
void launch_levr_run(const BasicDeviceTriangle<T>& t, const int32_t* level_ptr, int32_t lev_begin, int32_t lev_end,
                     int32_t group, T* x, cudaStream_t stream, bool programmatic) {
  if (lev_end <= lev_begin) return;
#define GPUGLU_LEVR_RUN(G) \
  launch_maybe_programmatic(levr_run_kernel<G, T>, 1u, kRunBlock, programmatic, stream, t, level_ptr, lev_begin, \
                            lev_end, x)
  GPUGLU_TRSV_DISPATCH_GROUP(group, GPUGLU_LEVR_RUN)
#undef GPUGLU_LEVR_RUN
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_levc(const BasicDeviceTriangle<T>& t, int32_t l1, int32_t l2, int32_t group, T* x, cudaStream_t stream,
                 bool programmatic) {
  launch_level<LevelKernel::levc>(t, l1, l2, group, x, stream, programmatic);
}

template <class T>
void launch_slfr(const BasicDeviceTriangle<T>& t, const int32_t* tasks, int32_t num_tasks, int32_t group, const T* b,
                 T* x, uint32_t* ticket, cudaStream_t stream) {
  if (num_tasks <= 0) return;
  const unsigned blocks = blocks_for(num_tasks, kSelfScheduledBlock / 32);
#define GPUGLU_SLFR(G) \
  slfr_kernel<G, T><<<blocks, kSelfScheduledBlock, 0, stream>>>(t, tasks, num_tasks, b, x, ticket)
  GPUGLU_TRSV_DISPATCH_GROUP(group, GPUGLU_SLFR)
#undef GPUGLU_SLFR
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_slfc(const BasicDeviceTriangle<T>& t, const int32_t* tasks, int32_t num_tasks, int32_t group, T* x,
                 int32_t* counters, uint32_t* ticket, cudaStream_t stream) {
  if (num_tasks <= 0) return;
  const unsigned blocks = blocks_for(num_tasks, kSelfScheduledBlock / 32);
#define GPUGLU_SLFC(G) \
  slfc_kernel<G, T><<<blocks, kSelfScheduledBlock, 0, stream>>>(t, tasks, num_tasks, x, counters, ticket)
  GPUGLU_TRSV_DISPATCH_GROUP(group, GPUGLU_SLFC)
#undef GPUGLU_SLFC
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

// The two scalars of the seam (device_scalar.hpp).
#define GPUGLU_TRSV_INSTANTIATE(T)                                                                                     \
  template void launch_levr<T>(const BasicDeviceTriangle<T>&, int32_t, int32_t, int32_t, T*, cudaStream_t, bool);      \
  template void launch_levr_run<T>(const BasicDeviceTriangle<T>&, const int32_t*, int32_t, int32_t, int32_t, T*,       \
                                   cudaStream_t, bool);                                                                \
  template void launch_levc<T>(const BasicDeviceTriangle<T>&, int32_t, int32_t, int32_t, T*, cudaStream_t, bool);      \
  template void launch_slfr<T>(const BasicDeviceTriangle<T>&, const int32_t*, int32_t, int32_t, const T*, T*,          \
                               uint32_t*, cudaStream_t);                                                               \
  template void launch_slfc<T>(const BasicDeviceTriangle<T>&, const int32_t*, int32_t, int32_t, T*, int32_t*,          \
                               uint32_t*, cudaStream_t);
GPUGLU_TRSV_INSTANTIATE(double)
GPUGLU_TRSV_INSTANTIATE(DComplex)
#undef GPUGLU_TRSV_INSTANTIATE

}  // namespace gpuglu::cuda::trsv_kernels
