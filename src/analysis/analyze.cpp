// analyze(): the pipeline of include/gpuglu/analysis.hpp, one stage per file.
#include "gpuglu/analysis.hpp"

#include <chrono>
#include <new>
#include <string>
#include <vector>

#include "analysis/analyze_counted.hpp"
#include "analysis/factor_rows.hpp"
#include "analysis/ilu_pattern.hpp"
#include "analysis/input_pattern.hpp"
#include "analysis/levels.hpp"
#include "analysis/matching.hpp"
#include "analysis/ordering.hpp"
#include "analysis/partial_pivoting.hpp"
#include "analysis/pipeline_steps.hpp"
#include "analysis/row_ilu.hpp"
#include "analysis/schur_ordering.hpp"
#include "analysis/supernodal_factor.hpp"
#include "analysis/supernodal_symbolic.hpp"
#include "analysis/symbolic.hpp"
#include "analysis/symmetric_graph.hpp"
#include "analysis/update_lists.hpp"
#include "analysis/value_map.hpp"
#include "core/automatic_options.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {

namespace {

using analysis::guarded;
using analysis::set_permutations;
using analysis::Stopwatch;

void build_factor_and_levels(Schedule& s, const analysis::InputPattern& a, const analysis::ColumnPattern& cols,
                             const analysis::MatchedPattern& b, const std::vector<int32_t>& q, const Options& options,
                             Stopwatch& clock) {
  analysis::FactorPattern f = options.ilu_levels >= 0 ? analysis::ilu_pattern(b, q, options.ilu_levels)
                                                     : analysis::symbolic_factorization(b, q);
  s.incomplete = options.ilu_levels >= 0;
  s.f_colptr = std::move(f.colptr);
  s.f_rowind = std::move(f.rowind);
  s.f_diag = std::move(f.diag);
  s.nnz_l = f.nnz_l;
  s.nnz_u = f.nnz_u;
  analysis::build_factor_rows(s);
  s.factor_flops = analysis::factor_flops(s);
  analysis::build_value_map(s, a, cols);
  s.times.symbolic_ms = clock.lap_ms();

  analysis::build_levels(s);
  analysis::assign_kernel_modes(s, options.modes);
  if (analysis::engine_reads_update_lists(options, options.backend)) analysis::build_update_lists(s);
  s.times.levels_ms = clock.lap_ms();
  s.times.total_ms = s.times.matching_ms + s.times.ordering_ms + s.times.symbolic_ms + s.times.levels_ms;
}

// The supernodal engine's schedule: CHOLMOD's supernodes of C + C^T on the ordering (which
// it postorders), the counts and the value map into the panels; F is not spelled out.
void build_supernodal(Schedule& s, const analysis::InputPattern& a, analysis::SupernodalPattern&& sp,
                      const std::vector<int32_t>& row_of_col, int threads, Stopwatch& clock) {
  set_permutations(s, row_of_col, sp.q);
  s.kind = FactorKind::supernodal_lu;
  s.supernodes = std::move(sp.supernodes);
  s.times.sn_input_ms = sp.input_ms;
  s.times.sn_cholmod_ms = sp.cholmod_ms;
  s.times.sn_panels_ms = sp.panels_ms;
  analysis::Stopwatch steps;
  analysis::count_supernodal_factor(s);
  s.times.sn_factor_ms = steps.lap_ms();
  analysis::build_supernodal_value_map(s, a, threads);
  s.times.sn_value_map_ms = steps.lap_ms();
  s.times.symbolic_ms = clock.lap_ms();
  s.times.total_ms = s.times.matching_ms + s.times.ordering_ms + s.times.symbolic_ms;
}

// The row ILU (analysis/row_ilu.hpp): C = A(q, q)'s rows, their levels of fill, the value
// map. The ordering reads B only where it orders by the pattern (natural and given do not).
Schedule analyze_by_rows(const analysis::InputPattern& a, const Options& options, const int32_t* given_perm,
                         Stopwatch& clock) {
  Schedule s;
  s.n = a.n;
  s.input_nnz = a.nnz();
  s.ordering = options.ordering;
  s.row_scale.assign(static_cast<size_t>(a.n), 1.0);
  s.col_scale.assign(static_cast<size_t>(a.n), 1.0);
  s.times.matching_ms = clock.lap_ms();
  std::vector<int32_t> identity(static_cast<size_t>(a.n)), q;
  for (int32_t k = 0; k < a.n; ++k) identity[k] = k;
  if (options.ordering == Ordering::natural || options.ordering == Ordering::given) {
    analysis::MatchedPattern none;
    none.n = a.n;
    q = analysis::fill_reducing_ordering(none, options.ordering, given_perm);
  } else {
    const analysis::ColumnPattern cols = analysis::columns_of(a);
    const analysis::MatchedPattern b = analysis::matched_pattern(cols, a.n, identity);
    analysis::OrderingWork work{options.num_threads, options.ordering_cache, nullptr};
    q = analysis::fill_reducing_ordering(b, options.ordering, given_perm, work);
  }
  set_permutations(s, identity, q);  // no matching: row_perm = col_perm = q
  s.times.ordering_ms = clock.lap_ms();
  analysis::build_row_ilu(s, a, analysis::ilu_rows(analysis::rows_of_c(a, q), options.ilu_levels));
  s.times.symbolic_ms = clock.lap_ms();
  s.times.total_ms = s.times.matching_ms + s.times.ordering_ms + s.times.symbolic_ms;
  return s;
}

template <class I>
Schedule analyze_impl(const CsrView<I, double>& input, const Options& requested, const int32_t* given_perm,
                      const analysis::AmdCounted& amd_counted) {
  Stopwatch clock;
  Options options = requested;
  if (options.ilu_levels >= 0) {  // ILU factors A(q, q) itself, as PETSc's ILU does
    options.matching = false;
    options.scaling = false;
  }
  const analysis::InputPattern a = analysis::check_input(input, options.matching);
  if (analysis::factors_by_rows(options)) {
    options.ordering = analysis::resolve_ordering(options.ordering, a.n, /*tree_engine=*/false);
    return analyze_by_rows(a, options, given_perm, clock);
  }
  // The analysis queries no device: it resolves LuEngine::automatic by the one rule with no
  // device known, which keeps an engine its caller resolved (SparseLU: api::analysis_options).
  const LuEngine engine = resolve_lu_engine(options, AutomaticFacts{});
  const bool supernodal = engine == LuEngine::supernodal && options.ilu_levels < 0;
  options.ordering = analysis::resolve_ordering(options.ordering, a.n, /*tree_engine=*/supernodal);
  Schedule s;
  s.n = a.n;
  s.input_nnz = a.nnz();
  s.ordering = options.ordering;
  const analysis::ColumnPattern cols = analysis::columns_of(a);
  const analysis::Matching m = analysis::compute_matching(a, cols, options.matching, options.scaling);
  analysis::record_matching(s, m);
  s.times.matching_ms = clock.lap_ms();

  const analysis::MatchedPattern b = analysis::matched_pattern(cols, a.n, m.row_of_col);
  analysis::OrderingWork work{options.num_threads, options.ordering_cache, nullptr};
  work.amd_counted = amd_counted;
  if (supernodal) {
    // One graph of B + B^T for the ordering and CHOLMOD's analysis.
    const analysis::SymmetricGraph g = analysis::symmetric_graph(b, options.num_threads);
    work.graph = &g;
    work.amd_if_small = requested.ordering == Ordering::automatic && options.ordering_for_cpu;
    work.used = &s.ordering;
    const std::vector<int32_t> q = analysis::fill_reducing_ordering(b, options.ordering, given_perm, work);
    s.times.ordering_ms = clock.lap_ms();
    build_supernodal(s, a,
                     analysis::supernodal_symbolic(g, q, options.num_threads, /*with_upper=*/true, /*postorder=*/true,
                                                   analysis::amalgamation_for(work.amd_if_small, s.ordering)),
                     m.row_of_col, options.num_threads, clock);
    return s;
  }
  const std::vector<int32_t> q = analysis::fill_reducing_ordering(b, options.ordering, given_perm, work);
  set_permutations(s, m.row_of_col, q);
  s.times.ordering_ms = clock.lap_ms();
  build_factor_and_levels(s, a, cols, b, q, options, clock);
  return s;
}

// The supernodal LU with `schur` kept out (analysis/schur_ordering.hpp): A11's matching,
// scaling and ordering, I last and dense in CHOLMOD's graph, its columns one supernode.
template <class I>
Schedule analyze_schur_impl(const CsrView<I, double>& input, const std::vector<int32_t>& schur,
                            const Options& requested, const int32_t* given_perm) {
  Stopwatch clock;
  Options options = requested;
  if (options.ilu_levels >= 0)
    throw Error(Status::unsupported, "Schur complements need a complete LU, not ILU(k) (ilu_levels >= 0)");
  if (options.lu_engine == LuEngine::column)
    throw Error(Status::unsupported,
                "Schur complements are computed by the supernodal LU only: lu_engine column cannot keep them "
                "(PETSc: -mat_gpuglu_lu_engine supernodal)");
  const analysis::InputPattern a = analysis::check_input(input, options.matching);
  analysis::check_schur_indices(schur, a.n);
  const auto k = static_cast<int32_t>(schur.size());
  const int32_t m = a.n - k;
  options.ordering = analysis::resolve_ordering(options.ordering, m, /*tree_engine=*/true);
  Schedule s;
  s.n = a.n;
  s.input_nnz = a.nnz();
  s.ordering = options.ordering;
  s.schur_size = k;
  const analysis::SchurSplit split = analysis::split_schur(a.n, schur);
  const analysis::ComplementBlock a11 = analysis::complement_block(a, split);
  const analysis::ColumnPattern cols11 = analysis::columns_of(a11.pattern);
  analysis::Matching m11;
  try {
    m11 = analysis::compute_matching(a11.pattern, cols11, options.matching, options.scaling);
  } catch (const Error& e) {
    if (e.status() != Status::structurally_singular) throw;
    throw analysis::a11_singular(e, k, m);
  }
  const analysis::Matching matching = analysis::lift_matching(m11, split, a.n);
  analysis::record_matching(s, matching);
  s.times.matching_ms = clock.lap_ms();

  // The ordering of A11's graph alone: the cache then finds it by that graph, never by A's.
  const analysis::MatchedPattern b11 = analysis::matched_pattern(cols11, m, m11.row_of_col);
  std::vector<int32_t> given11;
  if (options.ordering == Ordering::given) given11 = analysis::restrict_given_ordering(given_perm, split);
  const analysis::OrderingWork work{options.num_threads, options.ordering_cache, nullptr};
  std::vector<int32_t> q = analysis::schur_last(
      analysis::fill_reducing_ordering(b11, options.ordering, given11.data(), work), split, schur);
  s.times.ordering_ms = clock.lap_ms();

  const analysis::ColumnPattern cols = analysis::columns_of(a);
  const analysis::SymmetricGraph g = analysis::symmetric_graph(
      analysis::with_dense_block(analysis::matched_pattern(cols, a.n, matching.row_of_col), schur),
      options.num_threads);
  analysis::SupernodalPattern sp = analysis::supernodal_symbolic(g, q, options.num_threads);
  if (!analysis::schur_trails(sp.q, schur)) {
    q = analysis::move_schur_last(sp.q, schur);
    sp = analysis::supernodal_symbolic(g, q, options.num_threads, /*with_upper=*/true, /*postorder=*/false);
    if (!analysis::schur_trails(sp.q, schur))
      throw Error(Status::invalid_input, "internal: CHOLMOD did not keep the Schur unknowns last");
  }
  analysis::isolate_schur_supernode(sp.supernodes, k);
  build_supernodal(s, a, std::move(sp), matching.row_of_col, options.num_threads, clock);
  return s;
}

// KLU's factorization stands in for matching + ordering (its time is ordering_ms); its
// column order is given to the static pipeline, and its pivot rows become the "matching":
// row_of_col[Q[k]] = Pnum[k], so that C's row k is KLU's k-th pivot row.
template <class I>
Schedule repivot_impl(const CsrView<I, double>& input, const Options& options, const double* complex_values) {
  Stopwatch clock;
  const analysis::InputPattern a = analysis::check_input(input, /*needs_values=*/true);
  Schedule s;
  s.n = a.n;
  s.input_nnz = a.nnz();
  s.ordering = Ordering::amd;  // KLU's default: AMD on each diagonal block of its BTF form
  s.repivoted = true;
  const analysis::ColumnPattern cols = analysis::columns_of(a);
  analysis::PartialPivoting pp = analysis::klu_partial_pivoting(a, cols, complex_values);
  s.scaled = a.n > 0;
  s.row_scale = std::move(pp.row_scale);
  s.col_scale.assign(static_cast<size_t>(a.n), 1.0);
  std::vector<int32_t> row_of_col(static_cast<size_t>(a.n));
  for (int32_t k = 0; k < a.n; ++k) row_of_col[pp.col_perm[k]] = pp.row_perm[k];
  const analysis::MatchedPattern b = analysis::matched_pattern(cols, a.n, row_of_col);
  set_permutations(s, row_of_col, pp.col_perm);
  s.times.ordering_ms = clock.lap_ms();
  build_factor_and_levels(s, a, cols, b, pp.col_perm, options, clock);
  return s;
}

}  // namespace

