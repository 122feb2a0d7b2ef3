// The supernodal triangular solves' kernels (panel_solve_kernels.cuh): per supernode of a
// level, a block that
//   forward  (L, U^T): solves its diagonal block on its own entries y = x[first .. first+ns),
//            then subtracts its product with y from the rows below it: a thread per row a
//            (walking the panel's column-major columns, so a warp's loads are consecutive),
//            atomically, since a level's supernodes share ancestors' rows;
//   backward (U, L^T): subtracts the product of the rows below with its panel from y (a warp
//            per column k, its lanes over the rows a, a warp reduction), then solves its
//            diagonal block.
// The dense triangular solves go column by column (right-looking) with one barrier per
// column: a step reads only the entry made final by the step before and writes only entries
// no other thread reads in that step. Diagonal blocks of at most kWarpTriangleCols columns are
// solved by the block's first warp alone (warp barriers instead of block barriers).
#include "cuda/common/cuda_check.hpp"
#include "cuda/supernodal/panel_solve_kernels.cuh"

namespace gpuglu::cuda::kernels {

namespace {

constexpr int32_t kWarpTriangleCols = 64;

struct SolvePanel {
  int32_t first;         // its first column
  int32_t ns;            // columns
  int64_t nr;            // rows (the L panel's leading dimension)
  int64_t nb;            // rows below its columns (the U^T panel's leading dimension)
  const int32_t* below;  // those rows
  const double* l;       // L panel: nr x ns
  const double* u;       // U^T panel: nb x ns
};

__device__ __forceinline__ SolvePanel solve_panel_of(const PanelSolveArgs& a, int32_t s) {
  SolvePanel p;
  p.first = a.first[s];
  p.ns = a.first[s + 1] - p.first;
  const int64_t rb = a.rows_ptr[s];
  p.nr = a.rows_ptr[s + 1] - rb;
  p.nb = p.nr - p.ns;
  p.below = a.rows + rb + p.ns;
  p.l = a.panels + a.l_ptr[s];
  p.u = a.panels + a.u_ptr[s];
  return p;
}

struct BlockSync {
  __device__ __forceinline__ void operator()() const { __syncthreads(); }
};
struct WarpSync {
  __device__ __forceinline__ void operator()() const { __syncwarp(); }
};

// The four dense triangular solves on y (ns entries) with the diagonal block d (leading
// dimension nr), by threads tid = 0 .. nt - 1; every thread of the group calls sync() as
// often as every other. d(i, k) = d[i + k * nr]: L's strict lower triangle (unit diagonal)
// and U's upper triangle with the pivots.

// L y = y: y_i -= L(i, k) y_k for i > k; y_k is final at step k.
template <class Sync>
__device__ void lower_unit_block(double* y, const double* d, int64_t nr, int32_t ns, int tid, int nt, Sync sync) {
  for (int32_t k = 0; k + 1 < ns; ++k) {
    const double yk = y[k];
    const double* col = d + k * nr;
    for (int32_t i = k + 1 + tid; i < ns; i += nt) y[i] -= col[i] * yk;
    sync();
  }
}

// U y = y: y_k is divided by its pivot in the step that completes it (step k + 1; the last
// entry before the loop), then y_i -= U(i, k) y_k for i < k.
template <class Sync>
__device__ void upper_block(double* y, const double* d, int64_t nr, int32_t ns, int tid, int nt, Sync sync) {
  if (tid == 0) y[ns - 1] /= d[(ns - 1) + (ns - 1) * nr];
  sync();
  for (int32_t k = ns - 1; k > 0; --k) {
    const double yk = y[k];
    const double* col = d + k * nr;
    for (int32_t i = tid; i < k; i += nt) {
      double v = y[i] - col[i] * yk;
      if (i == k - 1) v /= d[i + i * nr];
      y[i] = v;
    }
    sync();
  }
}

// U^T y = y: U^T(k, i) = U(i, k) = d(i, k); y_i final at step i, y_k -= U(i, k) y_i for k > i,
// the pivot's division in the step that completes y_k (the first entry's before the loop).
template <class Sync>
__device__ void upper_transpose_block(double* y, const double* d, int64_t nr, int32_t ns, int tid, int nt,
                                      Sync sync) {
  if (tid == 0) y[0] /= d[0];
  sync();
  for (int32_t i = 0; i + 1 < ns; ++i) {
    const double yi = y[i];
    for (int32_t k = i + 1 + tid; k < ns; k += nt) {
      double v = y[k] - d[i + k * nr] * yi;
      if (k == i + 1) v /= d[k + k * nr];
      y[k] = v;
    }
    sync();
  }
}

// L^T y = y: L^T(k, i) = L(i, k) = d(i, k) for i > k; y_i final at step i (descending).
template <class Sync>
__device__ void lower_transpose_block(double* y, const double* d, int64_t nr, int32_t ns, int tid, int nt,
                                      Sync sync) {
  for (int32_t i = ns - 1; i > 0; --i) {
    const double yi = y[i];
    for (int32_t k = tid; k < i; k += nt) y[k] -= d[i + k * nr] * yi;
    sync();
  }
}

template <PanelSweep S, class Sync>
__device__ __forceinline__ void diagonal_block(double* y, const SolvePanel& p, int tid, int nt, Sync sync) {
  if constexpr (S == PanelSweep::lower)
    lower_unit_block(y, p.l, p.nr, p.ns, tid, nt, sync);
  else if constexpr (S == PanelSweep::upper)
    upper_block(y, p.l, p.nr, p.ns, tid, nt, sync);
  else if constexpr (S == PanelSweep::upper_transpose)
    upper_transpose_block(y, p.l, p.nr, p.ns, tid, nt, sync);
  else
    lower_transpose_block(y, p.l, p.nr, p.ns, tid, nt, sync);
}

// The diagonal block's solve by the first warp (narrow blocks) or by the whole block; all of
// y is final and visible to the block afterwards.
template <PanelSweep S>
__device__ __forceinline__ void solve_diagonal_block(double* y, const SolvePanel& p) {
  if (p.ns <= kWarpTriangleCols) {
    if (threadIdx.x < 32) diagonal_block<S>(y, p, static_cast<int>(threadIdx.x), 32, WarpSync{});
  } else {
    diagonal_block<S>(y, p, static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x), BlockSync{});
  }
  __syncthreads();
}

// x[below[a]] -= sum_k m(a, k) y_k for the nb x ns column-major m (leading dimension ld):
// a thread per row a; when the rows are fewer than the threads, groups of threads take every
// groups-th column and each adds its partial sum. No barrier inside.
__device__ __forceinline__ void subtract_below(const SolvePanel& p, const double* m, int64_t ld, const double* y,
                                               double* x) {
  const int64_t nb = p.nb;
  if (nb == 0) return;
  const int nt = static_cast<int>(blockDim.x);
  const int tid = static_cast<int>(threadIdx.x);
  const int64_t per_group = nb >= nt ? nt : ((nb + 31) / 32) * 32;
  const int groups = static_cast<int>(nt / per_group);
  const int g = static_cast<int>(tid / per_group);
  if (g >= groups || g >= p.ns) return;
  for (int64_t a = tid - g * per_group; a < nb; a += per_group) {
    double sum = 0.0;
    for (int32_t k = g; k < p.ns; k += groups) sum += m[a + k * ld] * y[k];
    atomicAdd(x + p.below[a], -sum);
  }
}

// y_k -= sum_a m(a, k) x[below[a]] for the nb x ns column-major m (leading dimension ld): a
// warp per column k, its lanes over a, a warp reduction. No barrier inside.
__device__ __forceinline__ void gather_below(const SolvePanel& p, const double* m, int64_t ld, double* y,
                                             const double* x) {
  if (p.nb == 0) return;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const int warp = static_cast<int>(threadIdx.x >> 5);
  const int warps = static_cast<int>(blockDim.x >> 5);
  for (int32_t k = warp; k < p.ns; k += warps) {  // uniform over the warp
    const double* col = m + k * ld;
    double sum = 0.0;
    for (int64_t a = lane; a < p.nb; a += 32) sum += col[a] * x[p.below[a]];
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0) y[k] -= sum;
  }
}

