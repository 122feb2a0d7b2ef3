#pragma once
// BasicSparseSolver's private state (include/gpuglu/solver.hpp): what SparseLU and
// SparseLDLT both hold - the schedule, the numeric engine that executes it, the stats -
// and the steps they share, written once (solver_core.cpp: the factorization's frame, the
// multi-RHS solve loop, the check solve of a suspicious factor, PETSc's shift loop;
// solver_device.cpp: device data through the host). What differs between the two is
// virtual: each facade's Impl (sparse_lu_impl.hpp, sparse_ldlt_impl.hpp) derives from
// Core and supplies its factorization, its per-column solve and its recoveries.
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "api/analyzed_pattern.hpp"
#include "core/numeric_engine.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/solver.hpp"

namespace gpuglu {

template <class Scalar>
struct BasicSparseSolver<Scalar>::Core {
  Options options;
  Backend backend = Backend::cpu;  // the backend analyze() chose; a re-analysis keeps it
  bool analyzed = false;
  bool factored = false;
  int64_t analysis_count = 0;
  Schedule schedule;
  detail::AnalyzedPattern pattern;  // A as the caller stores it (factor()'s pattern check)
  std::unique_ptr<BasicNumericEngine<Scalar>> engine;  // executes `schedule`
  DeviceInfo device;
  DeviceClaim device_claim;  // the engine's device, counted while the engine lives
  // The analysis's DeviceWarmUp (api/engine_choice.hpp), whose thread may still be loading the
  // engine's kernels: joined when the solver goes or analyzes again.
  std::shared_ptr<void> warm_up;
  std::string fallback_reason;  // why automatic stayed on (or went back to) the CPU
  FactorStats fstats;
  SolveStats sstats;
  // Solves of this factorization since one met the refinement target with no correction step
  // (-1: none has; Options::refine_check_interval), plain [0] and transposed [1] apart: a
  // factor whose plain solves are backward stable may not be so transposed (lns_131 with
  // matching and the natural ordering).
  std::array<int64_t, 2> clean_solves{-1, -1};
  int64_t& clean_solves_of(bool transpose) { return clean_solves[transpose ? 1 : 0]; }
  std::vector<Scalar> rhs_copy;          // b, where a solve's x overwrites it and it is read again
  std::vector<Scalar> check_x, check_b;  // the check solve of a suspicious factor
  std::vector<Scalar> device_staging;    // device data for an engine of host arrays
  // Schur-complement mode (schur_mode.cpp): the indices set for the next analyze(), those of
  // the current schedule, and condense()'s partial solution (C's numbering) with the analysis
  // and factorization it belongs to and its transpose flag.
  std::vector<int32_t> schur_requested;
  std::vector<int32_t> schur_active;
  std::vector<Scalar> schur_work;
  std::vector<Scalar> schur_expanded;  // expand()'s copy of schur_work (kept for another x2), reused
  int64_t condensed_analysis = -1;
  int64_t condensed_factor = -1;
  bool condensed_transpose = false;
  bool condensed_on_device = false;  // by condense_device(): the partial solution is the engine's

  explicit Core(const Options& o);
  virtual ~Core() = default;
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  // --- what each factorization does its own way ---
  virtual const FactorStats& refactor(const Scalar* values) = 0;
  virtual int32_t max_refine_steps() const = 0;
  // One right-hand side on the engine, refined up to steps.
  virtual EngineSolveResult solve_one(const Scalar* b, Scalar* x, bool transpose, int32_t steps) = 0;
  // One column of solve(): solve_one and what the pivot policy makes of its backward error
  // (a recovery, or a failed factor: sstats.status); adds the column to sstats.
  virtual void solve_column(const Scalar* b, Scalar* x, bool transpose, int32_t steps) = 0;
  // Somewhere other than the engine solves the whole call (the LDL^T's LU fallback):
  // its stats, or nullptr to go on with solve_column.
  virtual const SolveStats* solve_elsewhere(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx);
  // One numeric factorization of the values taken last, with rule; returns the first
  // perturbed column (NumericStats::first_perturbed).
  virtual int32_t factor_once(const PivotRule& rule) = 0;
  // The pattern the engine's residuals read (A's; both triangles for the LDL^T), and the
  // same matrix with the last factorization's values, on the host (fetched from the device
  // where they are there).
  virtual const detail::AnalyzedPattern& engine_pattern() const = 0;
  virtual CsrView<int32_t, Scalar> host_matrix() = 0;

