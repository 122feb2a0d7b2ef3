// SparseLU (include/gpuglu/lu.hpp): analyze once per pattern, factor / refactor with
// new values, solve many times. This issue ships the CPU (reference) backend only.
#include "gpuglu/lu.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>

#include "api/analyzed_pattern.hpp"
#include "gpuglu/analysis.hpp"
#include "reference/level_gather.hpp"
#include "reference/level_numeric.hpp"
#include "reference/refinement.hpp"
#include "reference/scatter.hpp"
#include "reference/triangular_solve.hpp"

namespace gpuglu {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

Backend select_backend(const Options& o) {
  switch (o.backend) {
    case Backend::automatic:
    case Backend::cpu: return Backend::cpu;
    case Backend::cuda:
      throw Error(Status::unsupported, "the CUDA numeric backend is not in this build; use backend cpu or auto");
  }
  return Backend::cpu;
}

}  // namespace

struct SparseLU::Impl {
  Options options;
  Backend backend = Backend::cpu;
  bool analyzed = false;
  bool factored = false;
  int64_t analysis_count = 0;
  Schedule schedule;
  detail::AnalyzedPattern pattern;
  std::vector<double> a_values;  // values of the last factorization, for refinement
  std::vector<double> f;         // F = (L - I) + U
  FactorStats fstats;
  SolveStats sstats;
  std::vector<double> solve_work;
  reference::RefineWork refine_work;

  explicit Impl(const Options& o) : options(o), backend(o.backend == Backend::cuda ? Backend::cuda : Backend::cpu) {}

  void discard() {
    analyzed = false;
    factored = false;
    schedule = Schedule();
    pattern.clear();
    fstats = FactorStats();
    sstats = SolveStats();
  }

  template <class I>
  void analyze(const CsrView<I, double>& a, const int32_t* given_perm) {
    discard();
    backend = select_backend(options);
    schedule = gpuglu::analyze(a, options, given_perm);
    pattern.assign(a);
    // Everything factor() and solve() touch is sized here: refactorization allocates nothing.
    const size_t n = static_cast<size_t>(schedule.n);
    a_values.assign(static_cast<size_t>(schedule.input_nnz), 0.0);
    f.assign(schedule.f_rowind.size(), 0.0);
    solve_work.assign(n, 0.0);
    refine_work.resize(schedule.n);
    analyzed = true;
    ++analysis_count;
  }

  void require_analyzed(const char* verb) const {
    if (!analyzed) throw Error(Status::not_analyzed, std::string(verb) + ": analyze() has not been called");
  }

  const FactorStats& refactor(const double* values) {
    require_analyzed("factor()");
    if (!values && schedule.input_nnz > 0) throw Error(Status::invalid_input, "factor(): the matrix has no values");
    const auto t0 = std::chrono::steady_clock::now();
    factored = false;
    const int64_t count = fstats.factorizations + 1;
    fstats = FactorStats();
    fstats.factorizations = count;
    std::copy(values, values + schedule.input_nnz, a_values.begin());
    const reference::ScatterResult sc = reference::scatter_values(schedule, a_values.data(), f.data());
    if (sc.bad_entry >= 0) {
      // No pivot is involved: the columns name where the bad input value sits.
      const int32_t col = pattern.colind()[sc.bad_entry];
      fstats.status = Status::nan_or_inf;
      fstats.pivot_column_original = col;
      fstats.pivot_column = schedule.col_perm_inv[col];
      fstats.pivot_value = a_values[sc.bad_entry];
    } else {
      const reference::PivotRule rule = reference::PivotRule::from(options);
      const reference::NumericStats ns =
          options.cpu_right_looking ? reference::factor_levels(schedule, f.data(), rule, options.num_threads)
                                    : reference::factor_levels_gather(schedule, f.data(), rule, options.num_threads);
      fstats.status = ns.status;
      fstats.pivot_column = ns.pivot_column;
      fstats.pivot_column_original = ns.pivot_column >= 0 ? schedule.col_perm[ns.pivot_column] : -1;
      fstats.pivot_value = ns.pivot_value;
      fstats.perturbed_pivots = ns.perturbed_pivots;
      fstats.min_pivot_ratio = ns.min_pivot_ratio;
      fstats.growth = sc.max_abs > 0.0 ? ns.max_active / sc.max_abs : 0.0;
    }
    factored = fstats.status == Status::ok;
    fstats.factor_ms = ms_since(t0);
    return fstats;
  }

  int32_t max_refine_steps() const {
    // Static (diagonal) pivots after matching are not backward stable on badly scaled
    // matrices (lns_131: berr 5e-12 with growth 4 on the scaled matrix). As SuperLU_DIST
    // does for the same reason, the automatic policy measures the componentwise backward
    // error after every solve (one residual) and refines while it exceeds the tolerance.
    if (options.refine_steps < 0) return 3;
    return options.refine_steps;
  }

