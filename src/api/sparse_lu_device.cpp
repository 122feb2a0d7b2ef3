// SparseLU with device-resident data (include/gpuglu/lu.hpp, factor_device / solve_device):
// A's values, b and x stay in device memory when the engine reads device arrays (CudaLU: the
// column LU and ILU); the pivot policies work as on the host path, fetching A's values to
// the host only when a recovery needs them (host_values()). An engine of host arrays (the
// CPU, the supernodal and LDL^T engines, or whatever a recovery built) gets the data copied,
// so these calls never fail for want of an engine that reads device memory.
#include <chrono>
#include <functional>

#include "api/sparse_lu_impl.hpp"

namespace gpuglu {

const FactorStats& SparseLU::Impl::refactor_device(const double* d_values) {
  require_analyzed("factor_device()");
  if (!d_values && schedule.input_nnz > 0)
    throw Error(Status::invalid_input, "factor_device(): the matrix has no values");
  const auto t0 = std::chrono::steady_clock::now();
  if (!engine->supports_device_pointers()) {
    device_staging.resize(static_cast<size_t>(schedule.input_nnz));
    copy_device_to_host(d_values, device_staging.data(), schedule.input_nnz);
    take_values(device_staging.data());
    values_on_device = false;
    return factor_taken(t0);
  }
  // The values go device to device into the engine; a_values keep the last host values (see
  // refactor()) until host_values() compares and replaces them.
  values_on_device = true;
  device_values = d_values;
  struct Forget {  // the caller's array is valid during this call only
    const double*& p;
    ~Forget() { p = nullptr; }
  } forget{device_values};
  return factor_taken(t0);
}

// a_values = A's values of the last factorization, downloaded from the engine's device copy
// when they came from factor_device(); the schedule's fit to them is decided on the way.
void SparseLU::Impl::host_values() {
  if (!values_on_device) return;
  device_staging.resize(static_cast<size_t>(schedule.input_nnz));
  engine->download_input(device_staging.data());
  take_values(device_staging.data());
  values_on_device = false;
}

EngineSolveResult SparseLU::Impl::solve_one_device(const double* d_b, double* d_x, bool transpose, int32_t steps) {
  if (engine->supports_device_pointers())
    return engine->solve_device(d_b, d_x, transpose, steps, options.refine_tolerance);
  // An engine of host arrays: b down, x up.
  const auto n = static_cast<size_t>(schedule.n);
  device_staging.resize(2 * n);
  double* b = device_staging.data();
  double* x = b + n;
  copy_device_to_host(d_b, b, schedule.n);
  const EngineSolveResult r = engine->solve(b, x, transpose, steps, options.refine_tolerance);
  copy_host_to_device(x, d_x, schedule.n);
  return r;
}

const SolveStats& SparseLU::Impl::solve_device(const double* d_b, double* d_x, bool transpose) {
  require_factored();
  const int64_t n = schedule.n;
  if (n > 0 && (!d_b || !d_x)) throw Error(Status::invalid_input, "solve_device(): null right-hand side or solution");
  // A recovery solves again from b, which an overlapping x would have overwritten.
  if (n > 0 && std::less<const double*>()(d_b, d_x + n) && std::less<const double*>()(d_x, d_b + n))
    throw Error(Status::invalid_input, "solve_device(): b and x overlap");
  const auto t0 = std::chrono::steady_clock::now();
  sstats = SolveStats();
  const int32_t steps = max_refine_steps();
  EngineSolveResult r = solve_one_device(d_b, d_x, transpose, steps);
  check_solve_result(r, steps, [&] { return solve_one_device(d_b, d_x, transpose, steps); });
  sstats.solve_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return sstats;
}

}  // namespace gpuglu
