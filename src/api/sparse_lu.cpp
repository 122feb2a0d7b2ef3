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
#include "api/sparse_lu_impl.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/device.hpp"

namespace gpuglu {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

bool overlap(const double* a, const double* b, int64_t n) {
  return std::less<const double*>()(a, b + n) && std::less<const double*>()(b, a + n);
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

SparseLU::Impl::Impl(const Options& o) : options(o), backend(o.backend == Backend::cuda ? Backend::cuda : Backend::cpu) {
  validate(options);
}

void SparseLU::Impl::discard() {
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

template <class I>
void SparseLU::Impl::analyze(const CsrView<I, double>& a, const int32_t* given) {
  discard();
  api::check_backend_request(options);
  schedule = gpuglu::analyze(a, options, given);
  accept_normwise = false;
  backend = api::choose_backend(options, schedule, device);
  pattern.assign(a);
  rowptr32.assign(pattern.rowptr(), pattern.rowptr() + schedule.n + 1);
  if (given) given_perm.assign(given, given + schedule.n);
  if (a.values)
    a_values.assign(a.values, a.values + schedule.input_nnz);
  else
    a_values.assign(static_cast<size_t>(schedule.input_nnz), 0.0);
  schedule_fits_values = a.values != nullptr;
  attach_engine();
  analyzed = true;
  ++analysis_count;
}

// The engine of the chosen backend for the current schedule (api::make_engine): it
// allocates everything factor() and solve() touch, so refactorization allocates nothing.
void SparseLU::Impl::attach_engine() {
  engine = api::make_engine(schedule, pattern_ref(), options, device, &backend, &fallback_reason);
}

// A new schedule for the same pattern (a recovery). The backend stays the one analyze()
// chose (the CUDA engine is rebuilt for the new pattern, with analyze()'s fallback to the
// CPU under automatic when it does not fit).
void SparseLU::Impl::replace_schedule(Schedule&& s) {
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

void SparseLU::Impl::require_analyzed(const char* verb) const {
  if (!analyzed) throw Error(Status::not_analyzed, std::string(verb) + ": analyze() has not been called");
}

CsrView<int32_t, double> SparseLU::Impl::analyzed_matrix() const {
  return {schedule.n, schedule.n, rowptr32.data(), pattern.colind(), a_values.data()};
}

PatternRef SparseLU::Impl::pattern_ref() const { return {pattern.n(), pattern.rowptr(), pattern.colind()}; }

const FactorStats& SparseLU::Impl::refactor(const double* values) {
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
const FactorStats& SparseLU::Impl::factor_taken(std::chrono::steady_clock::time_point t0) {
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
void SparseLU::Impl::take_values(const double* values) {
  const auto n = static_cast<size_t>(schedule.input_nnz);
  if (schedule_fits_values) schedule_fits_values = std::equal(values, values + n, a_values.begin());
  std::copy(values, values + n, a_values.begin());
}

// One numeric factorization of a_values with the current schedule, on the engine.
void SparseLU::Impl::factor_with_schedule(const PivotRule& rule) {
  const EngineFactorResult r =
      values_on_device ? engine->factor_device(device_values, rule) : engine->factor(a_values.data(), rule);
  if (r.bad_entry >= 0) host_values();  // the bad value is reported
  const int32_t first_perturbed = api::read_factor_result(r, schedule, pattern.colind(), a_values.data(), fstats);
  if (r.bad_entry < 0) last_first_perturbed = first_perturbed;
}

void SparseLU::Impl::set_failure_column(int32_t column) {
  fstats.pivot_column = column;
  fstats.pivot_column_original = column >= 0 ? schedule.col_perm[column] : -1;
}

// Options::shift_type (incomplete factorizations): PETSc's shift loop (api/ilu_shift.hpp).
// The engines perturb only exact zero pivots meanwhile, which keeps the rows before them
// exact for the row test; a factor that passes the test has no perturbed pivot.
void SparseLU::Impl::factor_with_shifts() {
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
    fstats.pivot_value = engine->factor_values()[static_cast<size_t>(schedule.f_diag[r.failing])];
  }
}

int32_t SparseLU::Impl::max_refine_steps() const {
  // Static (diagonal) pivots after matching are not backward stable on badly scaled
  // matrices (lns_131: berr 5e-12 with growth 4 on the scaled matrix). As SuperLU_DIST
  // does for the same reason, the automatic policy measures the componentwise backward
  // error after every solve (one residual) and refines while it exceeds the tolerance.
  if (schedule.incomplete) return 0;  // ILU preconditions; refining against A is not its job
  if (options.refine_steps < 0) return 3;
  return options.refine_steps;
}

EngineSolveResult SparseLU::Impl::solve_one(const double* b, double* x, bool transpose, int32_t steps) {
  return engine->solve(b, x, transpose, steps, options.refine_tolerance);
}

void SparseLU::Impl::require_factored() const {
  if (!factored)
    throw Error(Status::not_factored, analyzed ? "solve(): the last factorization failed or none was done"
                                               : "solve(): analyze() and factor() have not been called");
}

// After one right-hand side's solve r: a solve above the backward-error tolerance is no
// solution; the pivot policy may recover (again() solves once more with the new factor) or
// the factor fails. Adds r to sstats.
void SparseLU::Impl::check_solve_result(EngineSolveResult& r, int32_t steps,
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

const SolveStats& SparseLU::Impl::solve(int32_t nrhs, const double* b, int64_t ldb, double* x, int64_t ldx,
                                        bool transpose) {
  require_factored();
  const int64_t n = schedule.n;
  if (nrhs < 0 || ldb < n || ldx < n)
    throw Error(Status::invalid_input, "solve(): nrhs = " + std::to_string(nrhs) + ", ldb = " + std::to_string(ldb) +
                                           ", ldx = " + std::to_string(ldx) + " for n = " + std::to_string(n));
  if (nrhs > 0 && n > 0 && (!b || !x)) throw Error(Status::invalid_input, "solve(): null right-hand side or solution");
  if (nrhs > 1 && ldb != ldx && b != x) {
    // Column c of X must not overwrite a column of B that is still to be read.
    const double* b_end = b + ldb * (nrhs - 1) + n;
    const double* x_end = x + ldx * (nrhs - 1) + n;
    if (std::less<const double*>()(b, x_end) && std::less<const double*>()(x, b_end))
      throw Error(Status::invalid_input, "solve(): B and X overlap with different leading dimensions");
  }
  const auto t0 = std::chrono::steady_clock::now();
  sstats = SolveStats();
  const int32_t steps = max_refine_steps();
  for (int32_t c = 0; c < nrhs && sstats.status == Status::ok; ++c) {
    const double* bc = b + ldb * c;
    double* xc = x + ldx * c;
    // The engines read b while writing x, and a recovery reads it again: b is copied where
    // they overlap.
    const double* rhs = bc;
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

SparseLU::SparseLU(const Options& options) : impl_(std::make_unique<Impl>(options)) {}
SparseLU::~SparseLU() = default;
SparseLU::SparseLU(SparseLU&&) noexcept = default;
SparseLU& SparseLU::operator=(SparseLU&&) noexcept = default;

void SparseLU::analyze(const CsrView<int32_t, double>& a, const int32_t* given_perm) { impl_->analyze(a, given_perm); }
void SparseLU::analyze(const CsrView<int64_t, double>& a, const int32_t* given_perm) { impl_->analyze(a, given_perm); }

const FactorStats& SparseLU::factor(const CsrView<int32_t, double>& a) {
  impl_->require_analyzed("factor()");
  impl_->pattern.check_same(a);
  return impl_->refactor(a.values);
}

const FactorStats& SparseLU::factor(const CsrView<int64_t, double>& a) {
  impl_->require_analyzed("factor()");
  impl_->pattern.check_same(a);
  return impl_->refactor(a.values);
}

const FactorStats& SparseLU::refactor(const double* values) { return impl_->refactor(values); }

const SolveStats& SparseLU::solve(const double* b, double* x) {
  return impl_->solve(1, b, impl_->schedule.n, x, impl_->schedule.n, false);
}

const SolveStats& SparseLU::solve_transpose(const double* b, double* x) {
  return impl_->solve(1, b, impl_->schedule.n, x, impl_->schedule.n, true);
}

const SolveStats& SparseLU::solve(int32_t nrhs, const double* b, int64_t ldb, double* x, int64_t ldx) {
  return impl_->solve(nrhs, b, ldb, x, ldx, false);
}

bool SparseLU::device_data_direct() const noexcept {
  return impl_->engine && impl_->engine->supports_device_pointers();
}
const FactorStats& SparseLU::factor_device(const double* d_values) { return impl_->refactor_device(d_values); }
const SolveStats& SparseLU::solve_device(const double* d_b, double* d_x) {
  return impl_->solve_device(d_b, d_x, false);
}
const SolveStats& SparseLU::solve_transpose_device(const double* d_b, double* d_x) {
  return impl_->solve_device(d_b, d_x, true);
}

bool SparseLU::analyzed() const noexcept { return impl_->analyzed; }
bool SparseLU::factored() const noexcept { return impl_->factored; }

const Schedule& SparseLU::schedule() const {
  impl_->require_analyzed("schedule()");
  return impl_->schedule;
}

void SparseLU::set_refinement(int32_t steps, double tolerance) {
  if (steps < -1 || !(tolerance >= 0.0))
    throw Error(Status::invalid_input, "set_refinement(): steps = " + std::to_string(steps) +
                                           " (>= -1), tolerance = " + std::to_string(tolerance) + " (>= 0)");
  impl_->options.refine_steps = steps;
  impl_->options.refine_tolerance = tolerance;
}

const Options& SparseLU::options() const noexcept { return impl_->options; }
const FactorStats& SparseLU::factor_stats() const noexcept { return impl_->fstats; }
const SolveStats& SparseLU::solve_stats() const noexcept { return impl_->sstats; }
Backend SparseLU::active_backend() const noexcept { return impl_->backend; }
int64_t SparseLU::analysis_count() const noexcept { return impl_->analysis_count; }
const DeviceInfo& SparseLU::device_info() const noexcept { return impl_->device; }
const std::string& SparseLU::backend_note() const noexcept { return impl_->fallback_reason; }

const std::vector<double>& SparseLU::factor_values() const {
  static const std::vector<double> none;
  return impl_->engine ? impl_->engine->factor_values() : none;
}

TrsvKernel SparseLU::trsv_kernel() const noexcept {
  return impl_->engine ? impl_->engine->trsv_kernel() : impl_->options.trsv_kernel;
}

int64_t SparseLU::device_bytes() const noexcept { return impl_->engine ? impl_->engine->device_bytes() : 0; }

}  // namespace gpuglu