// One level of sweep S: block b solves supernode nodes[b]. Its y lives in shared memory when
// it has at most staged_cols columns, else in x itself (no other block of the level touches
// those entries).
template <PanelSweep S>
__global__ void __launch_bounds__(kPanelSolveMaxThreads)
    panel_solve_kernel(PanelSolveArgs a, const int32_t* __restrict__ nodes, int32_t staged_cols, double* x) {
  extern __shared__ double y_shared[];
  const SolvePanel p = solve_panel_of(a, nodes[blockIdx.x]);
  const int tid = static_cast<int>(threadIdx.x);
  const int nt = static_cast<int>(blockDim.x);
  const bool staged = p.ns <= staged_cols;
  double* y = staged ? y_shared : x + p.first;
  if (staged)
    for (int32_t i = tid; i < p.ns; i += nt) y[i] = x[p.first + i];
  __syncthreads();
  if constexpr (S == PanelSweep::lower || S == PanelSweep::upper_transpose) {
    solve_diagonal_block<S>(y, p);
    if constexpr (S == PanelSweep::lower)
      subtract_below(p, p.l + p.ns, p.nr, y, x);  // L21
    else
      subtract_below(p, p.u, p.nb, y, x);  // U12^T
  } else {
    if constexpr (S == PanelSweep::upper)
      gather_below(p, p.u, p.nb, y, x);  // U12^T: y -= U12 x(below)
    else
      gather_below(p, p.l + p.ns, p.nr, y, x);  // L21: y -= L21^T x(below)
    __syncthreads();
    solve_diagonal_block<S>(y, p);
  }
  // y is final (solve_diagonal_block ends with a barrier) and only read since.
  if (staged)
    for (int32_t i = tid; i < p.ns; i += nt) x[p.first + i] = y[i];
}

}  // namespace

void launch_panel_solve(PanelSweep sweep, const PanelSolveArgs& a, int64_t begin, int32_t count, int threads,
                        int32_t staged_cols, double* x, cudaStream_t stream) {
  if (count <= 0) return;
  const dim3 grid(static_cast<unsigned>(count));
  const size_t shared = static_cast<size_t>(staged_cols) * sizeof(double);
  const int32_t* nodes = a.level_nodes + begin;
  switch (sweep) {
    case PanelSweep::lower:
      panel_solve_kernel<PanelSweep::lower><<<grid, threads, shared, stream>>>(a, nodes, staged_cols, x);
      break;
    case PanelSweep::upper:
      panel_solve_kernel<PanelSweep::upper><<<grid, threads, shared, stream>>>(a, nodes, staged_cols, x);
      break;
    case PanelSweep::upper_transpose:
      panel_solve_kernel<PanelSweep::upper_transpose><<<grid, threads, shared, stream>>>(a, nodes, staged_cols, x);
      break;
    case PanelSweep::lower_transpose:
      panel_solve_kernel<PanelSweep::lower_transpose><<<grid, threads, shared, stream>>>(a, nodes, staged_cols, x);
      break;
  }
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::kernels
