// What SparseLU does when static pivots fail (Options::pivot_policy; docs/design.md,
// "Recovery"): re-analyze with KLU's partial pivoting (repivot), or, by default, a fresh
// static analysis of the current values, where the supernodal one failed the supernodal LU in
// the LDL^T analysis's paired order (a symmetric A with small diagonals) and then the column
// engine's static order, then KLU's order, then a reported failure (automatic). The engines
// know nothing of this: they factor and solve what they are given (a supernodal one pivots
// inside its supernodes first: core/supernode_pivoting.hpp).
#include <cmath>
#include <new>
#include <string>

#include "analysis/analyze_symmetric.hpp"
#include "analysis/symmetric_input.hpp"
#include "api/engine_choice.hpp"
#include "api/sparse_lu_impl.hpp"
#include "core/scalar.hpp"
#include "gpuglu/analysis.hpp"

namespace gpuglu {

// PivotPolicy::repivot after a tiny pivot: KLU's partial pivoting on A (the analyzed pattern
// with this call's values) gives a new schedule, and the same values are factored again
// with it on the same backend. The new pivots are KLU's, which passed its threshold test on
// these very values, so this succeeds unless A is (nearly) singular; a failure is reported,
// never re-pivoted again within the call.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::repivot_once() {
  const FactorStats failed = this->fstats;
  if (!switch_to_partial_pivoting()) return;
  const int64_t nnz_before = this->fstats.repivot_nnz_before;
  this->fstats = FactorStats();
  this->fstats.factorizations = failed.factorizations;
  this->fstats.repivoted = true;
  this->fstats.repivot_column_original = failed.pivot_column_original;
  this->fstats.repivot_pivot_value = failed.pivot_value;
  this->fstats.repivot_nnz_before = nnz_before;
  factor_with_schedule(PivotRule::from(this->options));
}

// The schedule becomes KLU's pivot order for a_values. False, with the schedule kept and
// fstats.repivot_singular set, when KLU finds A singular too.
template <class Scalar>
bool BasicSparseLU<Scalar>::Impl::switch_to_partial_pivoting() {
  host_values();  // KLU factors A on the CPU
  const int64_t nnz_before = this->schedule.nnz_factor();
  Schedule klu_order;
  try {
    klu_order = analyze_partial_pivoting();
  } catch (const std::bad_alloc&) {
    throw Error(Status::out_of_memory,
                "re-pivoting ran out of host memory (n = " + std::to_string(this->schedule.n) + ")");
  } catch (const Error& e) {
    if (e.status() != Status::numerically_singular) throw;
    this->fstats.repivot_singular = true;
    this->fstats.repivot_column_original = this->fstats.pivot_column_original;
    this->fstats.repivot_pivot_value = this->fstats.pivot_value;
    return false;
  }
  replace_schedule(std::move(klu_order));
  ++repivots;
  this->fstats.repivot_nnz_before = nnz_before;
  return true;
}

// PivotPolicy::automatic, after the factorization with the schedule this call started with.
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::recover_in_factor() {
  if (this->fstats.status == Status::nan_or_inf) return;  // an input value: no pivot order repairs it
  const RecoveryReason why = assess_factor();
  if (why == RecoveryReason::none) return;
  if (!recover(why, [&] { return assess_factor() == RecoveryReason::none; }) && this->fstats.status == Status::ok)
    this->fstats.status = Status::numerically_singular;  // the last factor failed its check solve
}

