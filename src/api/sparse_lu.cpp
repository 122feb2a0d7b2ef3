// SparseLU (include/gpuglu/lu.hpp): analyze once per pattern, factor / refactor with new
// values, solve many times, on whichever numeric engine the backend choice built
// (core/numeric_engine.hpp). The pivot policies' recoveries are in recovery.cpp.
#include "gpuglu/lu.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <new>
#include <string>

#include "analysis/update_lists.hpp"
#include "api/engine_choice.hpp"
#include "api/real_view.hpp"
#include "api/sparse_lu_impl.hpp"
#include "core/scalar.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/device.hpp"

namespace gpuglu {

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::discard() {
  this->discard_shared();
  values_on_device = false;
  device_values = nullptr;
  repivots = 0;
  reanalyses = 0;
  schedule_fits_values = false;
  rowptr32.clear();
  given_perm.clear();
}

template <class Scalar>
template <class I>
void BasicSparseLU<Scalar>::Impl::analyze(const CsrView<I, Scalar>& a, const int32_t* given) {
  discard();
  api::check_backend_request<Scalar>(this->options);
  // An incomplete factor holds at least A's pattern and its diagonal (ILU(0): exactly that),
  // so where that is large enough for the GPU, or it is an ILU(0), its backend is chosen before
  // the analysis, which then builds only what that backend's engine reads (on the CPU the row
  // ILU: analysis/row_ilu.hpp). An ILU(k) too small for the GPU by A's size is analyzed for
  // the CPU, and again for the GPU only if its levels of fill make it large enough. A factor
  // kept on the CPU this way starts no CUDA at all: on ranks sharing a GPU its start-up costs
  // more than such a factor's work.
  enum class Chosen { after, before, cpu_unless_larger } chosen = Chosen::after;
  if (this->options.ilu_levels >= 0) {
    const int64_t at_least = a.rowptr[a.nrows] + a.nrows;
    if (!api::stays_on_cpu(this->options, at_least, api::devices_counted_before_cuda())) {
      this->backend = api::choose_backend<Scalar>(this->options, at_least, this->device, this->device_claim, -1.0,
                                                  &this->fallback_reason);
      chosen = Chosen::before;
    } else {
      this->keep_on_cpu(at_least);
      chosen = this->options.ilu_levels == 0 ? Chosen::before : Chosen::cpu_unless_larger;
    }
  }
  const bool cpu_first = chosen != Chosen::after && this->backend == Backend::cpu;
  auto set_analysis_options = [&](bool for_cpu) {
    analysis_options = api::analysis_options<Scalar>(this->options, !for_cpu);
    if (for_cpu) analysis_options.backend = Backend::cpu;  // the analysis leaves out what only a GPU reads
    this->schur_active = this->schur_requested;
    if (this->schur_mode()) analysis_options = schur_analysis_options(analysis_options);
  };
  set_analysis_options(cpu_first);
  // While the CPU analyzes: the context, and the engine's kernels for a large factor.
  const auto input_nnz = static_cast<int64_t>(a.rowptr[a.nrows]);
  // A Schur analysis tells no count: its warm-up starts at once.
  auto warm_up = std::make_shared<api::DeviceWarmUp>(
      this->options,
      is_complex_v<Scalar> || chosen != Chosen::after || !api::warm_up_context(this->options, input_nnz),
      api::warm_up_kernels(this->options, input_nnz, api::WarmUpKernels::lu),
      !this->schur_mode() && api::warm_up_waits_for_count(this->options, input_nnz));
  analysis_options.ordering_for_cpu = api::ordering_for_cpu(analysis_options, *warm_up);
  this->schedule =
      analyze_pattern(api::real_view(a, magnitudes), given, [&](double flops) { warm_up->counted(flops); });
  warm_up->settle(this->options, this->schedule.nnz_factor());
  const double cold_flops = api::cold_start_flops(*warm_up, this->schedule);
  this->warm_up = std::move(warm_up);  // its kernels load on beside what follows
  accept_normwise = false;
  if (chosen != Chosen::before)
    this->backend = api::choose_backend<Scalar>(this->options, this->schedule.nnz_factor(), this->device,
                                                this->device_claim, cold_flops, &this->fallback_reason);
  if (chosen == Chosen::cpu_unless_larger && this->backend == Backend::cuda) {
    set_analysis_options(false);  // the GPU's engine reads the column schedule
    this->schedule = analyze_pattern(api::real_view(a, magnitudes), given);
  }
  this->pattern.assign(a);
  rowptr32.assign(this->pattern.rowptr(), this->pattern.rowptr() + this->schedule.n + 1);
  if (given) given_perm.assign(given, given + this->schedule.n);
  if (a.values)
    a_values.assign(a.values, a.values + this->schedule.input_nnz);
  else
    a_values.assign(static_cast<size_t>(this->schedule.input_nnz), Scalar(0.0));
  schedule_fits_values = a.values != nullptr;
  attach_engine();
  this->analyzed = true;
  ++this->analysis_count;
}

// The engine of the chosen backend for the current schedule (api::make_engine): it
// allocates everything factor() and solve() touch, so refactorization allocates nothing.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::attach_engine() {
  if (api::engine_reads_factor_entries(this->schedule, this->options, this->backend))
    spell_out_factor(this->schedule, this->options.num_threads);
  if (analysis::engine_reads_update_lists(this->options, this->backend)) analysis::ensure_update_lists(this->schedule);
  try {
    this->engine = api::make_engine<Scalar>(this->schedule, pattern_ref(), this->options, this->device,
                                            &this->backend, &this->fallback_reason);
    this->fit_schur_engine(pattern_ref(), /*hermitian=*/false);
  } catch (...) {
    this->device_claim.release();  // no engine holds the device: the next factor may take it
    throw;
  }
  if (this->backend == Backend::cpu) this->device_claim.release();  // the GPU could not hold it
}

