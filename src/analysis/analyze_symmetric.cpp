// analyze_symmetric(): the LDL^T analysis of include/gpuglu/analysis.hpp - Chen & Wang's
// pipeline (symmetric ordering, Cholesky symbolic factorization, levels of the elimination
// tree) with a symmetric MC64 scaling in front, one stage per file.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "analysis/factor_rows.hpp"
#include "analysis/levels.hpp"
#include "analysis/max_product_matching.hpp"
#include "analysis/ordering.hpp"
#include "analysis/pipeline_steps.hpp"
#include "analysis/analyze_symmetric.hpp"
#include "analysis/symmetric_input.hpp"
#include "analysis/symmetric_pairs.hpp"
#include "analysis/symmetric_symbolic.hpp"
#include "analysis/schur_ordering.hpp"
#include "analysis/supernodal_factor.hpp"
#include "analysis/supernodal_symbolic.hpp"
#include "analysis/symmetric_graph.hpp"
#include "core/automatic_options.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {

namespace {

using analysis::SymmetricInput;

// MC64's scaling made symmetric (Duff & Pralet): s_i = sqrt(r_i c_i) from the row and
// column scales of the maximum-product matching of the full matrix, which keeps every
// |s_i a_ij s_j| <= 1 with 1 on the matched entries. The matching itself only ties
// small-diagonal variables to partners for the ordering (symmetric_pairs.hpp): the pivots
// stay 1 x 1 and static, perturbed where tiny, with refinement. scale is empty when no
// matching exists on the nonzero values.
struct SymmetricScaling {
  std::vector<double> scale;
  std::vector<int32_t> row_of_col;
  std::vector<double> full_values;  // A's values on the full pattern
};

// The diagonal's own scaling s_i = 1 / sqrt|a_ii| where it already is an MC64 scaling: every
// a_ii nonzero and every |s_i a_ij s_j| <= 1 (to rounding: kDiagonalScalingSlack), so that
// the identity is a maximum-product matching (its product is 1, no other exceeds it) with
// every matched entry +-1 - MC64's defining property, in one O(nnz) pass instead of the
// matching's search. Every SPD matrix qualifies (its 2 x 2 principal minors are positive),
// as do diagonally dominant ones; ties between optimal matchings do not matter to the
// pivots, which stay 1 x 1 and static. False (scale untouched) otherwise.
constexpr double kDiagonalScalingSlack = 1.0 + 1e-12;

bool diagonal_scaling(const SymmetricInput& a, const std::vector<double>& full_values, std::vector<double>& scale) {
  std::vector<double> s(static_cast<size_t>(a.n), 0.0);
  for (int32_t j = 0; j < a.n; ++j)
    for (int32_t p = a.colptr[j]; p < a.colptr[j + 1]; ++p)
      if (a.rowind[p] == j && full_values[p] != 0.0) s[j] = 1.0 / std::sqrt(std::fabs(full_values[p]));
  if (std::any_of(s.begin(), s.end(), [](double v) { return v == 0.0; })) return false;
  for (int32_t j = 0; j < a.n; ++j)
    for (int32_t p = a.colptr[j]; p < a.colptr[j + 1]; ++p)
      if (std::fabs(full_values[p]) * s[a.rowind[p]] * s[j] > kDiagonalScalingSlack) return false;
  scale = std::move(s);
  return true;
}

SymmetricScaling symmetric_scaling(const SymmetricInput& a, int32_t* clamped) {
  SymmetricScaling out;
  out.full_values.resize(a.rowind.size());
  for (size_t e = 0; e < out.full_values.size(); ++e) out.full_values[e] = a.values[a.source[e]];
  if (diagonal_scaling(a, out.full_values, out.scale)) {
    out.row_of_col.resize(static_cast<size_t>(a.n));
    std::iota(out.row_of_col.begin(), out.row_of_col.end(), 0);
    return out;
  }
  analysis::ProductMatching pm;
  if (!analysis::max_product_matching(a.n, a.colptr.data(), a.rowind.data(), out.full_values.data(), pm)) return out;
  *clamped = pm.scales_clamped;
  out.scale.resize(static_cast<size_t>(a.n));
  for (int32_t i = 0; i < a.n; ++i) out.scale[i] = std::sqrt(pm.row_scale[i]) * std::sqrt(pm.col_scale[i]);
  out.row_of_col = std::move(pm.row_of_col);
  return out;
}

// Stored entry p lands in F at (max(i, j), min(i, j)) of C; a full matrix stores each
// off-diagonal pair twice, and both halves scatter half their value there, which is the
// value itself for a symmetric A.
void build_symmetric_value_map(Schedule& s, const SymmetricInput& a, int threads) {
  const int64_t nnz = a.nnz();
  s.value_map.resize(static_cast<size_t>(nnz));
  s.value_scale.resize(static_cast<size_t>(nnz));
  bool missing = false;
  const int team = analysis::team_size(threads, nnz, int64_t{1} << 15);
#pragma omp parallel for num_threads(team) schedule(static) reduction(|| : missing)
  for (int64_t p = 0; p < nnz; ++p) {
    const int32_t r = a.entry_row[p], c = a.entry_col[p];
    const int32_t i = s.row_perm_inv[r], j = s.col_perm_inv[c];
    const int32_t row = std::max(i, j), col = std::min(i, j);
    const auto first = s.f_rowind.begin() + s.f_colptr[col];
    const auto last = s.f_rowind.begin() + s.f_colptr[col + 1];
    const auto it = std::lower_bound(first, last, row);
    if (it == last || *it != row) {
      missing = true;
      continue;
    }
    s.value_map[p] = it - s.f_rowind.begin();
    const double half = a.stored == StoredTriangle::full && r != c ? 0.5 : 1.0;
    // Saturate, never Inf (0 * Inf = NaN): as in the LU's value map.
    s.value_scale[p] = std::min(half * s.row_scale[r] * s.col_scale[c], std::numeric_limits<double>::max());
  }
  if (missing) throw Error(Status::invalid_input, "internal: an input entry is missing from L's pattern");
}

}  // namespace

