#pragma once
// Interface of the supernodal LDL^T's kernels (ldlt_kernels.cu; the layout and the algorithm
// are cpu/supernodal_ldlt.hpp's, the pivot rule core/bunch_kaufman.hpp's). The structure and
// the state are the supernodal LU's (SupernodeArgs: L panels only, u_ptr unused); perm and
// kind are the factorization's pivot order and pivot kinds, n entries each. Every launcher
// checks its launch through GPUGLU_CUDA_CHECK.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/supernodal/supernodal_kernels.cuh"

namespace gpuglu::cuda::kernels {

struct LdltArgs {
  SupernodeArgs sn;
  int32_t* perm;
  int8_t* kind;
};

// perm[j] = j's position in its supernode, kind[j] = 1 x 1: before every factorization.
void launch_ldlt_reset_pivots(const LdltArgs& a, int32_t n, cudaStream_t stream);

// Supernodes nodes[0 .. count) factored whole, a block each: pivot block by pivot block, the
// Bunch-Kaufman steps inside the block, then the supernode's later columns updated in the
// kernel. Nothing when the input held a NaN/Inf; a failed supernode is flagged (failed[s]).
void launch_ldlt_nodes(const LdltArgs& a, const int32_t* nodes, int32_t count, cudaStream_t stream);

// Pivot block j0 .. j1 - 1 of supernode s alone (rows j0 .. nr - 1), by one block: the
// blocked path, whose later columns cuBLAS updates. Nothing once s has failed.
void launch_ldlt_block(const LdltArgs& a, int32_t s, int32_t j0, int32_t j1, cudaStream_t stream);

// w(i, k - j0) = (L(row0 + i, j0 .. j1) D_blk)(k) of supernode s for i < rows: w is
// column-major with leading dimension ldw (what the GEMMs multiply L by).
void launch_ldlt_times_d(const LdltArgs& a, int32_t s, int64_t row0, int64_t rows, int32_t j0, int32_t j1, double* w,
                         int64_t ldw, cudaStream_t stream);

// The Schur complements L21 D L21^T of supernodes nodes[0 .. count), formed and subtracted
// from their ancestors by one block each (small supernodes). A failed supernode updates nothing.
void launch_ldlt_schur_direct(const LdltArgs& a, const int32_t* nodes, int32_t count, cudaStream_t stream);

// Columns c0 .. c0 + cols of supernode s's complement, formed beforehand (cuBLAS) into c:
// rows c0 .. nb - 1, leading dimension ldc; their lower triangle subtracted from the targets.
void launch_ldlt_schur_scatter(const LdltArgs& a, int32_t s, const double* c, int64_t ldc, int64_t c0, int64_t cols,
                               cudaStream_t stream);

// The panel solves of one level (x: C's unknowns, n; v: n of scratch): forward (L11^{-1},
// L21 onto the rows below, D^{-1}) or backward (L21^T, L11^{-T}), a block per supernode.
void launch_ldlt_forward(const LdltArgs& a, const int32_t* nodes, int32_t count, double* x, double* v,
                         cudaStream_t stream);
void launch_ldlt_backward(const LdltArgs& a, const int32_t* nodes, int32_t count, double* x, double* v,
                          cudaStream_t stream);

}  // namespace gpuglu::cuda::kernels
