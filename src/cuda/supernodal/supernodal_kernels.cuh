#pragma once
// Interface of the supernodal engine's kernels (supernodal_kernels.cu): the panel
// factorization of a level's supernodes and the scatter of their Schur complements into
// their ancestors (include/gpuglu/supernodes.hpp has the layout and the target rule). The
// factorization state is the engines' FactorState (common/factor_kernels.cuh), reset and filled
// by its launch_reset / launch_scatter / launch_shift_diagonal, so that the outcome reads
// back the same way; failure_key holds the failing column alone (no levels here).
// Every launcher checks its launch through GPUGLU_CUDA_CHECK.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/common/factor_kernels.cuh"
#include "cuda/supernodal/panel_smem.hpp"

namespace gpuglu::cuda::kernels {

// The supernodal structure on the device (fixed for the engine's life).
struct SupernodeArgs {
  const int32_t* first;     // count + 1
  const int32_t* of_col;    // n
  const int64_t* rows_ptr;  // count + 1
  const int32_t* rows;
  const int64_t* l_ptr;     // count + 1
  const int64_t* u_ptr;     // count + 1
  double* panels;           // the value array
  uint8_t* failed;          // count: the supernode's panel LU failed (zeroed before each factorization)
  FactorState* state;
  // Partial pivoting inside supernodes (core/supernode_pivoting.hpp; the LU's only, nullptr for
  // the LDL^T): pivoted[s] != 0 when supernode s searches its diagonal block (PivotedPanelLU
  // factors it, the panel kernels skip it); row_swaps (n) cuSOLVER's pivot rows of each pivoted
  // supernode (1-based within it, at its first column), row_order (n) the same as an order
  // (SupernodeRowOrder's), both written by each factorization.
  const uint8_t* pivoted = nullptr;
  int32_t* row_swaps = nullptr;
  int32_t* row_order = nullptr;
};

// The unpivoted LU of the panels of supernodes nodes[0 .. count) (those that pivot skipped), a block of `threads`
// per supernode (a multiple of 32, at most 1024), staged through smem bytes of shared memory
// (0: unstaged). Nothing when the input held a NaN/Inf. For every panel launcher here, smem is
// at most panel_smem_limit of the current device (the plan's sizes), and the launcher raises
// its kernel's dynamic shared-memory attribute to that limit on that device, once.
void launch_panel_factor(const SupernodeArgs& a, const int32_t* nodes, int32_t count, int threads, size_t smem,
                         cudaStream_t stream);

// Columns k0 .. k1 - 1 of supernode s's L panel, by one block of `threads`: the pivot test,
// the scaling and the rank-1 updates of those columns only (the blocked factorization's
// tall-skinny step; cuBLAS updates the rest), staged as launch_panel_factor's. Nothing once s
// has failed.
void launch_panel_block(const SupernodeArgs& a, int32_t s, int32_t k0, int32_t k1, int threads, size_t smem,
                        cudaStream_t stream);

// The same factorization with each supernode's L and U^T panels whole in shared memory
// (resident_panel_kernels.cu), two barriers per column: a block of `threads` per supernode,
// smem >= resident_smem_bytes(nr, nr - ns, ns, limit) of its largest (bitwise launch_panel_factor's
// factor). Nothing when the input held a NaN/Inf.
void launch_panel_resident(const SupernodeArgs& a, const int32_t* nodes, int32_t count, int threads, size_t smem,
                           cudaStream_t stream);

// launch_panel_block's columns k0 .. k1 - 1 with all nr rows of them in shared memory
// (smem >= resident_smem_bytes(nr, 0, k1 - k0, limit)).
void launch_panel_block_resident(const SupernodeArgs& a, int32_t s, int32_t k0, int32_t k1, int threads, size_t smem,
                                 cudaStream_t stream);

// The same factorization as launch_panel_factor's staged one, in steps of kPanelWidth columns
// for levels of few supernodes: per step a block per supernode factors the step's columns and
// solves for U's rows and U^T's block columns, then trailing_blocks[step] x count blocks
// update the rest of both panels, a thread per entry (bitwise the one-block kernel's factor).
// max_cols: the level's widest supernode; smem: kernels::panel_smem_bytes(max rows, 0, limit).
void launch_panel_steps(const SupernodeArgs& a, const int32_t* nodes, int32_t count, int32_t max_cols, int threads,
                        size_t smem, const uint32_t* trailing_blocks, cudaStream_t stream);

// The Schur complements of supernodes nodes[0 .. count) computed and subtracted in one
// kernel: tiles of kSchurTile x kSchurTile entries of L21 U12, a block each, tiles of them
// per supernode (schur_tiles(nb) of its largest: blocks past a smaller one's tiles exit).
// A supernode whose panel LU failed updates nothing (as in the CPU reference).
void launch_schur_direct(const SupernodeArgs& a, const int32_t* nodes, int32_t count, int32_t tiles,
                         cudaStream_t stream);

// Columns y0 .. y0 + ncols of supernode s's Schur complement, computed beforehand (cuBLAS)
// into w (nb x ncols, column-major, leading dimension nb = s's rows below its columns),
// subtracted from their targets.
void launch_schur_scatter(const SupernodeArgs& a, int32_t s, int64_t nb, const double* w, int64_t y0, int64_t ncols,
                          cudaStream_t stream);

}  // namespace gpuglu::cuda::kernels
