#pragma once
// Which kernel runs a sparse triangular solve (src/trsv, src/cuda/cuda_trsv). The names are
// those of R. Li's paper (../shared/papers/sptrsv-self-scheduling-cuda.txt, Sec. 4.3), and
// they are the values of the future -mat_gpuglu_trsv option.
#include <optional>
#include <string_view>

namespace gpuglu {

enum class TrsvKernel {
  automatic,  // "auto": chosen from the analysis (trsv::choose_kernel, rule and measurements in src/trsv/kernel_choice.hpp)
  levr,       // level-scheduled, row-wise (Li's Algorithm 1; one launch per level, a CUDA graph with programmatic dependent launch)
  levc,       // level-scheduled, column-wise (Algorithm 2; atomics into not-yet-solved rows)
  slfr,       // self-scheduled, row-wise (Algorithm 3; one launch, waits for each dependency)
  slfc,       // self-scheduled, column-wise (Algorithm 4; one launch, dependency counters)
  cusparse,   // cuSPARSE SpSV, the baseline
};

std::string_view to_string(TrsvKernel k) noexcept;
// "auto", "levr", "levc", "slfr", "slfc", "cusparse"; anything else: nullopt.
std::optional<TrsvKernel> parse_trsv_kernel(std::string_view s) noexcept;

}  // namespace gpuglu
