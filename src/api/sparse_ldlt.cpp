// SparseLDLT (include/gpuglu/ldlt.hpp): analyze once per pattern, factor / refactor with
// new values, solve many times on the engine the backend choice built. The checks and the
// fallback to gpuglu's LU are in sparse_ldlt_fallback.cpp.
#include "gpuglu/ldlt.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>

#include "analysis/analyze_symmetric.hpp"
#include "analysis/pipeline_steps.hpp"
#include "api/complex_symmetry.hpp"
#include "api/engine_choice.hpp"
#include "api/ilu_shift.hpp"
#include "api/real_view.hpp"
#include "api/sparse_ldlt_impl.hpp"

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

template <class Scalar>
BasicSparseLDLT<Scalar>::Impl::Impl(const Options& o) : options(o), backend(o.backend == Backend::cuda ? Backend::cuda : Backend::cpu) {
  validate(options);
}

template <class Scalar>
void BasicSparseLDLT<Scalar>::Impl::discard() {
  engine.reset();
  lu.reset();
  using_lu = false;
  check_every_factor = false;
  fallback_reason.clear();
  analyzed = false;
  factored = false;
  schedule = Schedule();
  input_pattern.clear();
  full_pattern.clear();
  full_rowptr32.clear();
  full_colind.clear();
  source.clear();
  full_values.clear();
  mirrored.clear();
  hermitian = false;
  values_real = true;
  fstats = FactorStats();
  sstats = SolveStats();
}

template <class Scalar>
template <class I>
void BasicSparseLDLT<Scalar>::Impl::analyze(const CsrView<I, Scalar>& a, StoredTriangle stored, const int32_t* given,
                                            bool check_symmetry, bool spd, Symmetry symmetry) {
  discard();
  api::check_backend_request<Scalar>(options);
  hermitian = is_complex_v<Scalar> && symmetry == Symmetry::hermitian;
  Options o = api::analysis_options<Scalar>(options);
  // The scaling only bounds the entries around indefinite pivots; an SPD matrix needs none
  // (Cholesky is backward stable on it unscaled).
  if (spd) o.scaling = false;
  schedule = analysis::guarded(a.nrows, [&] {
    // Complex: the pattern and finiteness are checked on the magnitudes, the values' symmetry
    // (A^T or A^H) on the values themselves; the analysis reads the magnitudes.
    std::vector<double> magnitudes;
    const analysis::SymmetricInput in =
        analysis::check_symmetric_input(api::real_view(a, magnitudes), stored, check_symmetry && !is_complex_v<Scalar>);
    source = in.source;
    full_rowptr32 = in.colptr;
    full_colind = in.rowind;
    full_values.resize(source.size());
    if constexpr (is_complex_v<Scalar>) {
      if (check_symmetry) api::check_complex_symmetry(in, a.values, hermitian);
      if (hermitian) mirrored = api::mirrored_entries(in);
      gather_full_values(a.values);
      std::vector<double> full_magnitudes(full_values.size());
      for (size_t e = 0; e < full_values.size(); ++e) full_magnitudes[e] = std::abs(full_values[e]);
      return analysis::analyze_symmetric_input(analysis::full_storage(in, full_magnitudes.data()), o, given);
    } else {
      gather_full_values(a.values);
      return analysis::analyze_symmetric_input(analysis::full_storage(in, full_values.data()), o, given);
    }
  });
  backend = api::choose_backend<Scalar>(options, schedule, device);
  input_pattern.assign(a);
  full_pattern.assign(full_matrix());
  engine = api::make_engine<Scalar>(schedule, {full_pattern.n(), full_pattern.rowptr(), full_pattern.colind()}, options,
                                    device, &backend, &fallback_reason, hermitian);
  analyzed = true;
  ++analysis_count;
}

template <class Scalar>
void BasicSparseLDLT<Scalar>::Impl::require_analyzed(const char* verb) const {
  if (!analyzed) throw Error(Status::not_analyzed, std::string(verb) + ": analyze() has not been called");
}

