#pragma once
// The host side of the supernodal LDL^T engine, computed once per schedule: the schedule
// checked (the kernels index panels without bounds checks) and the launch plan of each level.
// Plain C++, no CUDA.
//
// A level's supernodes take one of two paths. Narrow ones (at most small_max_cols columns: a
// diagonal block and a tile of L21 rows fit one block's shared memory) are batched: one launch
// factors every diagonal block, one forms every L21 tile by tile, one forms every Schur
// complement tile by tile. Wide ones go through cuBLAS one by one: their diagonal block
// pivot block by pivot block (a kernel, then DGEMM on its later columns), L21 D by TRSM, L21 by
// a scaling, the complement by DGEMM in column chunks and a scatter. Unpivoted
// (core/bunch_kaufman.hpp), a narrow supernode's diagonal block is factored with no pivot
// search and a wide one by cuSOLVER's dense LU of its panel; supernodes of dense_min_cols
// columns and kDenseMinWork multiply-adds (CudaTuning::supernodal_dense_min_cols, as the LU's)
// are wide whatever their width.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/bunch_kaufman.hpp"
#include "cuda/engine/device_facts.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

// nb * nb * ns from which a narrow supernode's complement goes to DGEMM rather than the tile
// kernel (whose FP64 FMAs from shared memory run at a small part of DGEMM's rate; below it
// DGEMM's launches cost more than they save).
constexpr int64_t kLdltGemmSchurWork = int64_t{1} << 22;
// A complement formed by DGEMM goes in column chunks of at most this many doubles (16 MiB a
// lane; the LU's kGemmWorkspaceDoubles is four times that): as fast on the matrices measured,
// and 70-190 MiB less on the large ones (docs/performance.md, issue 28's third step, run 25).
constexpr int64_t kLdltGemmChunkDoubles = int64_t{1} << 21;

struct LdltNode {
  int32_t s = 0;
  int32_t first = 0;  // its first column
  int32_t ns = 0;
  int64_t nr = 0;
  int64_t l_ptr = 0;
  int64_t chunk = 0;  // its complement's columns per DGEMM (wide nodes with rows below)
};

// A batch of narrow supernodes and its tiles: block b of a launch takes nodes[begin + i] with
// tile_ptr[tile_begin + i] <= b < tile_ptr[tile_begin + i + 1].
struct LdltBatch {
  int64_t begin = 0;
  int32_t count = 0;
  int64_t tile_begin = 0;  // into the plan's tile_ptr (count + 1 entries from here)
  int64_t tiles = 0;
};

struct LdltPlan {
  struct Level {
    // Over narrow_nodes: the level's narrow supernodes (their diagonal blocks, widest
    // narrow_max_cols) and their L21 tiles of kLdltTileRows rows.
    LdltBatch l21;
    int32_t narrow_max_cols = 0;
    LdltBatch schur;  // over schur_nodes: lower complement tiles
    std::vector<LdltNode> wide;
    // Narrow supernodes with a large complement: L21 D by a kernel, then DGEMM and a scatter,
    // once the batched L21 kernel is done.
    std::vector<LdltNode> narrow_gemm;
  };
  std::vector<Level> levels;
  std::vector<int32_t> narrow_nodes;
  std::vector<int32_t> schur_nodes;
  std::vector<int64_t> tile_ptr;   // the batches' tile offsets
  std::vector<int64_t> pivot_pos;  // column j -> its pivot's position in the panels
  int32_t small_max_cols = 0;      // the widest narrow supernode the device's shared memory allows
  int64_t wide_nodes = 0;
  int64_t narrow_gemm_nodes = 0;
};

// The cuBLAS workspaces (doubles) of the supernodes a lane takes, the largest of each: L21 D
// (nb x ns) and a complement's DGEMM chunk (nb x chunk) where the complement goes to DGEMM,
// and for a wide supernode a pivot block's rows (nr x kLdltPivotBlock). The lanes deal a
// level's lists round-robin, so a lane sized for what it takes does not hold the root's
// workspaces unless it takes the root.
struct LdltWorkspaces {
  int64_t w21 = 0;
  int64_t c = 0;
  int64_t block = 0;
  void add(const LdltNode& b, bool wide) {
    const int64_t nb = b.nr - b.ns;
    if (nb > 0 && b.chunk > 0) {
      w21 = std::max(w21, nb * b.ns);
      c = std::max(c, nb * b.chunk);
    }
    if (wide) block = std::max(block, b.nr * kLdltPivotBlock);
  }
};

// Throws Error(invalid_input, "CudaSupernodalLDLT: ...") when s is not a consistent supernodal
// LDL^T schedule. facts: the device (its opt-in shared memory sizes the narrow path);
// dense_min_cols: CudaTuning::supernodal_dense_min_cols.
LdltPlan plan_supernodal_ldlt(const Schedule& s, const DeviceFacts& facts, int32_t dense_min_cols);

}  // namespace gpuglu::cuda
