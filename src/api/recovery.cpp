// What SparseLU does when static pivots fail (Options::pivot_policy; docs/design.md,
// "Recovery"): re-analyze with KLU's partial pivoting (repivot), or, by default, a fresh
// static analysis of the current values, the column engine's static order where the
// supernodal one failed, then KLU's order, then a reported failure (automatic). The engines
// know nothing of this: they factor and solve what they are given.
#include <cmath>
#include <new>
#include <string>

#include "api/sparse_lu_impl.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu {

// PivotPolicy::repivot after a tiny pivot: KLU's partial pivoting on A (the analyzed pattern
// with this call's values) gives a new schedule, and the same values are factored again
// with it on the same backend. The new pivots are KLU's, which passed its threshold test on
// these very values, so this succeeds unless A is (nearly) singular; a failure is reported,
// never re-pivoted again within the call.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::repivot_once() {
  const FactorStats failed = fstats;
  if (!switch_to_partial_pivoting()) return;
  const int64_t nnz_before = fstats.repivot_nnz_before;
  fstats = FactorStats();
  fstats.factorizations = failed.factorizations;
  fstats.repivoted = true;
  fstats.repivot_column_original = failed.pivot_column_original;
  fstats.repivot_pivot_value = failed.pivot_value;
  fstats.repivot_nnz_before = nnz_before;
  factor_with_schedule(PivotRule::from(options));
}

// The schedule becomes KLU's pivot order for a_values. False, with the schedule kept and
// fstats.repivot_singular set, when KLU finds A singular too.
template <class Scalar>
bool BasicSparseLU<Scalar>::Impl::switch_to_partial_pivoting() {
  host_values();  // KLU factors A on the CPU
  const int64_t nnz_before = schedule.nnz_factor();
  Schedule klu_order;
  try {
    klu_order = analyze_partial_pivoting();
  } catch (const std::bad_alloc&) {
    throw Error(Status::out_of_memory, "re-pivoting ran out of host memory (n = " + std::to_string(schedule.n) + ")");
  } catch (const Error& e) {
    if (e.status() != Status::numerically_singular) throw;
    fstats.repivot_singular = true;
    fstats.repivot_column_original = fstats.pivot_column_original;
    fstats.repivot_pivot_value = fstats.pivot_value;
    return false;
  }
  replace_schedule(std::move(klu_order));
  ++repivots;
  fstats.repivot_nnz_before = nnz_before;
  return true;
}

// PivotPolicy::automatic, after the factorization with the schedule this call started with.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::recover_in_factor() {
  if (fstats.status == Status::nan_or_inf) return;  // an input value: no pivot order repairs it
  const RecoveryReason why = assess_factor();
  if (why == RecoveryReason::none) return;
  if (!recover(why, [&] { return assess_factor() == RecoveryReason::none; }) && fstats.status == Status::ok)
    fstats.status = Status::numerically_singular;  // the last factor failed its check solve
}

// none when the factor just computed is usable: no tiny pivot, and where it is suspicious
// (growth above check_growth, or MC64 scales clamped to the double range, which leave C
// unbalanced), a solve with a known solution within the backward-error tolerance.
template <class Scalar>
RecoveryReason BasicSparseLU<Scalar>::Impl::assess_factor() {
  if (fstats.status == Status::numerically_singular) return RecoveryReason::tiny_pivot;
  const bool suspicious = fstats.growth > options.check_growth || schedule.scales_clamped > 0;
  if (fstats.status != Status::ok || !suspicious || max_refine_steps() == 0) return RecoveryReason::none;
  fstats.check_backward_error = check_solve();
  return fstats.check_backward_error <= options.backward_error_tolerance ? RecoveryReason::none
                                                                         : RecoveryReason::growth;
}

// Solves A x = A t for t_i in [1, 2) (a smooth, nonzero solution, so that every component
// of b has a reference scale) and returns the backward error the refined solve reaches.
template <class Scalar>
double BasicSparseLU<Scalar>::Impl::check_solve() {
  host_values();  // b = A t is formed on the CPU
  const auto n = static_cast<size_t>(schedule.n);
  check_x.resize(n);
  check_b.resize(n);
  for (size_t i = 0; i < n; ++i) check_x[i] = Scalar(1.0 + static_cast<double>((i * 2654435761u) % 1024) / 1024.0);
  spmv(analyzed_matrix(), check_x.data(), check_b.data());
  return solve_one(check_b.data(), check_x.data(), false, max_refine_steps()).backward_error;
}