namespace analysis {

namespace {

// The supernodal LDL^T's symbolic part from CHOLMOD's supernodes of C = A(q, q) itself (their
// postorder sp.q becomes q): L-only panels, the counts and the value map into the panels.
void finish_supernodal_ldlt(Schedule& s, const SymmetricInput& a, SupernodalPattern sp, int threads) {
  set_symmetric_permutation(s, sp.q);
  s.kind = FactorKind::supernodal_ldlt;
  s.supernodes = std::move(sp.supernodes);
  s.times.sn_input_ms = sp.input_ms;
  s.times.sn_cholmod_ms = sp.cholmod_ms;
  s.times.sn_panels_ms = sp.panels_ms;
  Stopwatch steps;
  count_supernodal_ldlt_factor(s);
  s.times.sn_factor_ms = steps.lap_ms();
  build_supernodal_ldlt_value_map(s, a, threads);
  s.times.sn_value_map_ms = steps.lap_ms();
}

void build_supernodal_ldlt(Schedule& s, const SymmetricInput& a, const SymmetricGraph& g,
                           const std::vector<int32_t>& q, int threads, Amalgamation amalgamation) {
  finish_supernodal_ldlt(s, a, supernodal_symbolic(g, q, threads, /*with_upper=*/false, /*postorder=*/true, amalgamation),
                         threads);
}

// The ordering half of the LDL^T analysis: the symmetric scaling (skipped without
// options.scaling), the fill-reducing ordering q of the full pattern (work.graph: the
// supernodal analysis's graph, or nullptr) and, where small diagonals ask for them, the
// symmetric pairs' ordering (symmetric_pairs.hpp).
struct SymmetricOrder {
  SymmetricScaling sc;
  double scaling_ms = 0.0;
  int32_t scales_clamped = 0;
  std::vector<int32_t> q;
  Ordering ordering = Ordering::automatic;  // the one computed (OrderingWork::used)
  Amalgamation amalgamation = Amalgamation::gpu;  // amalgamation_for (supernodal_symbolic.hpp)
  int32_t pairs = 0;
};

SymmetricOrder order_symmetric(const SymmetricInput& a, const Options& options, const int32_t* given_perm,
                               analysis::OrderingWork& work) {
  SymmetricOrder o;
  analysis::Stopwatch clock;
  if (options.scaling && a.n > 0) o.sc = symmetric_scaling(a, &o.scales_clamped);
  o.scaling_ms = clock.lap_ms();
  const bool scaled = !o.sc.scale.empty();
  if (!scaled) o.sc.scale.assign(static_cast<size_t>(a.n), 1.0);
  const analysis::MatchedPattern full{a.n, a.colptr, a.rowind};
  Ordering used = options.ordering;
  work.used = &used;
  o.q = analysis::fill_reducing_ordering(full, options.ordering, given_perm, work);
  o.ordering = used;
  o.amalgamation = analysis::amalgamation_for(work.amd_if_small, used);
  if (scaled && options.symmetric_pairs && options.ordering != Ordering::given) {
    const analysis::SymmetricPairs pairs = analysis::pair_small_diagonals(a, o.sc.full_values, o.sc.scale, o.sc.row_of_col, o.q);
    o.pairs = pairs.pairs;
    work.graph = nullptr;  // the pairs order a compressed graph of their own
    work.amd_if_small = false;  // the pairs' graph takes the ordering the plain one took
    work.used = nullptr;
    work.amd_counted = nullptr;  // told by the plain ordering
    if (pairs.pairs > 0) o.q = analysis::paired_ordering(a, o.sc.full_values, o.sc.scale, pairs, used, work);
  }
  return o;
}

}  // namespace

Schedule analyze_symmetric_input(const SymmetricInput& a, const Options& requested, const int32_t* given_perm,
                                 const AmdCounted& amd_counted) {
  analysis::Stopwatch clock;
  Options options = requested;
  const bool incomplete = options.ilu_levels >= 0;
  if (incomplete) options.scaling = false;  // ICC factors A(q, q) itself, as PETSc's ICC does
  // The analysis queries no device: an engine the caller resolved stays (SparseLDLT resolves).
  const bool supernodal = !incomplete && resolve_ldlt_engine(options, AutomaticFacts{}) == LuEngine::supernodal;
  options.ordering = analysis::resolve_ordering(options.ordering, a.n, /*tree_engine=*/true);
  Schedule s;
  s.n = a.n;
  s.input_nnz = a.nnz();
  s.ordering = options.ordering;
  s.kind = FactorKind::column_ldlt;
  analysis::OrderingWork work{options.num_threads, options.ordering_cache, nullptr};
  work.amd_if_small = supernodal && requested.ordering == Ordering::automatic && options.ordering_for_cpu;
  work.amd_counted = amd_counted;
  // The full pattern is its own B + B^T: one graph for METIS and CHOLMOD (supernodal only).
  SymmetricGraph g;
  if (supernodal) {
    g = symmetric_graph(analysis::MatchedPattern{a.n, a.colptr, a.rowind}, options.num_threads);
    work.graph = &g;
  }
  SymmetricOrder order = order_symmetric(a, options, given_perm, work);
  s.ordering = order.ordering;
  s.scales_clamped = order.scales_clamped;
  s.scaled = options.scaling && a.n > 0 && !order.sc.row_of_col.empty();
  s.row_scale = order.sc.scale;
  s.col_scale = order.sc.scale;
  s.symmetric_pairs = order.pairs;
  std::vector<int32_t> q = std::move(order.q);
  s.times.matching_ms = order.scaling_ms;
  const double ordering_ms = clock.lap_ms() - order.scaling_ms;
  if (supernodal) {
    s.times.ordering_ms = ordering_ms + clock.lap_ms();
    build_supernodal_ldlt(s, a, g, q, options.num_threads, order.amalgamation);
    s.times.symbolic_ms = clock.lap_ms();
    s.times.total_ms = s.times.matching_ms + s.times.ordering_ms + s.times.symbolic_ms;
    return s;
  }
  analysis::set_symmetric_permutation(s, q);
  s.times.ordering_ms = ordering_ms + clock.lap_ms();

  analysis::SymmetricPattern sp = incomplete ? analysis::incomplete_symmetric_pattern(a, q, options.ilu_levels)
                                             : analysis::symmetric_symbolic(a, q);
  s.incomplete = incomplete;
  s.f_colptr = std::move(sp.f.colptr);
  s.f_rowind = std::move(sp.f.rowind);
  s.f_diag = std::move(sp.f.diag);
  s.nnz_l = sp.f.nnz_l;
  s.nnz_u = sp.f.nnz_u;
  analysis::build_factor_rows(s);
  build_symmetric_value_map(s, a, options.num_threads);
  s.factor_flops = analysis::symmetric_factor_flops(s);
  s.times.symbolic_ms = clock.lap_ms();

  analysis::build_symmetric_levels(s, sp.parent);
  analysis::assign_kernel_modes(s, options.modes);
  s.times.levels_ms = clock.lap_ms();
  s.times.total_ms = s.times.matching_ms + s.times.ordering_ms + s.times.symbolic_ms + s.times.levels_ms;
  return s;
}

Schedule analyze_symmetric_schur_input(const SymmetricInput& a, const std::vector<int32_t>& schur,
                                       const Options& requested, const int32_t* given_perm) {
  analysis::Stopwatch clock;
  Options options = requested;
  if (options.ilu_levels >= 0)
    throw Error(Status::unsupported, "Schur complements need a complete factorization, not ICC(" +
                                         std::to_string(options.ilu_levels) + ") (PETSc: -pc_type cholesky)");
  if (options.ldlt_engine == LuEngine::column)
    throw Error(Status::unsupported,
                "Schur complements are computed by the supernodal LDL^T only, and ldlt_engine is column "
                "(PETSc: -mat_gpuglu_ldlt_engine supernodal)");
  check_schur_indices(schur, a.n);
  const auto k = static_cast<int32_t>(schur.size());
  const int32_t m = a.n - k;
  options.ordering = resolve_ordering(options.ordering, m, /*tree_engine=*/true);
  Schedule s;
  s.n = a.n;
  s.input_nnz = a.nnz();
  s.ordering = options.ordering;
  s.schur_size = k;

  // A11 over its full pattern (a is full storage: its values follow its pattern).
  const SchurSplit split = split_schur(a.n, schur);
  InputPattern full;
  full.n = a.n;
  full.rowptr = a.colptr;
  full.colind = a.rowind;
  full.values = a.values;
  const ComplementBlock b11 = complement_block(full, split);
  // A structurally singular A11 has no S; its static pivots would be perturbed into a wrong
  // one, with no solve of A to notice (the LU's matching finds it the same way).
  try {
    (void)compute_matching(b11.pattern, columns_of(b11.pattern), /*use_mc64=*/false, /*use_scaling=*/false);
  } catch (const Error& e) {
    if (e.status() != Status::structurally_singular) throw;
    throw a11_singular(e, k, m);
  }
  SymmetricInput a11;
  a11.n = m;
  a11.colptr = b11.pattern.rowptr;
  a11.rowind = b11.pattern.colind;
  a11.source.resize(a11.rowind.size());
  std::iota(a11.source.begin(), a11.source.end(), int64_t{0});
  a11.values = a.values ? b11.values.data() : nullptr;

  // A11's scaling, ordering and symmetric pairs (those of its small diagonals, all inside
  // A11); the Schur unknowns keep scale 1, so that S_C is S, and follow A11's order.
  std::vector<int32_t> given11;
  if (options.ordering == Ordering::given) given11 = restrict_given_ordering(given_perm, split);
  OrderingWork work{options.num_threads, options.ordering_cache, nullptr};
  if (!a11.values) options.scaling = false;
  SymmetricOrder order = order_symmetric(a11, options, given11.empty() ? nullptr : given11.data(), work);
  std::vector<double> scale(static_cast<size_t>(a.n), 1.0);
  if (options.scaling && m > 0 && !order.sc.row_of_col.empty()) {
    s.scaled = true;
    s.scales_clamped = order.scales_clamped;
    for (int32_t j = 0; j < m; ++j) scale[split.complement[j]] = order.sc.scale[j];
  }
  s.row_scale = scale;
  s.col_scale = std::move(scale);
  s.symmetric_pairs = order.pairs;
  s.times.matching_ms = order.scaling_ms;
  std::vector<int32_t> q = schur_last(order.q, split, schur);
  s.times.ordering_ms = clock.lap_ms() - order.scaling_ms;

  // The Schur block dense in CHOLMOD's graph: its unknowns end the elimination tree's one
  // chain, so the postorder keeps them last (or they are moved there and kept).
  const SymmetricGraph g =
      symmetric_graph(with_dense_block(MatchedPattern{a.n, a.colptr, a.rowind}, schur), options.num_threads);
  SupernodalPattern sp = supernodal_symbolic(g, q, options.num_threads, /*with_upper=*/false);
  if (!schur_trails(sp.q, schur)) {
    q = move_schur_last(sp.q, schur);
    sp = supernodal_symbolic(g, q, options.num_threads, /*with_upper=*/false, /*postorder=*/false);
    if (!schur_trails(sp.q, schur))
      throw Error(Status::invalid_input, "internal: CHOLMOD did not keep the Schur unknowns last");
  }
  isolate_schur_supernode(sp.supernodes, k, /*with_upper=*/false);
  finish_supernodal_ldlt(s, a, std::move(sp), options.num_threads);
  s.times.symbolic_ms = clock.lap_ms();
  s.times.total_ms = s.times.matching_ms + s.times.ordering_ms + s.times.symbolic_ms;
  return s;
}

std::vector<int32_t> paired_symmetric_ordering(const SymmetricInput& a, const Options& requested) {
  Options options = requested;
  options.ordering = analysis::resolve_ordering(options.ordering == Ordering::given ? Ordering::automatic : options.ordering,
                                                a.n, /*tree_engine=*/true);
  options.scaling = true;
  options.symmetric_pairs = true;
  analysis::OrderingWork work{options.num_threads, options.ordering_cache, nullptr};
  SymmetricOrder order = order_symmetric(a, options, nullptr, work);
  if (order.pairs == 0) return {};
  return std::move(order.q);
}

SymmetricInput full_storage(SymmetricInput a, const double* full_values, int32_t threads) {
  if (a.stored == StoredTriangle::full) {  // already its own full pattern: only the values change
    a.values = full_values;
    return a;
  }
  SymmetricInput f;
  f.n = a.n;
  f.colptr = a.colptr;
  f.rowind = a.rowind;
  f.entry_col = a.rowind;
  f.entry_row.resize(a.rowind.size());
  f.source.resize(a.rowind.size());
  const int64_t nnz = static_cast<int64_t>(a.rowind.size());
#pragma omp parallel for num_threads(input_team(threads, nnz)) schedule(static)
  for (int32_t i = 0; i < a.n; ++i)
    for (int32_t e = a.colptr[i]; e < a.colptr[i + 1]; ++e) {
      f.entry_row[e] = i;
      f.source[e] = e;
    }
  f.values = full_values;
  f.stored = StoredTriangle::full;
  return f;
}

}  // namespace analysis

Schedule analyze_symmetric(const CsrView<int64_t, double>& a, StoredTriangle stored, const Options& options,
                           const int32_t* given_perm, bool check_symmetry) {
  return analysis::guarded(a.nrows, [&] {
    return analysis::analyze_symmetric_input(
        analysis::check_symmetric_input(a, stored, check_symmetry, options.num_threads), options, given_perm);
  });
}

Schedule analyze_symmetric(const CsrView<int32_t, double>& a, StoredTriangle stored, const Options& options,
                           const int32_t* given_perm, bool check_symmetry) {
  return analysis::guarded(a.nrows, [&] {
    return analysis::analyze_symmetric_input(
        analysis::check_symmetric_input(a, stored, check_symmetry, options.num_threads), options, given_perm);
  });
}

}  // namespace gpuglu
