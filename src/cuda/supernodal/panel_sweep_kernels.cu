// The self-scheduled supernodal sweeps (panel_solve_kernels.cuh, launch_panel_sweep): one
// launch per sweep, a thread block per group of tasks, a task being one 32-column tile of a
// supernode's diagonal block (a supernode of ns columns has ceil(ns / 32) of them). A group is
// one task for the whole block, or up to one task per warp where the supernodes are small
// (at most kPanelSolveSmallCols columns and kPanelSolveSmallRows rows below, of one level):
// the leaves of a circuit's tree are tens of thousands of those, and a block each paid its
// fixed chain of latencies once per leaf. Task (s, q) of a block:
//   waits until every supernode s depends on is done (pending[s] == 0);
//   backward sweeps: y_q -= (the product of its columns of the rows-below panel with x there);
//   y_q -= M(q, j) y_j for the tiles j of s solved before q, each as soon as done[s] shows it
//          final (a wide supernode's tiles work at once, each its own strip of the diagonal
//          block, instead of one block walking the whole triangle);
//   solves its 32 x 32 triangle (warp 0, panel_solve_device.cuh), writes y_q to x, bumps done[s];
//   forward sweeps: x(rows below) -= (its columns of the rows-below panel) y_q, atomically;
//   then releases its dependents: pending[t] -= 1 for each t it signals.
// pending[t] therefore starts at the number of tiles t waits on: the tiles of its sources
// (forward) or of its targets (backward).
//
// A small task, by one warp: the same steps on one tile with the warp's lanes and shuffles
// only (run_small_task).
//
// Deadlock freedom (as the trsv module's SLFR/SLFC): a block does not take its group by
// blockIdx; its first thread takes a ticket from a global counter once the block is running,
// and ticket i is the i-th group in level order, tiles ascending (reversed for the backward
// sweeps; a group's tasks are of one level, independent). A task waits only on tasks of
// groups with smaller tickets, held by blocks already running or finished; by induction the
// smallest unfinished ticket waits on nothing unfinished, so it finishes, whatever the number
// of resident blocks.
//
// Memory ordering: a task's warp 0 writes y_q into x, synchronizes, and its lane 0 bumps done[s]
// with a release reduction (the later tiles of s read only y_q); then the task's atomics into
// the rows below (forward sweeps), each thread fences, the block synchronizes, and its threads
// decrement the pending counters. A waiter spins on a counter with acquire loads and fences; its block (or warp)
// synchronizes and reads what other blocks wrote from L2 (__ldcg).
#include <algorithm>

#include "cuda/common/cuda_check.hpp"
#include "cuda/common/spin_wait.cuh"
#include "cuda/supernodal/panel_solve_device.cuh"
#include "cuda/supernodal/panel_solve_kernels.cuh"