  // --- shared, with defaults a facade may extend (solver_core.cpp, solver_device.cpp) ---
  virtual const SolveStats& solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx, bool transpose);
  virtual void set_refinement(int32_t steps, double tolerance);
  virtual int64_t device_bytes() const noexcept;
  virtual bool device_data_direct() const noexcept;
  virtual const FactorStats& refactor_device(const Scalar* d_values);
  virtual const SolveStats& solve_device(const Scalar* d_b, Scalar* d_x, bool transpose);

  // --- shared steps (solver_core.cpp) ---
  void discard_shared();  // the state above back to "not analyzed"
  // An incomplete factor that api::stays_on_cpu keeps on the CPU before its analysis (by its
  // nnz_factor entries): no device held, and under automatic the size rule is the reason given.
  void keep_on_cpu(int64_t nnz_factor);
  void require_analyzed(const char* verb) const;
  void require_factored() const;
  void check_solve_arguments(int32_t nrhs, const Scalar* b, int64_t ldb, const Scalar* x, int64_t ldx) const;
  void check_device_solve_arguments(const Scalar* d_b, const Scalar* d_x) const;  // solver_device.cpp
  void start_factor();  // fstats reset (the count of factorizations goes on), not factored
  const FactorStats& finish_factor(std::chrono::steady_clock::time_point t0);
  // Adds one column's refined solve to sstats; met: it reached the backward-error target.
  void note_solve(const EngineSolveResult& r, bool met, bool transpose);
  // The refinement steps of the next solve call: max_refine_steps(), or 0 (no backward-error
  // check) for the solves refine_check_interval leaves unchecked.
  int32_t solve_steps(bool transpose);
  bool solves_must_meet_tolerance() const;
  void fail_factor();
  // fstats describes a factor that replaced `failed` because of why: what it recovers from.
  void note_recovery(RecoveryReason why, const FactorStats& failed);
  double check_solve();
  void factor_with_shifts();
  void set_failure_column(int32_t column);

  // --- Schur-complement mode (schur_mode.cpp; solver.hpp's set_schur_indices) ---
  bool schur_mode() const noexcept { return !schur_active.empty(); }
  // After the engine is made: a Schur schedule on an engine that keeps no Schur block goes to
  // the CPU engine (pattern: the engine's residual pattern) under backend auto, and is
  // refused (Error(unsupported)) under cuda.
  void fit_schur_engine(PatternRef pattern, bool hermitian);
  // solve() and its device and transposed forms (`verb`) in Schur mode: Error(unsupported).
  void refuse_full_solve(const char* verb) const;
  void require_schur_factor(const char* verb) const;
  // The Schur unknowns at C's last k places, unscaled (the Schur analyses put them there):
  // what the device paths, which copy S_C and its vectors whole, rely on; Error(invalid_input)
  // naming the first that is not, for `what`.
  void require_schur_in_place(const char* what) const;
  // condense()/condense_device() are what expand()/expand_device() (`verb`, on_device)
  // continue: Error(invalid_input) otherwise.
  void require_condensed(const char* verb, bool transpose, bool on_device) const;
  void record_condensed(bool transpose, bool on_device);
};

namespace api {
// Whether [a, a + n) and [b, b + n) share an element (host or device pointers alike).
template <class T>
bool overlap(const T* a, const T* b, int64_t n) {
  return std::less<const T*>()(a, b + n) && std::less<const T*>()(b, a + n);
}

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace api

}  // namespace gpuglu
