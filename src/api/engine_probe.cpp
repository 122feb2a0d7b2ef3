#include "gpuglu/profile.hpp"

#include "core/numeric_engine.hpp"
#include "core/numeric_types.hpp"

namespace gpuglu {

EngineProbe::EngineProbe(const Schedule& s, const Options& o)
    : options_(o), engine_(make_cuda_engine<double>(s, PatternRef{}, o, o.device < 0 ? 0 : o.device)) {}

EngineProbe::~EngineProbe() = default;

std::vector<LevelProfile> EngineProbe::profile_levels(const double* a_values) {
  return engine_->profile_levels(a_values, PivotRule::from(options_));
}

double EngineProbe::factor_device_ms(const double* a_values) {
  return engine_->factor(a_values, PivotRule::from(options_)).device_ms;
}

}  // namespace gpuglu
