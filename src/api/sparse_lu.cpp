// SparseLU (include/gpuglu/lu.hpp): analyze once per pattern, factor / refactor with
// new values, solve many times, on the CPU (reference) backend or the CUDA backend.
#include "gpuglu/lu.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <new>
#include <string>

#include "api/analyzed_pattern.hpp"
#include "api/ilu_shift.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "reference/level_gather.hpp"
#include "reference/level_numeric.hpp"
#include "reference/refinement.hpp"
#include "reference/scatter.hpp"
#include "reference/triangular_solve.hpp"
#ifdef GPUGLU_HAVE_CUDA
#include "cuda/cuda_lu.hpp"
#endif

namespace gpuglu {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Before the analysis: a request that cannot be met fails at once.
void check_backend_request(const Options& o) {
  if (o.backend == Backend::cuda && !built_with_cuda())
    throw Error(Status::unsupported, "the CUDA numeric backend is not in this build; use backend cpu or auto");
}

// After the analysis: cuda needs a usable device; automatic takes the GPU only where the
// factor is large enough for it to win (Options::auto_gpu_min_factor_nnz).
Backend choose_backend(const Options& o, const Schedule& s, DeviceInfo& device) {
  if (o.backend == Backend::cpu || !built_with_cuda()) return Backend::cpu;
  const bool large = o.auto_gpu_min_factor_nnz >= 0 && s.nnz_factor() >= o.auto_gpu_min_factor_nnz;
  if (o.backend == Backend::automatic && !large) return Backend::cpu;
  device = query_device(o.device, local_rank_from_environment());
  if (device.usable) return Backend::cuda;
  if (o.backend == Backend::cuda) throw Error(Status::no_device, "backend cuda: " + device.reason);
  return Backend::cpu;
}

}  // namespace

const char* to_string(RecoveryReason r) noexcept {
  switch (r) {
    case RecoveryReason::none: return "none";
    case RecoveryReason::tiny_pivot: return "tiny pivot";
    case RecoveryReason::backward_error: return "backward error above the tolerance";
    case RecoveryReason::growth: return "a suspicious factor (growth, clamped scales) failed its check solve";
  }
  return "?";
}

struct SparseLU::Impl {
  Options options;
  Backend backend = Backend::cpu;
  bool analyzed = false;
  bool factored = false;
  int64_t analysis_count = 0;
  int64_t repivots = 0;    // schedules replaced by KLU's pivot order since the last analyze()
  int64_t reanalyses = 0;  // fresh static analyses by PivotPolicy::automatic since the last analyze()
  Schedule schedule;
  detail::AnalyzedPattern pattern;
  std::vector<int32_t> given_perm;  // Ordering::given: the caller's permutation, kept for re-analyses
  // The pattern's row pointers as the re-analyses read them (the analysis checked that
  // nnz(A) < 2^31, so int32 holds them).
  std::vector<int32_t> rowptr32;
  std::vector<double> a_values;  // values of the last factorization, for refinement and re-analyses
  // The schedule was analyzed from the values in a_values (analyze(), a re-analysis, KLU's
  // order): analyzing them again would choose the same pivots.
  bool schedule_fits_values = false;
  std::vector<double> check_x, check_b;  // the check solve of a factor with suspicious growth
  std::vector<double> f;         // F = (L - I) + U
  FactorStats fstats;
  SolveStats sstats;
  std::vector<double> solve_work;
  reference::RefineWork refine_work;
  DeviceInfo device;
  std::string fallback_reason;  // why automatic stayed on (or went back to) the CPU
#ifdef GPUGLU_HAVE_CUDA
  std::unique_ptr<cuda::CudaLU> gpu;
  bool host_factor_current = false;  // f mirrors the device's factor
#endif
  int32_t last_first_perturbed = -1;  // of the last engine run (NumericStats::first_perturbed)

  explicit Impl(const Options& o) : options(o), backend(o.backend == Backend::cuda ? Backend::cuda : Backend::cpu) {
    validate(options);
  }

