#pragma once
// Interface of the supernodal LDL^T's kernels (ldlt_kernels.cu; the layout and the algorithm
// are cpu/supernodal_ldlt.hpp's, the pivot rule core/bunch_kaufman.hpp's). The structure and
// the state are the supernodal LU's (SupernodeArgs: L panels only, u_ptr unused); perm, kind
// and off are the factorization's pivots, n entries each. Every launcher checks its launch
// through GPUGLU_CUDA_CHECK.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/supernodal/supernodal_kernels.cuh"

namespace gpuglu::cuda::kernels {

struct LdltArgs {
  SupernodeArgs sn;
  int32_t* perm;
  int8_t* kind;
  double* off;
  // Per supernode: 1, Bunch-Kaufman inside its pivot blocks; 0, the unpivoted attempt
  // (core/bunch_kaufman.hpp), which the checks set to 1 where it fails.
  int8_t* pivoted;
};

// The widest supernode the batched kernels take (shared memory permitting: LdltPlan's
// small_max_cols).
constexpr int32_t kLdltNarrowMaxCols = 128;
// Rows of L21 a block of the tiled kernels takes (launch_ldlt_l21).
constexpr int kLdltTileRows = 32;
// Entries per side of a Schur complement tile (launch_ldlt_schur_tiles).
constexpr int kLdltSchurTile = 32;

// Shared memory of launch_ldlt_diagonal for a diagonal block of ns columns, and of
// launch_ldlt_l21.
constexpr size_t ldlt_diagonal_smem(int32_t ns) { return sizeof(double) * static_cast<size_t>(ns) * ns; }
constexpr size_t ldlt_l21_smem(int32_t ns) {
  return sizeof(double) * (static_cast<size_t>(ns) * ns + static_cast<size_t>(kLdltTileRows) * ns);
}

// perm[j] = j's position in its supernode, kind[j] = 1 x 1: before every factorization.
void launch_ldlt_reset_pivots(const LdltArgs& a, int32_t n, cudaStream_t stream);

// The diagonal blocks of supernodes nodes[0 .. count) factored in shared memory, a block each
// (Bunch-Kaufman inside pivot blocks, their later columns updated; or, not pivoted, with no
// pivot search, checked afterwards by launch_ldlt_unpivoted_checks); max_cols: the widest,
// smem = ldlt_diagonal_smem(max_cols) (the launcher raises the kernel's limit). Nothing when
// the input held a NaN/Inf; a failed supernode is flagged (failed[s]).
void launch_ldlt_diagonal(const LdltArgs& a, const int32_t* nodes, int32_t count, int32_t max_cols,
                          cudaStream_t stream);

// L21 = A21 P^T L11^{-T} D^{-1} of the same supernodes, kLdltTileRows rows a block: block b
// takes node nodes[i] with tile_ptr[i] <= b < tile_ptr[i + 1] (tiles: tile_ptr[count]).
void launch_ldlt_l21(const LdltArgs& a, const int32_t* nodes, const int64_t* tile_ptr, int32_t count, int64_t tiles,
                     int32_t max_cols, cudaStream_t stream);

// A wide supernode s's pivot block j0 .. j1 - 1, in three steps around cuBLAS's TRSM (the
// tile's unit lower L, rows below it) and DGEMM (its later columns):
//   launch_ldlt_tile: the diagonal tile factored in shared memory by one block (nothing once
//     s has failed);
//   launch_ldlt_permute_block: the tile's pivot order applied to rows j0 .. j1 of the earlier
//     columns (through tmp, (j1 - j0) x j0) and gathered from the block's columns of the rows
//     below into wb ((nr - j1) x (j1 - j0), leading dimension nr - j1);
//   launch_ldlt_scale_block: after TRSM (wb = L D), L = wb D^{-1} into the panel, and the rows
//     below the supernode's columns copied into w21 (nb x ns, leading dimension nb).
void launch_ldlt_tile(const LdltArgs& a, int32_t s, int32_t j0, int32_t j1, cudaStream_t stream);
void launch_ldlt_permute_block(const LdltArgs& a, int32_t s, int64_t nr, int32_t j0, int32_t j1, double* tmp,
                               double* wb, cudaStream_t stream);
void launch_ldlt_scale_block(const LdltArgs& a, int32_t s, int64_t nr, int32_t j0, int32_t j1, const double* wb,
                             double* w21, cudaStream_t stream);

// A supernode's unpivoted attempt (core/bunch_kaufman.hpp) around cuSOLVER's dense LU without
// pivots of its nr x ns panel:
//   launch_ldlt_mirror: the diagonal block's upper triangle copied from its lower (the LU
//     reads the whole block; the upper triangle is not read otherwise);
//   launch_ldlt_unpivoted_check: after the LU (unit L11 and L21 below the diagonal, D on it),
//     each column's static test (against its pivot block's rows) and threshold test (its
//     multipliers), and its statistics, gathered in verdict (3 ints of scratch, zeroed here);
//     then one thread marks the attempt failed (pivoted[s] = 1, FactorState::unstable_panel)
//     where core/bunch_kaufman.hpp's rule says so.
void launch_ldlt_mirror(const LdltArgs& a, int32_t s, int32_t ns, cudaStream_t stream);
void launch_ldlt_unpivoted_check(const LdltArgs& a, int32_t s, int32_t ns, int32_t* verdict, cudaStream_t stream);
// The same checks for the narrow supernodes nodes[0 .. count) not pivoted, a block each, after
// their L21 (launch_ldlt_l21). A failed one gets pivoted[s] = 1 and unstable_panel.
void launch_ldlt_unpivoted_checks(const LdltArgs& a, const int32_t* nodes, int32_t count, cudaStream_t stream);

// w21 = L21 D of supernode s (nb x ns, leading dimension nb): what a narrow supernode's
// complement DGEMM multiplies L21 by.
void launch_ldlt_l21_times_d(const LdltArgs& a, int32_t s, int64_t nb, int32_t ns, double* w21, cudaStream_t stream);

// The Schur complements L21 D L21^T of supernodes nodes[0 .. count), tile by tile (the lower
// tiles of kLdltSchurTile entries a side), subtracted from their ancestors: block b takes
// node nodes[i] with tile_ptr[i] <= b < tile_ptr[i + 1]. A failed supernode updates nothing.
void launch_ldlt_schur_tiles(const LdltArgs& a, const int32_t* nodes, const int64_t* tile_ptr, int32_t count,
                             int64_t tiles, cudaStream_t stream);

// Columns c0 .. c0 + cols of supernode s's complement, formed beforehand (cuBLAS) into c:
// rows c0 .. nb - 1, leading dimension ldc; their lower triangle subtracted from the targets.
void launch_ldlt_schur_scatter(const LdltArgs& a, int32_t s, const double* c, int64_t ldc, int64_t c0, int64_t cols,
                               cudaStream_t stream);

}  // namespace gpuglu::cuda::kernels
