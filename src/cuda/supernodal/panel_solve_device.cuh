#pragma once
// Device pieces of the supernodal triangular solves (panel_solve_kernels.cu, a block per
// supernode; panel_sweep_kernels.cu, a block or a warp per tile): the dense solves with a
// supernode's diagonal block and the products with its rows below, on y = its part of x.
//
// The diagonal block goes in tiles of 32 columns. One warp solves a tile's triangle with y in
// its lanes (lane i holds y_i, a shuffle broadcasts each finished entry) and the triangle's
// entries staged in shared memory beforehand, all loads of a lane issued together: a step is a
// shared load, a shuffle and an FMA. Column by column with the entries read at each step, every
// column paid a memory round trip (the measured cost per level: docs/performance_history.md, supernodal sixth
// step); in registers, the tile made every thread of every block
// hold 64 of them (128 registers). A block walking a whole diagonal block subtracts each
// tile's product from its later rows of y, one row per thread, between barriers.
#include <cstdint>
#include <type_traits>

#include "cuda/supernodal/panel_device.cuh"
#include "cuda/supernodal/panel_solve_kernels.cuh"

namespace gpuglu::cuda::kernels::panel_solve {

using kernels::Panel;  // panel_device.cuh: a supernode's panels (only read here)

constexpr int kTile = kPanelSolveTile;

// What each sweep solves with the diagonal block d (d(i, k) = d[i + k nr]: U's upper triangle
// with the pivots, L's strict lower one):
//   lower            L y = y    tiles ascending,  y_i -= L(i, k) y_k   (k < i), unit diagonal
//   upper            U y = y    tiles descending, y_i -= U(i, k) y_k   (k > i), / U(i, i)
//   upper_transpose  U^T y = y  tiles ascending,  y_i -= U(k, i) y_k   (k < i), / U(i, i)
//   lower_transpose  L^T y = y  tiles descending, y_i -= L(k, i) y_k   (k > i), unit diagonal
// i.e. y_i -= m(i, k) y_k with m(i, k) = d(i, k), or d(k, i) for the transposed sweeps.
template <PanelSweep S>
struct Sweep {
  static constexpr bool ascending = S == PanelSweep::lower || S == PanelSweep::upper_transpose;
  static constexpr bool transposed = S == PanelSweep::upper_transpose || S == PanelSweep::lower_transpose;
  static constexpr bool unit = S == PanelSweep::lower || S == PanelSweep::lower_transpose;
  static constexpr bool forward = ascending;  // forward sweeps subtract from the rows below
  __device__ static __forceinline__ double m(const double* d, int64_t nr, int64_t i, int64_t k) {
    return transposed ? d[k + i * nr] : d[i + k * nr];
  }
  // The panel of the rows below that the sweep multiplies (nb x ns, column-major): L21 for L
  // and L^T, U12^T for U and U^T; and its leading dimension.
  __device__ static __forceinline__ const double* below(const Panel& p) {
    return unit ? p.l + p.ns : p.u;
  }
  __device__ static __forceinline__ int64_t below_ld(const Panel& p) { return unit ? p.nr : p.nu; }
  // Whether entry k of a tile is solved before entry i.
  __device__ static __forceinline__ bool before(int k, int i) { return ascending ? k < i : k > i; }
  // The L sweeps follow a pivoted supernode's row order (core/supernode_pivoting.hpp): L reads
  // its entries of x in that order before solving, L^T writes them back after.
  static constexpr bool reorders_in = S == PanelSweep::lower;
  static constexpr bool reorders_out = S == PanelSweep::lower_transpose;
};

// Whether sweep S reorders supernode s's entries of x.
template <PanelSweep S>
__device__ __forceinline__ bool reorders(const PanelSolveArgs& a, int32_t s) {
  return (Sweep<S>::reorders_in || Sweep<S>::reorders_out) && pivots_rows(a.structure, s);
}

// x's entries first .. first + ns put in the row order of the supernode starting there (inverse:
// back), through stage, by the whole block: x[first + i] = x[first + order[i]] before (inverse:
// x[first + order[i]] = x[first + i] before). Reads from L2 (other blocks wrote x); the writes
// fenced and visible to the block on return.
__device__ __forceinline__ void reorder_x(const PanelSolveArgs& a, const Panel& p, bool inverse, double* x) {
  const int32_t* order = a.structure.row_order + p.first;
  double* stage = a.stage + p.first;
  double* y = x + p.first;
  const int tid = static_cast<int>(threadIdx.x);
  const int nt = static_cast<int>(blockDim.x);
  for (int32_t i = tid; i < p.ns; i += nt) {
    if (inverse)
      stage[order[i]] = __ldcg(y + i);
    else
      stage[i] = __ldcg(y + order[i]);
  }
  __syncthreads();
  for (int32_t i = tid; i < p.ns; i += nt) y[i] = stage[i];
  __threadfence();
  __syncthreads();
}

// One tile's triangle (N columns) in shared memory as the lanes need it: c[k][lane] =
// m(jb + lane, jb + k) where k comes before lane (0 elsewhere), and the pivots' reciprocals
// (a division on every step's dependency chain cost more than the triangle's other work; the
// product differs from the quotient by at most one rounding). Each lane writes and reads only
// its own entries (no synchronization), and a step's N reads are consecutive words.
template <int N>
struct TileOf {
  double c[N][N];
  double inv_pivot[N];
};
using Tile = TileOf<kTile>;

// Lanes 0 .. N - 1 load their rows (the others hold nothing).
template <PanelSweep S, int N>
__device__ __forceinline__ void load_tile(TileOf<N>& t, const Panel& p, int32_t jb, int lane) {
  using W = Sweep<S>;
  if (lane >= N) return;
  const int32_t w = min(N, p.ns - jb);
#pragma unroll 8
  for (int k = 0; k < N; ++k)
    t.c[k][lane] = (k < w && lane < w && W::before(k, lane)) ? W::m(p.l, p.nr, jb + lane, jb + k) : 0.0;
  if constexpr (!W::unit) t.inv_pivot[lane] = lane < w ? 1.0 / p.l[(jb + lane) * (p.nr + 1)] : 1.0;
}

// y of lane's entry solved with tile t (w <= N entries); every lane of the warp calls it.
template <PanelSweep S, int N>
__device__ __forceinline__ double solve_tile(const TileOf<N>& t, double y, int32_t w, int lane) {
  using W = Sweep<S>;
  double inv_pivot = 1.0;
  if constexpr (!W::unit)
    if (lane < N) inv_pivot = t.inv_pivot[lane];
#pragma unroll
  for (int s = 0; s < N; ++s) {
    const int k = W::ascending ? s : N - 1 - s;
    if (k < w) {  // uniform over the warp
      if constexpr (!W::unit)
        if (lane == k) y *= inv_pivot;
      const double yk = __shfl_sync(0xffffffffu, y, k);
      if (lane < N && W::before(k, lane)) y -= t.c[k][lane] * yk;  // predicated: 0 * Inf would be NaN
    }
  }
  return y;
}

// The tile at jb solved: y_i -= sum_k m(i, jb + k) y_{jb + k} for the rows i of the diagonal
// block still to come, a thread each. No barrier inside.
template <PanelSweep S>
__device__ __forceinline__ void update_after_tile(double* y, const Panel& p, int32_t jb) {
  using W = Sweep<S>;
  const int32_t w = min(kTile, p.ns - jb);
  const int32_t lo = W::ascending ? jb + w : 0;
  const int32_t hi = W::ascending ? p.ns : jb;
  for (int32_t i = lo + static_cast<int32_t>(threadIdx.x); i < hi; i += static_cast<int32_t>(blockDim.x)) {
    double sum = 0.0;
#pragma unroll 8
    for (int32_t k = 0; k < w; ++k) sum += W::m(p.l, p.nr, i, jb + k) * y[jb + k];
    y[i] -= sum;
  }
}

// The tile solved first (its coefficients may be loaded ahead of the wait for x).
template <PanelSweep S>
__device__ __forceinline__ int32_t first_tile(const Panel& p) {
  return Sweep<S>::ascending ? 0 : (p.ns - 1) / kTile * kTile;
}

// The diagonal block's solve; t holds the first tile (load_tile by warp 0).
// Called by the whole block; y is final and visible to the block afterwards.
template <PanelSweep S>
__device__ void solve_diagonal_block(double* y, const Panel& p, Tile& t) {
  using W = Sweep<S>;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const bool warp0 = threadIdx.x < 32;
  for (int32_t jb = first_tile<S>(p);; jb += W::ascending ? kTile : -kTile) {
    const int32_t w = min(kTile, p.ns - jb);
    if (warp0) {
      if (jb != first_tile<S>(p)) load_tile<S>(t, p, jb, lane);
      double v = lane < w ? y[jb + lane] : 0.0;
      v = solve_tile<S>(t, v, w, lane);
      if (lane < w) y[jb + lane] = v;
    }
    __syncthreads();
    const bool last = W::ascending ? jb + kTile >= p.ns : jb == 0;
    if (last) break;
    update_after_tile<S>(y, p, jb);
    __syncthreads();
  }
}

// Forward sweeps: x[below[a]] -= sum_k m(a, k) y_k for the nb x cols column-major m (leading
// dimension ld), atomically (other supernodes share ancestors' rows): a thread per row a;
// when the rows are fewer than the threads, groups of threads take every groups-th column and
// each adds its partial sum. No barrier inside.
__device__ __forceinline__ void subtract_below(const Panel& p, const double* m, int64_t ld, int32_t cols,
                                               const double* y, double* x) {
  const int64_t nb = p.nu;
  if (nb == 0) return;
  const int nt = static_cast<int>(blockDim.x);
  const int tid = static_cast<int>(threadIdx.x);
  const int64_t per_group = nb >= nt ? nt : ((nb + 31) / 32) * 32;
  const int groups = static_cast<int>(nt / per_group);
  const int g = static_cast<int>(tid / per_group);
  if (g >= groups || g >= cols) return;
  for (int64_t a = tid - g * per_group; a < nb; a += per_group) {
    double sum = 0.0;
#pragma unroll 8  // the loads in flight together: the loop is latency-bound
    for (int32_t k = g; k < cols; k += groups) sum += m[a + k * ld] * y[k];
    atomicAdd(x + p.below[a], -sum);
  }
}

// Backward sweeps: y_k -= sum_a m(a, k) x[below[a]] for the nb x ns column-major m (leading
// dimension ld): a warp per column k, its lanes over a, a warp reduction. x is read from L2
// (__ldcg): in the self-scheduled sweep other blocks wrote it during this launch. No barrier
// inside.
__device__ __forceinline__ void gather_below(const Panel& p, const double* m, int64_t ld, double* y,
                                             const double* x) {
  if (p.nu == 0) return;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const int warp = static_cast<int>(threadIdx.x >> 5);
  const int warps = static_cast<int>(blockDim.x >> 5);
  for (int32_t k = warp; k < p.ns; k += warps) {  // uniform over the warp
    const double* col = m + k * ld;
    double sum = 0.0;
#pragma unroll 4
    for (int64_t a = lane; a < p.nu; a += 32) sum += col[a] * __ldcg(x + p.below[a]);
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0) y[k] -= sum;
  }
}