  void discard() {
#ifdef GPUGLU_HAVE_CUDA
    gpu.reset();
    host_factor_current = false;
#endif
    fallback_reason.clear();
    analyzed = false;
    factored = false;
    repivots = 0;
    reanalyses = 0;
    schedule_fits_values = false;
    schedule = Schedule();
    pattern.clear();
    rowptr32.clear();
    given_perm.clear();
    fstats = FactorStats();
    sstats = SolveStats();
  }

  template <class I>
  void analyze(const CsrView<I, double>& a, const int32_t* given) {
    discard();
    check_backend_request(options);
    schedule = gpuglu::analyze(a, options, given);
    backend = choose_backend(options, schedule, device);
    attach_backend();
    pattern.assign(a);
    rowptr32.assign(pattern.rowptr(), pattern.rowptr() + schedule.n + 1);
    if (given) given_perm.assign(given, given + schedule.n);
    if (a.values) a_values.assign(a.values, a.values + schedule.input_nnz);
    else a_values.assign(static_cast<size_t>(schedule.input_nnz), 0.0);
    schedule_fits_values = a.values != nullptr;
    size_buffers();
    analyzed = true;
    ++analysis_count;
  }

  // The CUDA engine for the current schedule where the CUDA backend was chosen.
  void attach_backend() {
#ifdef GPUGLU_HAVE_CUDA
    if (backend == Backend::cuda) {
      try {
        gpu = std::make_unique<cuda::CudaLU>(schedule, device.ordinal);
      } catch (const Error& e) {
        // A GPU that cannot hold the factor leaves the work to the CPU under automatic, and
        // under cuda when asked to (Options::cpu_fallback).
        const bool fall_back = options.backend == Backend::automatic || options.cpu_fallback;
        if (!fall_back || e.status() != Status::out_of_memory) throw;
        fallback_reason = e.what();
        backend = Backend::cpu;
      }
    }
#endif
  }

  // Everything factor() and solve() touch is sized here: refactorization allocates nothing.
  void size_buffers() {
    f.assign(schedule.f_rowind.size(), 0.0);
    solve_work.assign(static_cast<size_t>(schedule.n), 0.0);
    refine_work.resize(schedule.n);
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
    take_values(values);
    if (schedule.incomplete && options.shift_type != ShiftType::none)
      factor_with_shifts();
    else
      factor_with_schedule(reference::PivotRule::from(options));
    // An ILU factor is no LU of A: another pivot order would turn it into a complete one.
    if (!schedule.incomplete) {
      // numerically_singular only: NaN/Inf input (nan_or_inf) is no pivot problem.
      if (options.pivot_policy == PivotPolicy::repivot && fstats.status == Status::numerically_singular)
        repivot_once();
      else if (options.pivot_policy == PivotPolicy::automatic)
        recover_in_factor();
    }
    fstats.repivots = repivots;
    fstats.reanalyses = reanalyses;
    factored = fstats.status == Status::ok;
    fstats.factor_ms = ms_since(t0);
    return fstats;
  }

  // a_values = values; whether the schedule still fits them is decided on the way.
  void take_values(const double* values) {
    const auto n = static_cast<size_t>(schedule.input_nnz);
    if (schedule_fits_values) schedule_fits_values = std::equal(values, values + n, a_values.begin());
    std::copy(values, values + n, a_values.begin());
  }

  // Options::shift_type (incomplete factorizations): PETSc's shift loop (api/ilu_shift.hpp).
  // The engines perturb only exact zero pivots meanwhile, which keeps the rows before them
  // exact for the row test; a factor that passes the test has no perturbed pivot.
  void factor_with_shifts() {
    const double top =
        options.shift_type == ShiftType::positive_definite
            ? api::manteuffel_bound(schedule.n, pattern.rowptr(), pattern.colind(), a_values.data(), options.zero_pivot)
            : 0.0;
    api::ShiftSearch search(options.shift_type, options.shift_amount, top);
    reference::PivotRule rule{PivotPolicy::perturb, 0.0, 0.0, 1.0, 0.0};
    // nonzero doubles the shift each time: 64 tries take it from 1e-14 past 1e5.
    constexpr int32_t kMaxTries = 64;
    int32_t failing = -1;
    do {
      rule.diagonal_shift = search.amount();
      factor_with_schedule(rule);
      if (fstats.status != Status::ok) break;  // NaN/Inf: no shift repairs that
      failing = api::first_failing_row(schedule, factor_values().data(), options.shift_type, options.zero_pivot,
                                       last_first_perturbed);
    } while (search.tries() < kMaxTries && search.next(failing >= 0));
    fstats.shift_tries = search.tries();
    fstats.shift_amount = rule.diagonal_shift;
    if (fstats.status == Status::ok && failing >= 0) {
      fstats.status = Status::numerically_singular;
      set_failure_column(failing);
      fstats.pivot_value = factor_values()[static_cast<size_t>(schedule.f_diag[failing])];
    }
  }