namespace gpuglu::cuda::kernels {

namespace {

using panel_solve::kTile;
using panel_solve::Sweep;
using panel_solve::Tile;
using SmallTile = panel_solve::TileOf<kPanelSolveSmallCols>;

constexpr int kMaxWarps = kPanelSolveMaxThreads / 32;

// Spins until ready(*p) (common/spin_wait.cuh); what the poller saw released is then visible
// to the threads it synchronizes with next.
template <class Ready>
__device__ __forceinline__ void wait_until(const int32_t* p, Ready ready) {
  spin_until(p, ready);
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

// Thread (lane r, warp g) of the block: its share of sum_a m(a, jb + r) x[below[a]] over a
// contiguous range of the rows below, warp g's (lanes stride the columns; a thread's loads are
// consecutive, so the lines it touches are reused from L1).
__device__ __forceinline__ double gather_below_share(const Panel& p, const double* m, int64_t ld, int32_t jb,
                                                     int32_t w, const double* x) {
  const int r = static_cast<int>(threadIdx.x & 31u);
  const int g = static_cast<int>(threadIdx.x >> 5);
  const int warps = static_cast<int>(blockDim.x >> 5);
  const int64_t chunk = (p.nu + warps - 1) / warps;
  const int64_t lo = g * chunk;
  const int64_t hi = min(p.nu, lo + chunk);
  if (r >= w) return 0.0;
  const double* col = m + (jb + r) * ld;
  double sum = 0.0;
#pragma unroll 8  // the loads in flight together: the loop is latency-bound
  for (int64_t a = lo; a < hi; ++a) sum += col[a] * __ldcg(x + p.below[a]);
  return sum;
}

// Thread (lane r, warp g)'s share of sum_k M(jb + r, jc + k) y_k over an earlier tile jc of the
// same supernode (wc columns, y = x[first + jc ..] final once done[s] shows it), warp g taking a
// contiguous range of k. load() reads the first kAhead coefficients, which do not depend on x,
// before the wait (blocks of 8 or more warps hold all of theirs); add() takes y.
constexpr int kAhead = 4;
template <PanelSweep S>
struct TileProduct {
  double m[kAhead];
  int lo, hi;
  __device__ __forceinline__ void load(const Panel& p, int32_t jb, int32_t w, int32_t jc, int32_t wc) {
    const int r = static_cast<int>(threadIdx.x & 31u);
    const int warps = static_cast<int>(blockDim.x >> 5);
    const int chunk = (wc + warps - 1) / warps;
    lo = static_cast<int>(threadIdx.x >> 5) * chunk;
    hi = r < w ? min(wc, lo + chunk) : lo;  // rows past the tile take nothing
#pragma unroll
    for (int u = 0; u < kAhead; ++u) m[u] = lo + u < hi ? Sweep<S>::m(p.l, p.nr, jb + r, jc + lo + u) : 0.0;
  }
  __device__ __forceinline__ double add(const Panel& p, int32_t jb, int32_t jc, const double* x) const {
    const int r = static_cast<int>(threadIdx.x & 31u);
    double sum = 0.0;
#pragma unroll
    for (int u = 0; u < kAhead; ++u)
      if (lo + u < hi) sum += m[u] * __ldcg(x + p.first + jc + lo + u);
    for (int k = lo + kAhead; k < hi; ++k)
      sum += Sweep<S>::m(p.l, p.nr, jb + r, jc + k) * __ldcg(x + p.first + jc + k);
    return sum;
  }
};

// Supernode s (one tile of ns <= kPanelSolveSmallCols columns, nb <= kPanelSolveSmallRows rows
// below) by the calling warp: lane r holds y_r, lanes a and a + 32 the rows below.
template <PanelSweep S>
__device__ void run_small_task(const PanelSolveArgs& a, const PanelSweepSync& sync, int32_t s, SmallTile& tile,
                               double* x) {
  using W = Sweep<S>;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const Panel p = panel_of(a.structure, s);
  const int32_t nb = static_cast<int32_t>(p.nu);
  const double* mb = W::below(p);
  const int64_t ld = W::below_ld(p);
  panel_solve::load_tile<S>(tile, p, 0, lane);
  const int32_t row0 = lane < nb ? p.below[lane] : 0;
  const int32_t row1 = lane + 32 < nb ? p.below[lane + 32] : 0;
  // A pivoted supernode's L sweeps read (L) or write (L^T) its entries in its row order.
  const bool reordered = panel_solve::reorders<S>(a, s);
  const int32_t slot = reordered && lane < p.ns ? a.structure.row_order[p.first + lane] : lane;
  if (lane == 0) wait_until(sync.pending + s, [](int32_t v) { return v == 0; });
  __syncwarp();
  double y = lane < p.ns ? __ldcg(x + p.first + (W::reorders_in ? slot : lane)) : 0.0;
  if constexpr (!W::forward) {
    // y_r -= sum_a m(a, r) x[below[a]]: x's entries loaded by their lanes, broadcast by shuffles.
    const double x0 = lane < nb ? __ldcg(x + row0) : 0.0;
    const double x1 = lane + 32 < nb ? __ldcg(x + row1) : 0.0;
    double sum = 0.0;
    for (int32_t b = 0; b < nb; ++b) {  // uniform over the warp
      const double xb = __shfl_sync(0xffffffffu, b < 32 ? x0 : x1, b & 31);
      if (lane < p.ns) sum += mb[b + lane * ld] * xb;
    }
    y -= sum;
  }
  y = panel_solve::solve_tile<S>(tile, y, p.ns, lane);
  // Every lane loaded its entry before the solve's shuffles: the writes cannot overtake a read.
  if (lane < p.ns) x[p.first + (W::reorders_out ? slot : lane)] = y;
  if constexpr (W::forward) {
    // x[below[a]] -= sum_k m(a, k) y_k, a = lane and lane + 32.
    double sum0 = 0.0, sum1 = 0.0;
    for (int32_t k = 0; k < p.ns; ++k) {  // uniform over the warp
      const double yk = __shfl_sync(0xffffffffu, y, k);
      if (lane < nb) sum0 += mb[lane + k * ld] * yk;
      if (lane + 32 < nb) sum1 += mb[lane + 32 + k * ld] * yk;
    }
    if (lane < nb) atomicAdd(x + row0, -sum0);
    if (lane + 32 < nb) atomicAdd(x + row1, -sum1);
  }
  __threadfence();
  __syncwarp();
  for (int64_t j = sync.signal_ptr[s] + lane; j < sync.signal_ptr[s + 1]; j += 32)
    atomicSub(sync.pending + sync.signal[j], 1);
}

template <PanelSweep S>
__global__ void __launch_bounds__(kPanelSolveMaxThreads)
    panel_sweep_kernel(PanelSolveArgs a, PanelSweepSync sync, double* x) {
  using W = Sweep<S>;
  // A block's whole-block tile or its warps' small tiles (sized at launch).
  extern __shared__ double tile_memory[];
  Tile& tile = *reinterpret_cast<Tile*>(tile_memory);
  __shared__ double partial[kMaxWarps][kTile];
  __shared__ double yq[kTile];
  __shared__ int32_t ticket;
  if (threadIdx.x == 0) ticket = atomicAdd(sync.ticket, 1);
  __syncthreads();
  const int32_t group = W::forward ? ticket : sync.num_groups - 1 - ticket;
  const int32_t begin = sync.group_ptr[group];
  const int32_t size = sync.group_ptr[group + 1] - begin;
  if (sync.group_by_warps[group]) {  // uniform over the block
    const int32_t i = static_cast<int32_t>(threadIdx.x >> 5);
    if (i < size)
      run_small_task<S>(a, sync, sync.tasks[begin + i].x, reinterpret_cast<SmallTile*>(tile_memory)[i], x);
    return;
  }
  const int2 task = sync.tasks[begin];
  const int32_t s = task.x;
  const Panel p = panel_of(a.structure, s);
  const int32_t tiles = (p.ns + kTile - 1) / kTile;
  const int32_t q = task.y;
  const int32_t jb = q * kTile;
  const int32_t w = min(kTile, p.ns - jb);
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const int warp = static_cast<int>(threadIdx.x >> 5);
  // The triangle's coefficients do not depend on x: loaded while the block waits.
  if (warp == 0) panel_solve::load_tile<S>(tile, p, jb, lane);
  if (threadIdx.x == 0) wait_until(sync.pending + s, [](int32_t v) { return v == 0; });
  __syncthreads();

  // A pivoted supernode's L sweep: its first tile puts all its entries in its row order, which
  // the later tiles read only once that tile is done (their first wait below).
  const bool reordered = panel_solve::reorders<S>(a, s);
  const bool late_read = W::reorders_in && reordered && q > 0;
  if (W::reorders_in && reordered && q == 0) panel_solve::reorder_x(a, p, false, x);
  // y_q's entries are final now (forward: its descendants are done; backward: the forward sweep
  // wrote them), read ahead of the products.
  double xq = warp == 0 && lane < w && !late_read ? __ldcg(x + p.first + jb + lane) : 0.0;
  double acc = 0.0;
  if constexpr (!W::forward) acc = gather_below_share(p, W::below(p), W::below_ld(p), jb, w, x);
  // The tiles solved before q, in the order they finish: each warp waits for them itself.
  const int32_t before = W::ascending ? q : tiles - 1 - q;
  for (int32_t i = 0; i < before; ++i) {
    const int32_t jc = (W::ascending ? i : tiles - 1 - i) * kTile;
    TileProduct<S> product;
    product.load(p, jb, w, jc, min(kTile, p.ns - jc));
    // One poller per block: every block of a wide supernode's tiles waits on the same word,
    // and a poller per warp multiplied the traffic on it that the signal has to get through.
    if (threadIdx.x == 0) wait_until(sync.done + s, [i](int32_t v) { return v > i; });
    __syncthreads();
    acc += product.add(p, jb, jc, x);
  }
  if (late_read && warp == 0 && lane < w) xq = __ldcg(x + p.first + jb + lane);
  partial[warp][lane] = acc;
  __syncthreads();
  if (warp == 0) {
    double y = 0.0;
    if (lane < w) {
      double sum = 0.0;
      for (int g = 0; g < static_cast<int>(blockDim.x >> 5); ++g) sum += partial[g][lane];
      y = xq - sum;
    }
    y = panel_solve::solve_tile<S>(tile, y, w, lane);
    if (lane < w) {
      x[p.first + jb + lane] = y;
      yq[lane] = y;
    }
    // The next tiles of s need only y_q: released before the product with the rows below, by
    // one release (the warp's writes ordered before it by the barrier) rather than a
    // sequentially consistent fence by every lane.
    __syncwarp();
    if (lane == 0) add_release(sync.done + s, 1);
  }
  __syncthreads();
  // A pivoted supernode's L^T sweep: its last tile (q = 0), every other one done, writes all its
  // entries back in their rows' order before its dependents are released.
  if (W::reorders_out && reordered && q == 0) panel_solve::reorder_x(a, p, true, x);
  if constexpr (W::forward)
    panel_solve::subtract_below(p, W::below(p) + jb * W::below_ld(p), W::below_ld(p), w, yq, x);
  __threadfence();
  __syncthreads();
  for (int64_t j = sync.signal_ptr[s] + threadIdx.x; j < sync.signal_ptr[s + 1]; j += blockDim.x)
    atomicSub(sync.pending + sync.signal[j], 1);
}

template <PanelSweep S>
void launch(const PanelSolveArgs& a, const PanelSweepSync& sync, int threads, double* x, cudaStream_t stream) {
  const size_t shared = std::max(sizeof(Tile), static_cast<size_t>(threads / 32) * sizeof(SmallTile));
  panel_sweep_kernel<S><<<static_cast<unsigned>(sync.num_groups), threads, shared, stream>>>(a, sync, x);
}

}  // namespace

void launch_panel_sweep(PanelSweep sweep, const PanelSolveArgs& a, const PanelSweepSync& sync, int threads, double* x,
                        cudaStream_t stream) {
  if (sync.num_groups <= 0) return;
  panel_solve::dispatch(sweep, [&](auto s) { launch<decltype(s)::value>(a, sync, threads, x, stream); });
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::kernels
