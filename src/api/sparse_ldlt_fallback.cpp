// What SparseLDLT does when its pivots fall short (docs/design.md, "LDL^T"): a factor with
// perturbed pivots, large growth or clamped scales is checked by a solve with a known
// solution; a supernodal factor that misses the backward-error tolerance there is redone on
// the column LDL^T (kept for the pattern); one that still misses it, or a user's solve that
// does, hands the same matrix to gpuglu's LU (with its own recoveries). Never a success with a
// wrong answer: the LU either solves within the tolerance or reports the failure.
#include <memory>
#include <string>
#include <vector>

#include "analysis/analyze_symmetric.hpp"
#include "analysis/pipeline_steps.hpp"
#include "analysis/symmetric_input.hpp"
#include "api/engine_choice.hpp"
#include "api/sparse_ldlt_impl.hpp"
#include "core/scalar.hpp"

namespace gpuglu {

// none when the LDL^T factor just computed is usable as it stands.
template <class Scalar>
RecoveryReason BasicSparseLDLT<Scalar>::Impl::assess_factor() {
  if (this->fstats.status == Status::numerically_singular) return RecoveryReason::tiny_pivot;  // overflow to Inf
  if (this->fstats.status != Status::ok || max_refine_steps() == 0) return RecoveryReason::none;
  const bool perturbed = this->fstats.perturbed_pivots > 0;
  const bool suspicious = this->fstats.growth > this->options.check_growth || this->schedule.scales_clamped > 0;
  if (!perturbed && !suspicious && !check_every_factor) return RecoveryReason::none;
  this->fstats.check_backward_error = this->check_solve();
  if (this->fstats.check_backward_error <= this->options.backward_error_tolerance) return RecoveryReason::none;
  return perturbed ? RecoveryReason::tiny_pivot : suspicious ? RecoveryReason::growth : RecoveryReason::backward_error;
}

template <class Scalar>
bool BasicSparseLDLT<Scalar>::Impl::fall_back_to_column(RecoveryReason why) {
  if (this->schedule.kind != FactorKind::supernodal_ldlt) return false;
  const FactorStats failed = this->fstats;
  Options column = this->options;
  column.ldlt_engine = LuEngine::column;
  Options o = api::ldlt_analysis_options<Scalar>(column);
  if (spd) o.scaling = false;
  std::vector<double> magnitudes;
  const CsrView<int32_t, double> full{this->schedule.n, this->schedule.n, full_rowptr32.data(), full_colind.data(),
                                      analysis_values(magnitudes)};
  this->schedule = analysis::guarded(full.nrows, [&] {
    return analysis::analyze_symmetric_input(
        analysis::check_symmetric_input(full, StoredTriangle::full, false, o.num_threads), o,
        given_perm.empty() ? nullptr : given_perm.data());
  });
  ++this->analysis_count;
  const PatternRef pattern{full_pattern.n(), full_pattern.rowptr(), full_pattern.colind()};
  this->engine = api::make_engine<Scalar>(this->schedule, pattern, this->options, this->device, &this->backend,
                                          &this->fallback_reason, hermitian);
  PivotRule rule = PivotRule::from(this->options);
  rule.policy = PivotPolicy::perturb;
  this->start_factor();
  factor_once(rule);
  this->fstats.factorizations = failed.factorizations;
  if (this->fstats.status != Status::ok || assess_factor() != RecoveryReason::none) return false;
  this->note_recovery(why, failed);
  return true;
}

// gpuglu's LU factors full_values (the values of the last factor()). The LU is analyzed
// once per pattern; its own pivot policy (automatic) re-analyzes when values change. True
// when it produced a usable factor; fstats then describes it.
template <class Scalar>
bool BasicSparseLDLT<Scalar>::Impl::fall_back_to_lu(RecoveryReason why) {
  const FactorStats failed = this->fstats;
  check_every_factor = true;
  if (!lu) {
    Options o = this->options;
    o.pivot_policy = PivotPolicy::automatic;
    if (o.ordering == Ordering::given) o.ordering = Ordering::automatic;  // the given order was for L, not for LU's matching
    auto fresh = std::make_unique<BasicSparseLU<Scalar>>(o);
    try {
      fresh->analyze(full_matrix());
    } catch (const Error& e) {
      // A structurally singular A has no LU either: the LDL^T's failure stands.
      if (e.status() != Status::structurally_singular) throw;
      this->fstats.status = Status::numerically_singular;
      this->fstats.recovery = why;
      return false;
    }
    lu = std::move(fresh);
  }
  this->fstats = lu->refactor(full_values.data());
  this->fstats.factorizations = failed.factorizations;
  this->fstats.lu_fallback = true;
  this->note_recovery(why, failed);
  this->fstats.check_backward_error = failed.check_backward_error;
  using_lu = this->fstats.status == Status::ok;
  this->factored = using_lu;
  return using_lu;
}

template <class Scalar>
const SolveStats& BasicSparseLDLT<Scalar>::Impl::solve_with_lu(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx) {
  this->sstats = lu->solve(nrhs, b, ldb, x, ldx);
  if (this->sstats.status != Status::ok || !lu->factored()) {
    const RecoveryReason why = this->fstats.recovery;
    this->fstats = lu->factor_stats();
    this->fstats.lu_fallback = true;
    this->fstats.recovery = why;
    this->factored = false;
  }
  return this->sstats;
}

template <class Scalar>
const SolveStats* BasicSparseLDLT<Scalar>::Impl::solve_elsewhere(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x,
                                                                 int64_t ldx) {
  return using_lu ? &solve_with_lu(nrhs, b, ldb, x, ldx) : nullptr;
}

// The LU fallback solves with the same refinement.
template <class Scalar>
void BasicSparseLDLT<Scalar>::Impl::set_refinement(int32_t steps, double tolerance) {
  Core::set_refinement(steps, tolerance);
  if (lu) lu->set_refinement(steps, tolerance);
}

template <class Scalar>
int64_t BasicSparseLDLT<Scalar>::Impl::device_bytes() const noexcept {
  return Core::device_bytes() + (lu ? lu->device_bytes() : 0);
}

// The members defined here, for both scalar types (sparse_ldlt.cpp instantiates the rest).
template RecoveryReason BasicSparseLDLT<double>::Impl::assess_factor();
template bool BasicSparseLDLT<double>::Impl::fall_back_to_lu(RecoveryReason);
template bool BasicSparseLDLT<double>::Impl::fall_back_to_column(RecoveryReason);
template const SolveStats* BasicSparseLDLT<double>::Impl::solve_elsewhere(int32_t, const double*, int64_t, double*,
                                                                         int64_t);
template const SolveStats& BasicSparseLDLT<double>::Impl::solve_with_lu(int32_t, const double*, int64_t, double*,
                                                                       int64_t);
template void BasicSparseLDLT<double>::Impl::set_refinement(int32_t, double);
template int64_t BasicSparseLDLT<double>::Impl::device_bytes() const noexcept;
template RecoveryReason BasicSparseLDLT<Complex>::Impl::assess_factor();
template bool BasicSparseLDLT<Complex>::Impl::fall_back_to_lu(RecoveryReason);
template bool BasicSparseLDLT<Complex>::Impl::fall_back_to_column(RecoveryReason);
template const SolveStats* BasicSparseLDLT<Complex>::Impl::solve_elsewhere(int32_t, const Complex*, int64_t, Complex*,
                                                                         int64_t);
template const SolveStats& BasicSparseLDLT<Complex>::Impl::solve_with_lu(int32_t, const Complex*, int64_t, Complex*,
                                                                       int64_t);
template void BasicSparseLDLT<Complex>::Impl::set_refinement(int32_t, double);
template int64_t BasicSparseLDLT<Complex>::Impl::device_bytes() const noexcept;

}  // namespace gpuglu