  // One numeric factorization of a_values with the current schedule, on the active backend.
  void factor_with_schedule(const reference::PivotRule& rule) {
#ifdef GPUGLU_HAVE_CUDA
    if (gpu) return factor_on_device(rule);
#endif
    const reference::ScatterResult sc = reference::scatter_values(schedule, a_values.data(), f.data());
    if (sc.bad_entry >= 0) {
      // No pivot is involved: the columns name where the bad input value sits.
      const int32_t col = pattern.colind()[sc.bad_entry];
      fstats.status = Status::nan_or_inf;
      fstats.pivot_column_original = col;
      fstats.pivot_column = schedule.col_perm_inv[col];
      fstats.pivot_value = a_values[sc.bad_entry];
    } else {
      if (rule.diagonal_shift != 0.0)
        for (int32_t j = 0; j < schedule.n; ++j) f[static_cast<size_t>(schedule.f_diag[j])] += rule.diagonal_shift;
      const reference::NumericStats ns =
          options.cpu_right_looking ? reference::factor_levels(schedule, f.data(), rule, options.num_threads)
                                    : reference::factor_levels_gather(schedule, f.data(), rule, options.num_threads);
      fstats.status = ns.status;
      set_failure_column(ns.pivot_column);
      fstats.pivot_value = ns.pivot_value;
      fstats.perturbed_pivots = ns.perturbed_pivots;
      last_first_perturbed = ns.first_perturbed;
      fstats.min_pivot_ratio = ns.min_pivot_ratio;
      fstats.growth = sc.max_abs > 0.0 ? ns.max_active / sc.max_abs : 0.0;
    }
  }

  void set_failure_column(int32_t column) {
    fstats.pivot_column = column;
    fstats.pivot_column_original = column >= 0 ? schedule.col_perm[column] : -1;
  }

#ifdef GPUGLU_HAVE_CUDA
  void factor_on_device(const reference::PivotRule& rule) {
    host_factor_current = false;
    const cuda::DeviceFactorResult r = gpu->factor(a_values.data(), rule);
    if (r.bad_entry >= 0) {
      const int32_t col = pattern.colind()[r.bad_entry];
      fstats.status = Status::nan_or_inf;
      fstats.pivot_column_original = col;
      fstats.pivot_column = schedule.col_perm_inv[col];
      fstats.pivot_value = a_values[r.bad_entry];
    } else {
      const reference::NumericStats& ns = r.stats;
      fstats.status = ns.status;
      set_failure_column(ns.pivot_column);
      fstats.pivot_value = ns.pivot_value;
      fstats.perturbed_pivots = ns.perturbed_pivots;
      last_first_perturbed = ns.first_perturbed;
      fstats.min_pivot_ratio = ns.min_pivot_ratio;
      fstats.growth = r.max_abs_input > 0.0 ? ns.max_active / r.max_abs_input : 0.0;
    }
    fstats.device_ms = r.device_ms;
  }
#endif

  // PivotPolicy::repivot after a tiny pivot: KLU's partial pivoting on A (the analyzed
  // pattern with this call's values) gives a new schedule, and the same values are factored
  // again with it on the same backend. The new pivots are KLU's, which passed its threshold
  // test on these very values, so this succeeds unless A is (nearly) singular; a failure is
  // reported, never re-pivoted again within the call.
  void repivot_once() {
    const FactorStats failed = fstats;
    if (!switch_to_partial_pivoting()) return;
    const int64_t nnz_before = fstats.repivot_nnz_before;
    fstats = FactorStats();
    fstats.factorizations = failed.factorizations;
    fstats.repivoted = true;
    fstats.repivot_column_original = failed.pivot_column_original;
    fstats.repivot_pivot_value = failed.pivot_value;
    fstats.repivot_nnz_before = nnz_before;
    factor_with_schedule(reference::PivotRule::from(options));
  }

