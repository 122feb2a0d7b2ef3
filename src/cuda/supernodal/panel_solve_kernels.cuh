#pragma once
// Interface of the supernodal triangular solves' kernels on the panels of
// include/gpuglu/supernodes.hpp: one launch per level of the supernodal tree, a thread block
// per supernode (panel_solve_kernels.cu), or one self-scheduled launch per sweep, a block per
// 32-column tile or a warp per small supernode, each waiting on counters of the tiles it
// depends on (panel_sweep_kernels.cu, analysis/supernode_targets.hpp). The CPU oracle is
// reference/supernodal_solve.cpp; each sweep below is one of its four functions.
//
// A level's supernodes write only their own columns' entries of x (the dense triangular
// solve of their diagonal block) and, in the forward sweeps, subtract their products from
// the rows below them - their ancestors' columns, which later levels own and which a level's
// supernodes may share: those subtractions are atomic. The backward sweeps read the rows
// below, which the ancestors (earlier launches, or blocks the counters waited for) have made
// final.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/supernodal/supernodal_kernels.cuh"

namespace gpuglu::cuda::kernels {

// The supernodal structure and the factored panels, as the solves read them (fixed for the
// engine's life; the panels' values change with each factorization).
struct PanelSolveArgs {
  SupernodeArgs structure;     // the factorization's (the solves only read the panels)
  const int32_t* level_nodes;  // count: Supernodes::level_nodes
  // n entries of scratch where supernodes may pivot (structure.pivoted): the L sweeps put a
  // pivoted supernode's entries of x in its row order through it (core/supernode_pivoting.hpp).
  double* stage = nullptr;
};

// An LDL^T's D for the symmetric solves (L, D, L^T; PanelSolves with it): kind[j] and off[j]
// as core/bunch_kaufman.hpp's, in each supernode's pivot order, D's diagonal on the L panels'
// diagonal. kind == nullptr: an LU's solves.
struct PanelSolveD {
  const int8_t* kind = nullptr;
  const double* off = nullptr;
};

enum class PanelSweep {
  lower,            // L x = x: ascending levels; unit-lower diagonal blocks, then x(below) -= L21 y
  upper,            // U x = x: descending; y -= U12 x(below), then the upper diagonal blocks
  upper_transpose,  // U^T x = x: ascending; U^T's diagonal blocks, then x(below) -= U12^T y
  lower_transpose,  // L^T x = x: descending; y -= L21^T x(below), then L^T's unit diagonal blocks
};

// The self-scheduled sweep's tasks and synchronization (panel_sweep_kernels.cu): task i is
// tile tasks[i].y (32 columns) of supernode tasks[i].x, in level order and tiles ascending;
// group g is tasks group_ptr[g] .. group_ptr[g + 1] - 1, one per warp where group_by_warps[g]
// (small supernodes of one level), else one task for the whole block; the backward sweeps take
// the groups reversed. ticket (reset to 0 before the sweep) hands out groups; pending[s]
// (reset to the number of tiles s waits on) reaches 0 when s may start; done[s] (reset to 0)
// counts s's finished tiles; a finished tile of s decrements pending at
// signal[signal_ptr[s] .. signal_ptr[s + 1]): its targets in the forward sweeps, its sources in
// the backward ones.
struct PanelSweepSync {
  const int2* tasks;
  const int32_t* group_ptr;
  const int8_t* group_by_warps;
  int32_t num_groups;
  int32_t* ticket;
  int32_t* pending;
  int32_t* done;
  const int64_t* signal_ptr;
  const int32_t* signal;
};

// The self-scheduled sweeps' tiles: columns of a supernode's diagonal block per task; a
// supernode of one tile with at most kPanelSolveSmallCols columns and kPanelSolveSmallRows rows
// below is small (a warp's task). (Measured and dropped on the H100: tasks of two tiles, the
// second's product with the first kept in the block, halved the chain of a wide supernode's
// tasks but doubled each task's products and rows below, and every solve measured got slower:
// docs/performance_history.md, seventh step.)
constexpr int32_t kPanelSolveTile = 32;
constexpr int32_t kPanelSolveSmallCols = 16;
constexpr int32_t kPanelSolveSmallRows = 64;

// At most this many threads per block (the kernels' launch bound).
constexpr int kPanelSolveMaxThreads = 512;
// A supernode with at most this many columns keeps its part of x in shared memory during its
// dense solve (32 KiB); a wider one works on x in global memory.
constexpr int32_t kPanelSolveMaxStagedCols = 4096;

// The supernodes level_nodes[begin .. begin + count) (one level) swept on x (n entries, the
// permuted and scaled vector), a block of `threads` (a multiple of 32, at most
// kPanelSolveMaxThreads) each; staged_cols: the widest of them (at most
// kPanelSolveMaxStagedCols, 0 for none staged) sizes the shared memory. Checks the launch
// through GPUGLU_CUDA_CHECK; may be called during stream capture.
void launch_panel_solve(PanelSweep sweep, const PanelSolveArgs& a, int64_t begin, int32_t count, int threads,
                        int32_t staged_cols, double* x, cudaStream_t stream);

// x := D^{-1} x for all n columns (x in each supernode's pivot order, as the L sweep leaves
// it), a thread per column. Checks the launch; may be called during stream capture.
void launch_panel_d_solve(const PanelSolveArgs& a, const PanelSolveD& d, int32_t n, double* x, cudaStream_t stream);

// The whole sweep on x in one launch of sync.num_groups blocks of `threads` (a multiple of 32, at
// most kPanelSolveMaxThreads), with sync reset as described above. Checks the launch through
// GPUGLU_CUDA_CHECK; may be called during stream capture.
void launch_panel_sweep(PanelSweep sweep, const PanelSolveArgs& a, const PanelSweepSync& sync, int threads, double* x,
                        cudaStream_t stream);

}  // namespace gpuglu::cuda::kernels
