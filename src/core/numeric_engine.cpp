// The seam's defaults for device-resident data (core/numeric_engine.hpp): an engine that
// reads only host arrays says so by throwing; SparseLU asks supports_device_pointers() first.
#include "core/numeric_engine.hpp"

#include "gpuglu/status.hpp"

namespace gpuglu {

EngineFactorResult NumericEngine::factor_device(const double*, const PivotRule&) {
  throw Error(Status::unsupported, "this numeric engine does not read device arrays (factor_device)");
}

EngineSolveResult NumericEngine::solve_device(const double*, double*, bool, int32_t, double) {
  throw Error(Status::unsupported, "this numeric engine does not read device arrays (solve_device)");
}

void NumericEngine::download_input(double*) {
  throw Error(Status::unsupported, "this numeric engine holds no device copy of A's values (download_input)");
}

}  // namespace gpuglu
