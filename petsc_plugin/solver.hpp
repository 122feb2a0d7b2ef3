#pragma once
// The solver behind a gpuglu factor Mat: SparseLU for MAT_FACTOR_LU and ILU, SparseLDLT for
// MAT_FACTOR_CHOLESKY and ICC, held as the one BasicSparseSolver interface they share
// (gpuglu/solver.hpp): the adapter's numeric factorization, solves and views call it
// through -> and never ask which it is. Only the analysis (what the input is) and the
// symmetric factor's extras (inertia, its LU fallback) tell them apart, here. Scalar is
// PetscScalar (impl.hpp): double, or std::complex<double> in a complex PETSc build.
#include <memory>

#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/solver.hpp"

namespace gpuglu::petsc {

template <class Scalar>
class BasicSolver {
 public:
  // How the symmetric solver reads A (set by the symbolic phase): SBAIJ stores the upper
  // triangle; PETSc's MAT_SYMMETRIC / MAT_SPD flags spare the symmetry check / the scaling.
  // symmetry: complex only, hermitian where PETSc flags A MAT_HERMITIAN (L D L^H).
  struct SymmetricInput {
    StoredTriangle stored = StoredTriangle::full;
    bool check_symmetry = true;
    bool spd = false;
    Symmetry symmetry = Symmetry::symmetric;
  };

  // A constructor that throws (invalid options) leaves the previous solver in place.
  void make_lu(const Options& o) {
    lu_ = replace_solver<BasicSparseLU<Scalar>>(o);
    ldlt_ = nullptr;
  }
  void make_ldlt(const Options& o, const SymmetricInput& in) {
    ldlt_ = replace_solver<BasicSparseLDLT<Scalar>>(o);
    lu_ = nullptr;
    input_ = in;
  }

  // The shared verbs and statistics: factor, refactor, solve, solve_transpose, the device
  // data calls, schedule, options, stats, backend, device.
  BasicSparseSolver<Scalar>* operator->() const noexcept { return solver_.get(); }

  template <class I>
  void analyze(const CsrView<I, Scalar>& a, const int32_t* perm) {
    if (ldlt_)
      ldlt_->analyze(a, input_.stored, perm, input_.check_symmetry, input_.spd, input_.symmetry);
    else
      lu_->analyze(a, perm);
  }
  bool analyzed() const noexcept { return solver_ && solver_->analyzed(); }
  bool factored() const noexcept { return solver_ && solver_->factored(); }

  bool symmetric() const noexcept { return ldlt_ != nullptr; }
  BasicSparseLDLT<Scalar>& ldlt() const { return *ldlt_; }

  // LDL^T only: D's signs are A's inertia (a real A, a complex Hermitian one, or a complex
  // symmetric one with real values; otherwise D is complex).
  bool inertia_defined() const noexcept { return ldlt_ && ldlt_->hermitian_values(); }
  // LDL^T of a complex A that PETSc flags Hermitian: L D L^H.
  bool hermitian() const noexcept { return ldlt_ && ldlt_->hermitian(); }
  // LDL^T only: it factors and solves with gpuglu's LU now.
  bool uses_lu() const noexcept { return ldlt_ && ldlt_->uses_lu(); }
  // The schedule the factor in use executes: the LU's after an LDL^T fell back to it.
  const Schedule& active_schedule() const {
    return uses_lu() ? ldlt_->fallback_lu()->schedule() : solver_->schedule();
  }
  LuEngine lu_engine() const noexcept { return lu_ ? lu_->lu_engine() : LuEngine::column; }  // LU / ILU only

 private:
  template <class S>
  S* replace_solver(const Options& o) {
    auto fresh = std::make_unique<S>(o);
    S* typed = fresh.get();
    solver_ = std::move(fresh);
    return typed;
  }

  std::unique_ptr<BasicSparseSolver<Scalar>> solver_;
  // solver_ as what it is, for the calls of one kind only (analyze, inertia, lu_engine, Schur complements).
  BasicSparseLU<Scalar>* lu_ = nullptr;
  BasicSparseLDLT<Scalar>* ldlt_ = nullptr;
  SymmetricInput input_;
};

}  // namespace gpuglu::petsc
