// The end-to-end PETSc measurement of one solver (petsc_e2e.hpp). Every PETSc call is
// checked; an error is turned into an exception carrying the call's name and PETSc's
// message, so one failing solver (a peer without pivoting, a MUMPS workspace error) is
// recorded as failed and the run goes on.
#include "petsc_e2e.hpp"

#include <petscmat.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "factor_view.hpp"
#include "petsc_error_capture.hpp"
#include "timing.hpp"

namespace gpuglu::bench {

namespace {

void check(PetscErrorCode ierr, const char* call) {
  if (ierr)
    throw std::runtime_error(std::string(call) + ": " + last_petsc_error() + " (PETSc error " + std::to_string(ierr) +
                             ")");
}

struct Objects {
  Mat A = nullptr, F = nullptr;
  Vec b = nullptr, x = nullptr, w = nullptr;
  IS row = nullptr, col = nullptr;
  ~Objects() {
    ISDestroy(&row);
    ISDestroy(&col);
    VecDestroy(&b);
    VecDestroy(&x);
    VecDestroy(&w);
    MatDestroy(&F);
    MatDestroy(&A);
  }
};

// Values of refactorization round k: every entry moved by its own small factor, so the
// pivots the first factorization chose meet different relative magnitudes (a uniform
// scaling would leave a statically pivoted factor exactly as good as the first one).
void set_round_values(Mat A, const std::vector<PetscScalar>& base, int round) {
  PetscScalar* v = nullptr;
  check(MatSeqAIJGetArray(A, &v), "MatSeqAIJGetArray");
  for (size_t k = 0; k < base.size(); ++k) v[k] = base[k] * (1.0 + 1e-3 * round * (0.5 + 0.05 * static_cast<double>(k % 11)));
  check(MatSeqAIJRestoreArray(A, &v), "MatSeqAIJRestoreArray");
}

void check_factor(Mat F, const char* after) {
  std::string what;
  check(factor_error_text(F, &what), "MatFactorGetError");
  if (!what.empty()) throw std::runtime_error(std::string(after) + ": " + what);
}

// ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf): scale-free, so one tolerance fits
// every matrix and a wrong solve cannot hide behind a large ||x||.
double relative_residual(const Objects& o) {
  PetscReal rn = 0, an = 0, xn = 0, bn = 0;
  check(MatMult(o.A, o.x, o.w), "MatMult");
  check(VecAYPX(o.w, -1.0, o.b), "VecAYPX");
  check(VecNorm(o.w, NORM_INFINITY, &rn), "VecNorm");
  check(MatNorm(o.A, NORM_INFINITY, &an), "MatNorm");
  check(VecNorm(o.x, NORM_INFINITY, &xn), "VecNorm");
  check(VecNorm(o.b, NORM_INFINITY, &bn), "VecNorm");
  return rn / (an * xn + bn);
}

void measure(const CsrMatrix<int32_t, double>& a, const E2eRun& r, E2eTimes& t) {
  Objects o;
  const PetscInt n = a.nrows;
  if (a.nrows != a.ncols) throw std::runtime_error("matrix is not square");
  // PETSc copies the CSR (PetscInt may be wider than int32_t); the copy is what gets refactored.
  const std::vector<PetscInt> rowptr(a.rowptr.begin(), a.rowptr.end()), colind(a.colind.begin(), a.colind.end());
  check(MatCreate(PETSC_COMM_SELF, &o.A), "MatCreate");
  check(MatSetSizes(o.A, n, n, n, n), "MatSetSizes");
  check(MatSetType(o.A, MATSEQAIJ), "MatSetType");
  check(MatSeqAIJSetPreallocationCSR(o.A, rowptr.data(), colind.data(), a.values.data()),
        "MatSeqAIJSetPreallocationCSR");
  // PETSc's value array (columns sorted per row), kept as the base the rounds perturb.
  std::vector<PetscScalar> base(static_cast<size_t>(a.nnz()));
  {
    MatInfo ainfo;
    check(MatGetInfo(o.A, MAT_LOCAL, &ainfo), "MatGetInfo");
    if (static_cast<int64_t>(ainfo.nz_used) != a.nnz())  // duplicates merged: the values would not line up
      throw std::runtime_error("PETSc holds " + std::to_string(static_cast<int64_t>(ainfo.nz_used)) +
                               " entries, the matrix " + std::to_string(a.nnz()));
    const PetscScalar* v = nullptr;
    check(MatSeqAIJGetArrayRead(o.A, &v), "MatSeqAIJGetArrayRead");
    base.assign(v, v + base.size());
    check(MatSeqAIJRestoreArrayRead(o.A, &v), "MatSeqAIJRestoreArrayRead");
  }
  check(MatCreateVecs(o.A, &o.x, &o.b), "MatCreateVecs");
  check(VecDuplicate(o.b, &o.w), "VecDuplicate");
  {
    PetscScalar* xv = nullptr;
    check(VecGetArray(o.w, &xv), "VecGetArray");
    for (PetscInt i = 0; i < n; ++i) xv[i] = 1.0 + static_cast<double>(i % 7) / 7.0;
    check(VecRestoreArray(o.w, &xv), "VecRestoreArray");
    check(MatMult(o.A, o.w, o.b), "MatMult");  // b stays fixed; A changes per round
  }

  PetscBool available = PETSC_FALSE;
  check(MatGetFactorAvailable(o.A, r.solver.c_str(), MAT_FACTOR_LU, &available), "MatGetFactorAvailable");
  if (!available) throw std::runtime_error("MatSolverType '" + r.solver + "' is not available in this PETSc build");

  // PCFactor's defaults (PCFactorInitialize, PCCreate_LU), so every solver sees what
  // -pc_type lu would give it.
  MatFactorInfo info;
  check(MatFactorInfoInitialize(&info), "MatFactorInfoInitialize");
  info.fill = 5.0;
  info.dtcol = 1e-6;
  info.zeropivot = 100.0 * PETSC_MACHINE_EPSILON;
  info.shiftamount = 100.0 * PETSC_MACHINE_EPSILON;
  info.shifttype = static_cast<PetscReal>(MAT_SHIFT_NONE);
  info.pivotinblocks = 1.0;

  double t0 = now_ms();
  check(MatGetFactor(o.A, r.solver.c_str(), MAT_FACTOR_LU, &o.F), "MatGetFactor");
  const double t_get = now_ms() - t0;
  // As PCSetUp_LU: the solver's preferred ordering where it can use one (external: it orders itself).
  PetscBool can_order = PETSC_FALSE;
  check(MatFactorGetCanUseOrdering(o.F, &can_order), "MatFactorGetCanUseOrdering");
  t0 = now_ms();
  if (can_order) {
    MatOrderingType ordering = nullptr;
    check(MatFactorGetPreferredOrdering(o.F, MAT_FACTOR_LU, &ordering), "MatFactorGetPreferredOrdering");
    t.ordering = ordering ? ordering : "";
    check(MatGetOrdering(o.A, ordering, &o.row, &o.col), "MatGetOrdering");
  } else {
    t.ordering = "none (solver cannot use one)";
  }
  check(MatLUFactorSymbolic(o.F, o.A, o.row, o.col, &info), "MatLUFactorSymbolic");
  t.symbolic_ms = now_ms() - t0;
  check_factor(o.F, "MatLUFactorSymbolic");
  t0 = now_ms();
  check(MatLUFactorNumeric(o.F, o.A, &info), "MatLUFactorNumeric");
  t.first_factor_ms = t_get + t.symbolic_ms + (now_ms() - t0);
  check_factor(o.F, "MatLUFactorNumeric (first)");
  t0 = now_ms();
  check(MatSolve(o.F, o.b, o.x), "MatSolve");
  t.first_solve_ms = now_ms() - t0;
  t.residual = relative_residual(o);

  std::vector<double> numeric, solve, total;
  for (int round = 1; round <= r.warmup + r.repeat; ++round) {
    set_round_values(o.A, base, round);
    const double t1 = now_ms();
    check(MatLUFactorNumeric(o.F, o.A, &info), "MatLUFactorNumeric");
    const double t2 = now_ms();
    check_factor(o.F, "MatLUFactorNumeric");
    const double t3 = now_ms();
    check(MatSolve(o.F, o.b, o.x), "MatSolve");
    const double t4 = now_ms();
    if (round > r.warmup) {
      numeric.push_back(t2 - t1);
      solve.push_back(t4 - t3);
      total.push_back(t4 - t1);  // one interval: a backend returning early from numeric pays in the solve
    }
    const double res = relative_residual(o);
    if (!std::isnan(t.residual) && (std::isnan(res) || res > t.residual)) t.residual = res;  // the worst, NaN sticks
  }
  t.numeric_ms = median(numeric);
  t.solve_ms = median(solve);
  t.total_ms = median(total);

  // Only solvers implementing MatGetInfo for their factor report nnz(L+U); the others error.
  MatInfo minfo;
  if (MatGetInfo(o.F, MAT_LOCAL, &minfo) == 0 && minfo.nz_used > 0) t.nnz_factor = static_cast<int64_t>(minfo.nz_used);
  if (r.solver == "gpuglu") check(view_factor_to_string(o.F, &t.view), "MatView");
  if (!(t.residual < r.residual_tol))
    throw std::runtime_error("relative residual " + sci(t.residual) + " not below " + sci(r.residual_tol));
}

}  // namespace

E2eTimes run_petsc_e2e(const CsrMatrix<int32_t, double>& a, const E2eRun& r) {
  E2eTimes t;
  const PetscErrorCapture capture;
  if (!capture.ok()) {
    t.failure = "PetscPushErrorHandler failed";
    return t;
  }
  try {
    measure(a, r, t);
  } catch (const std::exception& e) {
    t.failure = e.what();
  }
  return t;
}

}  // namespace gpuglu::bench
