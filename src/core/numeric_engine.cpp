// The seam's defaults for device-resident data (core/numeric_engine.hpp): an engine that
// reads only host arrays says so by throwing; SparseLU asks supports_device_pointers() first.
// And the Hermitian scatter's flags, which the CPU and CUDA LDL^H engines share.
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

template <class Scalar>
std::vector<LevelProfile> BasicNumericEngine<Scalar>::profile_levels(const Scalar*, const PivotRule&) {
  throw Error(Status::unsupported, "this numeric engine does not time its levels (profile_levels)");
}

template <class Scalar>
void BasicNumericEngine<Scalar>::schur_block(Scalar*, int64_t) {
  throw Error(Status::unsupported, "this numeric engine does not keep a Schur complement (schur_block)");
}

template <class Scalar>
void BasicNumericEngine<Scalar>::schur_forward(Scalar*, bool) {
  throw Error(Status::unsupported, "this numeric engine does not keep a Schur complement (schur_forward)");
}

template <class Scalar>
void BasicNumericEngine<Scalar>::schur_backward(Scalar*, bool) {
  throw Error(Status::unsupported, "this numeric engine does not keep a Schur complement (schur_backward)");
}

std::vector<char> hermitian_mirrored_entries(const Schedule& s, PatternRef pattern) {
  if (pattern.n != s.n || !pattern.rowptr)
    throw Error(Status::invalid_input, "Hermitian LDL^H: the engine needs A's full pattern");
  std::vector<char> flag(static_cast<size_t>(pattern.rowptr[pattern.n]), 0);
  const int32_t* inv = s.row_perm_inv.data();
  for (int32_t r = 0; r < pattern.n; ++r)
    for (int64_t p = pattern.rowptr[r]; p < pattern.rowptr[r + 1]; ++p)
      flag[static_cast<size_t>(p)] = inv[r] < inv[pattern.colind[p]] ? 1 : 0;
  return flag;
}

template class BasicNumericEngine<double>;
template class BasicNumericEngine<std::complex<double>>;

}  // namespace gpuglu