  const SolveStats& solve(int32_t nrhs, const double* b, int64_t ldb, double* x, int64_t ldx, bool transpose) {
    if (!factored)
      throw Error(Status::not_factored, analyzed ? "solve(): the last factorization failed or none was done"
                                                 : "solve(): analyze() and factor() have not been called");
    const int64_t n = schedule.n;
    if (nrhs < 0 || ldb < n || ldx < n)
      throw Error(Status::invalid_input, "solve(): nrhs = " + std::to_string(nrhs) + ", ldb = " + std::to_string(ldb) +
                                             ", ldx = " + std::to_string(ldx) + " for n = " + std::to_string(n));
    if (nrhs > 0 && n > 0 && (!b || !x)) throw Error(Status::invalid_input, "solve(): null right-hand side or solution");
    if (nrhs > 1 && ldb != ldx && b != x) {
      // Column c of X must not overwrite a column of B that is still to be read.
      const double* b_end = b + ldb * (nrhs - 1) + n;
      const double* x_end = x + ldx * (nrhs - 1) + n;
      if (std::less<const double*>()(b, x_end) && std::less<const double*>()(x, b_end))
        throw Error(Status::invalid_input, "solve(): B and X overlap with different leading dimensions");
    }
    const auto t0 = std::chrono::steady_clock::now();
    sstats = SolveStats();
    const int32_t steps = max_refine_steps();
    const reference::CsrRef a{schedule.n, pattern.rowptr(), pattern.colind(), a_values.data()};
    for (int32_t c = 0; c < nrhs; ++c) {
      const double* bc = b + ldb * c;
      double* xc = x + ldx * c;
      // Refinement needs b after x is written, and they may alias: keep a copy.
      const double* rhs = bc;
      if (steps > 0) {
        std::copy(bc, bc + n, refine_work.rhs.begin());
        rhs = refine_work.rhs.data();
      }
      if (transpose)
        reference::solve_transpose_with_factor(schedule, f.data(), rhs, xc, solve_work.data());
      else
        reference::solve_with_factor(schedule, f.data(), rhs, xc, solve_work.data());
      if (steps > 0) {
        const reference::RefineOutcome r = reference::refine(schedule, f.data(), a, transpose, rhs, xc, steps,
                                                             options.refine_tolerance, refine_work);
        sstats.refine_steps = std::max(sstats.refine_steps, r.steps);
        sstats.backward_error = std::max(sstats.backward_error, r.backward_error);
        sstats.inaccurate = sstats.inaccurate || !(r.backward_error <= SolveStats::kAcceptableBackwardError);
      }
    }
    sstats.solve_ms = ms_since(t0);
    return sstats;
  }
};

SparseLU::SparseLU(const Options& options) : impl_(std::make_unique<Impl>(options)) {}
SparseLU::~SparseLU() = default;
SparseLU::SparseLU(SparseLU&&) noexcept = default;
SparseLU& SparseLU::operator=(SparseLU&&) noexcept = default;

void SparseLU::analyze(const CsrView<int32_t, double>& a, const int32_t* given_perm) { impl_->analyze(a, given_perm); }
void SparseLU::analyze(const CsrView<int64_t, double>& a, const int32_t* given_perm) { impl_->analyze(a, given_perm); }

const FactorStats& SparseLU::factor(const CsrView<int32_t, double>& a) {
  impl_->require_analyzed("factor()");
  impl_->pattern.check_same(a);
  return impl_->refactor(a.values);
}

const FactorStats& SparseLU::factor(const CsrView<int64_t, double>& a) {
  impl_->require_analyzed("factor()");
  impl_->pattern.check_same(a);
  return impl_->refactor(a.values);
}

const FactorStats& SparseLU::refactor(const double* values) { return impl_->refactor(values); }

const SolveStats& SparseLU::solve(const double* b, double* x) {
  return impl_->solve(1, b, impl_->schedule.n, x, impl_->schedule.n, false);
}

const SolveStats& SparseLU::solve_transpose(const double* b, double* x) {
  return impl_->solve(1, b, impl_->schedule.n, x, impl_->schedule.n, true);
}

const SolveStats& SparseLU::solve(int32_t nrhs, const double* b, int64_t ldb, double* x, int64_t ldx) {
  return impl_->solve(nrhs, b, ldb, x, ldx, false);
}

bool SparseLU::analyzed() const noexcept { return impl_->analyzed; }
bool SparseLU::factored() const noexcept { return impl_->factored; }

const Schedule& SparseLU::schedule() const {
  impl_->require_analyzed("schedule()");
  return impl_->schedule;
}

const Options& SparseLU::options() const noexcept { return impl_->options; }
const FactorStats& SparseLU::factor_stats() const noexcept { return impl_->fstats; }
const SolveStats& SparseLU::solve_stats() const noexcept { return impl_->sstats; }
Backend SparseLU::active_backend() const noexcept { return impl_->backend; }
int64_t SparseLU::analysis_count() const noexcept { return impl_->analysis_count; }
const std::vector<double>& SparseLU::factor_values() const { return impl_->f; }

}  // namespace gpuglu
