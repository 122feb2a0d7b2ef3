#pragma once
// GLU3.0 Algorithm 2 executed literally and serially: each column does its pivot and
// scaling, then immediately updates all its subcolumns (Schedule::u_rowptr / u_colind /
// u_pos). The columns come grouped in a caller-given order, so tests can run each
// level's columns shuffled (a missed dependency then changes the factors) or one
// column per group in natural order (plain sequential right-looking LU). The simplest
// oracle for the level executor and for the GPU kernels.
#include <cstdint>
#include <vector>

#include "core/scalar.hpp"
#include "gpuglu/schedule.hpp"
#include "core/numeric_types.hpp"

namespace gpuglu::reference {

// Group g is columns[group_ptr[g] .. group_ptr[g + 1]); every column of C must appear
// exactly once. A pivot failure stops the run at the end of its group (as a level
// would) and reports the smallest failing column of that group. Throws
// Error(invalid_input) for a malformed order or a fill entry missing from the pattern.
// T: double or std::complex<double> (instantiated in column_executor.cpp), as for the next two.
template <class T>
NumericStats factor_columns(const Schedule& s, const std::vector<int64_t>& group_ptr,
                            const std::vector<int32_t>& columns, T* f, const PivotRule& rule);

// The schedule's own levels, columns ascending within each level.
template <class T>
NumericStats factor_columns_by_level(const Schedule& s, T* f, const PivotRule& rule);

// One column per group, 0..n-1: sequential right-looking LU, no levels involved.
template <class T>
NumericStats factor_columns_sequential(const Schedule& s, T* f, const PivotRule& rule);

}  // namespace gpuglu::reference