// none when the factor just computed is usable: no tiny pivot, and where it is suspicious
// (growth above check_growth, or MC64 scales clamped to the double range, which leave C
// unbalanced), a solve with a known solution within the backward-error tolerance.
template <class Scalar>
RecoveryReason BasicSparseLU<Scalar>::Impl::assess_factor() {
  if (this->fstats.status == Status::numerically_singular) return RecoveryReason::tiny_pivot;
  // A Schur factor solves no system with A, so there is no check solve to run.
  if (this->schur_mode()) return RecoveryReason::none;
  const bool suspicious = this->fstats.growth > this->options.check_growth || this->schedule.scales_clamped > 0;
  if (this->fstats.status != Status::ok || !suspicious || max_refine_steps() == 0) return RecoveryReason::none;
  this->fstats.check_backward_error = this->check_solve();
  return this->fstats.check_backward_error <= this->options.backward_error_tolerance ? RecoveryReason::none
                                                                         : RecoveryReason::growth;
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
  const FactorStats failed = this->fstats;
  const int64_t nnz_before = this->schedule.nnz_factor();
  auto restart = [&](bool reanalyzed) {
    this->fstats = FactorStats();
    this->fstats.factorizations = failed.factorizations;
    this->fstats.repivot_nnz_before = nnz_before;
    this->fstats.reanalyzed = reanalyzed;
    this->note_recovery(why, failed);
  };
  bool reanalyzed = false;
  if (!schedule_fits_values) {
    reanalyze_static();
    reanalyzed = true;
    restart(reanalyzed);
    factor_with_schedule(PivotRule::from(this->options));
    if (accept()) return true;
  }
  // A Schur factor keeps to the supernodal LU with I last: the rungs below change one or the other.
  if (this->schur_mode()) return false;
  if (this->schedule.supernodal() && reanalyze_paired()) {
    reanalyzed = true;
    restart(reanalyzed);
    factor_with_schedule(PivotRule::from(this->options));
    if (accept()) return true;
  }
  if (this->schedule.supernodal()) {
    // Nested dissection on C + C^T met a tiny pivot that AMD's order on C often avoids:
    // the column engine's static schedule of these values comes before KLU's order, and is
    // kept by later factorizations as KLU's would be.
    reanalyze_static(LuEngine::column);
    reanalyzed = true;
    restart(reanalyzed);
    factor_with_schedule(PivotRule::from(this->options));
    if (accept()) return true;
  }
  if (schedule_fits_values && this->schedule.repivoted) return false;
  if (!switch_to_partial_pivoting()) return false;
  restart(reanalyzed);
  this->fstats.repivoted = true;
  factor_with_schedule(PivotRule::from(this->options));
  return accept();
}

// A KKT system (tuma1): MC64's row permutation made C's diagonal nonzero, yet nested
// dissection's supernodes met pivots that cancel to zero in diagonal blocks holding no better
// row (their pivots lie in the ancestors' rows). The LDL^T analysis's order for a symmetric A
// ties each small diagonal to its matched partner and eliminates the partner first, which fills
// it: the supernodal LU in that order, without the row permutation (the pairs stand for it),
// meets no such pivot. False, with the schedule kept, where A is complex, not symmetric in
// pattern and values, or has no small diagonal to pair.
template <class Scalar>
bool BasicSparseLU<Scalar>::Impl::reanalyze_paired() {
  if constexpr (is_complex_v<Scalar>) {
    return false;
  } else {
    host_values();
    const CsrView<int32_t, double> a = analyzed_matrix();
    analysis::SymmetricInput in;
    try {
      in = analysis::check_symmetric_input(a, StoredTriangle::full, /*check_symmetry=*/true, this->options.num_threads);
    } catch (const Error& e) {
      if (e.status() == Status::invalid_input) return false;  // not symmetric
      throw;
    }
    const std::vector<int32_t> q = analysis::paired_symmetric_ordering(in, analysis_options);
    if (q.empty()) return false;
    Options o = analysis_options;
    o.ordering = Ordering::given;
    o.matching = false;
    replace_schedule(gpuglu::analyze(a, o, q.data()));
    ++reanalyses;
    return true;
  }
}

// The static pipeline (matching, ordering, symbolic) on the current values, as analyze()
// would run it had these values come first; kind: the engine it analyzes for from now on
// (automatic: the one analyze() resolved).
template <class Scalar>
void BasicSparseLU<Scalar>::Impl::reanalyze_static(LuEngine kind) {
  if (kind != LuEngine::automatic) analysis_options.lu_engine = kind;
  analysis_options = api::analysis_options<Scalar>(analysis_options);  // a column engine's warps
  Schedule fresh = analyze_values();
  replace_schedule(std::move(fresh));
  ++reanalyses;
}


// The members defined here, for both scalar types (sparse_lu.cpp instantiates the rest).
template void BasicSparseLU<double>::Impl::repivot_once();
template bool BasicSparseLU<double>::Impl::switch_to_partial_pivoting();
template void BasicSparseLU<double>::Impl::recover_in_factor();
template RecoveryReason BasicSparseLU<double>::Impl::assess_factor();
template bool BasicSparseLU<double>::Impl::recover(RecoveryReason, const std::function<bool()>&);
template void BasicSparseLU<double>::Impl::reanalyze_static(LuEngine);
template bool BasicSparseLU<double>::Impl::reanalyze_paired();
template void BasicSparseLU<Complex>::Impl::repivot_once();
template bool BasicSparseLU<Complex>::Impl::switch_to_partial_pivoting();
template void BasicSparseLU<Complex>::Impl::recover_in_factor();
template RecoveryReason BasicSparseLU<Complex>::Impl::assess_factor();
template bool BasicSparseLU<Complex>::Impl::recover(RecoveryReason, const std::function<bool()>&);
template void BasicSparseLU<Complex>::Impl::reanalyze_static(LuEngine);
template bool BasicSparseLU<Complex>::Impl::reanalyze_paired();

}  // namespace gpuglu
