// The seam's defaults for device-resident data (core/numeric_engine.hpp): an engine that
// reads only host arrays says so by throwing; SparseLU asks supports_device_pointers() first.
#include "core/numeric_engine.hpp"

#include <complex>

#include "gpuglu/status.hpp"

namespace gpuglu {

template <class Scalar>
EngineFactorResult BasicNumericEngine<Scalar>::factor_device(const Scalar*, const PivotRule&) {
  throw Error(Status::unsupported, "this numeric engine does not read device arrays (factor_device)");
}

template <class Scalar>
EngineSolveResult BasicNumericEngine<Scalar>::solve_device(const Scalar*, Scalar*, bool, int32_t, const RefineTarget&) {
  throw Error(Status::unsupported, "this numeric engine does not read device arrays (solve_device)");
}

template <class Scalar>
void BasicNumericEngine<Scalar>::download_input(Scalar*) {
  throw Error(Status::unsupported, "this numeric engine holds no device copy of A's values (download_input)");
}

template class BasicNumericEngine<double>;
template class BasicNumericEngine<std::complex<double>>;

}  // namespace gpuglu
