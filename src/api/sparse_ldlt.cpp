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
#include "api/engine_choice.hpp"
#include "api/ilu_shift.hpp"
#include "api/sparse_ldlt_impl.hpp"

namespace gpuglu {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

bool overlap(const double* a, const double* b, int64_t n) {
  return std::less<const double*>()(a, b + n) && std::less<const double*>()(b, a + n);
}

}  // namespace

SparseLDLT::Impl::Impl(const Options& o) : options(o), backend(o.backend == Backend::cuda ? Backend::cuda : Backend::cpu) {
  validate(options);
}

void SparseLDLT::Impl::discard() {
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
  fstats = FactorStats();
  sstats = SolveStats();
}

template <class I>
void SparseLDLT::Impl::analyze(const CsrView<I, double>& a, StoredTriangle stored, const int32_t* given,
                               bool check_symmetry, bool spd) {
  discard();
  api::check_backend_request(options);
  Options o = options;
  // The scaling only bounds the entries around indefinite pivots; an SPD matrix needs none
  // (Cholesky is backward stable on it unscaled).
  if (spd) o.scaling = false;
  schedule = analysis::guarded(a.nrows, [&] {
    const analysis::SymmetricInput in = analysis::check_symmetric_input(a, stored, check_symmetry);
    source = in.source;
    full_rowptr32 = in.colptr;
    full_colind = in.rowind;
    full_values.resize(source.size());
    for (size_t e = 0; e < source.size(); ++e) full_values[e] = a.values[source[e]];
    return analysis::analyze_symmetric_input(analysis::full_storage(in, full_values.data()), o, given);
  });
  backend = api::choose_backend(options, schedule, device);
  input_pattern.assign(a);
  full_pattern.assign(full_matrix());
  engine = api::make_engine(schedule, {full_pattern.n(), full_pattern.rowptr(), full_pattern.colind()}, options, device,
                            &backend, &fallback_reason);
  analyzed = true;
  ++analysis_count;
}

void SparseLDLT::Impl::require_analyzed(const char* verb) const {
  if (!analyzed) throw Error(Status::not_analyzed, std::string(verb) + ": analyze() has not been called");
}

CsrView<int32_t, double> SparseLDLT::Impl::full_matrix() const {
  return {schedule.n, schedule.n, full_rowptr32.data(), full_colind.data(),
          full_values.data()};
}

const FactorStats& SparseLDLT::Impl::refactor(const double* values) {
  require_analyzed("factor()");
  if (!values && !source.empty()) throw Error(Status::invalid_input, "factor(): the matrix has no values");
  const auto t0 = std::chrono::steady_clock::now();
  factored = false;
  using_lu = false;
  const int64_t count = fstats.factorizations + 1;
  fstats = FactorStats();
  fstats.factorizations = count;
  for (size_t e = 0; e < source.size(); ++e) full_values[e] = values[source[e]];
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

int32_t SparseLDLT::Impl::factor_ldlt(const PivotRule& rule) {
  const EngineFactorResult r = engine->factor(full_values.data(), rule);
  return api::read_factor_result(r, schedule, full_colind.data(), full_values.data(), fstats);
}

// ICC(k): PETSc's shift loop (api/ilu_shift.hpp) when a shift type is set, else one
// factorization that reports a tiny pivot (or perturbs it under perturb), as PETSc's ICC.
void SparseLDLT::Impl::factor_incomplete() {
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
    fstats.pivot_value = engine->factor_values()[static_cast<size_t>(schedule.f_diag[r.failing])];
  }
}

int32_t SparseLDLT::Impl::max_refine_steps() const {
  if (schedule.incomplete) return 0;
  if (options.refine_steps >= 0) return options.refine_steps;
  // Perturbed pivots make the factor that of a nearby matrix; refinement converges to
  // A's solution at a rate set by the perturbation, which takes more than LU's 3 steps.
  return fstats.perturbed_pivots > 0 ? 10 : 3;
}

EngineSolveResult SparseLDLT::Impl::solve_one(const double* b, double* x) {
  return engine->solve(b, x, false, max_refine_steps(), options.refine_tolerance);
}

