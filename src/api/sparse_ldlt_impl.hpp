#pragma once
// SparseLDLT's private state (include/gpuglu/ldlt.hpp). The analysis works on the full
// symmetric pattern whichever triangle the caller stores: the engines scatter it (each
// off-diagonal pair halved twice), and the refinement's residuals and the LU fallback need
// A whole. `source` maps the full pattern's entries to the caller's values, so a
// refactorization is one gather. Policies (docs/design.md, "LDL^T"): static pivots,
// perturbed under automatic and perturb; a factor or solve that misses the backward-error
// tolerance hands the matrix to an inner SparseLU (sparse_ldlt_fallback.cpp).
#include <memory>
#include <string>
#include <vector>

#include "api/analyzed_pattern.hpp"
#include "core/numeric_engine.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"

namespace gpuglu {

template <class Scalar>
struct BasicSparseLDLT<Scalar>::Impl {
  Options options;
  Backend backend = Backend::cpu;
  bool analyzed = false;
  bool factored = false;
  int64_t analysis_count = 0;
  Schedule schedule;                      // symmetric
  detail::AnalyzedPattern input_pattern;  // as the caller stores it (factor()'s pattern check)
  detail::AnalyzedPattern full_pattern;   // both triangles: the engines' residuals
  std::vector<int32_t> full_rowptr32, full_colind;  // the same pattern for the 32-bit views
  std::vector<int64_t> source;            // full entry -> the caller's value
  std::vector<Scalar> full_values;        // A's values of the last factorization, full pattern
  bool hermitian = false;                 // complex A = A^H: L D L^H (analyze()'s Symmetry)
  std::vector<char> mirrored;             // hermitian: full entries whose value is conj(source)
  // The last factorization's values are all real (always for double): a complex symmetric
  // A is then Hermitian too, and D's signs are its inertia.
  bool values_real = true;
  std::unique_ptr<BasicNumericEngine<Scalar>> engine;
  DeviceInfo device;
  std::string fallback_reason;  // why automatic stayed on (or went back to) the CPU
  FactorStats fstats;
  SolveStats sstats;
  std::vector<Scalar> rhs_copy, check_x, check_b;

  // The LU on the same (full) matrix, built the first time the LDL^T falls short and kept
  // for the pattern: later factorizations that need it again reuse its analysis.
  std::unique_ptr<BasicSparseLU<Scalar>> lu;
  bool using_lu = false;
  // A fallback happened on this pattern: later LDL^T factors are checked by a solve before
  // they are accepted, which is cheaper than discovering the miss in the user's solve.
  bool check_every_factor = false;

  explicit Impl(const Options& o);

  // --- sparse_ldlt.cpp: the pipeline ---
  void discard();
  template <class I>
  void analyze(const CsrView<I, Scalar>& a, StoredTriangle stored, const int32_t* given, bool check_symmetry, bool spd,
               Symmetry symmetry);
  void gather_full_values(const Scalar* values);
  void require_analyzed(const char* verb) const;
  const FactorStats& refactor(const Scalar* values);
  int32_t factor_ldlt(const PivotRule& rule);  // returns the first perturbed column
  void factor_incomplete();
  int32_t max_refine_steps() const;
  EngineSolveResult solve_one(const Scalar* b, Scalar* x);
  const SolveStats& solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx);
  CsrView<int32_t, Scalar> full_matrix() const;
  Inertia inertia() const;

  // --- sparse_ldlt_fallback.cpp: the checks and the LU fallback ---
  RecoveryReason assess_factor();
  double check_solve();
  bool fall_back_to_lu(RecoveryReason why);
  const SolveStats& solve_with_lu(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx);
  bool solves_must_meet_tolerance() const;
};

}  // namespace gpuglu