// The caller's values in the full pattern: each entry's source, conjugated where a Hermitian
// A's entry is its source's mirror image.
template <class Scalar>
void BasicSparseLDLT<Scalar>::Impl::gather_full_values(const Scalar* values) {
  if (mirrored.empty()) {
    for (size_t e = 0; e < source.size(); ++e) full_values[e] = values[source[e]];
  } else {
    for (size_t e = 0; e < source.size(); ++e) full_values[e] = conj_if(mirrored[e] != 0, values[source[e]]);
  }
  if constexpr (is_complex_v<Scalar>)
    values_real = std::all_of(full_values.begin(), full_values.end(), [](const Scalar& v) { return v.imag() == 0.0; });
}

template <class Scalar>
CsrView<int32_t, Scalar> BasicSparseLDLT<Scalar>::Impl::full_matrix() const {
  return {schedule.n, schedule.n, full_rowptr32.data(), full_colind.data(),
          full_values.data()};
}

template <class Scalar>
const FactorStats& BasicSparseLDLT<Scalar>::Impl::refactor(const Scalar* values) {
  require_analyzed("factor()");
  if (!values && !source.empty()) throw Error(Status::invalid_input, "factor(): the matrix has no values");
  const auto t0 = std::chrono::steady_clock::now();
  factored = false;
  using_lu = false;
  const int64_t count = fstats.factorizations + 1;
  fstats = FactorStats();
  fstats.factorizations = count;
  gather_full_values(values);
  if (schedule.incomplete) {
    factor_incomplete();
  } else {
    // The engines know report and perturb: automatic perturbs tiny pivots (static pivoting,
    // as in SuperLU_DIST and PARDISO) and lets the checks below decide; repivot reports
    // them, for the LU.
    PivotRule rule = PivotRule::from(options);
    if (options.pivot_policy == PivotPolicy::automatic) rule.policy = PivotPolicy::perturb;
    factor_ldlt(rule);
  }
  if (!schedule.incomplete && fstats.status != Status::nan_or_inf) {
    const bool tiny = fstats.status == Status::numerically_singular;
    if (options.pivot_policy == PivotPolicy::automatic) {
      const RecoveryReason why = assess_factor();
      if (why != RecoveryReason::none) fall_back_to_lu(why);
    } else if (options.pivot_policy == PivotPolicy::repivot && tiny) {
      fall_back_to_lu(RecoveryReason::tiny_pivot);
    }
  }
  factored = fstats.status == Status::ok;
  fstats.factor_ms = ms_since(t0);
  return fstats;
}

template <class Scalar>
int32_t BasicSparseLDLT<Scalar>::Impl::factor_ldlt(const PivotRule& rule) {
  const EngineFactorResult r = engine->factor(full_values.data(), rule);
  return api::read_factor_result(r, schedule, full_colind.data(), full_values.data(), fstats);
}

// ICC(k): PETSc's shift loop (api/ilu_shift.hpp) when a shift type is set, else one
// factorization that reports a tiny pivot (or perturbs it under perturb), as PETSc's ICC.
template <class Scalar>
void BasicSparseLDLT<Scalar>::Impl::factor_incomplete() {
  if (options.shift_type == ShiftType::none) {
    factor_ldlt(PivotRule::from(options));
    return;
  }
  const double top = options.shift_type == ShiftType::positive_definite
                         ? api::manteuffel_bound(schedule.n, full_pattern.rowptr(), full_pattern.colind(),
                                                 full_values.data(), options.zero_pivot)
                         : 0.0;
  int32_t first_perturbed = -1;
  const api::ShiftOutcome r = api::run_shift_search(
      options.shift_type, options.shift_amount, top,
      [&](double shift) {
        first_perturbed = factor_ldlt(PivotRule{PivotPolicy::perturb, 0.0, 0.0, 1.0, shift});
        return fstats.status == Status::ok;
      },
      [&] {
        return api::first_failing_row(schedule, engine->factor_values().data(), options.shift_type, options.zero_pivot,
                                      first_perturbed);
      });
  fstats.shift_tries = r.tries;
  fstats.shift_amount = r.amount;
  if (fstats.status == Status::ok && r.failing >= 0) {
    fstats.status = Status::numerically_singular;
    fstats.pivot_column = r.failing;
    fstats.pivot_column_original = schedule.col_perm[r.failing];
    fstats.pivot_value = reported_value(engine->factor_values()[static_cast<size_t>(schedule.f_diag[r.failing])]);
  }
}

