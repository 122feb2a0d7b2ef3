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
// The rule of `auto`, as measured (H100, CUDA 13.0, median device time of L then U, the
// first version of the kernels; gpuglu_trsv_bench prints auto's pick against every kernel):
//                  levr   levc   slfr   slfc   cuSPARSE  (ms)
//   lap2d5 1024^2  12.95  12.67  12.95  23.88   7.98
//   lap2d9 1024^2  19.73  20.10  20.01  28.06  11.75
//   lap3d7 128^3    2.95   2.84   3.39   3.87   1.68
//   lap3d27 128^3   6.36   6.06   4.48   5.84   3.80
// No kernel of ours beats cuSPARSE SpSV yet (0.5x to 0.85x), so `auto` must not pick one:
//   one level (a diagonal matrix)  -> LEVR: no dependencies, one launch, nothing to wait on;
//   otherwise                      -> cuSPARSE, until a kernel of ours is measured faster.
// The row-wise self-scheduled kernel is the candidate: one launch per solve and one L2 round
// trip per dependency hop (the solution vector, pre-filled with a NaN sentinel, is its own
// ready flag), against SLFC's counter read, x read, atomics and fence per hop; its measured
// cost is still ~3 us per level on 2-D problems against cuSPARSE's ~2 us.
#include <cstdint>
#include <vector>

#include "gpuglu/trsv_kernel.hpp"
#include "trsv/trsv_analysis.hpp"

namespace gpuglu::trsv {

// The kernel `requested` resolves to (itself unless automatic).
TrsvKernel choose_kernel(const TrsvAnalysis& a, TrsvKernel requested = TrsvKernel::automatic);

// Lanes per unknown, a power of two in [1, 32].
int32_t group_size(const TrsvAnalysis& a);

// The self-scheduled kernels' work items: warp task w solves jlev[tasks[w] .. tasks[w+1]),
// at most 32 / group unknowns, all of one level. Ascending, tasks.front() == 0,
// tasks.back() == n.
std::vector<int32_t> warp_tasks(const TrsvAnalysis& a, int32_t group);

}  // namespace gpuglu::trsv