const SolveStats& SparseLDLT::Impl::solve(int32_t nrhs, const double* b, int64_t ldb, double* x, int64_t ldx) {
  if (!factored)
    throw Error(Status::not_factored, analyzed ? "solve(): the last factorization failed or none was done"
                                               : "solve(): analyze() and factor() have not been called");
  const int64_t n = schedule.n;
  if (nrhs < 0 || ldb < n || ldx < n)
    throw Error(Status::invalid_input, "solve(): nrhs = " + std::to_string(nrhs) + ", ldb = " + std::to_string(ldb) +
                                           ", ldx = " + std::to_string(ldx) + " for n = " + std::to_string(n));
  if (nrhs > 0 && n > 0 && (!b || !x)) throw Error(Status::invalid_input, "solve(): null right-hand side or solution");
  if (nrhs > 1 && ldb != ldx && b != x) {
    const double* b_end = b + ldb * (nrhs - 1) + n;
    const double* x_end = x + ldx * (nrhs - 1) + n;
    if (std::less<const double*>()(b, x_end) && std::less<const double*>()(x, b_end))
      throw Error(Status::invalid_input, "solve(): B and X overlap with different leading dimensions");
  }
  if (using_lu) return solve_with_lu(nrhs, b, ldb, x, ldx);
  const auto t0 = std::chrono::steady_clock::now();
  sstats = SolveStats();
  const int32_t steps = max_refine_steps();
  const double tolerance = options.backward_error_tolerance;
  for (int32_t c = 0; c < nrhs; ++c) {
    const double* bc = b + ldb * c;
    double* xc = x + ldx * c;
    const double* rhs = bc;
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
Inertia SparseLDLT::Impl::inertia() const {
  if (!factored) throw Error(Status::not_factored, "inertia(): the last factorization failed or none was done");
  if (using_lu)
    throw Error(Status::unsupported,
                "inertia(): the LDL^T fell back to LU (" + std::string(to_string(fstats.recovery)) + "), which has no D");
  if (fstats.perturbed_pivots > 0)
    throw Error(Status::unsupported, "inertia(): " + std::to_string(fstats.perturbed_pivots) +
                                         " pivots were perturbed, so the signs of D need not be A's inertia");
  Inertia in;
  const std::vector<double>& f = engine->factor_values();
  for (int32_t k = 0; k < schedule.n; ++k) {
    const double d = f[static_cast<size_t>(schedule.f_diag[k])];
    if (d > 0.0)
      ++in.positive;
    else if (d < 0.0)
      ++in.negative;
    else
      ++in.zero;
  }
  return in;
}

SparseLDLT::SparseLDLT(const Options& options) : impl_(std::make_unique<Impl>(options)) {}
SparseLDLT::~SparseLDLT() = default;
SparseLDLT::SparseLDLT(SparseLDLT&&) noexcept = default;
SparseLDLT& SparseLDLT::operator=(SparseLDLT&&) noexcept = default;

void SparseLDLT::analyze(const CsrView<int32_t, double>& a, StoredTriangle stored, const int32_t* given_perm,
                         bool check_symmetry, bool spd) {
  impl_->analyze(a, stored, given_perm, check_symmetry, spd);
}

void SparseLDLT::analyze(const CsrView<int64_t, double>& a, StoredTriangle stored, const int32_t* given_perm,
                         bool check_symmetry, bool spd) {
  impl_->analyze(a, stored, given_perm, check_symmetry, spd);
}

const FactorStats& SparseLDLT::factor(const CsrView<int32_t, double>& a) {
  impl_->require_analyzed("factor()");
  impl_->input_pattern.check_same(a);
  return impl_->refactor(a.values);
}

const FactorStats& SparseLDLT::factor(const CsrView<int64_t, double>& a) {
  impl_->require_analyzed("factor()");
  impl_->input_pattern.check_same(a);
  return impl_->refactor(a.values);
}

const FactorStats& SparseLDLT::refactor(const double* values) { return impl_->refactor(values); }

const SolveStats& SparseLDLT::solve(const double* b, double* x) {
  return impl_->solve(1, b, impl_->schedule.n, x, impl_->schedule.n);
}

const SolveStats& SparseLDLT::solve(int32_t nrhs, const double* b, int64_t ldb, double* x, int64_t ldx) {
  return impl_->solve(nrhs, b, ldb, x, ldx);
}

void SparseLDLT::set_refinement(int32_t steps, double tolerance) {
  if (steps < -1 || !(tolerance >= 0.0))
    throw Error(Status::invalid_input, "set_refinement(): steps = " + std::to_string(steps) +
                                           " (>= -1), tolerance = " + std::to_string(tolerance) + " (>= 0)");
  impl_->options.refine_steps = steps;
  impl_->options.refine_tolerance = tolerance;
  if (impl_->lu) impl_->lu->set_refinement(steps, tolerance);
}

Inertia SparseLDLT::inertia() const { return impl_->inertia(); }
bool SparseLDLT::uses_lu() const noexcept { return impl_->using_lu; }
const SparseLU* SparseLDLT::fallback_lu() const noexcept { return impl_->lu.get(); }
bool SparseLDLT::analyzed() const noexcept { return impl_->analyzed; }
bool SparseLDLT::factored() const noexcept { return impl_->factored; }

const Schedule& SparseLDLT::schedule() const {
  impl_->require_analyzed("schedule()");
  return impl_->schedule;
}

const Options& SparseLDLT::options() const noexcept { return impl_->options; }
const FactorStats& SparseLDLT::factor_stats() const noexcept { return impl_->fstats; }
const SolveStats& SparseLDLT::solve_stats() const noexcept { return impl_->sstats; }
Backend SparseLDLT::active_backend() const noexcept { return impl_->backend; }
int64_t SparseLDLT::analysis_count() const noexcept { return impl_->analysis_count; }
const DeviceInfo& SparseLDLT::device_info() const noexcept { return impl_->device; }
const std::string& SparseLDLT::backend_note() const noexcept { return impl_->fallback_reason; }

const std::vector<double>& SparseLDLT::factor_values() const {
  static const std::vector<double> none;
  return impl_->engine ? impl_->engine->factor_values() : none;
}

int64_t SparseLDLT::device_bytes() const noexcept {
  return (impl_->engine ? impl_->engine->device_bytes() : 0) + (impl_->lu ? impl_->lu->device_bytes() : 0);
}

TrsvKernel SparseLDLT::trsv_kernel() const noexcept {
  return impl_->engine ? impl_->engine->trsv_kernel() : impl_->options.trsv_kernel;
}

}  // namespace gpuglu
