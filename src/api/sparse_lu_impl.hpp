#pragma once
// SparseLU's private state (include/gpuglu/lu.hpp) beyond what every factorization holds
// (api/solver_core.hpp): the pattern and values the re-analyses read, and the policies
// above the engine - backend choice (sparse_lu.cpp), pivot policies and their recoveries
// (recovery.cpp), device-resident values (sparse_lu_device.cpp). The engine is the only
// place arithmetic happens (core/numeric_engine.hpp); nothing here depends on which engine
// it is.
#include <chrono>
#include <functional>
#include <vector>

#include "analysis/ordering.hpp"
#include "api/solver_core.hpp"
#include "gpuglu/lu.hpp"

namespace gpuglu {

template <class Scalar>
struct BasicSparseLU<Scalar>::Impl : BasicSparseSolver<Scalar>::Core {
  using Core = typename BasicSparseSolver<Scalar>::Core;

  // options with LuEngine::automatic resolved by analyze(); the re-analyses of the same
  // pattern use them, so that a recovery keeps the engine.
  Options analysis_options;
  int64_t repivots = 0;    // schedules replaced by KLU's pivot order since the last analyze()
  int64_t reanalyses = 0;  // fresh static analyses by PivotPolicy::automatic since the last analyze()
  // PivotPolicy::automatic found, since the last analyze(), that no pivot order reaches the
  // componentwise backward error tolerance on this pattern while the normwise one
  // (core/backward_error.hpp) is met: later solves accept the normwise measure at once.
  bool accept_normwise = false;
  std::vector<int32_t> given_perm;  // Ordering::given: the caller's permutation, kept for re-analyses
  // The pattern's row pointers as the re-analyses read them (the analysis checked that
  // nnz(A) < 2^31, so int32 holds them).
  std::vector<int32_t> rowptr32;
  // Values of the last factorization: the engine's refinement reads them (they stay put
  // until the next factorization), and so do the re-analyses.
  std::vector<Scalar> a_values;
  // Complex: |a_values|, the real view the analyses read (api/real_view.hpp); empty for double.
  std::vector<double> magnitudes;
  // The schedule was analyzed from the values in a_values (analyze(), a re-analysis, KLU's
  // order): analyzing them again would choose the same pivots.
  bool schedule_fits_values = false;
  // factor_device(): A's values of the last factorization are on the device (the engine's
  // input copy) and not yet in a_values; host_values() fetches them when a recovery needs
  // them. device_values is the caller's array during a factor_device() call only.
  bool values_on_device = false;
  const Scalar* device_values = nullptr;
  int32_t last_first_perturbed = -1;  // of the last engine run (NumericStats::first_perturbed)

  explicit Impl(const Options& o) : Core(o) {}

  // --- sparse_lu.cpp: the pipeline ---
  void discard();
  template <class I>
  void analyze(const CsrView<I, Scalar>& a, const int32_t* given);
  void attach_engine();
  void replace_schedule(Schedule&& s);
  const FactorStats& refactor(const Scalar* values) override;
  const FactorStats& factor_taken(std::chrono::steady_clock::time_point t0);
  void take_values(const Scalar* values);
  void factor_with_schedule(const PivotRule& rule);
  int32_t factor_once(const PivotRule& rule) override;
  int32_t max_refine_steps() const override;
  RefineTarget refine_target() const;
  EngineSolveResult solve_one(const Scalar* b, Scalar* x, bool transpose, int32_t steps) override;
  void solve_column(const Scalar* b, Scalar* x, bool transpose, int32_t steps) override;
  void check_solve_result(EngineSolveResult& r, int32_t steps, bool transpose,
                          const std::function<EngineSolveResult()>& again);
  const detail::AnalyzedPattern& engine_pattern() const override { return this->pattern; }
  CsrView<int32_t, Scalar> host_matrix() override;
  CsrView<int32_t, Scalar> analyzed_matrix() const;
  // The static analysis and KLU's partial pivoting of analyzed_matrix() (complex: of its
  // magnitudes; KLU factors the complex values themselves).
  Schedule analyze_values();
  Schedule analyze_partial_pivoting();

  // --- schur_complement.cpp: the LU's Schur-complement analysis (the verbs: schur_mode.cpp) ---
  // The options of a Schur analysis (the supernodal LU), or Error(unsupported) naming the
  // option that rules it out.
  Options schur_analysis_options(Options resolved) const;
  // analyze() or, in Schur mode, analyze_schur() of a (complex: its magnitudes' view);
  // amd_counted: told analyze()'s AMD count (analysis::OrderingWork::amd_counted).
  template <class I>
  Schedule analyze_pattern(const CsrView<I, double>& a, const int32_t* given,
                           const analysis::AmdCounted& amd_counted = {});
  const SolveStats& solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx, bool transpose) override;

  // --- sparse_lu_device.cpp: device-resident values and vectors ---
  const FactorStats& refactor_device(const Scalar* d_values) override;
  void host_values();
  EngineSolveResult solve_one_device(const Scalar* d_b, Scalar* d_x, bool transpose, int32_t steps);
  const SolveStats& solve_device(const Scalar* d_b, Scalar* d_x, bool transpose) override;
  PatternRef pattern_ref() const;

  // --- recovery.cpp: the pivot policies above the engine ---
  void repivot_once();
  bool switch_to_partial_pivoting();
  void recover_in_factor();
  RecoveryReason assess_factor();
  bool recover(RecoveryReason why, const std::function<bool()>& accept);
  // recover()'s rung after a failed supernodal schedule: the supernodal LU in the LDL^T
  // analysis's paired order (recovery.cpp); false when it does not apply.
  bool reanalyze_paired();
  void reanalyze_static(LuEngine kind = LuEngine::automatic);
};

}  // namespace gpuglu