// A new schedule for the same pattern (a recovery). The backend stays the one analyze()
// chose (the CUDA engine is rebuilt for the new pattern, with analyze()'s fallback to the
// CPU under automatic when it does not fit).
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::replace_schedule(Schedule&& s) {
  host_values();   // the new engine is factored from a_values (the callers have read them already)
  this->engine.reset();  // the old engine's device memory first: the new one may need all of it
  this->schedule = std::move(s);
  ++this->analysis_count;
  schedule_fits_values = true;
  try {
    attach_engine();
  } catch (const std::bad_alloc&) {
    const int64_t nnz = this->schedule.nnz_factor();
    discard();
    throw Error(Status::out_of_memory, "re-pivoting: no host memory for the new factor (nnz(L+U) = " +
                                           std::to_string(nnz) + "); analyze() again");
  } catch (...) {
    discard();  // no engine for the new schedule: the object must be analyzed again
    throw;
  }
}

template <class Scalar>
CsrView<int32_t, Scalar> BasicSparseLU<Scalar>::Impl::analyzed_matrix() const {
  return {this->schedule.n, this->schedule.n, rowptr32.data(), this->pattern.colind(), a_values.data()};
}

template <class Scalar>
Schedule BasicSparseLU<Scalar>::Impl::analyze_values() {
  return analyze_pattern(api::real_view(analyzed_matrix(), magnitudes), given_perm.empty() ? nullptr : given_perm.data());
}

template <class Scalar>
Schedule BasicSparseLU<Scalar>::Impl::analyze_partial_pivoting() {
  analysis_options = api::with_device_warps(analysis_options);  // KLU's order: a column schedule
  if constexpr (is_complex_v<Scalar>)
    return analyze_with_partial_pivoting(api::real_view(analyzed_matrix(), magnitudes), a_values.data(),
                                         analysis_options);
  else
    return analyze_with_partial_pivoting(analyzed_matrix(), analysis_options);
}

template <class Scalar>
PatternRef BasicSparseLU<Scalar>::Impl::pattern_ref() const {
  return {this->pattern.n(), this->pattern.rowptr(), this->pattern.colind()};
}

template <class Scalar>
const FactorStats& BasicSparseLU<Scalar>::Impl::refactor(const Scalar* values) {
  this->require_analyzed("factor()");
  if (!values && this->schedule.input_nnz > 0) throw Error(Status::invalid_input, "factor(): the matrix has no values");
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
  this->start_factor();
  if (this->schedule.incomplete && this->options.shift_type != ShiftType::none)
    this->factor_with_shifts();
  else
    factor_with_schedule(PivotRule::from(this->options));
  // An ILU factor is no LU of A: another pivot order would turn it into a complete one.
  if (!this->schedule.incomplete) {
    // numerically_singular only: NaN/Inf input (nan_or_inf) is no pivot problem.
    if (this->options.pivot_policy == PivotPolicy::repivot && this->fstats.status == Status::numerically_singular)
      repivot_once();
    else if (this->options.pivot_policy == PivotPolicy::automatic)
      recover_in_factor();
  }
  this->fstats.repivots = repivots;
  this->fstats.reanalyses = reanalyses;
  return this->finish_factor(t0);
}

// a_values = values; whether the schedule still fits them is decided on the way.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::take_values(const Scalar* values) {
  const auto n = static_cast<size_t>(this->schedule.input_nnz);
  if (schedule_fits_values) schedule_fits_values = std::equal(values, values + n, a_values.begin());
  std::copy(values, values + n, a_values.begin());
}

// One numeric factorization of a_values with the current schedule, on the engine.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::factor_with_schedule(const PivotRule& rule) {
  const EngineFactorResult r =
      values_on_device ? this->engine->factor_device(device_values, rule) : this->engine->factor(a_values.data(), rule);
  if (r.bad_entry >= 0) host_values();  // the bad value is reported
  const int32_t first_perturbed =
      api::read_factor_result(r, this->schedule, this->pattern.colind(), a_values.data(), this->fstats);
  if (r.bad_entry < 0) last_first_perturbed = first_perturbed;
}