// PivotPolicy::automatic: the factor of the current schedule failed (why). The schedules
// after it are tried in turn until accept() takes one's factor: a fresh static analysis of
// the current values (the fast path again; skipped when the schedule was analyzed from
// them), the column engine's static schedule (where the failing one is supernodal), then
// KLU's partial pivoting (skipped when the schedule already is KLU's for them).
// False: none was accepted, and fstats describes the last attempt.
template <class Scalar>
bool BasicSparseLU<Scalar>::Impl::recover(RecoveryReason why, const std::function<bool()>& accept) {
  host_values();  // every schedule after this one is analyzed from A's values on the CPU
  const FactorStats failed = fstats;
  const int64_t nnz_before = schedule.nnz_factor();
  auto restart = [&](bool reanalyzed) {
    fstats = FactorStats();
    fstats.factorizations = failed.factorizations;
    fstats.repivot_nnz_before = nnz_before;
    fstats.recovery = why;
    fstats.reanalyzed = reanalyzed;
    if (why == RecoveryReason::growth) fstats.recovery_growth = failed.growth;
    if (why == RecoveryReason::tiny_pivot) {
      fstats.repivot_column_original = failed.pivot_column_original;
      fstats.repivot_pivot_value = failed.pivot_value;
    }
  };
  bool reanalyzed = false;
  if (!schedule_fits_values) {
    reanalyze_static();
    reanalyzed = true;
    restart(reanalyzed);
    factor_with_schedule(PivotRule::from(options));
    if (accept()) return true;
  }
  if (schedule.supernodal) {
    // Nested dissection on C + C^T met a tiny pivot that AMD's order on C often avoids
    // (KKT systems such as tuma1): the column engine's static schedule of these values
    // comes before KLU's order, and is kept by later factorizations as KLU's would be.
    reanalyze_static(LuEngine::column);
    reanalyzed = true;
    restart(reanalyzed);
    factor_with_schedule(PivotRule::from(options));
    if (accept()) return true;
  }
  if (schedule_fits_values && schedule.repivoted) return false;
  if (!switch_to_partial_pivoting()) return false;
  restart(reanalyzed);
  fstats.repivoted = true;
  factor_with_schedule(PivotRule::from(options));
  return accept();
}

// The static pipeline (matching, ordering, symbolic) on the current values, as analyze()
// would run it had these values come first; engine: the engine it analyzes for from now on
// (automatic: the one analyze() resolved).
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::reanalyze_static(LuEngine engine) {
  if (engine != LuEngine::automatic) analysis_options.lu_engine = engine;
  Schedule fresh = analyze_values();
  replace_schedule(std::move(fresh));
  ++reanalyses;
}

// A solve above the tolerance is no solution unless the user chose perturbed pivots (a
// preconditioner) or an incomplete factor (never refined).
template <class Scalar>
bool BasicSparseLU<Scalar>::Impl::solves_must_meet_tolerance() const {
  return options.pivot_policy != PivotPolicy::perturb && !schedule.incomplete;
}

// No pivot order gives a solve within the tolerance: the factor is unusable from now on.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::fail_factor() {
  sstats.status = Status::numerically_singular;
  if (fstats.status == Status::ok) fstats.status = Status::numerically_singular;
  if (fstats.recovery == RecoveryReason::none) fstats.recovery = RecoveryReason::backward_error;
  factored = false;
}


// The members defined here, for both scalar types (sparse_lu.cpp instantiates the rest).
template void BasicSparseLU<double>::Impl::repivot_once();
template bool BasicSparseLU<double>::Impl::switch_to_partial_pivoting();
template void BasicSparseLU<double>::Impl::recover_in_factor();
template RecoveryReason BasicSparseLU<double>::Impl::assess_factor();
template double BasicSparseLU<double>::Impl::check_solve();
template bool BasicSparseLU<double>::Impl::recover(RecoveryReason, const std::function<bool()>&);
template void BasicSparseLU<double>::Impl::reanalyze_static(LuEngine);
template bool BasicSparseLU<double>::Impl::solves_must_meet_tolerance() const;
template void BasicSparseLU<double>::Impl::fail_factor();
template void BasicSparseLU<Complex>::Impl::repivot_once();
template bool BasicSparseLU<Complex>::Impl::switch_to_partial_pivoting();
template void BasicSparseLU<Complex>::Impl::recover_in_factor();
template RecoveryReason BasicSparseLU<Complex>::Impl::assess_factor();
template double BasicSparseLU<Complex>::Impl::check_solve();
template bool BasicSparseLU<Complex>::Impl::recover(RecoveryReason, const std::function<bool()>&);
template void BasicSparseLU<Complex>::Impl::reanalyze_static(LuEngine);
template bool BasicSparseLU<Complex>::Impl::solves_must_meet_tolerance() const;
template void BasicSparseLU<Complex>::Impl::fail_factor();

}  // namespace gpuglu
