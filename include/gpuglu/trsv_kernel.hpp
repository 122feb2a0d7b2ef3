#pragma once
// Which kernel runs a sparse triangular solve (src/analysis (trsv), src/cuda/trsv). The names are
// those of R. Li's paper on sparse triangular solves in CUDA (Sec. 4.3; docs/design.md), and
// they are the values of -mat_gpuglu_trsv.
#include <array>
#include <optional>
#include <string_view>

#include "gpuglu/enum_names.hpp"

namespace gpuglu {

enum class TrsvKernel {
  automatic,  // "auto": chosen from the analysis (trsv::choose_kernel, rule and measurements in src/analysis/kernel_choice.hpp)
  levr,       // level-scheduled, row-wise (Li's Algorithm 1; one launch per level, a CUDA graph with programmatic dependent launch)
  levc,       // level-scheduled, column-wise (Algorithm 2; atomics into not-yet-solved rows)
  slfr,       // self-scheduled, row-wise (Algorithm 3; one launch, waits for each dependency)
  slfc,       // self-scheduled, column-wise (Algorithm 4; one launch, dependency counters)
  cusparse,   // cuSPARSE SpSV, the baseline
};

inline constexpr std::array<EnumName<TrsvKernel>, 6> kTrsvKernelNames{{{TrsvKernel::automatic, "auto"},
                                                                        {TrsvKernel::levr, "levr"},
                                                                        {TrsvKernel::levc, "levc"},
                                                                        {TrsvKernel::slfr, "slfr"},
                                                                        {TrsvKernel::slfc, "slfc"},
                                                                        {TrsvKernel::cusparse, "cusparse"}}};

inline std::string_view to_string(TrsvKernel k) noexcept { return name_in(kTrsvKernelNames, k); }
// A name of kTrsvKernelNames; anything else: nullopt.
inline std::optional<TrsvKernel> parse_trsv_kernel(std::string_view s) noexcept {
  return value_in(kTrsvKernelNames, s);
}

}  // namespace gpuglu
