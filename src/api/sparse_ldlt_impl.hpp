#pragma once
// SparseLDLT's private state (include/gpuglu/ldlt.hpp) beyond what every factorization
// holds (api/solver_core.hpp). The analysis works on the full symmetric pattern whichever
// triangle the caller stores: the engines scatter it (each off-diagonal pair halved twice),
// and the refinement's residuals and the LU fallback need A whole. `source` maps the full
// pattern's entries to the caller's values, so a refactorization is one gather. Policies
// (docs/design.md, "LDL^T"): static pivots, perturbed under automatic and perturb; a factor
// or solve that misses the backward-error tolerance hands the matrix to an inner SparseLU
// (sparse_ldlt_fallback.cpp).
#include <memory>
#include <vector>

#include "api/solver_core.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"

namespace gpuglu {

template <class Scalar>
struct BasicSparseLDLT<Scalar>::Impl : BasicSparseSolver<Scalar>::Core {
  using Core = typename BasicSparseSolver<Scalar>::Core;

  // Schedule: symmetric; Core::pattern: A as the caller stores it.
  detail::AnalyzedPattern full_pattern;  // both triangles: the engines' residuals
  std::vector<int32_t> full_rowptr32, full_colind;  // the same pattern for the 32-bit views
  std::vector<int64_t> source;           // full entry -> the caller's value; empty for full storage (the identity)
  std::vector<Scalar> full_values;       // A's values of the last factorization, full pattern
  bool hermitian = false;                // complex A = A^H: L D L^H (analyze()'s Symmetry)
  std::vector<char> mirrored;            // hermitian: full entries whose value is conj(source)
  // The last factorization's values are all real (always for double): a complex symmetric
  // A is then Hermitian too, and D's signs are its inertia.
  bool values_real = true;
  std::vector<Scalar> conj_work;  // the transposed solve of a Hermitian A

  // The LU on the same (full) matrix, built the first time the LDL^T falls short and kept
  // for the pattern: later factorizations that need it again reuse its analysis.
  std::unique_ptr<BasicSparseLU<Scalar>> lu;
  bool using_lu = false;
  // A fallback happened on this pattern: later LDL^T factors are checked by a solve before
  // they are accepted, which is cheaper than discovering the miss in the user's solve.
  bool check_every_factor = false;
  // What analyze() was given, for a re-analysis on the column engine (fall_back_to_column).
  bool spd = false;
  std::vector<int32_t> given_perm;

  explicit Impl(const Options& o) : Core(o) {}

  // --- sparse_ldlt.cpp: the pipeline ---
  void discard();
  // Before an ICC(k)'s analysis, from A's size: whether it is factored by rows, as the row ILU
  // of the full matrix (FactorKind::row_ilu: its U is D L^T, or D L^H, so that L U is the
  // incomplete L D L^T), the options of that analysis in *rows. nnz_lower: A's lower triangle
  // with the diagonal.
  bool factors_icc_by_rows(int64_t nnz_lower, Options* rows) const;
  template <class I>
  void analyze(const CsrView<I, Scalar>& a, StoredTriangle stored, const int32_t* given, bool check_symmetry, bool spd,
               Symmetry symmetry);
  void gather_full_values(const Scalar* values);
  // What the analysis reads of full_values: the values themselves (real), or their
  // magnitudes (complex), written into magnitudes.
  const double* analysis_values(std::vector<double>& magnitudes) const;
  const FactorStats& refactor(const Scalar* values) override;
  int32_t factor_once(const PivotRule& rule) override;  // the LDL^T on the engine
  // The engines' rule for a complete factorization: automatic perturbs tiny pivots (static
  // pivoting, as in SuperLU_DIST and PARDISO) and lets the checks decide.
  PivotRule complete_rule() const;
  void factor_incomplete();
  int32_t max_refine_steps() const override;
  EngineSolveResult solve_one(const Scalar* b, Scalar* x, bool transpose, int32_t steps) override;
  const SolveStats& solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx, bool transpose) override;
  void solve_column(const Scalar* b, Scalar* x, bool transpose, int32_t steps) override;
  const detail::AnalyzedPattern& engine_pattern() const override { return full_pattern; }
  CsrView<int32_t, Scalar> host_matrix() override { return full_matrix(); }
  CsrView<int32_t, Scalar> full_matrix() const;
  Inertia inertia() const;

  // --- sparse_ldlt_fallback.cpp: the checks and the LU fallback ---
  RecoveryReason assess_factor();
  // The supernodal LDL^T's factor missed the tolerance: the same matrix on the column LDL^T
  // (its static pivots with symmetric pairs can succeed where pivoting inside supernodes
  // meets a tiny pivot), kept for the pattern. True when that factor passed its check.
  bool fall_back_to_column(RecoveryReason why);
  bool fall_back_to_lu(RecoveryReason why);
  const SolveStats* solve_elsewhere(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx) override;
  const SolveStats& solve_with_lu(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx);
  void set_refinement(int32_t steps, double tolerance) override;
  int64_t device_bytes() const noexcept override;
  // The LDL^T's engines take the host path (solver_device.cpp), as the LU fallback would,
  // except a Schur factor of a full-storage A (the split's halves: no fallback, no mirror
  // map), whose values go device to device into an engine that reads them there.
  bool device_data_direct() const noexcept override { return false; }
  const FactorStats& refactor_device(const Scalar* d_values) override;
};

}  // namespace gpuglu
