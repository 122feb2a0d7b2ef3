// SparseLU with device-resident data (include/gpuglu/lu.hpp, factor_device / solve_device):
// A's values, b and x stay in device memory when the engine reads device arrays (CudaLU: the
// column LU and ILU); the pivot policies work as on the host path, fetching A's values to
// the host only when a recovery needs them (host_values()). An engine of host arrays (the
// CPU, the supernodal and LDL^T engines, or whatever a recovery built) gets the data copied,
// so these calls never fail for want of an engine that reads device memory.
#include <chrono>
#include <complex>
#include <functional>

#include "api/sparse_lu_impl.hpp"

namespace gpuglu {
namespace {

// std::complex<double> is laid out as double[2] ([complex.numbers]): n scalars are n * k doubles.
template <class Scalar>
constexpr int64_t doubles_per = static_cast<int64_t>(sizeof(Scalar) / sizeof(double));

template <class Scalar>
void to_host(const Scalar* d_src, Scalar* h_dst, int64_t n) {
  copy_device_to_host(reinterpret_cast<const double*>(d_src), reinterpret_cast<double*>(h_dst), n * doubles_per<Scalar>);
}

template <class Scalar>
void to_device(const Scalar* h_src, Scalar* d_dst, int64_t n) {
  copy_host_to_device(reinterpret_cast<const double*>(h_src), reinterpret_cast<double*>(d_dst), n * doubles_per<Scalar>);
}

}  // namespace

template <class Scalar>
const FactorStats& BasicSparseLU<Scalar>::Impl::refactor_device(const Scalar* d_values) {
  require_analyzed("factor_device()");
  if (!d_values && schedule.input_nnz > 0)
    throw Error(Status::invalid_input, "factor_device(): the matrix has no values");
  const auto t0 = std::chrono::steady_clock::now();
  if (!engine->supports_device_pointers()) {
    device_staging.resize(static_cast<size_t>(schedule.input_nnz));
    to_host(d_values, device_staging.data(), schedule.input_nnz);
    take_values(device_staging.data());
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
  device_staging.resize(static_cast<size_t>(schedule.input_nnz));
  engine->download_input(device_staging.data());
  take_values(device_staging.data());
  values_on_device = false;
}

template <class Scalar>
EngineSolveResult BasicSparseLU<Scalar>::Impl::solve_one_device(const Scalar* d_b, Scalar* d_x, bool transpose,
                                                                 int32_t steps) {
  if (engine->supports_device_pointers())
    return engine->solve_device(d_b, d_x, transpose, steps, refine_target());
  // An engine of host arrays: b down, x up.
  const auto n = static_cast<size_t>(schedule.n);
  device_staging.resize(2 * n);
  Scalar* b = device_staging.data();
  Scalar* x = b + n;
  to_host(d_b, b, schedule.n);
  const EngineSolveResult r = engine->solve(b, x, transpose, steps, refine_target());
  to_device(x, d_x, schedule.n);
  return r;
}

template <class Scalar>
const SolveStats& BasicSparseLU<Scalar>::Impl::solve_device(const Scalar* d_b, Scalar* d_x, bool transpose) {
  require_factored();
  const int64_t n = schedule.n;
  if (n > 0 && (!d_b || !d_x)) throw Error(Status::invalid_input, "solve_device(): null right-hand side or solution");
  // A recovery solves again from b, which an overlapping x would have overwritten.
  if (n > 0 && std::less<const Scalar*>()(d_b, d_x + n) && std::less<const Scalar*>()(d_x, d_b + n))
    throw Error(Status::invalid_input, "solve_device(): b and x overlap");
  const auto t0 = std::chrono::steady_clock::now();
  sstats = SolveStats();
  const int32_t steps = max_refine_steps();
  EngineSolveResult r = solve_one_device(d_b, d_x, transpose, steps);
  check_solve_result(r, steps, [&] { return solve_one_device(d_b, d_x, transpose, steps); });
  sstats.solve_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return sstats;
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
