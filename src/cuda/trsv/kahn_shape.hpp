#pragma once
// The launch shape of Kahn's level analysis on the GPU (kahn_kernels.cu, driven by
// trsv_levels.cu). Plain C++, so the rule is tested on the CPU (tests/unit/trsv).
//
// One cooperative kernel walks the frontiers (one frontier = one level) with a grid barrier
// between them. Two costs decide the shape:
//   - a grid barrier costs microseconds and grows with the number of blocks, so the grid
//     holds one block per SM by default (a model problem's widest level, ~12k rows for a
//     7-point 128^3 grid, fits one pass of 132 x 512 threads at 4 lanes a row), and never
//     more blocks than n rows can keep busy;
//   - a narrow frontier gains nothing from the other blocks but still pays their barrier,
//     so frontiers of at most `narrow_rows` rows run in block 0 alone, levels separated
//     by __syncthreads(), until a frontier is wider (chains, aspect-ratio grids, the
//     thin start and end of every wavefront). The default is two passes of one block.
// The defaults are the fastest measured shape, or within noise of it, on every model
// problem (docs/performance.md, "Measurements behind the kernel rules").
#include <algorithm>
#include <cstdint>

namespace gpuglu::cuda::kahn {

constexpr int32_t kBlock = 512;            // threads per block
constexpr int32_t kNarrowCapacity = 1024;  // frontier rows block 0 keeps in shared memory (12 bytes each, twice)
constexpr int32_t kDefaultBlocksPerSm = 1;

struct Shape {
  int32_t group = 1;        // lanes per frontier row (they split its column), a power of two <= 32
  int32_t blocks = 1;       // the cooperative grid
  int32_t narrow_rows = 0;  // frontiers of at most this many rows run in block 0 alone (0: never)
};

// n rows with offdiag_nnz dependency edges on a device of `sms` multiprocessors that holds
// `max_blocks_per_sm` blocks of this kernel at once (its occupancy). Overrides (< 0: the
// default; Options::cuda.kahn_blocks_per_sm / kahn_narrow_rows through KahnTuning):
// blocks_per_sm is clamped to [1, max_blocks_per_sm], narrow_rows to [0, kNarrowCapacity].
inline Shape choose_shape(int32_t n, int64_t offdiag_nnz, int32_t sms, int32_t max_blocks_per_sm,
                          int32_t blocks_per_sm = -1, int32_t narrow_rows = -1) {
  Shape s;
  // As trsv::group_size for the solves: the smallest power of two >= the mean column length
  // (the mean row length; every edge is one entry of each).
  const double mean = n > 0 ? static_cast<double>(offdiag_nnz) / n : 0.0;
  while (s.group < 32 && s.group < mean) s.group *= 2;
  const int32_t rows_per_pass = kBlock / s.group;

  const int32_t per_sm = std::clamp(blocks_per_sm < 0 ? kDefaultBlocksPerSm : blocks_per_sm, 1,
                                    std::max(1, max_blocks_per_sm));
  const int64_t resident = static_cast<int64_t>(std::max(1, sms)) * per_sm;
  const int64_t useful = (static_cast<int64_t>(std::max(n, 1)) + rows_per_pass - 1) / rows_per_pass;
  s.blocks = static_cast<int32_t>(std::max<int64_t>(1, std::min(resident, useful)));

  s.narrow_rows = narrow_rows < 0 ? 2 * rows_per_pass : narrow_rows;
  s.narrow_rows = std::clamp(s.narrow_rows, 0, kNarrowCapacity);
  return s;
}

}  // namespace gpuglu::cuda::kahn