  // The schedule becomes KLU's pivot order for a_values. False, with the schedule kept and
  // fstats.repivot_singular set, when KLU finds A singular too.
  bool switch_to_partial_pivoting() {
    const int64_t nnz_before = schedule.nnz_factor();
    Schedule klu_order;
    try {
      klu_order = analyze_with_partial_pivoting(analyzed_matrix(), options);
    } catch (const std::bad_alloc&) {
      throw Error(Status::out_of_memory, "re-pivoting ran out of host memory (n = " + std::to_string(schedule.n) + ")");
    } catch (const Error& e) {
      if (e.status() != Status::numerically_singular) throw;
      fstats.repivot_singular = true;
      fstats.repivot_column_original = fstats.pivot_column_original;
      fstats.repivot_pivot_value = fstats.pivot_value;
      return false;
    }
    replace_schedule(std::move(klu_order));
    ++repivots;
    fstats.repivot_nnz_before = nnz_before;
    return true;
  }

  // A with the values of this factorization, in the analyzed pattern.
  CsrView<int32_t, double> analyzed_matrix() const {
    return {schedule.n, schedule.n, rowptr32.data(), pattern.colind(), a_values.data()};
  }

  // PivotPolicy::automatic, after the factorization with the schedule this call started with.
  void recover_in_factor() {
    if (fstats.status == Status::nan_or_inf) return;  // an input value: no pivot order repairs it
    const RecoveryReason why = assess_factor();
    if (why == RecoveryReason::none) return;
    if (!recover(why, [&] { return assess_factor() == RecoveryReason::none; }) && fstats.status == Status::ok)
      fstats.status = Status::numerically_singular;  // the last factor failed its check solve
  }

  // none when the factor just computed is usable: no tiny pivot, and where it is suspicious
  // (growth above check_growth, or MC64 scales clamped to the double range, which leave C
  // unbalanced), a solve with a known solution within the backward-error tolerance.
  RecoveryReason assess_factor() {
    if (fstats.status == Status::numerically_singular) return RecoveryReason::tiny_pivot;
    const bool suspicious = fstats.growth > options.check_growth || schedule.scales_clamped > 0;
    if (fstats.status != Status::ok || !suspicious || max_refine_steps() == 0) return RecoveryReason::none;
    fstats.check_backward_error = check_solve();
    return fstats.check_backward_error <= options.backward_error_tolerance ? RecoveryReason::none
                                                                           : RecoveryReason::growth;
  }

  // Solves A x = A t for t_i in [1, 2) (a smooth, nonzero solution, so that every component
  // of b has a reference scale) and returns the backward error the refined solve reaches.
  double check_solve() {
    const auto n = static_cast<size_t>(schedule.n);
    check_x.resize(n);
    check_b.resize(n);
    for (size_t i = 0; i < n; ++i) check_x[i] = 1.0 + static_cast<double>((i * 2654435761u) % 1024) / 1024.0;
    spmv(analyzed_matrix(), check_x.data(), check_b.data());
    return solve_one(check_b.data(), check_x.data(), false, max_refine_steps()).backward_error;
  }

  // PivotPolicy::automatic: the factor of the current schedule failed (why). The schedules
  // after it are tried in turn until accept() takes one's factor: a fresh static analysis of
  // the current values (the fast path again; skipped when the schedule was analyzed from
  // them), then KLU's partial pivoting (skipped when the schedule already is KLU's for them).
  // False: none was accepted, and fstats describes the last attempt.
  bool recover(RecoveryReason why, const std::function<bool()>& accept) {
    const FactorStats failed = fstats;
    const int64_t nnz_before = schedule.nnz_factor();
    auto restart = [&](bool reanalyzed) {
      fstats = FactorStats();
      fstats.factorizations = failed.factorizations;
      fstats.repivot_nnz_before = nnz_before;
      fstats.recovery = why;
      fstats.reanalyzed = reanalyzed;
      if (why == RecoveryReason::growth) fstats.recovery_growth = failed.growth;
      if (why == RecoveryReason::tiny_pivot) {
        fstats.repivot_column_original = failed.pivot_column_original;
        fstats.repivot_pivot_value = failed.pivot_value;
      }
    };
    bool reanalyzed = false;
    if (!schedule_fits_values) {
      reanalyze_static();
      reanalyzed = true;
      restart(reanalyzed);
      factor_with_schedule(reference::PivotRule::from(options));
      if (accept()) return true;
    }
    if (schedule_fits_values && schedule.repivoted) return false;
    if (!switch_to_partial_pivoting()) return false;
    restart(reanalyzed);
    fstats.repivoted = true;
    factor_with_schedule(reference::PivotRule::from(options));
    return accept();
  }

