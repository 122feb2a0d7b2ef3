// BasicSparseSolver (include/gpuglu/solver.hpp): the public verbs, each written once for
// SparseLU and SparseLDLT and handed to the facade's Core (api/solver_core.hpp), which
// knows which factorization it is.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/solver_core.hpp"
#include "gpuglu/analysis.hpp"
#include "core/scalar.hpp"

namespace gpuglu {

namespace {

// factor(A) for either index type: A's pattern must be the analyzed one.
template <class Core, class I, class Scalar>
const FactorStats& factor_checked(Core& core, const CsrView<I, Scalar>& a) {
  core.require_analyzed("factor()");
  core.pattern.check_same(a);
  return core.refactor(a.values);
}

}  // namespace

const char* to_string(RecoveryReason r) noexcept {
  switch (r) {
    case RecoveryReason::none: return "none";
    case RecoveryReason::tiny_pivot: return "tiny pivot";
    case RecoveryReason::backward_error: return "backward error above the tolerance";
    case RecoveryReason::growth: return "a suspicious factor (growth, clamped scales) failed its check solve";
  }
  return "?";
}

template <class Scalar>
BasicSparseSolver<Scalar>::BasicSparseSolver(std::unique_ptr<Core> core) : core_(std::move(core)) {}
template <class Scalar>
BasicSparseSolver<Scalar>::~BasicSparseSolver() = default;
template <class Scalar>
BasicSparseSolver<Scalar>::BasicSparseSolver(BasicSparseSolver&&) noexcept = default;
template <class Scalar>
BasicSparseSolver<Scalar>& BasicSparseSolver<Scalar>::operator=(BasicSparseSolver&&) noexcept = default;

template <class Scalar>
const FactorStats& BasicSparseSolver<Scalar>::factor(const CsrView<int32_t, Scalar>& a) {
  return factor_checked(*core_, a);
}

template <class Scalar>
const FactorStats& BasicSparseSolver<Scalar>::factor(const CsrView<int64_t, Scalar>& a) {
  return factor_checked(*core_, a);
}

template <class Scalar>
const FactorStats& BasicSparseSolver<Scalar>::refactor(const Scalar* values) { return core_->refactor(values); }

template <class Scalar>
const SolveStats& BasicSparseSolver<Scalar>::solve(const Scalar* b, Scalar* x) {
  return core_->solve(1, b, core_->schedule.n, x, core_->schedule.n, false);
}

template <class Scalar>
const SolveStats& BasicSparseSolver<Scalar>::solve_transpose(const Scalar* b, Scalar* x) {
  return core_->solve(1, b, core_->schedule.n, x, core_->schedule.n, true);
}

template <class Scalar>
const SolveStats& BasicSparseSolver<Scalar>::solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx) {
  return core_->solve(nrhs, b, ldb, x, ldx, false);
}

template <class Scalar>
bool BasicSparseSolver<Scalar>::device_data_direct() const noexcept { return core_->device_data_direct(); }
template <class Scalar>
const FactorStats& BasicSparseSolver<Scalar>::factor_device(const Scalar* d_values) {
  return core_->refactor_device(d_values);
}
template <class Scalar>
const SolveStats& BasicSparseSolver<Scalar>::solve_device(const Scalar* d_b, Scalar* d_x) {
  return core_->solve_device(d_b, d_x, false);
}
template <class Scalar>
const SolveStats& BasicSparseSolver<Scalar>::solve_transpose_device(const Scalar* d_b, Scalar* d_x) {
  return core_->solve_device(d_b, d_x, true);
}

template <class Scalar>
void BasicSparseSolver<Scalar>::set_refinement(int32_t steps, double tolerance) {
  core_->set_refinement(steps, tolerance);
}

template <class Scalar>
bool BasicSparseSolver<Scalar>::analyzed() const noexcept { return core_->analyzed; }
template <class Scalar>
bool BasicSparseSolver<Scalar>::factored() const noexcept { return core_->factored; }

template <class Scalar>
const Schedule& BasicSparseSolver<Scalar>::schedule() const {
  core_->require_analyzed("schedule()");
  return core_->schedule;
}

template <class Scalar>
const Options& BasicSparseSolver<Scalar>::options() const noexcept { return core_->options; }
template <class Scalar>
const FactorStats& BasicSparseSolver<Scalar>::factor_stats() const noexcept { return core_->fstats; }
template <class Scalar>
const SolveStats& BasicSparseSolver<Scalar>::solve_stats() const noexcept { return core_->sstats; }
template <class Scalar>
Backend BasicSparseSolver<Scalar>::active_backend() const noexcept { return core_->backend; }
template <class Scalar>
int64_t BasicSparseSolver<Scalar>::analysis_count() const noexcept { return core_->analysis_count; }
template <class Scalar>
const DeviceInfo& BasicSparseSolver<Scalar>::device_info() const noexcept { return core_->device; }
template <class Scalar>
const std::string& BasicSparseSolver<Scalar>::backend_note() const noexcept { return core_->fallback_reason; }
template <class Scalar>
int64_t BasicSparseSolver<Scalar>::device_bytes() const noexcept { return core_->device_bytes(); }

template <class Scalar>
const std::vector<Scalar>& BasicSparseSolver<Scalar>::factor_values() const {
  static const std::vector<Scalar> none;
  if (!core_->engine) return none;
  spell_out_factor(core_->schedule, core_->options.num_threads);  // a supernodal factor's F, on first use
  return core_->engine->factor_values();
}

template <class Scalar>
TrsvKernel BasicSparseSolver<Scalar>::trsv_kernel() const noexcept {
  return core_->engine ? core_->engine->trsv_kernel() : core_->options.trsv_kernel;
}

template class BasicSparseSolver<double>;
template class BasicSparseSolver<Complex>;

}  // namespace gpuglu
