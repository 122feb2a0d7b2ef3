// Schur-complement mode, shared by SparseLU and SparseLDLT (include/gpuglu/solver.hpp's
// set_schur_indices ... expand_device; docs/design.md, "Schur complements"): the analyses
// order the Schur unknowns last and unscaled (analyze_schur, analyze_symmetric_schur_input),
// the engine leaves their block unfactored (core/numeric_engine.hpp's schur_block /
// schur_forward / schur_backward, in C's numbering), and this file maps A's numbering and
// scale onto C's and back around them, as solve_permuted does for a solve. What differs
// between the facades is only their analysis (schur_complement.cpp for the LU,
// sparse_ldlt.cpp for the LDL^T).
#include <string>
#include <utility>
#include <vector>

#include "api/solver_core.hpp"
#include "core/scalar.hpp"

namespace gpuglu {

namespace {

template <class Scalar>
void refuse_complex(const char* verb) {
  if constexpr (is_complex_v<Scalar>)
    throw Error(Status::unsupported, std::string(verb) +
                                         ": Schur complements are computed by the supernodal engines, which factor "
                                         "real matrices only");
}

// S's k x k destination `name` with leading dimension ld, for `what` (schur_complement() and
// its device copy).
void check_schur_destination(const char* what, const char* name, const void* out, int64_t ld, int64_t k) {
  if (ld < k || !out)
    throw Error(Status::invalid_input, std::string(what) + ": ld = " + std::to_string(ld) + " for k = " +
                                           std::to_string(k) + (out ? "" : std::string(", and ") + name + " is null"));
}

// A device verb (`verb`) whose engine keeps its panels on the host (`ran`: the engine's
// answer): Error(unsupported) naming the backend and `host_verb`, the call to use instead.
void require_device_engine(bool ran, const char* verb, Backend backend, const char* host_verb) {
  if (!ran)
    throw Error(Status::unsupported, std::string(verb) + ": the factor is on the " + std::string(to_string(backend)) +
                                         " backend; use " + host_verb);
}

}  // namespace

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::fit_schur_engine(PatternRef pattern, bool hermitian) {
  if (!schur_mode() || engine->supports_schur()) return;
  if (options.backend != Backend::automatic)
    throw Error(Status::unsupported, "Schur complements: the " + std::string(to_string(backend)) +
                                         " engine does not keep a Schur block yet; use backend cpu or auto");
  engine.reset();
  engine = make_cpu_engine<Scalar>(schedule, pattern, options, hermitian);
  backend = Backend::cpu;
  fallback_reason = "Schur complements are computed by the CPU supernodal engine";
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::refuse_full_solve(const char* verb) const {
  if (schur_mode())
    throw Error(Status::unsupported, std::string(verb) +
                                         ": the factor keeps a Schur block (set_schur_indices), so it solves no "
                                         "system with A; use condense(), solve the reduced system, then expand()");
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::require_schur_factor(const char* verb) const {
  require_analyzed(verb);
  if (!schur_mode())
    throw Error(Status::invalid_input,
                std::string(verb) + ": no Schur indices were set before analyze() (set_schur_indices)");
  if (!factored)
    throw Error(Status::not_factored, std::string(verb) + ": the last factorization failed or none was done");
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::require_schur_in_place(const char* what) const {
  const Schedule& sc = schedule;
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
void BasicSparseSolver<Scalar>::Core::require_condensed(const char* verb, bool transpose, bool on_device) const {
  const char* condense = on_device ? "condense_device()" : "condense()";
  if (condensed_analysis != analysis_count || condensed_factor != fstats.factorizations ||
      condensed_on_device != on_device)
    throw Error(Status::invalid_input, std::string(verb) + ": no " + condense + " since the last factor()");
  if (condensed_transpose != transpose)
    throw Error(Status::invalid_input, std::string(verb) + ": the last " + condense + " was " +
                                           (condensed_transpose ? "transposed" : "not transposed") + ", this one is " +
                                           (transpose ? "transposed" : "not transposed"));
}

template <class Scalar>
void BasicSparseSolver<Scalar>::Core::record_condensed(bool transpose, bool on_device) {
  condensed_analysis = analysis_count;
  condensed_factor = fstats.factorizations;
  condensed_transpose = transpose;
  condensed_on_device = on_device;
}

template <class Scalar>
void BasicSparseSolver<Scalar>::set_schur_indices(std::vector<int32_t> indices) {
  if (!indices.empty()) refuse_complex<Scalar>("set_schur_indices()");
  core_->schur_requested = std::move(indices);
}

template <class Scalar>
const std::vector<int32_t>& BasicSparseSolver<Scalar>::schur_indices() const noexcept {
  return core_->schur_requested;
}

// S(i, j) = S_C(r, c) / (rs rc) with r, c the places of I_i, I_j in C: the analyses put them
// at n - k + i with scale 1, but the map is written whole so that no engine relies on it.
template <class Scalar>
void BasicSparseSolver<Scalar>::schur_complement(Scalar* s, int64_t ld) {
  refuse_complex<Scalar>("schur_complement()");
  Core& c = *core_;
  c.require_schur_factor("schur_complement()");
  const Schedule& sc = c.schedule;
  const int64_t k = sc.schur_size;
  const int32_t m = sc.n - sc.schur_size;
  check_schur_destination("schur_complement()", "s", s, ld, k);
  std::vector<Scalar> block(static_cast<size_t>(k * k));
  c.engine->schur_block(block.data(), k);
  const std::vector<int32_t>& idx = c.schur_active;
  for (int64_t j = 0; j < k; ++j) {
    const int32_t col = sc.col_perm_inv[idx[j]] - m;
    for (int64_t i = 0; i < k; ++i) {
      const int32_t row = sc.row_perm_inv[idx[i]] - m;
      s[i + j * ld] = block[row + static_cast<size_t>(col) * k] / (sc.row_scale[idx[i]] * sc.col_scale[idx[j]]);
    }
  }
}

// The device copy is S_C itself: the analyses put I_i at n - k + i with scale 1 (the host
// copy above does not rely on it; this one checks it, since it copies S_C whole).
template <class Scalar>
void BasicSparseSolver<Scalar>::schur_complement_device(Scalar* d_s, int64_t ld) {
  refuse_complex<Scalar>("schur_complement_device()");
  Core& c = *core_;
  c.require_schur_factor("schur_complement_device()");
  check_schur_destination("schur_complement_device()", "d_s", d_s, ld, c.schedule.schur_size);
  c.require_schur_in_place("schur_complement_device()");
  require_device_engine(c.engine->schur_block_device(d_s, ld), "schur_complement_device()", c.backend,
                        "schur_complement()");
}

// As solve_permuted: C z = c with c = rs b (rows permuted) for A x = b, C^T w = d with
// d = cs b (columns permuted) for A^T x = b; the sweep stops at the Schur block, whose
// entries are then the reduced right-hand side of C's (or C^T's) Schur complement.
template <class Scalar>
void BasicSparseSolver<Scalar>::condense(const Scalar* b, Scalar* reduced, bool transpose) {
  refuse_complex<Scalar>("condense()");
  Core& c = *core_;
  c.require_schur_factor("condense()");
  const Schedule& sc = c.schedule;
  const int32_t n = sc.n;
  if (!b || !reduced) throw Error(Status::invalid_input, "condense(): null right-hand side or reduced vector");
  const int32_t* in = transpose ? sc.col_perm.data() : sc.row_perm.data();
  const int32_t* in_inv = transpose ? sc.col_perm_inv.data() : sc.row_perm_inv.data();
  const double* in_scale = transpose ? sc.col_scale.data() : sc.row_scale.data();
  c.schur_work.resize(static_cast<size_t>(n));
  Scalar* z = c.schur_work.data();
  for (int32_t k = 0; k < n; ++k) z[k] = in_scale[in[k]] * b[in[k]];
  c.condensed_analysis = -1;  // until the sweep has run
  c.engine->schur_forward(z, transpose);
  const std::vector<int32_t>& idx = c.schur_active;
  for (size_t i = 0; i < idx.size(); ++i) reduced[i] = z[in_inv[idx[i]]] / in_scale[idx[i]];
  c.record_condensed(transpose, /*on_device=*/false);
}

// The engine's device sweeps do the permutations and scalings of condense() and expand()
// themselves, with the Schur block in place (checked).
template <class Scalar>
void BasicSparseSolver<Scalar>::condense_device(const Scalar* d_b, Scalar* d_reduced, bool transpose) {
  refuse_complex<Scalar>("condense_device()");
  Core& c = *core_;
  c.require_schur_factor("condense_device()");
  if (!d_b || (!d_reduced && c.schedule.schur_size > 0))
    throw Error(Status::invalid_input, "condense_device(): null right-hand side or reduced vector");
  c.require_schur_in_place("condense_device()");
  c.condensed_analysis = -1;  // until the sweep has run
  require_device_engine(c.engine->schur_condense_device(d_b, d_reduced, transpose), "condense_device()", c.backend,
                        "condense()");
  c.record_condensed(transpose, /*on_device=*/true);
}

template <class Scalar>
void BasicSparseSolver<Scalar>::expand_device(const Scalar* d_x2, Scalar* d_x, bool transpose) {
  refuse_complex<Scalar>("expand_device()");
  Core& c = *core_;
  c.require_schur_factor("expand_device()");
  c.require_condensed("expand_device()", transpose, /*on_device=*/true);
  if ((!d_x2 && c.schedule.schur_size > 0) || !d_x)
    throw Error(Status::invalid_input, "expand_device(): null reduced solution or solution");
  c.condensed_analysis = -1;  // the engine's partial solution is swept in place: one expansion
  require_device_engine(c.engine->schur_expand_device(d_x2, d_x, transpose), "expand_device()", c.backend,
                        "expand()");
}

// The unknowns of C (z = cs^-1 x, columns permuted; transpose: w = rs^-1 x, rows permuted)
// take x2 at the Schur block, the backward sweep gives the rest, and x is z mapped back.
template <class Scalar>
void BasicSparseSolver<Scalar>::expand(const Scalar* x2, Scalar* x, bool transpose) {
  refuse_complex<Scalar>("expand()");
  Core& c = *core_;
  c.require_schur_factor("expand()");
  c.require_condensed("expand()", transpose, /*on_device=*/false);
  if (!x2 || !x) throw Error(Status::invalid_input, "expand(): null reduced solution or solution");
  const Schedule& sc = c.schedule;
  const int32_t n = sc.n;
  const int32_t* out = transpose ? sc.row_perm.data() : sc.col_perm.data();
  const int32_t* out_inv = transpose ? sc.row_perm_inv.data() : sc.col_perm_inv.data();
  const double* out_scale = transpose ? sc.row_scale.data() : sc.col_scale.data();
  std::vector<Scalar>& z = c.schur_expanded;
  z = c.schur_work;  // the condensed vector stays for another x2; z's storage is reused
  const std::vector<int32_t>& idx = c.schur_active;
  for (size_t i = 0; i < idx.size(); ++i) z[out_inv[idx[i]]] = x2[i] / out_scale[idx[i]];
  c.engine->schur_backward(z.data(), transpose);
  for (int32_t l = 0; l < n; ++l) x[out[l]] = out_scale[out[l]] * z[l];
  for (size_t i = 0; i < idx.size(); ++i) x[idx[i]] = x2[i];  // exactly the caller's
}

#define GPUGLU_SCHUR_MODE(S)                                                                              \
  template void BasicSparseSolver<S>::Core::fit_schur_engine(PatternRef, bool);                           \
  template void BasicSparseSolver<S>::Core::refuse_full_solve(const char*) const;                         \
  template void BasicSparseSolver<S>::Core::require_schur_factor(const char*) const;                      \
  template void BasicSparseSolver<S>::Core::require_schur_in_place(const char*) const;                    \
  template void BasicSparseSolver<S>::Core::require_condensed(const char*, bool, bool) const;             \
  template void BasicSparseSolver<S>::Core::record_condensed(bool, bool);                                 \
  template void BasicSparseSolver<S>::set_schur_indices(std::vector<int32_t>);                            \
  template const std::vector<int32_t>& BasicSparseSolver<S>::schur_indices() const noexcept;              \
  template void BasicSparseSolver<S>::schur_complement(S*, int64_t);                                      \
  template void BasicSparseSolver<S>::schur_complement_device(S*, int64_t);                               \
  template void BasicSparseSolver<S>::condense(const S*, S*, bool);                                       \
  template void BasicSparseSolver<S>::expand(const S*, S*, bool);                                         \
  template void BasicSparseSolver<S>::condense_device(const S*, S*, bool);                                \
  template void BasicSparseSolver<S>::expand_device(const S*, S*, bool);
GPUGLU_SCHUR_MODE(double)
GPUGLU_SCHUR_MODE(Complex)
#undef GPUGLU_SCHUR_MODE

}  // namespace gpuglu