  // The static pipeline (matching, ordering, symbolic) on the current values, as analyze()
  // would run it had these values come first.
  void reanalyze_static() {
    Schedule fresh = gpuglu::analyze(analyzed_matrix(), options, given_perm.empty() ? nullptr : given_perm.data());
    replace_schedule(std::move(fresh));
    ++reanalyses;
    schedule_fits_values = true;
  }

  // The backend stays the one analyze() chose (the CUDA engine is rebuilt for the new
  // pattern, with analyze()'s fallback to the CPU under automatic when it does not fit).
  void replace_schedule(Schedule&& s) {
#ifdef GPUGLU_HAVE_CUDA
    gpu.reset();  // the old engine's device memory first: the new one may need all of it
    host_factor_current = false;
#endif
    schedule = std::move(s);
    ++analysis_count;
    schedule_fits_values = true;
    try {
      attach_backend();
      size_buffers();
    } catch (const std::bad_alloc&) {
      const int64_t nnz = schedule.nnz_factor();
      discard();
      throw Error(Status::out_of_memory, "re-pivoting: no host memory for the new factor (nnz(L+U) = " +
                                             std::to_string(nnz) + "); analyze() again");
    } catch (...) {
      discard();  // no engine or buffers for the new schedule: the object must be analyzed again
      throw;
    }
  }

  const std::vector<double>& factor_values() {
#ifdef GPUGLU_HAVE_CUDA
    if (gpu && !host_factor_current) {
      gpu->download_factor(f.data());
      host_factor_current = true;
    }
#endif
    return f;
  }

  // One right-hand side with the active backend's factor (b and x may alias on the CPU;
  // the CUDA backend copies b to the device before writing x).
  void backend_solve(const double* b, double* x, bool transpose) {
#ifdef GPUGLU_HAVE_CUDA
    if (gpu) {
      gpu->solve(b, x, transpose);
      return;
    }
#endif
    if (transpose)
      reference::solve_transpose_with_factor(schedule, f.data(), b, x, solve_work.data());
    else
      reference::solve_with_factor(schedule, f.data(), b, x, solve_work.data());
  }

  int32_t max_refine_steps() const {
    // Static (diagonal) pivots after matching are not backward stable on badly scaled
    // matrices (lns_131: berr 5e-12 with growth 4 on the scaled matrix). As SuperLU_DIST
    // does for the same reason, the automatic policy measures the componentwise backward
    // error after every solve (one residual) and refines while it exceeds the tolerance.
    if (schedule.incomplete) return 0;  // ILU preconditions; refining against A is not its job
    if (options.refine_steps < 0) return 3;
    return options.refine_steps;
  }

  // One right-hand side (b must not overlap x), refined up to `steps` steps: the CUDA
  // backend refines on the device (A's values are there since factor(), so only b goes up
  // and x comes back), the CPU backend with reference::refine_with.
  reference::RefineOutcome solve_one(const double* b, double* x, bool transpose, int32_t steps) {
    reference::RefineOutcome out;
#ifdef GPUGLU_HAVE_CUDA
    if (gpu) {
      if (steps > 0 && !gpu->has_input_pattern()) gpu->set_input_pattern(pattern.rowptr(), pattern.colind());
      const cuda::CudaLU::Refinement r = gpu->solve_refined(b, x, transpose, steps, options.refine_tolerance);
      out.steps = r.steps;
      out.backward_error = r.backward_error;
      return out;
    }
#endif
    backend_solve(b, x, transpose);
    if (steps == 0) return out;
    const reference::CsrRef a{schedule.n, pattern.rowptr(), pattern.colind(), a_values.data()};
    return reference::refine_with([&](const double* r, double* d) { backend_solve(r, d, transpose); }, a, transpose,
                                  b, x, steps, options.refine_tolerance, refine_work);
  }

