// SparseLDLT (include/gpuglu/ldlt.hpp): analyze once per pattern, factor / refactor with
// new values, solve many times on the engine the backend choice built. The checks and the
// fallback to gpuglu's LU are in sparse_ldlt_fallback.cpp.
#include "gpuglu/ldlt.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "analysis/analyze_symmetric.hpp"
#include "analysis/pipeline_steps.hpp"
#include "analysis/row_ilu.hpp"
#include "gpuglu/analysis.hpp"
#include "api/complex_symmetry.hpp"
#include "api/engine_choice.hpp"
#include "api/real_form_ldlt.hpp"
#include "api/real_view.hpp"
#include "api/sparse_ldlt_impl.hpp"
#include "core/scalar.hpp"

namespace gpuglu {

template <class Scalar>
void BasicSparseLDLT<Scalar>::Impl::discard() {
  this->discard_shared();
  lu.reset();
  using_lu = false;
  check_every_factor = false;
  full_pattern.clear();
  full_rowptr32.clear();
  full_colind.clear();
  source.clear();
  full_values.clear();
  mirrored.clear();
  given_perm.clear();
  spd = false;
  hermitian = false;
  values_real = true;
}

// PETSc's own ICC factors by rows (MatCholeskyFactorNumeric_SeqAIJ): the column ICC's analysis
// (levels, update lists, a value map through the symmetric pattern) cost several times the
// whole of PETSc's set-up on small blocks. On a symmetric pattern the incomplete LU has
// U = D L^T, the same preconditioner, and the row ILU's analysis is a few passes over A
// (analysis/row_ilu.hpp). Where its backend is known to be the CPU before the analysis (as an
// ILU's: api::stays_on_cpu, which starts no CUDA) and the pivot rule is PETSc's, ICC(k) takes
// that path. Its shift test then reads each row of L and U, as PETSc's ILU's does.
template <class Scalar>
bool BasicSparseLDLT<Scalar>::Impl::factors_icc_by_rows(int64_t nnz_lower, Options* rows) const {
  if (this->options.ilu_levels < 0 || this->schur_mode()) return false;
  if (!api::stays_on_cpu(this->options, nnz_lower, api::devices_counted_before_cuda())) return false;
  *rows = api::analysis_options<Scalar>(this->options, /*query=*/false);
  rows->backend = Backend::cpu;
  return analysis::factors_by_rows(*rows);
}

template <class Scalar>
template <class I>
void BasicSparseLDLT<Scalar>::Impl::analyze(const CsrView<I, Scalar>& a, StoredTriangle stored, const int32_t* given,
                                            bool check_symmetry, bool spd, Symmetry symmetry) {
  discard();
  api::check_backend_request<Scalar>(this->options);
  hermitian = is_complex_v<Scalar> && symmetry == Symmetry::hermitian;
  this->schur_active = this->schur_requested;
  Options requested = this->options;
  // The one engine that keeps a Schur block, where automatic would choose; an explicit column
  // engine is refused by the analysis.
  if (this->schur_mode() && requested.ldlt_engine == LuEngine::automatic) requested.ldlt_engine = LuEngine::supernodal;
  const auto input_nnz = static_cast<int64_t>(a.rowptr[a.nrows]);
  Options rows;
  bool icc_by_rows = factors_icc_by_rows(stored == StoredTriangle::full ? (input_nnz + a.nrows) / 2 : input_nnz, &rows);
  Options o = icc_by_rows ? rows : api::ldlt_analysis_options<Scalar>(requested);
  // The scaling only bounds the entries around indefinite pivots; an SPD matrix needs none
  // (Cholesky is backward stable on it unscaled).
  if (spd) o.scaling = false;
  // A complex LDL^T is on the GPU only in real form (the supernodal engine).
  const bool real_form = is_complex_v<Scalar> && o.ldlt_engine == LuEngine::supernodal && o.ilu_levels < 0;
  // While the CPU analyzes: the context, and the engine's kernels for a large factor.
  // A Schur analysis tells no count: its warm-up starts at once.
  auto warm_up = std::make_shared<api::DeviceWarmUp>(
      this->options,
      icc_by_rows || (is_complex_v<Scalar> && !real_form) || !api::warm_up_context(this->options, input_nnz),
      api::warm_up_kernels(this->options, input_nnz, api::WarmUpKernels::ldlt),
      !this->schur_mode() && api::warm_up_waits_for_count(this->options, input_nnz));
  // AMD counts the LU's flops; an LDL^T does half its multiply-adds.
  auto counted = [&](double lu_flops) { warm_up->counted(lu_flops < 0.0 ? lu_flops : 0.5 * lu_flops); };
  o.ordering_for_cpu = api::ordering_for_cpu(o, *warm_up);
  this->spd = spd;
  if (given) given_perm.assign(given, given + a.nrows);
  auto analyze_input = [&] {
    // Complex: the pattern and finiteness are checked on the magnitudes, the values' symmetry
    // (A^T or A^H) on the values themselves; the analysis reads the magnitudes.
    std::vector<double> magnitudes;
    analysis::SymmetricInput in =
        analysis::check_symmetric_input(api::real_view(a, magnitudes), stored, check_symmetry && !is_complex_v<Scalar>,
                                        o.num_threads);
    // Full storage is its own full pattern: the source map is the identity (kept empty), and
    // full_storage() hands the input on with the gathered values (no copy of either).
    if (in.stored != StoredTriangle::full) source = in.source;
    full_rowptr32 = in.colptr;
    full_colind = in.rowind;
    full_values.resize(in.rowind.size());
    if constexpr (is_complex_v<Scalar>) {
      if (check_symmetry) api::check_complex_symmetry(in, a.values, hermitian);
      if (hermitian && !source.empty()) mirrored = api::mirrored_entries(in);
    }
    gather_full_values(a.values);
    std::vector<double> full_magnitudes;
    const double* values = analysis_values(full_magnitudes);
    if (icc_by_rows) {
      const auto n = static_cast<int32_t>(full_rowptr32.size()) - 1;
      return gpuglu::analyze(CsrView<int32_t, double>{n, n, full_rowptr32.data(), full_colind.data(), values}, o, given);
    }
    if (this->schur_mode())
      return analysis::analyze_symmetric_schur_input(analysis::full_storage(std::move(in), values, o.num_threads),
                                                     this->schur_active, o, given);
    return analysis::analyze_symmetric_input(analysis::full_storage(std::move(in), values, o.num_threads), o, given,
                                             counted);
  };
  this->schedule = analysis::guarded(a.nrows, analyze_input);
  // ICC(k > 0) was sent by rows by A's size alone; where its fill makes it large enough for
  // the GPU, it is analyzed again for the column ICC there (as SparseLU's ILU(k)).
  if (icc_by_rows && this->options.ilu_levels > 0 &&
      !api::stays_on_cpu(this->options, (this->schedule.nnz_factor() + a.nrows) / 2, api::devices_counted_before_cuda())) {
    icc_by_rows = false;
    o = api::ldlt_analysis_options<Scalar>(requested);
    if (spd) o.scaling = false;
    o.ordering_for_cpu = api::ordering_for_cpu(o, *warm_up);
    this->schedule = analysis::guarded(a.nrows, analyze_input);
  }
  warm_up->settle(this->options, this->schedule.nnz_factor());
  const double cold_flops = api::cold_start_flops(*warm_up, this->schedule);
  this->warm_up = std::move(warm_up);  // its kernels load on beside what follows
  if (icc_by_rows)
    this->keep_on_cpu(this->schedule.nnz_factor());
  else
    this->backend = api::choose_backend<Scalar>(this->options, this->schedule.nnz_factor(), this->device,
                                                this->device_claim, cold_flops, &this->fallback_reason);
  this->pattern.assign(a);
  full_pattern.assign(full_matrix());
  const PatternRef full{full_pattern.n(), full_pattern.rowptr(), full_pattern.colind()};
  if constexpr (is_complex_v<Scalar>) {
    if (this->schedule.kind == FactorKind::supernodal_ldlt) {
      try {
        this->engine = api::make_real_form_ldlt(this->schedule, full, full_rowptr32.data(), full_values.data(),
                                                hermitian, spd, o, this->device, &this->backend, &this->fallback_reason);
      } catch (...) {
        this->device_claim.release();
        throw;
      }
      if (this->backend == Backend::cpu) this->device_claim.release();
      this->analyzed = true;
      ++this->analysis_count;
      return;
    }
  }
  try {
    this->engine = api::make_engine<Scalar>(this->schedule, full, this->options, this->device, &this->backend,
                                            &this->fallback_reason, hermitian);
    this->fit_schur_engine(full, hermitian);
  } catch (...) {
    this->device_claim.release();  // no engine holds the device: the next factor may take it
    throw;
  }
  if (this->backend == Backend::cpu) this->device_claim.release();  // the GPU could not hold it
  this->analyzed = true;
  ++this->analysis_count;
}

// The caller's values in the full pattern: each entry's source, conjugated where a Hermitian
// A's entry is its source's mirror image.
template <class Scalar>
void BasicSparseLDLT<Scalar>::Impl::gather_full_values(const Scalar* values) {
  if (source.empty()) {  // full storage
    std::copy(values, values + full_values.size(), full_values.begin());
  } else if (mirrored.empty()) {
    for (size_t e = 0; e < source.size(); ++e) full_values[e] = values[source[e]];
  } else {
    for (size_t e = 0; e < source.size(); ++e) full_values[e] = conj_if(mirrored[e] != 0, values[source[e]]);
  }
  if constexpr (is_complex_v<Scalar>)
    values_real = std::all_of(full_values.begin(), full_values.end(), [](const Scalar& v) { return v.imag() == 0.0; });
}

template <class Scalar>
const double* BasicSparseLDLT<Scalar>::Impl::analysis_values(std::vector<double>& magnitudes) const {
  if constexpr (is_complex_v<Scalar>) {
    magnitudes.resize(full_values.size());
    for (size_t e = 0; e < full_values.size(); ++e) magnitudes[e] = magnitude(full_values[e]);
    return magnitudes.data();
  } else {
    (void)magnitudes;
    return full_values.data();
  }
}

template <class Scalar>
CsrView<int32_t, Scalar> BasicSparseLDLT<Scalar>::Impl::full_matrix() const {
  return {this->schedule.n, this->schedule.n, full_rowptr32.data(), full_colind.data(),
          full_values.data()};
}

template <class Scalar>
const FactorStats& BasicSparseLDLT<Scalar>::Impl::refactor(const Scalar* values) {
  this->require_analyzed("factor()");
  if (!values && !full_values.empty()) throw Error(Status::invalid_input, "factor(): the matrix has no values");
  const auto t0 = std::chrono::steady_clock::now();
  this->start_factor();
  using_lu = false;
  gather_full_values(values);
  if (this->schedule.incomplete)
    factor_incomplete();
  else
    factor_once(complete_rule());
  // A Schur factor solves nothing to check itself with, and its fallbacks would keep no Schur
  // block: its tiny pivots stay perturbed (automatic, perturb) or reported (report).
  if (!this->schedule.incomplete && this->fstats.status != Status::nan_or_inf && !this->schur_mode()) {
    const bool tiny = this->fstats.status == Status::numerically_singular;
    if (this->options.pivot_policy == PivotPolicy::automatic) {
      const RecoveryReason why = assess_factor();
      if (why != RecoveryReason::none && !fall_back_to_column(why)) fall_back_to_lu(why);
    } else if (this->options.pivot_policy == PivotPolicy::repivot && tiny) {
      fall_back_to_lu(RecoveryReason::tiny_pivot);
    }
  }
  return this->finish_factor(t0);
}

template <class Scalar>
const FactorStats& BasicSparseLDLT<Scalar>::Impl::refactor_device(const Scalar* d_values) {
  const bool direct = this->analyzed && this->schur_mode() && !this->schedule.incomplete && source.empty() &&
                      mirrored.empty() && this->engine->supports_device_pointers();
  if (!direct) return Core::refactor_device(d_values);
  if (!d_values && !full_values.empty()) throw Error(Status::invalid_input, "factor_device(): the matrix has no values");
  const auto t0 = std::chrono::steady_clock::now();
  this->start_factor();
  using_lu = false;
  const EngineFactorResult r = this->engine->factor_device(d_values, complete_rule());
  // full_values keep the last host values: only a NaN/Inf's report reads them here.
  if (r.bad_entry >= 0) this->engine->download_input(full_values.data());
  api::read_factor_result(r, this->schedule, full_colind.data(), full_values.data(), this->fstats);
  return this->finish_factor(t0);
}

// The engines know report and perturb: automatic perturbs (the checks after the factorization
// then decide); repivot reports tiny pivots, for the LU.
template <class Scalar>
PivotRule BasicSparseLDLT<Scalar>::Impl::complete_rule() const {
  PivotRule rule = PivotRule::from(this->options);
  if (this->options.pivot_policy == PivotPolicy::automatic) rule.policy = PivotPolicy::perturb;
  return rule;
}

template <class Scalar>
int32_t BasicSparseLDLT<Scalar>::Impl::factor_once(const PivotRule& rule) {
  const EngineFactorResult r = this->engine->factor(full_values.data(), rule);
  return api::read_factor_result(r, this->schedule, full_colind.data(), full_values.data(), this->fstats);
}

// ICC(k): PETSc's shift loop (Core::factor_with_shifts) when a shift type is set, else one
// factorization that reports a tiny pivot (or perturbs it under perturb), as PETSc's ICC.
template <class Scalar>
void BasicSparseLDLT<Scalar>::Impl::factor_incomplete() {
  if (this->options.shift_type == ShiftType::none)
    factor_once(PivotRule::from(this->options));
  else
    this->factor_with_shifts();
}

template <class Scalar>
int32_t BasicSparseLDLT<Scalar>::Impl::max_refine_steps() const {
  if (this->schedule.incomplete) return 0;
  if (this->options.refine_steps >= 0) return this->options.refine_steps;
  // Perturbed pivots make the factor that of a nearby matrix; refinement converges to
  // A's solution at a rate set by the perturbation, which takes more than LU's 3 steps.
  return this->fstats.perturbed_pivots > 0 ? 10 : 3;
}

// A = A^T: the transposed solve is the same solve.
template <class Scalar>
EngineSolveResult BasicSparseLDLT<Scalar>::Impl::solve_one(const Scalar* b, Scalar* x, bool, int32_t steps) {
  return this->engine->solve(b, x, false, steps, this->options.refine_tolerance);
}

// A Hermitian A has A^T = conj(A): x = conj(A^{-1} conj(b)), one L D L^H solve and no
// second factor. Every other A = A^T solves the transposed system as the system.
template <class Scalar>
const SolveStats& BasicSparseLDLT<Scalar>::Impl::solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x,
                                                       int64_t ldx, bool transpose) {
  this->refuse_full_solve(transpose ? "solve_transpose()" : "solve()");
  if (!transpose || !hermitian) return Core::solve(nrhs, b, ldb, x, ldx, false);
  this->check_solve_arguments(nrhs, b, ldb, x, ldx);
  const int64_t n = this->schedule.n;
  conj_work.resize(static_cast<size_t>(n * nrhs));
  for (int64_t c = 0; c < nrhs; ++c)
    for (int64_t i = 0; i < n; ++i) conj_work[static_cast<size_t>(c * n + i)] = conj_if(true, b[c * ldb + i]);
  const SolveStats& stats = Core::solve(nrhs, conj_work.data(), n, x, ldx, false);
  for (int64_t c = 0; c < nrhs; ++c)
    for (int64_t i = 0; i < n; ++i) x[c * ldx + i] = conj_if(true, x[c * ldx + i]);
  return stats;
}

