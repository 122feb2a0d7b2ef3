#pragma once
// The analysis side of gpuglu_trsv_bench (issue 4; Li, Sec. 4.4 and Table 6): the whole
// analysis of L and U on the CPU (trsv::analyze) and with the levels from the GPU
// (cuda::analyze_with_device_levels, Kahn's algorithm), the level part alone on each
// (trsv::compute_levels against cuda::compute_levels_on_device), and whether the GPU's levels
// are the CPU's, element for element. Medians of `repeat` runs after one untimed run.
#include <string>

#include "cuda/trsv/trsv_levels.hpp"
#include "analysis/triangle.hpp"
#include "analysis/trsv_analysis.hpp"

namespace gpuglu::bench {

struct TrsvAnalysisTiming {
  double analysis_ms = -1;      // trsv::analyze(L) + trsv::analyze(U)
  double cpu_levels_ms = -1;    // trsv::compute_levels, L + U
  double analysis_gpu_ms = -1;  // cuda::analyze_with_device_levels(L) + (U): CPU dependencies + GPU levels
  double gpu_levels_ms = -1;    // cuda::compute_levels_on_device, L + U, wall clock (allocations, copies)
  double gpu_kernel_ms = -1;    //   of which the level kernel and the jlev sort (device events)
  double gpu_copy_ms = -1;      //   of which the uploads and downloads (device events)
  bool gpu_equal = false;       // the GPU's levels, level_ptr and jlev are the CPU's
  std::string gpu_failure;      // why the GPU analysis did not run ("" when it did)
};

// al, au receive the CPU analyses (what the solvers are built from). kahn: the GPU level
// analysis's launch shape (the benchmark's --kahn-* flags).
TrsvAnalysisTiming time_trsv_analyses(const trsv::Triangle& l, const trsv::Triangle& u, trsv::TrsvAnalysis& al,
                                      trsv::TrsvAnalysis& au, int repeat, const cuda::KahnTuning& kahn = {});

}  // namespace gpuglu::bench