  // A solve above the tolerance is no solution unless the user chose perturbed pivots
  // (a preconditioner) or an incomplete factor (never refined).
  bool solves_must_meet_tolerance() const {
    return options.pivot_policy != PivotPolicy::perturb && !schedule.incomplete;
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
    const double tolerance = options.backward_error_tolerance;
    for (int32_t c = 0; c < nrhs && sstats.status == Status::ok; ++c) {
      const double* bc = b + ldb * c;
      double* xc = x + ldx * c;
      // Refinement and a recovery read b after x is written: b is copied where they overlap.
      const double* rhs = bc;
      if (steps > 0 && std::less<const double*>()(bc, xc + n) && std::less<const double*>()(xc, bc + n)) {
        std::copy(bc, bc + n, refine_work.rhs.begin());
        rhs = refine_work.rhs.data();
      }
      reference::RefineOutcome r = solve_one(rhs, xc, transpose, steps);
      if (steps > 0 && !(r.backward_error <= tolerance) && solves_must_meet_tolerance()) {
        const bool repaired = options.pivot_policy == PivotPolicy::automatic &&
                              recover(RecoveryReason::backward_error, [&] {
                                if (fstats.status != Status::ok) return false;
                                r = solve_one(rhs, xc, transpose, steps);
                                return r.backward_error <= tolerance;
                              });
        sstats.recovered = sstats.recovered || repaired;
        fstats.repivots = repivots;
        fstats.reanalyses = reanalyses;
        if (!repaired) fail_factor();
      }
      if (steps > 0) {
        sstats.refine_steps = std::max(sstats.refine_steps, r.steps);
        sstats.backward_error = std::max(sstats.backward_error, r.backward_error);
        sstats.inaccurate = sstats.inaccurate || !(r.backward_error <= tolerance);
      }
    }
    sstats.solve_ms = ms_since(t0);
    return sstats;
  }

  // No pivot order gives a solve within the tolerance: the factor is unusable from now on.
  void fail_factor() {
    sstats.status = Status::numerically_singular;
    if (fstats.status == Status::ok) fstats.status = Status::numerically_singular;
    if (fstats.recovery == RecoveryReason::none) fstats.recovery = RecoveryReason::backward_error;
    factored = false;
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

void SparseLU::set_refinement(int32_t steps, double tolerance) {
  if (steps < -1 || !(tolerance >= 0.0))
    throw Error(Status::invalid_input, "set_refinement(): steps = " + std::to_string(steps) +
                                           " (>= -1), tolerance = " + std::to_string(tolerance) + " (>= 0)");
  impl_->options.refine_steps = steps;
  impl_->options.refine_tolerance = tolerance;
}

const Options& SparseLU::options() const noexcept { return impl_->options; }
const FactorStats& SparseLU::factor_stats() const noexcept { return impl_->fstats; }
const SolveStats& SparseLU::solve_stats() const noexcept { return impl_->sstats; }
Backend SparseLU::active_backend() const noexcept { return impl_->backend; }
int64_t SparseLU::analysis_count() const noexcept { return impl_->analysis_count; }
const std::vector<double>& SparseLU::factor_values() const { return impl_->factor_values(); }
const DeviceInfo& SparseLU::device_info() const noexcept { return impl_->device; }
const std::string& SparseLU::backend_note() const noexcept { return impl_->fallback_reason; }
TrsvKernel SparseLU::trsv_kernel() const noexcept {
#ifdef GPUGLU_HAVE_CUDA
  if (impl_->gpu) return impl_->gpu->trsv_kernel();
#endif
  return impl_->options.trsv_kernel;
}

int64_t SparseLU::device_bytes() const noexcept {
#ifdef GPUGLU_HAVE_CUDA
  if (impl_->gpu) return impl_->gpu->device_bytes();
#endif
  return 0;
}

}  // namespace gpuglu