template <class Scalar>
int32_t BasicSparseLDLT<Scalar>::Impl::max_refine_steps() const {
  if (schedule.incomplete) return 0;
  if (options.refine_steps >= 0) return options.refine_steps;
  // Perturbed pivots make the factor that of a nearby matrix; refinement converges to
  // A's solution at a rate set by the perturbation, which takes more than LU's 3 steps.
  return fstats.perturbed_pivots > 0 ? 10 : 3;
}

template <class Scalar>
EngineSolveResult BasicSparseLDLT<Scalar>::Impl::solve_one(const Scalar* b, Scalar* x) {
  return engine->solve(b, x, false, max_refine_steps(), options.refine_tolerance);
}

template <class Scalar>
const SolveStats& BasicSparseLDLT<Scalar>::Impl::solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx) {
  if (!factored)
    throw Error(Status::not_factored, analyzed ? "solve(): the last factorization failed or none was done"
                                               : "solve(): analyze() and factor() have not been called");
  const int64_t n = schedule.n;
  if (nrhs < 0 || ldb < n || ldx < n)
    throw Error(Status::invalid_input, "solve(): nrhs = " + std::to_string(nrhs) + ", ldb = " + std::to_string(ldb) +
                                           ", ldx = " + std::to_string(ldx) + " for n = " + std::to_string(n));
  if (nrhs > 0 && n > 0 && (!b || !x)) throw Error(Status::invalid_input, "solve(): null right-hand side or solution");
  if (nrhs > 1 && ldb != ldx && b != x) {
    const Scalar* b_end = b + ldb * (nrhs - 1) + n;
    const Scalar* x_end = x + ldx * (nrhs - 1) + n;
    if (std::less<const Scalar*>()(b, x_end) && std::less<const Scalar*>()(x, b_end))
      throw Error(Status::invalid_input, "solve(): B and X overlap with different leading dimensions");
  }
  if (using_lu) return solve_with_lu(nrhs, b, ldb, x, ldx);
  const auto t0 = std::chrono::steady_clock::now();
  sstats = SolveStats();
  const int32_t steps = max_refine_steps();
  const double tolerance = options.backward_error_tolerance;
  for (int32_t c = 0; c < nrhs; ++c) {
    const Scalar* bc = b + ldb * c;
    Scalar* xc = x + ldx * c;
    const Scalar* rhs = bc;
    if (overlap(bc, xc, n)) {
      rhs_copy.assign(bc, bc + n);
      rhs = rhs_copy.data();
    }
    // After a fallback the LU solves this column and the rest (rhs is still b here).
    auto on_lu = [&] {
      const SolveStats before = sstats;
      solve_with_lu(1, rhs, n, xc, n);
      sstats.recovered = true;
      sstats.refine_steps = std::max(sstats.refine_steps, before.refine_steps);
      sstats.backward_error = std::max(sstats.backward_error, before.backward_error);
      return sstats.status == Status::ok;
    };
    if (using_lu) {
      if (!on_lu()) break;
      continue;
    }
    EngineSolveResult r = solve_one(rhs, xc);
    if (steps > 0 && !(r.backward_error <= tolerance) && solves_must_meet_tolerance()) {
      const bool moved = options.pivot_policy == PivotPolicy::automatic && fall_back_to_lu(RecoveryReason::backward_error);
      if (!moved) {
        sstats.status = Status::numerically_singular;
        if (fstats.status == Status::ok) fstats.status = Status::numerically_singular;
        fstats.recovery = RecoveryReason::backward_error;
        factored = false;
        sstats.backward_error = r.backward_error;
        sstats.inaccurate = true;
        break;
      }
      if (!on_lu()) break;
      continue;
    }
    if (steps > 0) {
      sstats.refine_steps = std::max(sstats.refine_steps, r.refine_steps);
      sstats.backward_error = std::max(sstats.backward_error, r.backward_error);
      sstats.inaccurate = sstats.inaccurate || !(r.backward_error <= tolerance);
    }
  }
  sstats.solve_ms = ms_since(t0);
  return sstats;
}

