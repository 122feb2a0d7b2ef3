#pragma once
// The CPU reference of the supernodal LU (include/gpuglu/supernodes.hpp): the oracle of the
// CUDA supernodal engine and the CPU backend of LuEngine::supernodal.
#include <cstdint>

#include "core/numeric_types.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

// Factors the panels in place (they hold C's values, scattered, the diagonal shift added),
// level by level of the supernodal tree: each supernode's panel LU, then its Schur update
// of its ancestors. threads: OpenMP threads over a level's supernodes (0: OpenMP's default).
NumericStats factor_supernodal(const Schedule& s, double* panels, const PivotRule& rule, int32_t threads);

// One supernode's statistics merged into a factorization's (in supernode order): the
// smallest failing column wins, as a sequential factorization would stop there.
void merge_node_stats(NumericStats& into, const NumericStats& from);

}  // namespace gpuglu::reference
