// SparseLU with device-resident data (include/gpuglu/lu.hpp, factor_device / solve_device):
// A's values, b and x stay in device memory when the engine reads device arrays (CudaLU: the
// column LU and ILU); the pivot policies work as on the host path, fetching A's values to
// the host only when a recovery needs them (host_values()). An engine of host arrays (the
// CPU, the supernodal and LDL^T engines, or whatever a recovery built) gets the data copied,
// so these calls never fail for want of an engine that reads device memory.
#include <chrono>
#include <complex>

#include "api/device_copy.hpp"
#include "api/sparse_lu_impl.hpp"

namespace gpuglu {
template <class Scalar>
const FactorStats& BasicSparseLU<Scalar>::Impl::refactor_device(const Scalar* d_values) {
  this->require_analyzed("factor_device()");
  if (!d_values && this->schedule.input_nnz > 0)
    throw Error(Status::invalid_input, "factor_device(): the matrix has no values");
  const auto t0 = std::chrono::steady_clock::now();
  if (!this->engine->supports_device_pointers()) {
    this->device_staging.resize(static_cast<size_t>(this->schedule.input_nnz));
    api::to_host(d_values, this->device_staging.data(), this->schedule.input_nnz);
    take_values(this->device_staging.data());
    values_on_device = false;
    return factor_taken(t0);
  }
  // The values go device to device into the engine; a_values keep the last host values (see
  // refactor()) until host_values() compares and replaces them.
  values_on_device = true;
  device_values = d_values;
  struct Forget {  // the caller's array is valid during this call only
    const Scalar*& p;
    ~Forget() { p = nullptr; }
  } forget{device_values};
  return factor_taken(t0);
}

// a_values = A's values of the last factorization, downloaded from the engine's device copy
// when they came from factor_device(); the schedule's fit to them is decided on the way.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::host_values() {
  if (!values_on_device) return;
  this->device_staging.resize(static_cast<size_t>(this->schedule.input_nnz));
  this->engine->download_input(this->device_staging.data());
  take_values(this->device_staging.data());
  values_on_device = false;
}

template <class Scalar>
EngineSolveResult BasicSparseLU<Scalar>::Impl::solve_one_device(const Scalar* d_b, Scalar* d_x, bool transpose,
                                                                 int32_t steps) {
  if (this->engine->supports_device_pointers())
    return this->engine->solve_device(d_b, d_x, transpose, steps, refine_target());
  // An engine of host arrays: b down, x up.
  const auto n = static_cast<size_t>(this->schedule.n);
  this->device_staging.resize(2 * n);
  Scalar* b = this->device_staging.data();
  Scalar* x = b + n;
  api::to_host(d_b, b, this->schedule.n);
  const EngineSolveResult r = this->engine->solve(b, x, transpose, steps, refine_target());
  api::to_device(x, d_x, this->schedule.n);
  return r;
}

template <class Scalar>
const SolveStats& BasicSparseLU<Scalar>::Impl::solve_device(const Scalar* d_b, Scalar* d_x, bool transpose) {
  this->refuse_full_solve(transpose ? "solve_transpose_device()" : "solve_device()");
  this->check_device_solve_arguments(d_b, d_x);
  const auto t0 = std::chrono::steady_clock::now();
  this->sstats = SolveStats();
  const int32_t steps = this->solve_steps(transpose);
  EngineSolveResult r = solve_one_device(d_b, d_x, transpose, steps);
  check_solve_result(r, steps, transpose, [&] { return solve_one_device(d_b, d_x, transpose, steps); });
  this->sstats.solve_ms = api::ms_since(t0);
  return this->sstats;
}

template const FactorStats& BasicSparseLU<double>::Impl::refactor_device(const double*);
template void BasicSparseLU<double>::Impl::host_values();
template EngineSolveResult BasicSparseLU<double>::Impl::solve_one_device(const double*, double*, bool, int32_t);
template const SolveStats& BasicSparseLU<double>::Impl::solve_device(const double*, double*, bool);
template const FactorStats& BasicSparseLU<std::complex<double>>::Impl::refactor_device(const std::complex<double>*);
template void BasicSparseLU<std::complex<double>>::Impl::host_values();
template EngineSolveResult BasicSparseLU<std::complex<double>>::Impl::solve_one_device(const std::complex<double>*, std::complex<double>*, bool, int32_t);
template const SolveStats& BasicSparseLU<std::complex<double>>::Impl::solve_device(const std::complex<double>*, std::complex<double>*, bool);

}  // namespace gpuglu
