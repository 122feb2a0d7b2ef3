#pragma once
// The right-looking updates of each level, grouped by the column they write
// (docs/design.md, "atomic-free level updates"): every target column of a level is
// written by one worker, applying its sources in ascending order. No atomics, and
// the result does not depend on how the targets are spread over threads or blocks.
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

// Fills level_target_ptr, target_col, target_src_ptr, target_src. Needs the levels.
// Sources with an empty L column are skipped: their update is a no-op.
void build_update_lists(Schedule& s);

}  // namespace gpuglu::analysis