// One column of solve(): a solve above the tolerance hands the matrix to gpuglu's LU
// (automatic), which solves this column and the rest, or fails the factor.
template <class Scalar>
void BasicSparseLDLT<Scalar>::Impl::solve_column(const Scalar* b, Scalar* x, bool transpose, int32_t steps) {
  const int64_t n = this->schedule.n;
  auto on_lu = [&] {  // b is still the right-hand side here
    const SolveStats before = this->sstats;
    solve_with_lu(1, b, n, x, n);
    this->sstats.recovered = true;
    this->sstats.refine_steps = std::max(this->sstats.refine_steps, before.refine_steps);
    this->sstats.backward_error = std::max(this->sstats.backward_error, before.backward_error);
  };
  if (using_lu) return on_lu();
  const EngineSolveResult r = solve_one(b, x, transpose, steps);
  const double tolerance = this->options.backward_error_tolerance;
  if (steps > 0 && !(r.backward_error <= tolerance) && this->solves_must_meet_tolerance()) {
    const bool moved =
        this->options.pivot_policy == PivotPolicy::automatic && fall_back_to_lu(RecoveryReason::backward_error);
    if (moved) return on_lu();
    this->fail_factor();
    this->sstats.backward_error = r.backward_error;
    this->sstats.inaccurate = true;
    return;
  }
  if (steps > 0) this->note_solve(r, r.backward_error <= tolerance, transpose);
}

