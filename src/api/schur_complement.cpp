// SparseLU's Schur-complement mode (include/gpuglu/lu.hpp; docs/design.md, "Schur
// complements"): the analysis orders the Schur unknowns last and unscaled
// (analyze_schur), the engine leaves their block unfactored (core/numeric_engine.hpp's
// schur_block / schur_forward / schur_backward, in C's numbering), and this file maps A's
// numbering and scale onto C's and back around them, as solve_permuted does for a solve.
#include <string>
#include <utility>
#include <vector>

#include "api/sparse_lu_impl.hpp"
#include "core/scalar.hpp"
#include "gpuglu/analysis.hpp"

namespace gpuglu {

namespace {

template <class Scalar>
void refuse_complex(const char* verb) {
  if constexpr (is_complex_v<Scalar>)
    throw Error(Status::unsupported, std::string(verb) +
                                         ": Schur complements are computed by the supernodal LU, which factors real "
                                         "matrices only");
}

// S's k x k destination `name` with leading dimension ld, for `what` (schur_complement() and
// its device copy).
void check_schur_destination(const char* what, const char* name, const void* out, int64_t ld, int64_t k) {
  if (ld < k || !out)
    throw Error(Status::invalid_input, std::string(what) + ": ld = " + std::to_string(ld) + " for k = " +
                                           std::to_string(k) + (out ? "" : std::string(", and ") + name + " is null"));
}

}  // namespace

template <class Scalar>
Options BasicSparseLU<Scalar>::Impl::schur_analysis_options(Options resolved) const {
  const Options& o = this->options;
  if (o.ilu_levels >= 0)
    throw Error(Status::unsupported, "Schur complements need a complete LU, not ILU(" +
                                         std::to_string(o.ilu_levels) + ") (PETSc: -pc_type lu)");
  if (o.lu_engine == LuEngine::column)
    throw Error(Status::unsupported,
                "Schur complements are computed by the supernodal LU only, and lu_engine is column "
                "(PETSc: -mat_gpuglu_lu_engine supernodal)");
  if (o.pivot_policy == PivotPolicy::repivot)
    throw Error(Status::unsupported,
                "Schur complements: pivot_policy repivot re-orders the whole matrix by KLU's partial pivoting, "
                "which would move the Schur unknowns; use automatic, report or perturb "
                "(PETSc: -mat_gpuglu_pivot_policy)");
  // The one engine that keeps a Schur block, whatever automatic would choose for A.
  resolved.lu_engine = LuEngine::supernodal;
  return resolved;
}

template <class Scalar>
template <class I>
Schedule BasicSparseLU<Scalar>::Impl::analyze_pattern(const CsrView<I, double>& a, const int32_t* given) {
  if (!schur_mode()) return gpuglu::analyze(a, analysis_options, given);
  return analyze_schur(a, schur_active, analysis_options, given);
}

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::fit_schur_engine() {
  if (!schur_mode() || this->engine->supports_schur()) return;
  if (this->options.backend != Backend::automatic)
    throw Error(Status::unsupported, "Schur complements: the " + std::string(to_string(this->backend)) +
                                         " engine does not keep a Schur block yet; use backend cpu or auto");
  this->engine.reset();
  this->engine = make_cpu_engine<Scalar>(this->schedule, pattern_ref(), this->options);
  this->backend = Backend::cpu;
  this->fallback_reason = "Schur complements are computed by the CPU supernodal LU";
}

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::refuse_full_solve(const char* verb) const {
  if (schur_mode())
    throw Error(Status::unsupported, std::string(verb) +
                                         ": the factor keeps a Schur block (set_schur_indices), so it solves no "
                                         "system with A; use condense(), solve the reduced system, then expand()");
}

template <class Scalar>
const SolveStats& BasicSparseLU<Scalar>::Impl::solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx,
                                                     bool transpose) {
  refuse_full_solve(transpose ? "solve_transpose()" : "solve()");
  return Core::solve(nrhs, b, ldb, x, ldx, transpose);
}

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::require_schur_factor(const char* verb) const {
  this->require_analyzed(verb);
  if (!schur_mode())
    throw Error(Status::invalid_input,
                std::string(verb) + ": no Schur indices were set before analyze() (set_schur_indices)");
  if (!this->factored)
    throw Error(Status::not_factored, std::string(verb) + ": the last factorization failed or none was done");
}

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::require_schur_in_place(const char* what) const {
  const Schedule& sc = this->schedule;
  const int32_t m = sc.n - sc.schur_size;
  for (size_t i = 0; i < schur_active.size(); ++i) {
    const int32_t u = schur_active[i];
    if (sc.row_perm_inv[u] != m + static_cast<int32_t>(i) || sc.col_perm_inv[u] != m + static_cast<int32_t>(i) ||
        sc.row_scale[u] != 1.0 || sc.col_scale[u] != 1.0)
      throw Error(Status::invalid_input,
                  std::string(what) + ": the analysis moved or scaled Schur unknown " + std::to_string(u));
  }
}

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::require_condensed(const char* verb, bool transpose, bool on_device) const {
  const char* condense = on_device ? "condense_device()" : "condense()";
  if (condensed_analysis != this->analysis_count || condensed_factor != this->fstats.factorizations ||
      condensed_on_device != on_device)
    throw Error(Status::invalid_input, std::string(verb) + ": no " + condense + " since the last factor()");
  if (condensed_transpose != transpose)
    throw Error(Status::invalid_input, std::string(verb) + ": the last " + condense + " was " +
                                           (condensed_transpose ? "transposed" : "not transposed") + ", this one is " +
                                           (transpose ? "transposed" : "not transposed"));
}

