// The level-by-level supernodal sweeps (panel_solve_kernels.cuh, launch_panel_solve): a launch
// per level of the supernodal tree, a thread block per supernode running its whole sweep
// (panel_solve_device.cuh). The self-scheduled sweeps are panel_sweep_kernels.cu.
#include <algorithm>

#include "core/bunch_kaufman.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/supernodal/panel_solve_device.cuh"
#include "cuda/supernodal/panel_solve_kernels.cuh"

namespace gpuglu::cuda::kernels {

namespace {

using panel_solve::Tile;

// Stages y (shared memory when at most staged_cols columns, else x itself: no other block
// touches those entries during the sweep), runs the sweep, copies a staged y back.
// A pivoted supernode's L sweeps read (L) or write back (L^T) its entries in its row order
// (panel_solve::reorder_x where unstaged).
template <PanelSweep S>
__device__ __forceinline__ void run_supernode(const PanelSolveArgs& a, int32_t s, const Panel& p, Tile& t,
                                              int32_t staged_cols, double* y_shared, double* x) {
  using W = panel_solve::Sweep<S>;
  const int tid = static_cast<int>(threadIdx.x);
  const int nt = static_cast<int>(blockDim.x);
  const bool staged = p.ns <= staged_cols;
  const bool reordered = panel_solve::reorders<S>(a, s);
  const int32_t* order = a.structure.row_order + p.first;
  double* y = staged ? y_shared : x + p.first;
  if (staged)
    for (int32_t i = tid; i < p.ns; i += nt) y[i] = __ldcg(x + p.first + (W::reorders_in && reordered ? order[i] : i));
  else if (W::reorders_in && reordered)
    panel_solve::reorder_x(a, p, false, x);
  __syncthreads();
  panel_solve::sweep_supernode<S>(p, y, t, x);
  // y is final (the diagonal block's solve ends with a barrier) and only read since.
  if (staged)
    for (int32_t i = tid; i < p.ns; i += nt) x[p.first + (W::reorders_out && reordered ? order[i] : i)] = y[i];
  else if (W::reorders_out && reordered)
    panel_solve::reorder_x(a, p, true, x);
}

// One level of sweep S: block b solves supernode nodes[b].
template <PanelSweep S>
__global__ void __launch_bounds__(kPanelSolveMaxThreads)
    panel_level_kernel(PanelSolveArgs a, const int32_t* __restrict__ nodes, int32_t staged_cols, double* x) {
  extern __shared__ double y_shared[];
  __shared__ Tile t;
  const int32_t s = nodes[blockIdx.x];
  const Panel p = panel_of(a.structure, s);
  if (threadIdx.x < 32)
    panel_solve::load_tile<S>(t, p, panel_solve::first_tile<S>(p), static_cast<int>(threadIdx.x));
  run_supernode<S>(a, s, p, t, staged_cols, y_shared, x);
}

template <PanelSweep S>
void launch_level(const PanelSolveArgs& a, const int32_t* nodes, int32_t count, int threads, int32_t staged_cols,
                  double* x, cudaStream_t stream) {
  const size_t shared = static_cast<size_t>(staged_cols) * sizeof(double);
  panel_level_kernel<S><<<static_cast<unsigned>(count), threads, shared, stream>>>(a, nodes, staged_cols, x);
}

constexpr int kDSolveThreads = 256;

__global__ void __launch_bounds__(kDSolveThreads) panel_d_solve_kernel(PanelSolveArgs a, PanelSolveD d, int32_t n,
                                                                      double* x) {
  const SupernodeArgs& sn = a.structure;
  for (int32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) {
    const int8_t kind = d.kind[j];
    if (kind == kPivotSecondOfTwo) continue;  // its pair's first column solves both
    const int32_t s = sn.of_col[j];
    const int64_t k = j - sn.first[s];
    const int64_t nr = sn.rows_ptr[s + 1] - sn.rows_ptr[s];
    const double* l = sn.panels + sn.l_ptr[s];
    if (kind == kPivotOne) {
      x[j] /= l[k + k * nr];
    } else {
      double y1 = x[j], y2 = x[j + 1];
      solve_two_by_two(l[k + k * nr], d.off[j], l[(k + 1) + (k + 1) * nr], y1, y2);
      x[j] = y1;
      x[j + 1] = y2;
    }
  }
}

}  // namespace

void launch_panel_d_solve(const PanelSolveArgs& a, const PanelSolveD& d, int32_t n, double* x, cudaStream_t stream) {
  if (n <= 0) return;
  const int blocks = static_cast<int>(std::min<int64_t>((n + kDSolveThreads - 1) / kDSolveThreads, 4096));
  panel_d_solve_kernel<<<blocks, kDSolveThreads, 0, stream>>>(a, d, n, x);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_panel_solve(PanelSweep sweep, const PanelSolveArgs& a, int64_t begin, int32_t count, int threads,
                        int32_t staged_cols, double* x, cudaStream_t stream) {
  if (count <= 0) return;
  panel_solve::dispatch(sweep, [&](auto s) { launch_level<decltype(s)::value>(a, a.level_nodes + begin, count, threads,
                                                                   staged_cols, x, stream); });
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::kernels
