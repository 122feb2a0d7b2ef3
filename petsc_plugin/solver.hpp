#pragma once
// The solver behind a gpuglu factor Mat: SparseLU for MAT_FACTOR_LU and ILU, SparseLDLT for
// MAT_FACTOR_CHOLESKY and ICC. The adapter's phases (analysis, numeric factorization, solves,
// views) are the same for both; this is the one place that tells them apart. Scalar is
// PetscScalar (impl.hpp): double, or std::complex<double> in a complex PETSc build.
#include <complex>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"

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

  void make_lu(const Options& o) {
    ldlt_.reset();
    lu_ = std::make_unique<BasicSparseLU<Scalar>>(o);
  }
  void make_ldlt(const Options& o, const SymmetricInput& in) {
    lu_.reset();
    ldlt_ = std::make_unique<BasicSparseLDLT<Scalar>>(o);
    input_ = in;
  }
  bool symmetric() const noexcept { return ldlt_ != nullptr; }
  bool exists() const noexcept { return lu_ || ldlt_; }
  BasicSparseLDLT<Scalar>& ldlt() const { return *ldlt_; }
  // LDL^T only: D's signs are A's inertia (a real A, a complex Hermitian one, or a complex
  // symmetric one with real values; otherwise D is complex).
  bool inertia_defined() const noexcept { return ldlt_ && ldlt_->hermitian_values(); }
  // LDL^T of a complex A that PETSc flags Hermitian: L D L^H.
  bool hermitian() const noexcept { return ldlt_ && input_.symmetry == Symmetry::hermitian; }
  // LDL^T only: it factors and solves with gpuglu's LU now.
  bool uses_lu() const noexcept { return ldlt_ && ldlt_->uses_lu(); }

  template <class I>
  void analyze(const CsrView<I, Scalar>& a, const int32_t* perm) {
    if (ldlt_)
      ldlt_->analyze(a, input_.stored, perm, input_.check_symmetry, input_.spd, input_.symmetry);
    else
      lu_->analyze(a, perm);
  }
  template <class I>
  const FactorStats& factor(const CsrView<I, Scalar>& a) {
    return ldlt_ ? ldlt_->factor(a) : lu_->factor(a);
  }
  const FactorStats& refactor(const Scalar* values) { return ldlt_ ? ldlt_->refactor(values) : lu_->refactor(values); }
  const SolveStats& solve(const Scalar* b, Scalar* x) { return ldlt_ ? ldlt_->solve(b, x) : lu_->solve(b, x); }
  // A = A^T for the symmetric solver.
  // A = A^T for the symmetric solver, but a Hermitian A has A^T = conj(A): then
  // x = conj(A^{-1} conj(b)) (one LDL^H solve, no second factor).
  const SolveStats& solve_transpose(const Scalar* b, Scalar* x) {
    if (!ldlt_) return lu_->solve_transpose(b, x);
    if constexpr (!std::is_same_v<Scalar, double>) {
      if (hermitian()) {
        const size_t n = static_cast<size_t>(ldlt_->schedule().n);
        conj_work_.assign(b, b + n);
        for (Scalar& v : conj_work_) v = std::conj(v);
        const SolveStats& st = ldlt_->solve(conj_work_.data(), x);
        for (size_t i = 0; i < n; ++i) x[i] = std::conj(x[i]);
        return st;
      }
    }
    return ldlt_->solve(b, x);
  }
  const SolveStats& solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx) {
    return ldlt_ ? ldlt_->solve(nrhs, b, ldb, x, ldx) : lu_->solve(nrhs, b, ldb, x, ldx);
  }

  // Device-resident data: LU and ILU on an engine that reads device arrays (CudaLU); the
  // LDL^T takes the host path.
  bool device_data_direct() const noexcept { return lu_ && lu_->device_data_direct(); }
  const FactorStats& factor_device(const Scalar* d_values) { return lu_->factor_device(d_values); }
  const SolveStats& solve_device(const Scalar* d_b, Scalar* d_x, bool transpose) {
    return transpose ? lu_->solve_transpose_device(d_b, d_x) : lu_->solve_device(d_b, d_x);
  }

  bool analyzed() const noexcept { return ldlt_ ? ldlt_->analyzed() : lu_ && lu_->analyzed(); }
  bool factored() const noexcept { return ldlt_ ? ldlt_->factored() : lu_ && lu_->factored(); }
  const Schedule& schedule() const { return ldlt_ ? ldlt_->schedule() : lu_->schedule(); }
  // The schedule the factor in use executes: the LU's after an LDL^T fell back to it.
  const Schedule& active_schedule() const { return uses_lu() ? ldlt_->fallback_lu()->schedule() : schedule(); }
  const Options& options() const noexcept { return ldlt_ ? ldlt_->options() : lu_->options(); }
  const FactorStats& factor_stats() const noexcept { return ldlt_ ? ldlt_->factor_stats() : lu_->factor_stats(); }
  const SolveStats& solve_stats() const noexcept { return ldlt_ ? ldlt_->solve_stats() : lu_->solve_stats(); }
  Backend active_backend() const noexcept { return ldlt_ ? ldlt_->active_backend() : lu_->active_backend(); }
  const DeviceInfo& device_info() const noexcept { return ldlt_ ? ldlt_->device_info() : lu_->device_info(); }
  const std::string& backend_note() const noexcept { return ldlt_ ? ldlt_->backend_note() : lu_->backend_note(); }
  int64_t device_bytes() const noexcept { return ldlt_ ? ldlt_->device_bytes() : lu_->device_bytes(); }
  TrsvKernel trsv_kernel() const noexcept { return ldlt_ ? ldlt_->trsv_kernel() : lu_->trsv_kernel(); }
  LuEngine lu_engine() const noexcept { return lu_ ? lu_->lu_engine() : LuEngine::column; }  // LU / ILU only

 private:
  std::unique_ptr<BasicSparseLU<Scalar>> lu_;
  std::unique_ptr<BasicSparseLDLT<Scalar>> ldlt_;
  SymmetricInput input_;
  std::vector<Scalar> conj_work_;  // solve_transpose of a Hermitian A
};

}  // namespace gpuglu::petsc
