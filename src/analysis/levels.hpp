#pragma once
// GLU3.0's relaxed column dependency detection (Algorithm 4) and the levels built on
// it. Column k depends on column i < k when
//   "look up":   U(i, k) != 0 and L(:, i) is not empty (i updates k), or
//   "look left": L(k, i) != 0 (i writes row k, which k's own updates later read;
//                this covers GLU2.0's double-U dependencies, plus a few redundant ones).
// level(k) = 1 + max level of its dependencies (0 without any). Columns of one level
// can then be factorized in any order, or all at once.
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

// Fills num_dependencies, level_of, level_ptr, level_cols (ascending within a level),
// level_max_subcols. Needs the factor pattern and its row views.
void build_levels(Schedule& s);

// Tags each level with its kernel mode (paper Sec. III-B2): at most
// stream_max_columns columns -> stream; otherwise W = total_warps / level size warps
// per column, small-block with W rounded down to a power of two in [min_warps,
// max_warps) while W < max_warps, else large-block with max_warps warps. t is checked
// against the option table's modes.* rows (Error(invalid_input)); total_warps 0 (no device
// resolved: Options::modes) gives W = 0, small-block with min_warps.
void assign_kernel_modes(Schedule& s, const KernelModeThresholds& t);

}  // namespace gpuglu::analysis
