#pragma once
// The level-scheduled numeric factorization (GLU3.0 Algorithm 2 executed level by
// level, docs/design.md "atomic-free level updates"). Per level:
//   phase 1: pivot test and L scaling of the level's columns, in parallel;
//   phase 2: the level's target columns in parallel, each applying its sources in
//            ascending order (Schedule::target_src), so a target column is written by
//            one thread in a fixed order: bitwise identical for any thread count.
#include "core/scalar.hpp"
#include "gpuglu/schedule.hpp"
#include "core/numeric_types.hpp"

namespace gpuglu::reference {

// f holds C scattered into the factor pattern (scatter_values) and is overwritten by
// F = (L - I) + U. num_threads <= 0: OpenMP's default. On a failure (NumericStats::status
// != ok) the factorization stops after the failing level's phase 1; f is then unusable.
// Throws Error(invalid_input) when the schedule's fill pattern lacks an entry an update needs.
// T: double or std::complex<double> (instantiated in level_numeric.cpp).
template <class T>
NumericStats factor_levels(const Schedule& s, T* f, const PivotRule& rule, int num_threads);

}  // namespace gpuglu::reference