// Sylvester's law of inertia: C = S P A P^T S is congruent to A and to D.
template <class Scalar>
Inertia BasicSparseLDLT<Scalar>::Impl::inertia() const {
  if (!factored) throw Error(Status::not_factored, "inertia(): the last factorization failed or none was done");
  if (using_lu)
    throw Error(Status::unsupported,
                "inertia(): the LDL^T fell back to LU (" + std::string(to_string(fstats.recovery)) + "), which has no D");
  if (!hermitian && !values_real)
    throw Error(Status::unsupported,
                "inertia(): a complex symmetric (not Hermitian) matrix has no inertia; its D is complex");
  if (fstats.perturbed_pivots > 0)
    throw Error(Status::unsupported, "inertia(): " + std::to_string(fstats.perturbed_pivots) +
                                         " pivots were perturbed, so the signs of D need not be A's inertia");
  Inertia in;
  const std::vector<Scalar>& f = engine->factor_values();
  for (int32_t k = 0; k < schedule.n; ++k) {
    const double d = real_part(f[static_cast<size_t>(schedule.f_diag[k])]);  // D of an L D L^H is real
    if (d > 0.0)
      ++in.positive;
    else if (d < 0.0)
      ++in.negative;
    else
      ++in.zero;
  }
  return in;
}

template <class Scalar>
BasicSparseLDLT<Scalar>::BasicSparseLDLT(const Options& options) : impl_(std::make_unique<Impl>(options)) {}
template <class Scalar>
BasicSparseLDLT<Scalar>::~BasicSparseLDLT() = default;
template <class Scalar>
BasicSparseLDLT<Scalar>::BasicSparseLDLT(BasicSparseLDLT&&) noexcept = default;
template <class Scalar>
BasicSparseLDLT<Scalar>& BasicSparseLDLT<Scalar>::operator=(BasicSparseLDLT&&) noexcept = default;

template <class Scalar>
void BasicSparseLDLT<Scalar>::analyze(const CsrView<int32_t, Scalar>& a, StoredTriangle stored, const int32_t* given_perm,
                                       bool check_symmetry, bool spd, Symmetry symmetry) {
  impl_->analyze(a, stored, given_perm, check_symmetry, spd, symmetry);
}

template <class Scalar>
void BasicSparseLDLT<Scalar>::analyze(const CsrView<int64_t, Scalar>& a, StoredTriangle stored, const int32_t* given_perm,
                                       bool check_symmetry, bool spd, Symmetry symmetry) {
  impl_->analyze(a, stored, given_perm, check_symmetry, spd, symmetry);
}

template <class Scalar>
const FactorStats& BasicSparseLDLT<Scalar>::factor(const CsrView<int32_t, Scalar>& a) {
  impl_->require_analyzed("factor()");
  impl_->input_pattern.check_same(a);
  return impl_->refactor(a.values);
}

template <class Scalar>
const FactorStats& BasicSparseLDLT<Scalar>::factor(const CsrView<int64_t, Scalar>& a) {
  impl_->require_analyzed("factor()");
  impl_->input_pattern.check_same(a);
  return impl_->refactor(a.values);
}

