#pragma once
// The right-looking updates of each level, grouped by the column they write
// (docs/design.md, "atomic-free level updates"): every target column of a level is
// written by one worker, applying its sources in ascending order. No atomics, and
// the result does not depend on how the targets are spread over threads or blocks.
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

// Fills level_target_ptr, target_col, target_src_ptr, target_src. Needs the levels.
// Sources with an empty L column are skipped: their update is a no-op.
void build_update_lists(Schedule& s);

// Whether an engine built with `o` on `backend` reads the lists: the right-looking ones do
// (the CUDA column engines, the CPU's with cpu_right_looking); the CPU's left-looking
// gather does not, and a schedule analyzed for it alone (Options::backend cpu) has none.
bool engine_reads_update_lists(const Options& o, Backend backend);

// Builds a column LU schedule's lists where its analysis left them out (the backend chosen
// after the analysis needs them after all).
void ensure_update_lists(Schedule& s);

}  // namespace gpuglu::analysis