// Supernode p's whole sweep S on x with y its ns entries (shared memory, or x + p.first); y
// holds x's values on entry (read from L2); the first tile loaded into warp 0's t. Ends with
// y final; the caller copies a staged y back.
template <PanelSweep S>
__device__ __forceinline__ void sweep_supernode(const Panel& p, double* y, Tile& t, double* x) {
  using W = Sweep<S>;
  if constexpr (W::forward) {
    solve_diagonal_block<S>(y, p, t);
    subtract_below(p, W::below(p), W::below_ld(p), p.ns, y, x);
  } else {
    gather_below(p, W::below(p), W::below_ld(p), y, x);
    __syncthreads();
    solve_diagonal_block<S>(y, p, t);
  }
}

// F(sweep) with the sweep as a template argument.
template <class F>
void dispatch(PanelSweep sweep, F&& f) {
  switch (sweep) {
    case PanelSweep::lower:
      f(std::integral_constant<PanelSweep, PanelSweep::lower>{});
      break;
    case PanelSweep::upper:
      f(std::integral_constant<PanelSweep, PanelSweep::upper>{});
      break;
    case PanelSweep::upper_transpose:
      f(std::integral_constant<PanelSweep, PanelSweep::upper_transpose>{});
      break;
    case PanelSweep::lower_transpose:
      f(std::integral_constant<PanelSweep, PanelSweep::lower_transpose>{});
      break;
  }
}

}  // namespace gpuglu::cuda::kernels::panel_solve
