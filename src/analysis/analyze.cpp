// analyze(): the pipeline of include/gpuglu/analysis.hpp, one stage per file.
#include "gpuglu/analysis.hpp"

#include <chrono>
#include <new>

#include "analysis/factor_rows.hpp"
#include "analysis/input_pattern.hpp"
#include "analysis/levels.hpp"
#include "analysis/matching.hpp"
#include "analysis/ordering.hpp"
#include "analysis/symbolic.hpp"
#include "analysis/update_lists.hpp"
#include "analysis/value_map.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {

namespace {

class Stopwatch {
 public:
  double lap_ms() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

template <class I>
Schedule analyze_impl(const CsrView<I, double>& input, const Options& options, const int32_t* given_perm) {
  Stopwatch clock;
  const analysis::InputPattern a = analysis::check_input(input, options.matching);
  Schedule s;
  s.n = a.n;
  s.input_nnz = a.nnz();
  s.options = options;
  s.ordering = options.ordering;
  const analysis::ColumnPattern cols = analysis::columns_of(a);
  const analysis::Matching m = analysis::compute_matching(a, cols, options.matching, options.scaling);
  s.matched = m.matched;
  s.scaled = m.scaled;
  s.row_scale = m.row_scale;
  s.col_scale = m.col_scale;
  s.times.matching_ms = clock.lap_ms();

  const analysis::MatchedPattern b = analysis::matched_pattern(cols, a.n, m.row_of_col);
  const std::vector<int32_t> q = analysis::fill_reducing_ordering(b, options.ordering, given_perm);
  s.col_perm = q;
  s.row_perm.resize(q.size());
  for (size_t k = 0; k < q.size(); ++k) s.row_perm[k] = m.row_of_col[q[k]];
  s.row_perm_inv.resize(q.size());
  s.col_perm_inv.resize(q.size());
  for (int32_t k = 0; k < a.n; ++k) {
    s.row_perm_inv[s.row_perm[k]] = k;
    s.col_perm_inv[s.col_perm[k]] = k;
  }
  s.times.ordering_ms = clock.lap_ms();

  analysis::FactorPattern f = analysis::symbolic_factorization(b, q);
  s.f_colptr = std::move(f.colptr);
  s.f_rowind = std::move(f.rowind);
  s.f_diag = std::move(f.diag);
  s.nnz_l = f.nnz_l;
  s.nnz_u = f.nnz_u;
  analysis::build_factor_rows(s);
  analysis::build_value_map(s, a);
  s.times.symbolic_ms = clock.lap_ms();

  analysis::build_levels(s);
  analysis::assign_kernel_modes(s, options.modes);
  analysis::build_update_lists(s);
  s.times.levels_ms = clock.lap_ms();
  s.times.total_ms = s.times.matching_ms + s.times.ordering_ms + s.times.symbolic_ms + s.times.levels_ms;
  return s;
}

template <class I>
Schedule analyze_guarded(const CsrView<I, double>& a, const Options& options, const int32_t* given_perm) {
  try {
    return analyze_impl(a, options, given_perm);
  } catch (const std::bad_alloc&) {
    throw Error(Status::out_of_memory, "the analysis ran out of host memory (n = " + std::to_string(a.nrows) + ")");
  }
}

}  // namespace

Schedule analyze(const CsrView<int64_t, double>& a, const Options& options, const int32_t* given_perm) {
  return analyze_guarded(a, options, given_perm);
}

Schedule analyze(const CsrView<int32_t, double>& a, const Options& options, const int32_t* given_perm) {
  return analyze_guarded(a, options, given_perm);
}

}  // namespace gpuglu