// Sylvester's law of inertia: C = S P A P^T S is congruent to A and to D.
template <class Scalar>
Inertia BasicSparseLDLT<Scalar>::Impl::inertia() const {
  if (!this->factored) throw Error(Status::not_factored, "inertia(): the last factorization failed or none was done");
  if (this->schur_mode())
    throw Error(Status::unsupported,
                "inertia(): the factor leaves its Schur block S unfactored; A's inertia is A11's and S's together "
                "(Haynsworth), and S is the caller's to factor");
  if (this->schedule.kind == FactorKind::row_ilu)  // an ICC by rows (factors_icc_by_rows)
    throw Error(Status::unsupported,
                "inertia(): this ICC was factored by rows as the incomplete LU of A (-ksp_view: factored by rows); "
                "its pivots are an incomplete factor's, not A's inertia");
  if (using_lu)
    throw Error(Status::unsupported,
                "inertia(): the LDL^T fell back to LU (" + std::string(to_string(this->fstats.recovery)) +
                    "), which has no D");
  if (!hermitian && !values_real)
    throw Error(Status::unsupported,
                "inertia(): a complex symmetric (not Hermitian) matrix has no inertia; its D is complex");
  if (this->fstats.perturbed_pivots > 0)
    throw Error(Status::unsupported, "inertia(): " + std::to_string(this->fstats.perturbed_pivots) +
                                         " pivots were perturbed, so the signs of D need not be A's inertia");
  Inertia in;
  PivotSigns signs;
  if (this->engine->pivot_signs(signs)) return {signs.negative, signs.zero, signs.positive};
  const std::vector<Scalar>& f = this->engine->factor_values();
  for (int32_t k = 0; k < this->schedule.n; ++k) {
    const double d = real_part(f[static_cast<size_t>(this->schedule.f_diag[k])]);  // D of an L D L^H is real
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
BasicSparseLDLT<Scalar>::BasicSparseLDLT(const Options& options)
    : BasicSparseSolver<Scalar>(std::make_unique<Impl>(options)) {}

template <class Scalar>
void BasicSparseLDLT<Scalar>::analyze(const CsrView<int32_t, Scalar>& a, StoredTriangle stored, const int32_t* given_perm,
                                       bool check_symmetry, bool spd, Symmetry symmetry) {
  this->template core_as<Impl>().analyze(a, stored, given_perm, check_symmetry, spd, symmetry);
}

template <class Scalar>
void BasicSparseLDLT<Scalar>::analyze(const CsrView<int64_t, Scalar>& a, StoredTriangle stored, const int32_t* given_perm,
                                       bool check_symmetry, bool spd, Symmetry symmetry) {
  this->template core_as<Impl>().analyze(a, stored, given_perm, check_symmetry, spd, symmetry);
}

template <class Scalar>
Inertia BasicSparseLDLT<Scalar>::inertia() const { return this->template core_as<Impl>().inertia(); }
template <class Scalar>
bool BasicSparseLDLT<Scalar>::hermitian_values() const noexcept {
  const Impl& ldlt = this->template core_as<Impl>();
  return ldlt.hermitian || ldlt.values_real;
}
template <class Scalar>
bool BasicSparseLDLT<Scalar>::hermitian() const noexcept { return this->template core_as<Impl>().hermitian; }
template <class Scalar>
bool BasicSparseLDLT<Scalar>::uses_lu() const noexcept { return this->template core_as<Impl>().using_lu; }
template <class Scalar>
const BasicSparseLU<Scalar>* BasicSparseLDLT<Scalar>::fallback_lu() const noexcept {
  return this->template core_as<Impl>().lu.get();
}

template class BasicSparseLDLT<double>;
template class BasicSparseLDLT<Complex>;

}  // namespace gpuglu