template <class Scalar>
void BasicSparseLU<Scalar>::Impl::record_condensed(bool transpose, bool on_device) {
  condensed_analysis = this->analysis_count;
  condensed_factor = this->fstats.factorizations;
  condensed_transpose = transpose;
  condensed_on_device = on_device;
}

template <class Scalar>
void BasicSparseLU<Scalar>::set_schur_indices(std::vector<int32_t> indices) {
  if (!indices.empty()) refuse_complex<Scalar>("set_schur_indices()");
  this->template core_as<Impl>().schur_requested = std::move(indices);
}

template <class Scalar>
const std::vector<int32_t>& BasicSparseLU<Scalar>::schur_indices() const noexcept {
  return this->template core_as<Impl>().schur_requested;
}

// S(i, j) = S_C(r, c) / (rs rc) with r, c the places of I_i, I_j in C: the analysis puts them
// at n - k + i with scale 1, but the map is written whole so that no engine relies on it.
template <class Scalar>
void BasicSparseLU<Scalar>::schur_complement(Scalar* s, int64_t ld) {
  refuse_complex<Scalar>("schur_complement()");
  Impl& lu = this->template core_as<Impl>();
  lu.require_schur_factor("schur_complement()");
  const Schedule& sc = lu.schedule;
  const int64_t k = sc.schur_size;
  const int32_t m = sc.n - sc.schur_size;
  check_schur_destination("schur_complement()", "s", s, ld, k);
  std::vector<Scalar> block(static_cast<size_t>(k * k));
  lu.engine->schur_block(block.data(), k);
  const std::vector<int32_t>& idx = lu.schur_active;
  for (int64_t j = 0; j < k; ++j) {
    const int32_t c = sc.col_perm_inv[idx[j]] - m;
    for (int64_t i = 0; i < k; ++i) {
      const int32_t r = sc.row_perm_inv[idx[i]] - m;
      s[i + j * ld] = block[r + static_cast<size_t>(c) * k] / (sc.row_scale[idx[i]] * sc.col_scale[idx[j]]);
    }
  }
}

// The device copy is S_C itself: analyze_schur puts I_i at n - k + i with scale 1 (the
// host copy above does not rely on it; this one checks it, since it copies S_C whole).
template <class Scalar>
void BasicSparseLU<Scalar>::schur_complement_device(Scalar* d_s, int64_t ld) {
  refuse_complex<Scalar>("schur_complement_device()");
  Impl& lu = this->template core_as<Impl>();
  lu.require_schur_factor("schur_complement_device()");
  check_schur_destination("schur_complement_device()", "d_s", d_s, ld, lu.schedule.schur_size);
  lu.require_schur_in_place("schur_complement_device()");
  if (!lu.engine->schur_block_device(d_s, ld))
    throw Error(Status::unsupported, std::string("schur_complement_device(): the factor is on the ") +
                                         std::string(to_string(lu.backend)) + " backend; use schur_complement()");
}

