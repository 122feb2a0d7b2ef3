// The steps SparseLU and SparseLDLT share (api/solver_core.hpp): the frame of a
// factorization, the loop over right-hand sides with its argument checks, the check solve
// of a suspicious factor, PETSc's shift loop for incomplete factors, and the policy that a
// solve above the backward-error tolerance is no solution. The facades fill in what
// differs: how a factor is computed and what a column's solve does when it misses.
#include "api/solver_core.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include "api/engine_choice.hpp"
#include "api/ilu_shift.hpp"
#include "gpuglu/analysis.hpp"
#include "core/scalar.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu {

template <class Scalar>
BasicSparseSolver<Scalar>::Core::Core(const Options& o)
    : options(o), backend(o.backend == Backend::cuda ? Backend::cuda : Backend::cpu) {
  validate(options);
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::discard_shared() {
  engine.reset();  // first: its device memory may be what the next engine needs
  device_claim.release();
  fallback_reason.clear();
  analyzed = false;
  factored = false;
  schedule = Schedule();
  pattern.clear();
  fstats = FactorStats();
  sstats = SolveStats();
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::keep_on_cpu(int64_t nnz_factor) {
  device_claim.release();
  backend = Backend::cpu;
  if (options.backend == Backend::automatic) fallback_reason = api::size_rule_note(nnz_factor);
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::require_analyzed(const char* verb) const {
  if (!analyzed) throw Error(Status::not_analyzed, std::string(verb) + ": analyze() has not been called");
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::require_factored() const {
  if (!factored)
    throw Error(Status::not_factored, analyzed ? "solve(): the last factorization failed or none was done"
                                               : "solve(): analyze() and factor() have not been called");
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::check_solve_arguments(int32_t nrhs, const Scalar* b, int64_t ldb, const Scalar* x,
                                                            int64_t ldx) const {
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
}

template <class Scalar>
const SolveStats* BasicSparseSolver<Scalar>::Core::solve_elsewhere(int32_t, const Scalar*, int64_t, Scalar*, int64_t) {
  return nullptr;
}

// Column by column; a column whose solve fails (sstats.status) ends the call.
template <class Scalar>
const SolveStats& BasicSparseSolver<Scalar>::Core::solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x,
                                                         int64_t ldx, bool transpose) {
  check_solve_arguments(nrhs, b, ldb, x, ldx);
  if (const SolveStats* elsewhere = solve_elsewhere(nrhs, b, ldb, x, ldx)) return *elsewhere;
  const int64_t n = schedule.n;
  const auto t0 = std::chrono::steady_clock::now();
  sstats = SolveStats();
  const int32_t steps = solve_steps(transpose);
  for (int32_t c = 0; c < nrhs && sstats.status == Status::ok; ++c) {
    const Scalar* bc = b + ldb * c;
    Scalar* xc = x + ldx * c;
    // The engines read b while writing x, and a recovery reads it again: b is copied where
    // they overlap.
    const Scalar* rhs = bc;
    if (api::overlap(bc, xc, n)) {
      rhs_copy.assign(bc, bc + n);
      rhs = rhs_copy.data();
    }
    solve_column(rhs, xc, transpose, steps);
  }
  sstats.solve_ms = api::ms_since(t0);
  return sstats;
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::note_solve(const EngineSolveResult& r, bool met, bool transpose) {
  sstats.refine_steps = std::max(sstats.refine_steps, r.refine_steps);
  sstats.backward_error = std::max(sstats.backward_error, r.backward_error);
  sstats.inaccurate = sstats.inaccurate || !met;
  // A solve that needed no correction shows the factor's solves backward stable (where no pivot
  // was perturbed); one that needed any turns the check back on for every solve.
  const bool clean = r.refine_steps == 0 && r.backward_error >= 0.0 &&
                     r.backward_error <= options.refine_tolerance && fstats.perturbed_pivots == 0;
  int64_t& count = clean_solves_of(transpose);
  count = clean ? std::max<int64_t>(count, 0) : -1;
}

template <class Scalar>
int32_t BasicSparseSolver<Scalar>::Core::solve_steps(bool transpose) {
  const int32_t steps = max_refine_steps();
  int64_t& count = clean_solves_of(transpose);
  if (steps == 0 || options.refine_steps >= 0 || count < 0) return steps;
  return ++count % options.refine_check_interval == 0 ? steps : 0;
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::start_factor() {
  factored = false;
  const int64_t count = fstats.factorizations + 1;
  fstats = FactorStats();
  fstats.factorizations = count;
  clean_solves = {-1, -1};
}

template <class Scalar>
const FactorStats& BasicSparseSolver<Scalar>::Core::finish_factor(std::chrono::steady_clock::time_point t0) {
  factored = fstats.status == Status::ok;
  fstats.factor_ms = api::ms_since(t0);
  return fstats;
}

// A solve above the tolerance is no solution unless the user chose perturbed pivots (a
// preconditioner) or an incomplete factor (never refined).
template <class Scalar>
bool BasicSparseSolver<Scalar>::Core::solves_must_meet_tolerance() const {
  return options.pivot_policy != PivotPolicy::perturb && !schedule.incomplete;
}

// No pivot order gives a solve within the tolerance: the factor is unusable from now on.
template <class Scalar>
void BasicSparseSolver<Scalar>::Core::fail_factor() {
  sstats.status = Status::numerically_singular;
  if (fstats.status == Status::ok) fstats.status = Status::numerically_singular;
  if (fstats.recovery == RecoveryReason::none) fstats.recovery = RecoveryReason::backward_error;
  factored = false;
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::note_recovery(RecoveryReason why, const FactorStats& failed) {
  fstats.recovery = why;
  if (why == RecoveryReason::growth) fstats.recovery_growth = failed.growth;
  if (why == RecoveryReason::tiny_pivot) {
    fstats.repivot_column_original = failed.pivot_column_original;
    fstats.repivot_pivot_value = failed.pivot_value;
  }
}

// Solves A x = A t for t_i in [1, 2) (a smooth, nonzero solution, so that every component
// of b has a reference scale) and returns the backward error the refined solve reaches:
// the one a user's solve would reach.
template <class Scalar>
double BasicSparseSolver<Scalar>::Core::check_solve() {
  const CsrView<int32_t, Scalar> a = host_matrix();  // b = A t is formed on the CPU
  const auto n = static_cast<size_t>(schedule.n);
  check_x.resize(n);
  check_b.resize(n);
  for (size_t i = 0; i < n; ++i) check_x[i] = Scalar(1.0 + static_cast<double>((i * 2654435761u) % 1024) / 1024.0);
  spmv(a, check_x.data(), check_b.data());
  return solve_one(check_b.data(), check_x.data(), false, max_refine_steps()).backward_error;
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::set_failure_column(int32_t column) {
  fstats.pivot_column = column;
  fstats.pivot_column_original = column >= 0 ? schedule.col_perm[column] : -1;
}

// Options::shift_type (incomplete factorizations): PETSc's shift loop (api/ilu_shift.hpp).
// The engines perturb only exact zero pivots meanwhile, which keeps the rows before them
// exact for the row test; a factor that passes the test has no perturbed pivot.
template <class Scalar>
void BasicSparseSolver<Scalar>::Core::factor_with_shifts() {
  double top = 0.0;
  if (options.shift_type == ShiftType::positive_definite) {  // the bound reads A on the CPU
    const CsrView<int32_t, Scalar> a = host_matrix();
    const detail::AnalyzedPattern& p = engine_pattern();
    top = api::manteuffel_bound(p.n(), p.rowptr(), p.colind(), a.values, options.zero_pivot);
  }
  int32_t first_perturbed = -1;
  spell_out_factor(schedule, options.num_threads);  // the test reads F (the row ILU keeps rows)
  const api::ShiftOutcome r = api::run_shift_search(
      options.shift_type, options.shift_amount, top,
      [&](double shift) {
        first_perturbed = factor_once(PivotRule{PivotPolicy::perturb, 0.0, 0.0, 1.0, shift});
        return fstats.status == Status::ok;  // NaN/Inf: no shift repairs that
      },
      [&] {
        return api::first_failing_row(schedule, engine->factor_values().data(), options.shift_type, options.zero_pivot,
                                      first_perturbed);
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
void BasicSparseSolver<Scalar>::Core::set_refinement(int32_t steps, double tolerance) {
  if (steps < -1 || !(tolerance >= 0.0))
    throw Error(Status::invalid_input, "set_refinement(): steps = " + std::to_string(steps) +
                                           " (>= -1), tolerance = " + std::to_string(tolerance) + " (>= 0)");
  options.refine_steps = steps;
  options.refine_tolerance = tolerance;
  clean_solves = {-1, -1};
}

template <class Scalar>
int64_t BasicSparseSolver<Scalar>::Core::device_bytes() const noexcept {
  return engine ? engine->device_bytes() : 0;
}

template <class Scalar>
bool BasicSparseSolver<Scalar>::Core::device_data_direct() const noexcept {
  return engine && engine->supports_device_pointers();
}

template struct BasicSparseSolver<double>::Core;
template struct BasicSparseSolver<Complex>::Core;

}  // namespace gpuglu
