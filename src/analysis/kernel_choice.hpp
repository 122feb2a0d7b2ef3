#pragma once
// How the triangular-solve kernels are shaped and which one `auto` runs, decided from the
// analysis alone (no timing at run time), so the choice is cheap, deterministic and testable
// on the CPU.
//
// Group size. Every kernel gives each unknown a group of G lanes of a warp (G a power of
// two, 1..32): the lanes split the unknown's row (LEVR, SLFR) or column (LEVC, SLFC). Li
// uses a whole warp per unknown; on Laplacian triangles (2 to 13 off-diagonal entries per
// row) that leaves most lanes idle, so G is the smallest power of two >= the mean number
// of off-diagonal entries per row (rows and columns have the same mean), and 32 / G
// unknowns share a warp. The self-scheduled kernels only put unknowns of ONE level into a
// warp (warp_tasks below): no lane ever waits on another lane of its own warp.
//
// The rule of `auto`: LEVR. With programmatic dependent launch each level's kernel loads
// its rows while the previous level runs and waits only before reading x, so LEVR is the
// fastest of the kernels on every benchmark matrix and beats cuSPARSE on all of them, also
// for one level; the self-scheduled kernels pay an L2 round trip per dependency hop (the
// tables: docs/performance.md, "Measurements behind the kernel rules").
#include <cstdint>
#include <vector>

#include "gpuglu/trsv_kernel.hpp"
#include "analysis/trsv_analysis.hpp"

namespace gpuglu::trsv {

// The kernel `requested` resolves to (itself unless automatic).
TrsvKernel choose_kernel(const TrsvAnalysis& a, TrsvKernel requested = TrsvKernel::automatic);

// Lanes per unknown, a power of two in [1, 32].
int32_t group_size(const TrsvAnalysis& a);

// LEVR's launch plan. Runs of consecutive narrow levels (at most `capacity` rows each) are
// solved by one single-block launch with __syncthreads() between levels (levr_run_kernel);
// every other level is one multi-block launch. Segments cover [0, num_levels) in order.
struct LevelSegment {
  int32_t begin = 0, end = 0;  // levels [begin, end)
  bool run = false;            // true: one block for all of them; false: end == begin + 1
};
std::vector<LevelSegment> level_segments(const TrsvAnalysis& a, int32_t capacity);

// Lanes per row of LEVR's single-block runs: the smallest power of two G with
// G * 4 >= the mean off-diagonal entries per row (each lane loads 4 entries ahead).
int32_t run_group_size(const TrsvAnalysis& a);

// The self-scheduled kernels' work items: warp task w solves jlev[tasks[w] .. tasks[w+1]),
// at most 32 / group unknowns, all of one level. Ascending, tasks.front() == 0,
// tasks.back() == n.
std::vector<int32_t> warp_tasks(const TrsvAnalysis& a, int32_t group);

}  // namespace gpuglu::trsv
