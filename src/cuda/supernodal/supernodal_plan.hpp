#pragma once
// The host side of the supernodal engine, computed once per schedule: the schedule checked
// against the layout of include/gpuglu/supernodes.hpp (the kernels index panels without
// bounds checks), the per-level launch plan, and the maps the factorization needs (input
// entry -> panel position, column -> pivot position). Plain C++, no CUDA.
#include <cstdint>
#include <vector>

#include "cuda/engine/device_facts.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

// A supernode's Schur complement is formed by cuBLAS (a DGEMM into a workspace, then a
// scatter) when nb * nb * ns reaches this (nb: its rows below its columns), and by one
// block of the direct kernel otherwise. An estimate, not yet measured: one block forms a
// million multiply-adds in tens of microseconds, about what the GEMM's and the scatter's
// launches cost, and beyond it the GEMM's whole-GPU parallelism wins.
constexpr int64_t kGemmMinWork = int64_t{1} << 20;
// The GEMM's workspace holds at most this many doubles (64 MiB): a larger complement is
// formed in column chunks of it.
constexpr int64_t kGemmWorkspaceDoubles = int64_t{1} << 23;

// A supernode with at least kBlockedMinCols columns and ns * ns * nr >= kBlockedMinWork (or,
// with CudaTuning::supernodal_dense_min_cols, at least that many and kDenseMinWork) is
// factored blocked: by cuSOLVER (dense_panel_lu.hpp) or kBlockWidth columns at a time: a tall-skinny kernel on the block's columns
// (one thread block, the pivot test as in the unblocked kernel), then cuBLAS: TRSM for U's
// row block and U^T's column block, GEMM for the rest of both panels. One thread block per
// supernode factored such a panel (the dense trailing block of a circuit) while the rest of
// the GPU idled (docs/performance_history.md, first step).
constexpr int32_t kBlockedMinCols = 96;
constexpr int64_t kBlockedMinWork = int64_t{1} << 22;
constexpr int32_t kBlockWidth = 64;
constexpr int64_t kDenseMinWork = int64_t{1} << 18;
// A supernode of ns columns and nr rows goes to cuSOLVER's dense LU: at least dense_min_cols
// columns (CudaTuning::supernodal_dense_min_cols; 0: never) and kDenseMinWork multiply-adds
// of panel work (ns^2 nr, compared without overflow). The LU's and the LDL^T's plans.
inline bool takes_dense_lu(int32_t ns, int64_t nr, int32_t dense_min_cols) {
  const int64_t work = static_cast<int64_t>(ns) * ns;
  return dense_min_cols > 0 && ns >= dense_min_cols && work >= (kDenseMinWork + nr - 1) / nr;
}
// With resident panels, a blocked supernode too tall for kBlockWidth columns of it in shared
// memory takes kNarrowBlockWidth at a time where those fit (twice the cuBLAS calls, a kernel
// with two barriers per column instead of six).
constexpr int32_t kNarrowBlockWidth = 32;

struct BlockedNode {
  int32_t s = 0;
  int32_t ns = 0;
  int64_t nr = 0;
  int64_t l_ptr = 0;
  int64_t u_ptr = 0;
  int32_t width = kBlockWidth;  // columns per block step
  bool resident = false;        // its tall-skinny kernel: launch_panel_block_resident
  int threads = 32;             // the tall-skinny kernel's block
  size_t smem = 0;              // its shared memory (0: unstaged)
  int32_t first = 0;            // its first column
};

// Supernode t's panels as a BlockedNode, its steps at their defaults.
inline BlockedNode blocked_panels(const Supernodes& sn, int32_t t) {
  BlockedNode b{t, sn.cols(t), sn.nrows(t), sn.l_ptr[t], sn.u_ptr[t]};
  b.first = sn.first[t];
  return b;
}

struct GemmNode {
  int32_t s = 0;
  int32_t ns = 0;
  int64_t nr = 0;
  int64_t l_ptr = 0;
  int64_t u_ptr = 0;
  int64_t chunk = 0;  // columns of the complement per GEMM
};

struct SupernodalPlan {
  struct Level {
    int64_t begin = 0;         // its supernodes: level_nodes[begin .. begin + count)
    int32_t count = 0;
    int64_t panel_begin = 0;   // those the panel kernel factors: panel_nodes[panel_begin ..)
    int32_t panel_count = 0;
    int panel_threads = 32;    // block size of its panel factorization
    size_t panel_smem = 0;     // its shared memory (kernels::panel_smem_bytes; 0: unstaged)
    // Resident (kernels::launch_panel_resident): every panel of the level fits shared memory whole.
    bool resident = false;
    // Stepped (kernels::launch_panel_steps): panel_max_cols wide, trailing_blocks per step.
    bool stepped = false;
    int32_t panel_max_cols = 0;
    std::vector<uint32_t> trailing_blocks;
    std::vector<BlockedNode> blocked;  // the rest, factored blocked
    int64_t direct_begin = 0;  // its small supernodes with a complement: direct_nodes[direct_begin ..)
    int32_t direct_count = 0;
    int32_t direct_tiles = 1;  // kernels::schur_tiles of its largest direct complement
    std::vector<GemmNode> gemm;  // its large ones
  };
  std::vector<Level> levels;
  std::vector<int32_t> panel_nodes;
  std::vector<int32_t> direct_nodes;
  std::vector<int64_t> pivot_pos;  // column j -> position of its pivot in the panels
  int64_t gemm_nodes = 0;
  int64_t blocked_nodes = 0;
};

// Throws Error(invalid_input, "CudaSupernodalLU: ...") when s is not a supernodal LU
// schedule or its arrays are inconsistent. Plain C++: a caller checks before it touches a
// device (plan_supernodal checks again).
void check_supernodal_schedule(const Schedule& s);

// The plan of s (checked first, as check_supernodal_schedule).
// t's supernodal_* knobs: staged (panels that fit go through shared memory), resident (whole;
// needs staged), stepped_* (staged levels not resident only), dense_min_cols (what is blocked).
// facts: the device the plan runs on (its shared memory per block sizes the staged and resident
// panels, its SM count the resident blocks).
SupernodalPlan plan_supernodal(const Schedule& s, const CudaTuning& t, const DeviceFacts& facts);

}  // namespace gpuglu::cuda
