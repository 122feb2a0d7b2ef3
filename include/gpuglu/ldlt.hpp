#pragma once
// SparseLDLT: A = P^T S^-1 L D L^T S^-1 P for symmetric A (Chen & Wang's right-looking
// LDL^T by levels of the elimination tree), with SparseLU's four verbs:
//   analyze(A)  once per pattern (CPU): symmetric scaling, ordering, L's pattern, levels
//   factor(A)   numeric, on the chosen backend; repeat with new values
//   solve(b)    many times (A = A^T: the transposed solve is the same)
// and inertia() from D. Static pivots (no 2 x 2 pivots): under the default pivot policy a
// tiny pivot is perturbed and refinement repairs the solve; where it cannot (backward error
// above Options::backward_error_tolerance), gpuglu's LU on the same matrix takes over,
// automatically and visibly (FactorStats::lu_fallback) - never a success with a wrong answer.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpuglu/device.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {

// Sylvester's inertia of A: the signs of D (a positive scaling and a symmetric permutation
// keep it), what spectrum slicing and interior-point codes ask for.
struct Inertia {
  int64_t negative = 0;
  int64_t zero = 0;
  int64_t positive = 0;
};

class SparseLDLT {
 public:
  explicit SparseLDLT(const Options& options = Options());
  ~SparseLDLT();
  SparseLDLT(SparseLDLT&&) noexcept;
  SparseLDLT& operator=(SparseLDLT&&) noexcept;
  SparseLDLT(const SparseLDLT&) = delete;
  SparseLDLT& operator=(const SparseLDLT&) = delete;

  // a holds both triangles (full; checked for symmetry of pattern and - unless
  // check_symmetry is false, when the caller knows - of values) or one (lower, upper).
  // spd: the caller knows A is symmetric positive definite (PETSc's MAT_SPD): the scaling,
  // which only guards indefinite pivots, is skipped. given_perm as in SparseLU::analyze.
  void analyze(const CsrView<int32_t, double>& a, StoredTriangle stored = StoredTriangle::full,
               const int32_t* given_perm = nullptr, bool check_symmetry = true, bool spd = false);
  void analyze(const CsrView<int64_t, double>& a, StoredTriangle stored = StoredTriangle::full,
               const int32_t* given_perm = nullptr, bool check_symmetry = true, bool spd = false);

  // Numeric factorization with A's values (the analyzed pattern and storage). Returns the
  // stats; status != ok means no usable factor (solve() then throws not_factored).
  const FactorStats& factor(const CsrView<int32_t, double>& a);
  const FactorStats& factor(const CsrView<int64_t, double>& a);
  const FactorStats& refactor(const double* values);  // values in the analyzed CSR order

  // x = A^{-1} b; b and x may alias. Column-major many right-hand sides as SparseLU's.
  const SolveStats& solve(const double* b, double* x);
  const SolveStats& solve(int32_t nrhs, const double* b, int64_t ldb, double* x, int64_t ldx);
  void set_refinement(int32_t steps, double tolerance);

  // Counts of negative, zero and positive pivots of the last factorization. Throws
  // Error(not_factored) without one, and Error(unsupported) when it cannot be trusted:
  // perturbed pivots, or the LU fallback (which has no D).
  Inertia inertia() const;
  // The LDL^T could not give a backward error within the tolerance and gpuglu's LU on the
  // same matrix factors and solves instead (until a later factorization's LDL^T succeeds).
  bool uses_lu() const noexcept;
  // That LU (its schedule, stats, device), once a fallback has built it; nullptr before.
  const SparseLU* fallback_lu() const noexcept;

  bool analyzed() const noexcept;
  bool factored() const noexcept;
  const Schedule& schedule() const;  // the LDL^T's (throws not_analyzed)
  const Options& options() const noexcept;
  const FactorStats& factor_stats() const noexcept;
  const SolveStats& solve_stats() const noexcept;
  Backend active_backend() const noexcept;
  int64_t analysis_count() const noexcept;
  const std::vector<double>& factor_values() const;  // L with D on its diagonal (schedule()'s layout)
  const DeviceInfo& device_info() const noexcept;
  const std::string& backend_note() const noexcept;
  int64_t device_bytes() const noexcept;
  TrsvKernel trsv_kernel() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuglu
