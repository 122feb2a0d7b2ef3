// SparseLU (include/gpuglu/lu.hpp): analyze once per pattern, factor / refactor with new
// values, solve many times, on whichever numeric engine the backend choice built
// (core/numeric_engine.hpp). The pivot policies' recoveries are in recovery.cpp.
#include "gpuglu/lu.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <new>
#include <string>

#include "api/engine_choice.hpp"
#include "api/ilu_shift.hpp"
#include "api/real_view.hpp"
#include "api/sparse_lu_impl.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/device.hpp"

namespace gpuglu {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

template <class T>
bool overlap(const T* a, const T* b, int64_t n) {
  return std::less<const T*>()(a, b + n) && std::less<const T*>()(b, a + n);
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
BasicSparseLU<Scalar>::Impl::Impl(const Options& o) : options(o), backend(o.backend == Backend::cuda ? Backend::cuda : Backend::cpu) {
  validate(options);
}

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::discard() {
  engine.reset();
  values_on_device = false;
  device_values = nullptr;
  fallback_reason.clear();
  analyzed = false;
  factored = false;
  repivots = 0;
  reanalyses = 0;
  schedule_fits_values = false;
  schedule = Schedule();
  pattern.clear();
  rowptr32.clear();
  given_perm.clear();
  fstats = FactorStats();
  sstats = SolveStats();
}

template <class Scalar>
template <class I>
void BasicSparseLU<Scalar>::Impl::analyze(const CsrView<I, Scalar>& a, const int32_t* given) {
  discard();
  api::check_backend_request<Scalar>(options);
  analysis_options = api::analysis_options<Scalar>(options);
  schedule = gpuglu::analyze(api::real_view(a, magnitudes), analysis_options, given);
  accept_normwise = false;
  backend = api::choose_backend<Scalar>(options, schedule, device);
  if (backend == Backend::cpu && options.lu_engine == LuEngine::automatic && schedule.supernodal) {
    // The automatic backend left a small factor on the CPU, where the column engine is the
    // faster one (docs/performance.md); an analysis of a small factor costs little.
    analysis_options.lu_engine = LuEngine::column;
    schedule = gpuglu::analyze(api::real_view(a, magnitudes), analysis_options, given);
  }
  pattern.assign(a);
  rowptr32.assign(pattern.rowptr(), pattern.rowptr() + schedule.n + 1);
  if (given) given_perm.assign(given, given + schedule.n);
  if (a.values)
    a_values.assign(a.values, a.values + schedule.input_nnz);
  else
    a_values.assign(static_cast<size_t>(schedule.input_nnz), Scalar(0.0));
  schedule_fits_values = a.values != nullptr;
  attach_engine();
  analyzed = true;
  ++analysis_count;
}

// The engine of the chosen backend for the current schedule (api::make_engine): it
// allocates everything factor() and solve() touch, so refactorization allocates nothing.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::attach_engine() {
  engine = api::make_engine<Scalar>(schedule, pattern_ref(), options, device, &backend, &fallback_reason);
}

// A new schedule for the same pattern (a recovery). The backend stays the one analyze()
// chose (the CUDA engine is rebuilt for the new pattern, with analyze()'s fallback to the
// CPU under automatic when it does not fit).
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::replace_schedule(Schedule&& s) {
  host_values();   // the new engine is factored from a_values (the callers have read them already)
  engine.reset();  // the old engine's device memory first: the new one may need all of it
  schedule = std::move(s);
  ++analysis_count;
  schedule_fits_values = true;
  try {
    attach_engine();
  } catch (const std::bad_alloc&) {
    const int64_t nnz = schedule.nnz_factor();
    discard();
    throw Error(Status::out_of_memory, "re-pivoting: no host memory for the new factor (nnz(L+U) = " +
                                           std::to_string(nnz) + "); analyze() again");
  } catch (...) {
    discard();  // no engine for the new schedule: the object must be analyzed again
    throw;
  }
}

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::require_analyzed(const char* verb) const {
  if (!analyzed) throw Error(Status::not_analyzed, std::string(verb) + ": analyze() has not been called");
}

template <class Scalar>
CsrView<int32_t, Scalar> BasicSparseLU<Scalar>::Impl::analyzed_matrix() const {
  return {schedule.n, schedule.n, rowptr32.data(), pattern.colind(), a_values.data()};
}

template <class Scalar>
Schedule BasicSparseLU<Scalar>::Impl::analyze_values() {
  return gpuglu::analyze(api::real_view(analyzed_matrix(), magnitudes), analysis_options,
                         given_perm.empty() ? nullptr : given_perm.data());
}

template <class Scalar>
Schedule BasicSparseLU<Scalar>::Impl::analyze_partial_pivoting() {
  if constexpr (is_complex_v<Scalar>)
    return analyze_with_partial_pivoting(api::real_view(analyzed_matrix(), magnitudes), a_values.data(),
                                         analysis_options);
  else
    return analyze_with_partial_pivoting(analyzed_matrix(), analysis_options);
}

template <class Scalar>
PatternRef BasicSparseLU<Scalar>::Impl::pattern_ref() const { return {pattern.n(), pattern.rowptr(), pattern.colind()}; }

template <class Scalar>
const FactorStats& BasicSparseLU<Scalar>::Impl::refactor(const Scalar* values) {
  require_analyzed("factor()");
  if (!values && schedule.input_nnz > 0) throw Error(Status::invalid_input, "factor(): the matrix has no values");
  const auto t0 = std::chrono::steady_clock::now();
  // After a factor_device() a_values still hold the last values seen on the host: those the
  // schedule was analyzed from while schedule_fits_values holds, which is what take_values
  // compares with.
  take_values(values);
  values_on_device = false;
  return factor_taken(t0);
}

// The factorization of the values just taken (a_values, or on the device with
// values_on_device), with the pivot policy's recoveries.
template <class Scalar>
const FactorStats& BasicSparseLU<Scalar>::Impl::factor_taken(std::chrono::steady_clock::time_point t0) {
  factored = false;
  const int64_t count = fstats.factorizations + 1;
  fstats = FactorStats();
  fstats.factorizations = count;
  if (schedule.incomplete && options.shift_type != ShiftType::none)
    factor_with_shifts();
  else
    factor_with_schedule(PivotRule::from(options));
  // An ILU factor is no LU of A: another pivot order would turn it into a complete one.
  if (!schedule.incomplete) {
    // numerically_singular only: NaN/Inf input (nan_or_inf) is no pivot problem.
    if (options.pivot_policy == PivotPolicy::repivot && fstats.status == Status::numerically_singular)
      repivot_once();
    else if (options.pivot_policy == PivotPolicy::automatic)
      recover_in_factor();
  }
  fstats.repivots = repivots;
  fstats.reanalyses = reanalyses;
  factored = fstats.status == Status::ok;
  fstats.factor_ms = ms_since(t0);
  return fstats;
}

// a_values = values; whether the schedule still fits them is decided on the way.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::take_values(const Scalar* values) {
  const auto n = static_cast<size_t>(schedule.input_nnz);
  if (schedule_fits_values) schedule_fits_values = std::equal(values, values + n, a_values.begin());
  std::copy(values, values + n, a_values.begin());
}

// One numeric factorization of a_values with the current schedule, on the engine.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::factor_with_schedule(const PivotRule& rule) {
  const EngineFactorResult r =
      values_on_device ? engine->factor_device(device_values, rule) : engine->factor(a_values.data(), rule);
  if (r.bad_entry >= 0) host_values();  // the bad value is reported
  const int32_t first_perturbed = api::read_factor_result(r, schedule, pattern.colind(), a_values.data(), fstats);
  if (r.bad_entry < 0) last_first_perturbed = first_perturbed;
}

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::set_failure_column(int32_t column) {
  fstats.pivot_column = column;
  fstats.pivot_column_original = column >= 0 ? schedule.col_perm[column] : -1;
}

// Options::shift_type (incomplete factorizations): PETSc's shift loop (api/ilu_shift.hpp).
// The engines perturb only exact zero pivots meanwhile, which keeps the rows before them
// exact for the row test; a factor that passes the test has no perturbed pivot.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::factor_with_shifts() {
  if (options.shift_type == ShiftType::positive_definite) host_values();  // the bound reads A on the CPU
  const double top =
      options.shift_type == ShiftType::positive_definite
          ? api::manteuffel_bound(schedule.n, pattern.rowptr(), pattern.colind(), a_values.data(), options.zero_pivot)
          : 0.0;
  const api::ShiftOutcome r = api::run_shift_search(
      options.shift_type, options.shift_amount, top,
      [&](double shift) {
        factor_with_schedule(PivotRule{PivotPolicy::perturb, 0.0, 0.0, 1.0, shift});
        return fstats.status == Status::ok;  // NaN/Inf: no shift repairs that
      },
      [&] {
        return api::first_failing_row(schedule, engine->factor_values().data(), options.shift_type, options.zero_pivot,
                                      last_first_perturbed);
      });
  fstats.shift_tries = r.tries;
  fstats.shift_amount = r.amount;
  if (fstats.status == Status::ok && r.failing >= 0) {
    fstats.status = Status::numerically_singular;
    set_failure_column(r.failing);
    fstats.pivot_value = reported_value(engine->factor_values()[static_cast<size_t>(schedule.f_diag[r.failing])]);
  }
}

template <class Scalar>
int32_t BasicSparseLU<Scalar>::Impl::max_refine_steps() const {
  // Static (diagonal) pivots after matching are not backward stable on badly scaled
  // matrices (lns_131: berr 5e-12 with growth 4 on the scaled matrix). As SuperLU_DIST
  // does for the same reason, the automatic policy measures the componentwise backward
  // error after every solve (one residual) and refines while it exceeds the tolerance.
  if (schedule.incomplete) return 0;  // ILU preconditions; refining against A is not its job
  if (options.refine_steps < 0) return 3;
  return options.refine_steps;
}

template <class Scalar>
EngineSolveResult BasicSparseLU<Scalar>::Impl::solve_one(const Scalar* b, Scalar* x, bool transpose, int32_t steps) {
  return engine->solve(b, x, transpose, steps, refine_target());
}

// Refinement stops at refine_tolerance componentwise, or, once the automatic policy accepted
// the normwise measure for this pattern, as soon as a solve meets the acceptance test: a step
// is kept only when it lowers the componentwise error, which no pivot order reaches here.
template <class Scalar>
RefineTarget BasicSparseLU<Scalar>::Impl::refine_target() const {
  const bool normwise = options.pivot_policy == PivotPolicy::automatic && accept_normwise;
  return {options.refine_tolerance, normwise ? options.backward_error_tolerance : -1.0};
}

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::require_factored() const {
  if (!factored)
    throw Error(Status::not_factored, analyzed ? "solve(): the last factorization failed or none was done"
                                               : "solve(): analyze() and factor() have not been called");
}

// After one right-hand side's solve r: a solve above the backward-error tolerance is no
// solution; the pivot policy may recover (again() solves once more with the new factor) or
// the factor fails. Adds r to sstats.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::check_solve_result(EngineSolveResult& r, int32_t steps,
                                                     const std::function<EngineSolveResult()>& again) {
  const double tolerance = options.backward_error_tolerance;
  const bool automatic = options.pivot_policy == PivotPolicy::automatic;
  // The componentwise target, or, where the automatic policy found it out of every pivot
  // order's reach on this pattern, the normwise one (core/backward_error.hpp).
  auto meets = [&](const EngineSolveResult& e) {
    return e.backward_error <= tolerance || (automatic && accept_normwise && e.normwise_error <= tolerance);
  };
  if (steps > 0 && !meets(r) && solves_must_meet_tolerance()) {
    bool repaired = automatic && recover(RecoveryReason::backward_error, [&] {
                      if (fstats.status != Status::ok) return false;
                      r = again();
                      return meets(r);
                    });
    // Every recovery tried and none reached the componentwise target: a factor whose solution
    // is backward stable normwise is what any LU gives here (KLU's pivots just failed the
    // same test), so it is kept, not failed.
    if (!repaired && automatic && fstats.status == Status::ok && r.normwise_error <= tolerance) {
      accept_normwise = true;
      repaired = true;
    }
    sstats.recovered = sstats.recovered || repaired;
    fstats.repivots = repivots;
    fstats.reanalyses = reanalyses;
    if (!repaired) fail_factor();
  }
  if (steps > 0) {
    sstats.refine_steps = std::max(sstats.refine_steps, r.refine_steps);
    sstats.backward_error = std::max(sstats.backward_error, r.backward_error);
    sstats.normwise_error = std::max(sstats.normwise_error, r.normwise_error);
    sstats.accepted_normwise = sstats.accepted_normwise || !(r.backward_error <= tolerance);
    sstats.inaccurate = sstats.inaccurate || !meets(r);
  }
}

template <class Scalar>
const SolveStats& BasicSparseLU<Scalar>::Impl::solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx,
                                        bool transpose) {
  require_factored();
  const int64_t n = schedule.n;
  if (nrhs < 0 || ldb < n || ldx < n)
    throw Error(Status::invalid_input, "solve(): nrhs = " + std::to_string(nrhs) + ", ldb = " + std::to_string(ldb) +
                                           ", ldx = " + std::to_string(ldx) + " for n = " + std::to_string(n));
  if (nrhs > 0 && n > 0 && (!b || !x)) throw Error(Status::invalid_input, "solve(): null right-hand side or solution");
  if (nrhs > 1 && ldb != ldx && b != x) {
    // Column c of X must not overwrite a column of B that is still to be read.
    const Scalar* b_end = b + ldb * (nrhs - 1) + n;
    const Scalar* x_end = x + ldx * (nrhs - 1) + n;
    if (std::less<const Scalar*>()(b, x_end) && std::less<const Scalar*>()(x, b_end))
      throw Error(Status::invalid_input, "solve(): B and X overlap with different leading dimensions");
  }
  const auto t0 = std::chrono::steady_clock::now();
  sstats = SolveStats();
  const int32_t steps = max_refine_steps();
  for (int32_t c = 0; c < nrhs && sstats.status == Status::ok; ++c) {
    const Scalar* bc = b + ldb * c;
    Scalar* xc = x + ldx * c;
    // The engines read b while writing x, and a recovery reads it again: b is copied where
    // they overlap.
    const Scalar* rhs = bc;
    if (overlap(bc, xc, n)) {
      rhs_copy.assign(bc, bc + n);
      rhs = rhs_copy.data();
    }
    EngineSolveResult r = solve_one(rhs, xc, transpose, steps);
    check_solve_result(r, steps, [&] { return solve_one(rhs, xc, transpose, steps); });
  }
  sstats.solve_ms = ms_since(t0);
  return sstats;
}

template <class Scalar>
BasicSparseLU<Scalar>::BasicSparseLU(const Options& options) : impl_(std::make_unique<Impl>(options)) {}
template <class Scalar>
BasicSparseLU<Scalar>::~BasicSparseLU() = default;
template <class Scalar>
BasicSparseLU<Scalar>::BasicSparseLU(BasicSparseLU&&) noexcept = default;
template <class Scalar>
BasicSparseLU<Scalar>& BasicSparseLU<Scalar>::operator=(BasicSparseLU&&) noexcept = default;

template <class Scalar>
void BasicSparseLU<Scalar>::analyze(const CsrView<int32_t, Scalar>& a, const int32_t* given_perm) { impl_->analyze(a, given_perm); }
template <class Scalar>
void BasicSparseLU<Scalar>::analyze(const CsrView<int64_t, Scalar>& a, const int32_t* given_perm) { impl_->analyze(a, given_perm); }

template <class Scalar>
const FactorStats& BasicSparseLU<Scalar>::factor(const CsrView<int32_t, Scalar>& a) {
  impl_->require_analyzed("factor()");
  impl_->pattern.check_same(a);
  return impl_->refactor(a.values);
}

template <class Scalar>
const FactorStats& BasicSparseLU<Scalar>::factor(const CsrView<int64_t, Scalar>& a) {
  impl_->require_analyzed("factor()");
  impl_->pattern.check_same(a);
  return impl_->refactor(a.values);
}

template <class Scalar>
const FactorStats& BasicSparseLU<Scalar>::refactor(const Scalar* values) { return impl_->refactor(values); }

