#pragma once
// When the CPU engines' OpenMP teams pay: a parallel region's start and its barrier cost more
// than a thin level's or a small loop's work shared out, and much more where the process's
// cores are busy (a PETSc rank beside MPI's progress threads), so below these bounds the work
// runs on the calling thread. None of them changes a factor: it is bitwise the same for any team.
#include <cstdint>

#include "gpuglu/options.hpp"

namespace gpuglu::reference {

// Floating-point operations per level below which a level runs on one thread: the ILU(0) of
// a 3-D Laplacian (1e4 per level), the generated circuits and orsreg_1 (2-4e4) factor faster
// on one thread; the 2-D Laplacian's LU (1.6e5) gains from two (docs/performance.md, "CPU
// backend"). A tiny factor's levels under a team made ex14 5^3's three numeric phases take
// 7-37 ms against 0.4 on one thread (2 cores beside MPI's threads).
inline constexpr double kTeamMinFlopsPerLevel = 1e5;

// A supernode's loop takes the team inside it (factor_by_levels' inner) from this many
// multiply-adds on.
inline constexpr int64_t kTeamMinEntries = int64_t{1} << 15;

// A fill (scatter_values' zeroing of the panels) takes the team from this many entries on, in
// chunks of kFillChunk: fresh storage's first touch is mostly page faults, which one thread
// takes one after another.
inline constexpr int64_t kTeamMinFillEntries = int64_t{1} << 18;
inline constexpr int64_t kFillChunk = int64_t{1} << 14;

// Whether a supernode's loop of `entries` multiply-adds runs on its inner team.
inline bool inner_team_pays(int inner, int64_t entries) { return inner > 1 && entries >= kTeamMinEntries; }

// A supernodal factorization of fewer flops runs on one thread whatever the levels: on 16
// cores a team made one run in two or three of ex14 10^3's LU (6 MFlop) take 100 ms more
// than one thread's 24 ms, and teams sized to each level's flops instead made 24^3's slower
// than one thread (docs/performance.md, "Small problems").
inline constexpr double kTeamMinFactorFlops = 33554432.0;  // 2^25

// The team of a supernodal factorization of factor_flops, of threads (0: OpenMP's default).
inline int factor_team(int threads, double factor_flops) {
  return factor_flops < kTeamMinFactorFlops ? 1 : threads_of(threads);
}

// The team for a level of level_flops, of team threads.
inline int level_team(int team, double level_flops) { return level_flops < kTeamMinFlopsPerLevel ? 1 : team; }

}  // namespace gpuglu::reference
