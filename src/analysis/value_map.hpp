#pragma once
// Where each of A's stored values lands in the factor storage, and by what it is
// scaled: a refactorization is then one pass over A's values (reference/scatter).
#include "analysis/input_pattern.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

// Fills value_map and value_scale. Needs the permutations, scales and f_* pattern; cols is
// A by columns (analysis::columns_of(a)).
void build_value_map(Schedule& s, const InputPattern& a, const ColumnPattern& cols);

}  // namespace gpuglu::analysis
