// Device-resident data on a factorization whose engine reads host arrays (the LDL^T, and
// the defaults of BasicSparseSolver::factor_device / solve_device): A's values, b and x are
// copied to the host and back around the host path, so these calls work on every engine.
// SparseLU overrides them where its engine reads device arrays (sparse_lu_device.cpp).
#include <chrono>

#include "api/device_copy.hpp"
#include "api/solver_core.hpp"
#include "core/scalar.hpp"

namespace gpuglu {

template <class Scalar>
const FactorStats& BasicSparseSolver<Scalar>::Core::refactor_device(const Scalar* d_values) {
  require_analyzed("factor_device()");
  const int64_t nnz = pattern.nnz();
  if (!d_values && nnz > 0) throw Error(Status::invalid_input, "factor_device(): the matrix has no values");
  device_staging.resize(static_cast<size_t>(nnz));
  api::to_host(d_values, device_staging.data(), nnz);
  return refactor(device_staging.data());
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::check_device_solve_arguments(const Scalar* d_b, const Scalar* d_x) const {
  require_factored();
  const int64_t n = schedule.n;
  if (n > 0 && (!d_b || !d_x)) throw Error(Status::invalid_input, "solve_device(): null right-hand side or solution");
  // A recovery solves again from b, which an overlapping x would have overwritten.
  if (n > 0 && api::overlap(d_b, d_x, n))
    throw Error(Status::invalid_input, "solve_device(): b and x overlap");
}

template <class Scalar>
const SolveStats& BasicSparseSolver<Scalar>::Core::solve_device(const Scalar* d_b, Scalar* d_x, bool transpose) {
  check_device_solve_arguments(d_b, d_x);
  const int64_t n = schedule.n;
  device_staging.resize(2 * static_cast<size_t>(n));
  Scalar* b = device_staging.data();
  Scalar* x = b + n;
  api::to_host(d_b, b, n);
  const SolveStats& stats = solve(1, b, n, x, n, transpose);
  api::to_device(x, d_x, n);
  return stats;
}

template void BasicSparseSolver<double>::Core::check_device_solve_arguments(const double*, const double*) const;
template void BasicSparseSolver<Complex>::Core::check_device_solve_arguments(const Complex*, const Complex*) const;
template const FactorStats& BasicSparseSolver<double>::Core::refactor_device(const double*);
template const SolveStats& BasicSparseSolver<double>::Core::solve_device(const double*, double*, bool);
template const FactorStats& BasicSparseSolver<Complex>::Core::refactor_device(const Complex*);
template const SolveStats& BasicSparseSolver<Complex>::Core::solve_device(const Complex*, Complex*, bool);

}  // namespace gpuglu
