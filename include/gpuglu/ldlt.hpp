#pragma once
// SparseLDLT: A = P^T S^-1 L D L^T S^-1 P for symmetric A (Chen & Wang's right-looking
// LDL^T by levels of the elimination tree), with SparseLU's four verbs (the three after
// analyze() are BasicSparseSolver's, solver.hpp):
//   analyze(A)  once per pattern (CPU): symmetric scaling, ordering, L's pattern, levels
//   factor(A)   numeric, on the chosen backend; repeat with new values
//   solve(b)    many times (A = A^T: the transposed solve is the same; A = A^H: conjugated)
// and inertia() from D. Static pivots (no 2 x 2 pivots): under the default pivot policy a
// tiny pivot is perturbed and refinement repairs the solve; where it cannot (backward error
// above Options::backward_error_tolerance), gpuglu's LU on the same matrix takes over,
// automatically and visibly (FactorStats::lu_fallback) - never a success with a wrong answer.
// Schur complements (set_schur_indices, condense, expand: solver.hpp) keep the Schur
// unknowns out of the supernodal LDL^T of A11, with S = A22 - A21 A11^{-1} A12 symmetric.
// BasicSparseLDLT<Scalar> is one template: SparseLDLT (double) and SparseLDLTComplex
// (std::complex<double>, CPU backend), which factors a complex symmetric A = A^T as L D L^T
// or a Hermitian A = A^H as L D L^H (Symmetry, given to analyze()).
#include <complex>
#include <cstdint>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/solver.hpp"

namespace gpuglu {

// Sylvester's inertia of A: the signs of D (a positive scaling and a symmetric permutation
// keep it), what spectrum slicing and interior-point codes ask for.
struct Inertia {
  int64_t negative = 0;
  int64_t zero = 0;
  int64_t positive = 0;
};

// Which symmetry a complex A has (a real A has both): A = A^T (complex symmetric, e.g.
// Helmholtz or Maxwell with absorbing boundaries) or A = A^H (Hermitian: D is real and
// inertia() is meaningful).
enum class Symmetry : uint8_t { symmetric, hermitian };

template <class Scalar>
class BasicSparseLDLT : public BasicSparseSolver<Scalar> {
 public:
  explicit BasicSparseLDLT(const Options& options = Options());

  // a holds both triangles (full; checked for symmetry of pattern and - unless
  // check_symmetry is false, when the caller knows - of values) or one (lower, upper).
  // spd: the caller knows A is symmetric positive definite (PETSc's MAT_SPD): the scaling,
  // which only guards indefinite pivots, is skipped. given_perm as in SparseLU::analyze.
  // symmetry: complex only (ignored for double); check_symmetry then compares a_ij with a_ji
  // or with conj(a_ji), and one-triangle storage mirrors (conjugates) the stored triangle.
  // factor() then takes A's values in this storage; schedule() is the LDL^T's.
  void analyze(const CsrView<int32_t, Scalar>& a, StoredTriangle stored = StoredTriangle::full,
               const int32_t* given_perm = nullptr, bool check_symmetry = true, bool spd = false,
               Symmetry symmetry = Symmetry::symmetric);
  void analyze(const CsrView<int64_t, Scalar>& a, StoredTriangle stored = StoredTriangle::full,
               const int32_t* given_perm = nullptr, bool check_symmetry = true, bool spd = false,
               Symmetry symmetry = Symmetry::symmetric);

  // Counts of negative, zero and positive pivots of the last factorization. Throws
  // Error(not_factored) without one, and Error(unsupported) when it cannot be trusted:
  // perturbed pivots, or the LU fallback (which has no D), or when it has no meaning: a
  // complex symmetric (not Hermitian) A, whose D is complex.
  Inertia inertia() const;
  // A = A^H for the last factorization, so that D's signs are its inertia: always for a real
  // A and a Hermitian one; for a complex symmetric one when all its values are real.
  bool hermitian_values() const noexcept;
  // analyze() was told A = A^H (complex only): the factor is L D L^H.
  bool hermitian() const noexcept;
  // The LDL^T could not give a backward error within the tolerance and gpuglu's LU on the
  // same matrix factors and solves instead (until a later factorization's LDL^T succeeds).
  bool uses_lu() const noexcept;
  // That LU (its schedule, stats, device), once a fallback has built it; nullptr before.
  const BasicSparseLU<Scalar>* fallback_lu() const noexcept;

 private:
  struct Impl;  // its BasicSparseSolver::Core (src/api/sparse_ldlt_impl.hpp)
};

using SparseLDLT = BasicSparseLDLT<double>;
using SparseLDLTComplex = BasicSparseLDLT<std::complex<double>>;

}  // namespace gpuglu
