#pragma once
// Interface of the supernodal triangular solves' kernels (panel_solve_kernels.cu): one launch
// per level of the supernodal tree, a thread block per supernode of the level, on the panels
// of include/gpuglu/supernodes.hpp. The CPU oracle is reference/supernodal_solve.cpp; each
// sweep below is one of its four functions restricted to one level.
//
// A level's supernodes write only their own columns' entries of x (the dense triangular
// solve of their diagonal block) and, in the forward sweeps, subtract their products from
// the rows below them - their ancestors' columns, which later levels own and which a level's
// supernodes may share: those subtractions are atomic. The backward sweeps read the rows
// below, which earlier launches (the ancestors' levels) have made final.
#include <cuda_runtime.h>

#include <cstdint>

namespace gpuglu::cuda::kernels {

// The supernodal structure and the factored panels, as the solves read them (fixed for the
// engine's life; the panels' values change with each factorization).
struct PanelSolveArgs {
  const int32_t* first;        // count + 1
  const int64_t* rows_ptr;     // count + 1
  const int32_t* rows;
  const int64_t* l_ptr;        // count + 1
  const int64_t* u_ptr;        // count + 1
  const double* panels;        // the value array
  const int32_t* level_nodes;  // count: Supernodes::level_nodes
};

enum class PanelSweep {
  lower,            // L x = x: ascending levels; unit-lower diagonal blocks, then x(below) -= L21 y
  upper,            // U x = x: descending; y -= U12 x(below), then the upper diagonal blocks
  upper_transpose,  // U^T x = x: ascending; U^T's diagonal blocks, then x(below) -= U12^T y
  lower_transpose,  // L^T x = x: descending; y -= L21^T x(below), then L^T's unit diagonal blocks
};

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

}  // namespace gpuglu::cuda::kernels