// As solve_permuted: C z = c with c = rs b (rows permuted) for A x = b, C^T w = d with
// d = cs b (columns permuted) for A^T x = b; the sweep stops at the Schur block, whose
// entries are then the reduced right-hand side of C's (or C^T's) Schur complement.
template <class Scalar>
void BasicSparseLU<Scalar>::condense(const Scalar* b, Scalar* reduced, bool transpose) {
  refuse_complex<Scalar>("condense()");
  Impl& lu = this->template core_as<Impl>();
  lu.require_schur_factor("condense()");
  const Schedule& sc = lu.schedule;
  const int32_t n = sc.n;
  if (!b || !reduced) throw Error(Status::invalid_input, "condense(): null right-hand side or reduced vector");
  const int32_t* in = transpose ? sc.col_perm.data() : sc.row_perm.data();
  const int32_t* in_inv = transpose ? sc.col_perm_inv.data() : sc.row_perm_inv.data();
  const double* in_scale = transpose ? sc.col_scale.data() : sc.row_scale.data();
  lu.schur_work.resize(static_cast<size_t>(n));
  Scalar* z = lu.schur_work.data();
  for (int32_t k = 0; k < n; ++k) z[k] = in_scale[in[k]] * b[in[k]];
  lu.condensed_analysis = -1;  // until the sweep has run
  lu.engine->schur_forward(z, transpose);
  const std::vector<int32_t>& idx = lu.schur_active;
  for (size_t i = 0; i < idx.size(); ++i) reduced[i] = z[in_inv[idx[i]]] / in_scale[idx[i]];
  lu.record_condensed(transpose, /*on_device=*/false);
}

// The engine's device sweeps do the permutations and scalings of condense() and expand()
// above themselves, with the Schur block in place (checked).
template <class Scalar>
void BasicSparseLU<Scalar>::condense_device(const Scalar* d_b, Scalar* d_reduced, bool transpose) {
  refuse_complex<Scalar>("condense_device()");
  Impl& lu = this->template core_as<Impl>();
  lu.require_schur_factor("condense_device()");
  if (!d_b || (!d_reduced && lu.schedule.schur_size > 0))
    throw Error(Status::invalid_input, "condense_device(): null right-hand side or reduced vector");
  lu.require_schur_in_place("condense_device()");
  lu.condensed_analysis = -1;  // until the sweep has run
  if (!lu.engine->schur_condense_device(d_b, d_reduced, transpose))
    throw Error(Status::unsupported, std::string("condense_device(): the factor is on the ") +
                                         std::string(to_string(lu.backend)) + " backend; use condense()");
  lu.record_condensed(transpose, /*on_device=*/true);
}

template <class Scalar>
void BasicSparseLU<Scalar>::expand_device(const Scalar* d_x2, Scalar* d_x, bool transpose) {
  refuse_complex<Scalar>("expand_device()");
  Impl& lu = this->template core_as<Impl>();
  lu.require_schur_factor("expand_device()");
  lu.require_condensed("expand_device()", transpose, /*on_device=*/true);
  if ((!d_x2 && lu.schedule.schur_size > 0) || !d_x)
    throw Error(Status::invalid_input, "expand_device(): null reduced solution or solution");
  lu.condensed_analysis = -1;  // the engine's partial solution is swept in place: one expansion
  if (!lu.engine->schur_expand_device(d_x2, d_x, transpose))
    throw Error(Status::unsupported, std::string("expand_device(): the factor is on the ") +
                                         std::string(to_string(lu.backend)) + " backend; use expand()");
}

