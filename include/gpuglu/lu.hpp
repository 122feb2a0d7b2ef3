#pragma once
// SparseLU: the four verbs of a sparse direct solver, KLU / cuDSS style.
//   analyze(A)  once per pattern (CPU), builds the Schedule
//   factor(A)   numeric, on the chosen backend; repeat with new values (refactorization)
//   solve(b)    / solve_transpose(b) / solve(B) for many right-hand sides
// The verbs after analyze() are BasicSparseSolver's (solver.hpp), shared with SparseLDLT.
// The object owns its schedule, factor values and backend buffers (RAII).
// BasicSparseLU<Scalar> is one template for both scalar types: SparseLU (double) and
// SparseLUComplex (std::complex<double>; CPU backend, column engine: docs/user_guide.md).
#include <complex>
#include <cstdint>
#include <vector>

#include "gpuglu/matrix.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/solver.hpp"

namespace gpuglu {

template <class Scalar>
class BasicSparseLU : public BasicSparseSolver<Scalar> {
 public:
  explicit BasicSparseLU(const Options& options = Options());

  // Analysis of A's pattern (and values for the matching). Discards previous factors.
  // given_perm: see analyze() in analysis.hpp.
  // factor() (solver.hpp) under PivotPolicy::repivot: a tiny pivot re-analyzes with KLU's
  // partial pivoting first (see FactorStats). An Error from KLU's analysis (out_of_memory,
  // ...) leaves the previous schedule in place; one from building the new schedule's
  // buffers or CUDA engine (host or device memory, with no CPU fallback allowed) leaves the
  // object not analyzed.
  void analyze(const CsrView<int32_t, Scalar>& a, const int32_t* given_perm = nullptr);
  void analyze(const CsrView<int64_t, Scalar>& a, const int32_t* given_perm = nullptr);

  // The engine of the current schedule (Options::lu_engine resolved; column for ILU and
  // for KLU's re-pivoted order); before analyze(), the option as given.
  LuEngine lu_engine() const noexcept;

  // Schur complements (set_schur_indices, condense, expand, ...) are BasicSparseSolver's
  // (solver.hpp), shared with SparseLDLT.

 private:
  struct Impl;  // its BasicSparseSolver::Core (src/api/sparse_lu_impl.hpp)
};

using SparseLU = BasicSparseLU<double>;
// Complex double: the same pipeline; pivots are tested and statistics measured on
// magnitudes, and the analysis (matching, scaling, ordering) sees |a_ij|.
using SparseLUComplex = BasicSparseLU<std::complex<double>>;

}  // namespace gpuglu
