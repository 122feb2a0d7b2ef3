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

  // --- Schur complements (PETSc's MatFactorSetSchurIS; docs/design.md, "Schur complements") ---
  // The unknowns I = indices (A's numbering) are kept out of the factorization: A11 (the
  // rest, J) is factored and S = A22 - A21 A11^{-1} A12 (k x k, k = |I|) is left for the
  // caller, as MUMPS and cuDSS do it. Takes effect at the next analyze(), which checks the
  // indices (sorted, unique, in [0, n): Error(invalid_input) naming the first that is not);
  // empty: none, an ordinary LU. With indices, analyze() needs the supernodal LU (lu_engine
  // auto picks it; column, ILU and PivotPolicy::repivot throw Error(unsupported)), the
  // matching, scaling and ordering are A11's, and the pivot policy's recoveries are limited
  // to a fresh analysis of new values (the others change the engine or the order of I).
  // k == n is allowed: A11 is empty and S = A. solve() and solve_transpose() throw
  // Error(unsupported) then: condense, solve the reduced system, expand. Complex scalars:
  // Error(unsupported) (the supernodal LU is real only).
  void set_schur_indices(std::vector<int32_t> indices);
  const std::vector<int32_t>& schur_indices() const noexcept;  // as set (the next analyze()'s)
  // After a successful factor(): S, column-major k x k with leading dimension ld >= k, rows
  // and columns in the indices' order, in A's numbering and scale (the analysis leaves the
  // Schur unknowns unscaled and matched to themselves, so S is exact up to the rounding of
  // A11's factorization). S is not checked: a singular S is the caller's to judge.
  void schur_complement(Scalar* s, int64_t ld);
  // The same S into device memory d_s (any device of this process: a GPU factor copies it
  // device to device, peer to peer across GPUs), for a caller that goes on on the GPU (the
  // split factorization's root). Error(unsupported) for a factor on the CPU backend.
  void schur_complement_device(Scalar* d_s, int64_t ld);
  // reduced (k entries, the indices' order) = b2 - A21 A11^{-1} b1 for b (n entries, A's
  // numbering); transpose: b2 - A12^T A11^{-T} b1, the reduced right-hand side of A^T x = b.
  // The partial solution A11's sweep leaves is kept for expand(). No iterative refinement
  // here or in expand(): a residual needs the whole x, and x2 comes from a reduced system
  // that belongs to the caller, who judges its accuracy.
  void condense(const Scalar* b, Scalar* reduced, bool transpose = false);
  // x (n entries, A's numbering) = x2 (k entries, the indices' order) at the Schur unknowns
  // and x1 = A11^{-1} (b1 - A12 x2) elsewhere (transpose: A11^{-T} (b1 - A21^T x2)), b being
  // the last condense()'s, which must have had the same transpose and followed the last
  // factor(): Error(invalid_input) otherwise. May be called again with another x2.
  void expand(const Scalar* x2, Scalar* x, bool transpose = false);
  // condense() and expand() on device memory, for a caller that goes on on the GPU (the split
  // factorization's solves): b and x (n entries) on the factor's device, which its kernels
  // read and write; reduced and x2 (k entries) on any device of this process (copied device
  // to device). Synchronous. A factor on the CPU backend: Error(unsupported).
  // expand_device() continues the last condense_device(), once: the engine sweeps its partial
  // solution in place (expand() keeps the host's for another x2). Each refuses to continue the
  // other's condensation, and expand_device() a second time (Error(invalid_input)).
  void condense_device(const Scalar* d_b, Scalar* d_reduced, bool transpose = false);
  void expand_device(const Scalar* d_x2, Scalar* d_x, bool transpose = false);

 private:
  struct Impl;  // its BasicSparseSolver::Core (src/api/sparse_lu_impl.hpp)
};

using SparseLU = BasicSparseLU<double>;
// Complex double: the same pipeline; pivots are tested and statistics measured on
// magnitudes, and the analysis (matching, scaling, ordering) sees |a_ij|.
using SparseLUComplex = BasicSparseLU<std::complex<double>>;

}  // namespace gpuglu
