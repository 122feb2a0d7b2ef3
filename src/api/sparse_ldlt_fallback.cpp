// What SparseLDLT does when its static pivots fall short (docs/design.md, "LDL^T"): a
// factor with perturbed pivots, large growth or clamped scales is checked by a solve with a
// known solution; one that misses the backward-error tolerance there, or in a user's solve,
// hands the same matrix to gpuglu's LU (with its own recoveries). Never a success with a
// wrong answer: the LU either solves within the tolerance or reports the failure.
#include <memory>
#include <string>

#include "api/sparse_ldlt_impl.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu {

// none when the LDL^T factor just computed is usable as it stands.
template <class Scalar>
RecoveryReason BasicSparseLDLT<Scalar>::Impl::assess_factor() {
  if (fstats.status == Status::numerically_singular) return RecoveryReason::tiny_pivot;  // overflow to Inf
  if (fstats.status != Status::ok || max_refine_steps() == 0) return RecoveryReason::none;
  const bool perturbed = fstats.perturbed_pivots > 0;
  const bool suspicious = fstats.growth > options.check_growth || schedule.scales_clamped > 0;
  if (!perturbed && !suspicious && !check_every_factor) return RecoveryReason::none;
  fstats.check_backward_error = check_solve();
  if (fstats.check_backward_error <= options.backward_error_tolerance) return RecoveryReason::none;
  return perturbed ? RecoveryReason::tiny_pivot : suspicious ? RecoveryReason::growth : RecoveryReason::backward_error;
}

// A x = A t for t_i in [1, 2), refined: the backward error a user's solve would reach.
template <class Scalar>
double BasicSparseLDLT<Scalar>::Impl::check_solve() {
  const auto n = static_cast<size_t>(schedule.n);
  check_x.resize(n);
  check_b.resize(n);
  for (size_t i = 0; i < n; ++i) check_x[i] = Scalar(1.0 + static_cast<double>((i * 2654435761u) % 1024) / 1024.0);
  spmv(full_matrix(), check_x.data(), check_b.data());
  return solve_one(check_b.data(), check_x.data()).backward_error;
}

// gpuglu's LU factors full_values (the values of the last factor()). The LU is analyzed
// once per pattern; its own pivot policy (automatic) re-analyzes when values change. True
// when it produced a usable factor; fstats then describes it.
template <class Scalar>
bool BasicSparseLDLT<Scalar>::Impl::fall_back_to_lu(RecoveryReason why) {
  const FactorStats failed = fstats;
  check_every_factor = true;
  if (!lu) {
    Options o = options;
    o.pivot_policy = PivotPolicy::automatic;
    if (o.ordering == Ordering::given) o.ordering = Ordering::automatic;  // the given order was for L, not for LU's matching
    auto fresh = std::make_unique<BasicSparseLU<Scalar>>(o);
    try {
      fresh->analyze(full_matrix());
    } catch (const Error& e) {
      // A structurally singular A has no LU either: the LDL^T's failure stands.
      if (e.status() != Status::structurally_singular) throw;
      fstats.status = Status::numerically_singular;
      fstats.recovery = why;
      return false;
    }
    lu = std::move(fresh);
  }
  fstats = lu->refactor(full_values.data());
  fstats.factorizations = failed.factorizations;
  fstats.lu_fallback = true;
  fstats.recovery = why;
  if (why == RecoveryReason::growth) fstats.recovery_growth = failed.growth;
  if (why == RecoveryReason::tiny_pivot) {
    fstats.repivot_column_original = failed.pivot_column_original;
    fstats.repivot_pivot_value = failed.pivot_value;
  }
  fstats.check_backward_error = failed.check_backward_error;
  using_lu = fstats.status == Status::ok;
  factored = using_lu;
  return using_lu;
}

template <class Scalar>
const SolveStats& BasicSparseLDLT<Scalar>::Impl::solve_with_lu(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx) {
  sstats = lu->solve(nrhs, b, ldb, x, ldx);
  if (sstats.status != Status::ok || !lu->factored()) {
    const RecoveryReason why = fstats.recovery;
    fstats = lu->factor_stats();
    fstats.lu_fallback = true;
    fstats.recovery = why;
    factored = false;
  }
  return sstats;
}

template <class Scalar>
bool BasicSparseLDLT<Scalar>::Impl::solves_must_meet_tolerance() const {
  return options.pivot_policy != PivotPolicy::perturb && !schedule.incomplete;
}


// The members defined here, for both scalar types (sparse_ldlt.cpp instantiates the rest).
template RecoveryReason BasicSparseLDLT<double>::Impl::assess_factor();
template double BasicSparseLDLT<double>::Impl::check_solve();
template bool BasicSparseLDLT<double>::Impl::fall_back_to_lu(RecoveryReason);
template const SolveStats& BasicSparseLDLT<double>::Impl::solve_with_lu(int32_t, const double*, int64_t, double*, int64_t);
template bool BasicSparseLDLT<double>::Impl::solves_must_meet_tolerance() const;
template RecoveryReason BasicSparseLDLT<Complex>::Impl::assess_factor();
template double BasicSparseLDLT<Complex>::Impl::check_solve();
template bool BasicSparseLDLT<Complex>::Impl::fall_back_to_lu(RecoveryReason);
template const SolveStats& BasicSparseLDLT<Complex>::Impl::solve_with_lu(int32_t, const Complex*, int64_t, Complex*, int64_t);
template bool BasicSparseLDLT<Complex>::Impl::solves_must_meet_tolerance() const;

}  // namespace gpuglu