template <class Scalar>
const FactorStats& BasicSparseLDLT<Scalar>::refactor(const Scalar* values) { return impl_->refactor(values); }

template <class Scalar>
const SolveStats& BasicSparseLDLT<Scalar>::solve(const Scalar* b, Scalar* x) {
  return impl_->solve(1, b, impl_->schedule.n, x, impl_->schedule.n);
}

template <class Scalar>
const SolveStats& BasicSparseLDLT<Scalar>::solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx) {
  return impl_->solve(nrhs, b, ldb, x, ldx);
}

template <class Scalar>
void BasicSparseLDLT<Scalar>::set_refinement(int32_t steps, double tolerance) {
  if (steps < -1 || !(tolerance >= 0.0))
    throw Error(Status::invalid_input, "set_refinement(): steps = " + std::to_string(steps) +
                                           " (>= -1), tolerance = " + std::to_string(tolerance) + " (>= 0)");
  impl_->options.refine_steps = steps;
  impl_->options.refine_tolerance = tolerance;
  if (impl_->lu) impl_->lu->set_refinement(steps, tolerance);
}

template <class Scalar>
Inertia BasicSparseLDLT<Scalar>::inertia() const { return impl_->inertia(); }
template <class Scalar>
bool BasicSparseLDLT<Scalar>::hermitian_values() const noexcept {
  return impl_->hermitian || impl_->values_real;
}
template <class Scalar>
bool BasicSparseLDLT<Scalar>::uses_lu() const noexcept { return impl_->using_lu; }
template <class Scalar>
const BasicSparseLU<Scalar>* BasicSparseLDLT<Scalar>::fallback_lu() const noexcept { return impl_->lu.get(); }
template <class Scalar>
bool BasicSparseLDLT<Scalar>::analyzed() const noexcept { return impl_->analyzed; }
template <class Scalar>
bool BasicSparseLDLT<Scalar>::factored() const noexcept { return impl_->factored; }

template <class Scalar>
const Schedule& BasicSparseLDLT<Scalar>::schedule() const {
  impl_->require_analyzed("schedule()");
  return impl_->schedule;
}

template <class Scalar>
const Options& BasicSparseLDLT<Scalar>::options() const noexcept { return impl_->options; }
template <class Scalar>
const FactorStats& BasicSparseLDLT<Scalar>::factor_stats() const noexcept { return impl_->fstats; }
template <class Scalar>
const SolveStats& BasicSparseLDLT<Scalar>::solve_stats() const noexcept { return impl_->sstats; }
template <class Scalar>
Backend BasicSparseLDLT<Scalar>::active_backend() const noexcept { return impl_->backend; }
template <class Scalar>
int64_t BasicSparseLDLT<Scalar>::analysis_count() const noexcept { return impl_->analysis_count; }
template <class Scalar>
const DeviceInfo& BasicSparseLDLT<Scalar>::device_info() const noexcept { return impl_->device; }
template <class Scalar>
const std::string& BasicSparseLDLT<Scalar>::backend_note() const noexcept { return impl_->fallback_reason; }

template <class Scalar>
const std::vector<Scalar>& BasicSparseLDLT<Scalar>::factor_values() const {
  static const std::vector<Scalar> none;
  return impl_->engine ? impl_->engine->factor_values() : none;
}

template <class Scalar>
int64_t BasicSparseLDLT<Scalar>::device_bytes() const noexcept {
  return (impl_->engine ? impl_->engine->device_bytes() : 0) + (impl_->lu ? impl_->lu->device_bytes() : 0);
}

template <class Scalar>
TrsvKernel BasicSparseLDLT<Scalar>::trsv_kernel() const noexcept {
  return impl_->engine ? impl_->engine->trsv_kernel() : impl_->options.trsv_kernel;
}

template class BasicSparseLDLT<double>;
template class BasicSparseLDLT<Complex>;

}  // namespace gpuglu