// The unknowns of C (z = cs^-1 x, columns permuted; transpose: w = rs^-1 x, rows permuted)
// take x2 at the Schur block, the backward sweep gives the rest, and x is z mapped back.
template <class Scalar>
void BasicSparseLU<Scalar>::expand(const Scalar* x2, Scalar* x, bool transpose) {
  refuse_complex<Scalar>("expand()");
  Impl& lu = this->template core_as<Impl>();
  lu.require_schur_factor("expand()");
  lu.require_condensed("expand()", transpose, /*on_device=*/false);
  if (!x2 || !x) throw Error(Status::invalid_input, "expand(): null reduced solution or solution");
  const Schedule& sc = lu.schedule;
  const int32_t n = sc.n;
  const int32_t* out = transpose ? sc.row_perm.data() : sc.col_perm.data();
  const int32_t* out_inv = transpose ? sc.row_perm_inv.data() : sc.col_perm_inv.data();
  const double* out_scale = transpose ? sc.row_scale.data() : sc.col_scale.data();
  std::vector<Scalar>& z = lu.schur_expanded;
  z = lu.schur_work;  // the condensed vector stays for another x2; z's storage is reused
  const std::vector<int32_t>& idx = lu.schur_active;
  for (size_t i = 0; i < idx.size(); ++i) z[out_inv[idx[i]]] = x2[i] / out_scale[idx[i]];
  lu.engine->schur_backward(z.data(), transpose);
  for (int32_t l = 0; l < n; ++l) x[out[l]] = out_scale[out[l]] * z[l];
  for (size_t i = 0; i < idx.size(); ++i) x[idx[i]] = x2[i];  // exactly the caller's
}

template void BasicSparseLU<double>::set_schur_indices(std::vector<int32_t>);
template const std::vector<int32_t>& BasicSparseLU<double>::schur_indices() const noexcept;
template void BasicSparseLU<double>::schur_complement(double*, int64_t);
template void BasicSparseLU<double>::schur_complement_device(double*, int64_t);
template void BasicSparseLU<double>::condense(const double*, double*, bool);
template void BasicSparseLU<double>::expand(const double*, double*, bool);
template void BasicSparseLU<double>::condense_device(const double*, double*, bool);
template void BasicSparseLU<double>::expand_device(const double*, double*, bool);
template void BasicSparseLU<Complex>::set_schur_indices(std::vector<int32_t>);
template const std::vector<int32_t>& BasicSparseLU<Complex>::schur_indices() const noexcept;
template void BasicSparseLU<Complex>::schur_complement(Complex*, int64_t);
template void BasicSparseLU<Complex>::schur_complement_device(Complex*, int64_t);
template void BasicSparseLU<Complex>::condense(const Complex*, Complex*, bool);
template void BasicSparseLU<Complex>::expand(const Complex*, Complex*, bool);
template void BasicSparseLU<Complex>::condense_device(const Complex*, Complex*, bool);
template void BasicSparseLU<Complex>::expand_device(const Complex*, Complex*, bool);

template Options BasicSparseLU<double>::Impl::schur_analysis_options(Options) const;
template Schedule BasicSparseLU<double>::Impl::analyze_pattern(const CsrView<int32_t, double>&, const int32_t*);
template Schedule BasicSparseLU<double>::Impl::analyze_pattern(const CsrView<int64_t, double>&, const int32_t*);
template void BasicSparseLU<double>::Impl::fit_schur_engine();
template void BasicSparseLU<double>::Impl::refuse_full_solve(const char*) const;
template void BasicSparseLU<double>::Impl::require_schur_factor(const char*) const;
template const SolveStats& BasicSparseLU<double>::Impl::solve(int32_t, const double*, int64_t, double*, int64_t, bool);
template Options BasicSparseLU<Complex>::Impl::schur_analysis_options(Options) const;
template Schedule BasicSparseLU<Complex>::Impl::analyze_pattern(const CsrView<int32_t, double>&, const int32_t*);
template Schedule BasicSparseLU<Complex>::Impl::analyze_pattern(const CsrView<int64_t, double>&, const int32_t*);
template void BasicSparseLU<Complex>::Impl::fit_schur_engine();
template void BasicSparseLU<Complex>::Impl::refuse_full_solve(const char*) const;
template void BasicSparseLU<Complex>::Impl::require_schur_factor(const char*) const;
template const SolveStats& BasicSparseLU<Complex>::Impl::solve(int32_t, const Complex*, int64_t, Complex*, int64_t,
                                                               bool);

}  // namespace gpuglu
