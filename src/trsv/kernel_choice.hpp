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
// The rule of `auto`, as measured (H100, CUDA 13.0, median device time of L then U;
// gpuglu_trsv_bench prints auto's pick against every kernel). First version of the kernels:
//                  levr   levc   slfr   slfc   cuSPARSE  (ms)
//   lap2d5 1024^2  12.95  12.67  12.95  23.88   7.98
//   lap2d9 1024^2  19.73  20.10  20.01  28.06  11.75
//   lap3d7 128^3    2.95   2.84   3.39   3.87   1.68
//   lap3d27 128^3   6.36   6.06   4.48   5.84   3.80
// The level kernels then paid a whole dependent chain of memory loads (jlev -> rowptr ->
// colind -> x) plus a graph-node launch, ~3 us, per level. Now LEVR / LEVC are launched
// with programmatic dependent launch: each level's kernel starts while the previous level
// runs, loads its rows (jlev, row range, first entries, diagonal, b_i) ahead, and waits in
// cudaGridDependencySynchronize only before reading x[colind]: ~1.1 us per level. Device run
// 14 (LEVR with PDL, no single-block runs; cuSPARSE in the same run):
//                       levr   cuSPARSE  (ms)
//   lap2d5 1024^2       4.50    7.95     1.77x
//   lap3d7 128^3        1.16    1.72     1.49x
//   lap3d27 128^3       2.70    3.78     1.40x
//   lap3d7 32x32x2048   4.38    8.46     1.93x
// and LEVC with PDL: 7.00 / 1.52 / 3.19 / 7.06. LEVR solves triangles of <= 8192 rows as
// single-block runs of levels with __syncthreads() between them instead (cuda_trsv.cu's
// kRunsUpToRows; measured faster there, slower on the 1M-row problems). LEVR is the fastest kernel of ours on every
// benchmark matrix and faster than cuSPARSE on all of them, so `auto` is LEVR, also for one
// level (no dependencies, one launch). The self-scheduled kernels are still slower (~3 us
// per level on 2-D problems: each hop is a store to and a polled load from L2, plus the
// pollers' L2 traffic); see the table of gpuglu_trsv_bench for the latest numbers.
#include <cstdint>
#include <vector>

#include "gpuglu/trsv_kernel.hpp"
#include "trsv/trsv_analysis.hpp"

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