template <class Scalar>
int32_t BasicSparseLU<Scalar>::Impl::factor_once(const PivotRule& rule) {
  factor_with_schedule(rule);
  return last_first_perturbed;
}

template <class Scalar>
CsrView<int32_t, Scalar> BasicSparseLU<Scalar>::Impl::host_matrix() {
  host_values();
  return analyzed_matrix();
}

template <class Scalar>
int32_t BasicSparseLU<Scalar>::Impl::max_refine_steps() const {
  // Static (diagonal) pivots after matching are not backward stable on badly scaled
  // matrices (lns_131: berr 5e-12 with growth 4 on the scaled matrix). As SuperLU_DIST
  // does for the same reason, the automatic policy measures the componentwise backward
  // error after every solve (one residual) and refines while it exceeds the tolerance.
  if (this->schedule.incomplete) return 0;  // ILU preconditions; refining against A is not its job
  if (this->options.refine_steps < 0) return 3;
  return this->options.refine_steps;
}

template <class Scalar>
EngineSolveResult BasicSparseLU<Scalar>::Impl::solve_one(const Scalar* b, Scalar* x, bool transpose, int32_t steps) {
  return this->engine->solve(b, x, transpose, steps, refine_target());
}

// Refinement stops at refine_tolerance componentwise, or, once the automatic policy accepted
// the normwise measure for this pattern, as soon as a solve meets the acceptance test: a step
// is kept only when it lowers the componentwise error, which no pivot order reaches here.
template <class Scalar>
RefineTarget BasicSparseLU<Scalar>::Impl::refine_target() const {
  const bool normwise = this->options.pivot_policy == PivotPolicy::automatic && accept_normwise;
  return {this->options.refine_tolerance, normwise ? this->options.backward_error_tolerance : -1.0};
}

// After one right-hand side's solve r: a solve above the backward-error tolerance is no
// solution; the pivot policy may recover (again() solves once more with the new factor) or
// the factor fails. Adds r to sstats.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::check_solve_result(EngineSolveResult& r, int32_t steps, bool transpose,
                                                     const std::function<EngineSolveResult()>& again) {
  const double tolerance = this->options.backward_error_tolerance;
  const bool automatic = this->options.pivot_policy == PivotPolicy::automatic;
  // The componentwise target, or, where the automatic policy found it out of every pivot
  // order's reach on this pattern, the normwise one (core/backward_error.hpp).
  auto meets = [&](const EngineSolveResult& e) {
    return e.backward_error <= tolerance || (automatic && accept_normwise && e.normwise_error <= tolerance);
  };
  if (steps > 0 && !meets(r) && this->solves_must_meet_tolerance()) {
    bool repaired = automatic && recover(RecoveryReason::backward_error, [&] {
                      if (this->fstats.status != Status::ok) return false;
                      r = again();
                      return meets(r);
                    });
    // Every recovery tried and none reached the componentwise target: a factor whose solution
    // is backward stable normwise is what any LU gives here (KLU's pivots just failed the
    // same test), so it is kept, not failed.
    if (!repaired && automatic && this->fstats.status == Status::ok && r.normwise_error <= tolerance) {
      accept_normwise = true;
      repaired = true;
    }
    this->sstats.recovered = this->sstats.recovered || repaired;
    this->fstats.repivots = repivots;
    this->fstats.reanalyses = reanalyses;
    if (!repaired) this->fail_factor();
  }
  if (steps > 0) {
    this->note_solve(r, meets(r), transpose);
    this->sstats.normwise_error = std::max(this->sstats.normwise_error, r.normwise_error);
    this->sstats.accepted_normwise = this->sstats.accepted_normwise || !(r.backward_error <= tolerance);
  }
}

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::solve_column(const Scalar* b, Scalar* x, bool transpose, int32_t steps) {
  EngineSolveResult r = solve_one(b, x, transpose, steps);
  check_solve_result(r, steps, transpose, [&] { return solve_one(b, x, transpose, steps); });
}

template <class Scalar>
BasicSparseLU<Scalar>::BasicSparseLU(const Options& options)
    : BasicSparseSolver<Scalar>(std::make_unique<Impl>(options)) {}

template <class Scalar>
void BasicSparseLU<Scalar>::analyze(const CsrView<int32_t, Scalar>& a, const int32_t* given_perm) {
  this->template core_as<Impl>().analyze(a, given_perm);
}
template <class Scalar>
void BasicSparseLU<Scalar>::analyze(const CsrView<int64_t, Scalar>& a, const int32_t* given_perm) {
  this->template core_as<Impl>().analyze(a, given_perm);
}

template <class Scalar>
LuEngine BasicSparseLU<Scalar>::lu_engine() const noexcept {
  const Impl& lu = this->template core_as<Impl>();
  if (!lu.analyzed) return lu.options.lu_engine;
  return lu.schedule.supernodal() ? LuEngine::supernodal : LuEngine::column;
}

template class BasicSparseLU<double>;
template class BasicSparseLU<Complex>;

}  // namespace gpuglu
