#pragma once
// analyze() (include/gpuglu/analysis.hpp) telling its ordering's AMD count as it is made
// (OrderingWork::amd_counted), for SparseLU's warm-up that waits for it
// (api::DeviceWarmUp). Throws what analyze() throws.
#include <cstdint>

#include "analysis/ordering.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"
#include "gpuglu/matrix.hpp"

namespace gpuglu::analysis {

Schedule analyze_counted(const CsrView<int32_t, double>& a, const Options& options, const int32_t* given_perm,
                         const AmdCounted& amd_counted);
Schedule analyze_counted(const CsrView<int64_t, double>& a, const Options& options, const int32_t* given_perm,
                         const AmdCounted& amd_counted);

}  // namespace gpuglu::analysis