template <class Scalar>
const SolveStats& BasicSparseLU<Scalar>::solve(const Scalar* b, Scalar* x) {
  return impl_->solve(1, b, impl_->schedule.n, x, impl_->schedule.n, false);
}

template <class Scalar>
const SolveStats& BasicSparseLU<Scalar>::solve_transpose(const Scalar* b, Scalar* x) {
  return impl_->solve(1, b, impl_->schedule.n, x, impl_->schedule.n, true);
}

template <class Scalar>
const SolveStats& BasicSparseLU<Scalar>::solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx) {
  return impl_->solve(nrhs, b, ldb, x, ldx, false);
}

template <class Scalar>
bool BasicSparseLU<Scalar>::device_data_direct() const noexcept {
  return impl_->engine && impl_->engine->supports_device_pointers();
}
template <class Scalar>
const FactorStats& BasicSparseLU<Scalar>::factor_device(const Scalar* d_values) {
  return impl_->refactor_device(d_values);
}
template <class Scalar>
const SolveStats& BasicSparseLU<Scalar>::solve_device(const Scalar* d_b, Scalar* d_x) {
  return impl_->solve_device(d_b, d_x, false);
}
template <class Scalar>
const SolveStats& BasicSparseLU<Scalar>::solve_transpose_device(const Scalar* d_b, Scalar* d_x) {
  return impl_->solve_device(d_b, d_x, true);
}

template <class Scalar>
bool BasicSparseLU<Scalar>::analyzed() const noexcept { return impl_->analyzed; }
template <class Scalar>
bool BasicSparseLU<Scalar>::factored() const noexcept { return impl_->factored; }

template <class Scalar>
const Schedule& BasicSparseLU<Scalar>::schedule() const {
  impl_->require_analyzed("schedule()");
  return impl_->schedule;
}

template <class Scalar>
void BasicSparseLU<Scalar>::set_refinement(int32_t steps, double tolerance) {
  if (steps < -1 || !(tolerance >= 0.0))
    throw Error(Status::invalid_input, "set_refinement(): steps = " + std::to_string(steps) +
                                           " (>= -1), tolerance = " + std::to_string(tolerance) + " (>= 0)");
  impl_->options.refine_steps = steps;
  impl_->options.refine_tolerance = tolerance;
}

template <class Scalar>
const Options& BasicSparseLU<Scalar>::options() const noexcept { return impl_->options; }
template <class Scalar>
const FactorStats& BasicSparseLU<Scalar>::factor_stats() const noexcept { return impl_->fstats; }
template <class Scalar>
const SolveStats& BasicSparseLU<Scalar>::solve_stats() const noexcept { return impl_->sstats; }
template <class Scalar>
Backend BasicSparseLU<Scalar>::active_backend() const noexcept { return impl_->backend; }
template <class Scalar>
LuEngine BasicSparseLU<Scalar>::lu_engine() const noexcept {
  if (!impl_->analyzed) return impl_->options.lu_engine;
  return impl_->schedule.supernodal ? LuEngine::supernodal : LuEngine::column;
}
template <class Scalar>
int64_t BasicSparseLU<Scalar>::analysis_count() const noexcept { return impl_->analysis_count; }
template <class Scalar>
const DeviceInfo& BasicSparseLU<Scalar>::device_info() const noexcept { return impl_->device; }
template <class Scalar>
const std::string& BasicSparseLU<Scalar>::backend_note() const noexcept { return impl_->fallback_reason; }

template <class Scalar>
const std::vector<Scalar>& BasicSparseLU<Scalar>::factor_values() const {
  static const std::vector<Scalar> none;
  return impl_->engine ? impl_->engine->factor_values() : none;
}

template <class Scalar>
TrsvKernel BasicSparseLU<Scalar>::trsv_kernel() const noexcept {
  return impl_->engine ? impl_->engine->trsv_kernel() : impl_->options.trsv_kernel;
}

template <class Scalar>
int64_t BasicSparseLU<Scalar>::device_bytes() const noexcept { return impl_->engine ? impl_->engine->device_bytes() : 0; }

template class BasicSparseLU<double>;
template class BasicSparseLU<Complex>;

}  // namespace gpuglu
