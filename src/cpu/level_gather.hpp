#pragma once
// The CPU backend's fast executor of the same schedule: level by level, every column
// of a level (in parallel) gathers its own updates, left-looking, into a dense
// per-thread work column, then pivots and scales. A column's sources all lie in
// earlier levels (Algorithm 4's "look up" edges), so this is as legal as the
// right-looking executor (level_numeric.hpp), which stays the oracle of the GPU
// kernels. Why both: the right-looking update must find (i, k) in column k for every
// update, which costs the CPU several times KLU's work on circuit matrices
// (docs/performance.md, CPU backend); the gather does
// KLU's work, O(|F(:, k)| + flops) per column. The factor equals the sequential
// Algorithm 2's up to rounding: each entry receives the same updates in ascending
// source order (the level executor applies them level by level instead).
#include "core/scalar.hpp"
#include "gpuglu/schedule.hpp"
#include "core/numeric_types.hpp"

namespace gpuglu::reference {

// Same contract as factor_levels(): f holds the scattered C and receives F; the run stops
// after the level of the first pivot failure; Error(invalid_input) on a fill entry
// missing from the schedule's pattern. Bitwise identical for any thread count.
// T: double or std::complex<double> (instantiated in level_gather.cpp).
template <class T>
NumericStats factor_levels_gather(const Schedule& s, T* f, const PivotRule& rule, int num_threads);

}  // namespace gpuglu::reference
