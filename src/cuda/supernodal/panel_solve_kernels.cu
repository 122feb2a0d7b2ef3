// The level-by-level supernodal sweeps (panel_solve_kernels.cuh, launch_panel_solve): a launch
// per level of the supernodal tree, a thread block per supernode running its whole sweep
// (panel_solve_device.cuh). The self-scheduled sweeps are panel_sweep_kernels.cu.
#include "cuda/common/cuda_check.hpp"
#include "cuda/supernodal/panel_solve_device.cuh"
#include "cuda/supernodal/panel_solve_kernels.cuh"

namespace gpuglu::cuda::kernels {

namespace {

using panel_solve::Tile;

// Stages y (shared memory when at most staged_cols columns, else x itself: no other block
// touches those entries during the sweep), runs the sweep, copies a staged y back.
template <PanelSweep S>
__device__ __forceinline__ void run_supernode(const Panel& p, Tile& t, int32_t staged_cols, double* y_shared,
                                              double* x) {
  const int tid = static_cast<int>(threadIdx.x);
  const int nt = static_cast<int>(blockDim.x);
  const bool staged = p.ns <= staged_cols;
  double* y = staged ? y_shared : x + p.first;
  if (staged)
    for (int32_t i = tid; i < p.ns; i += nt) y[i] = __ldcg(x + p.first + i);
  __syncthreads();
  panel_solve::sweep_supernode<S>(p, y, t, x);
  // y is final (the diagonal block's solve ends with a barrier) and only read since.
  if (staged)
    for (int32_t i = tid; i < p.ns; i += nt) x[p.first + i] = y[i];
}

// One level of sweep S: block b solves supernode nodes[b].
template <PanelSweep S>
__global__ void __launch_bounds__(kPanelSolveMaxThreads)
    panel_level_kernel(PanelSolveArgs a, const int32_t* __restrict__ nodes, int32_t staged_cols, double* x) {
  extern __shared__ double y_shared[];
  __shared__ Tile t;
  const Panel p = panel_of(a.structure, nodes[blockIdx.x]);
  if (threadIdx.x < 32)
    panel_solve::load_tile<S>(t, p, panel_solve::first_tile<S>(p), static_cast<int>(threadIdx.x));
  run_supernode<S>(p, t, staged_cols, y_shared, x);
}

template <PanelSweep S>
void launch_level(const PanelSolveArgs& a, const int32_t* nodes, int32_t count, int threads, int32_t staged_cols,
                  double* x, cudaStream_t stream) {
  const size_t shared = static_cast<size_t>(staged_cols) * sizeof(double);
  panel_level_kernel<S><<<static_cast<unsigned>(count), threads, shared, stream>>>(a, nodes, staged_cols, x);
}

}  // namespace

void launch_panel_solve(PanelSweep sweep, const PanelSolveArgs& a, int64_t begin, int32_t count, int threads,
                        int32_t staged_cols, double* x, cudaStream_t stream) {
  if (count <= 0) return;
  panel_solve::dispatch(sweep, [&](auto s) { launch_level<decltype(s)::value>(a, a.level_nodes + begin, count, threads,
                                                                   staged_cols, x, stream); });
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::kernels