void spell_out_factor(Schedule& s, int threads) {
  if (s.factor_spelled_out()) return;
  if (s.kind == FactorKind::row_ilu) {
    analysis::guarded(s.n, [&] { analysis::spell_out_row_factor(s); });
    return;
  }
  if (s.kind != FactorKind::supernodal_lu) return;
  analysis::guarded(s.n, [&] { analysis::spell_out_supernodal_factor(s, threads); });
}

Schedule analyze(const CsrView<int64_t, double>& a, const Options& options, const int32_t* given_perm) {
  return analysis::analyze_counted(a, options, given_perm, {});
}

Schedule analyze(const CsrView<int32_t, double>& a, const Options& options, const int32_t* given_perm) {
  return analysis::analyze_counted(a, options, given_perm, {});
}

namespace analysis {

Schedule analyze_counted(const CsrView<int32_t, double>& a, const Options& options, const int32_t* given_perm,
                         const AmdCounted& amd_counted) {
  return guarded(a.nrows, [&] { return analyze_impl(a, options, given_perm, amd_counted); });
}

Schedule analyze_counted(const CsrView<int64_t, double>& a, const Options& options, const int32_t* given_perm,
                         const AmdCounted& amd_counted) {
  return guarded(a.nrows, [&] { return analyze_impl(a, options, given_perm, amd_counted); });
}

}  // namespace analysis

Schedule analyze_schur(const CsrView<int64_t, double>& a, const std::vector<int32_t>& schur, const Options& options,
                       const int32_t* given_perm) {
  return guarded(a.nrows, [&] { return analyze_schur_impl(a, schur, options, given_perm); });
}

Schedule analyze_schur(const CsrView<int32_t, double>& a, const std::vector<int32_t>& schur, const Options& options,
                       const int32_t* given_perm) {
  return guarded(a.nrows, [&] { return analyze_schur_impl(a, schur, options, given_perm); });
}

Schedule analyze_with_partial_pivoting(const CsrView<int64_t, double>& a, const Options& options) {
  return guarded(a.nrows, [&] { return repivot_impl(a, options, nullptr); });
}

Schedule analyze_with_partial_pivoting(const CsrView<int32_t, double>& a, const Options& options) {
  return guarded(a.nrows, [&] { return repivot_impl(a, options, nullptr); });
}

Schedule analyze_with_partial_pivoting(const CsrView<int32_t, double>& magnitudes,
                                       const std::complex<double>* values, const Options& options) {
  return guarded(magnitudes.nrows,
                 [&] { return repivot_impl(magnitudes, options, reinterpret_cast<const double*>(values)); });
}

}  // namespace gpuglu
