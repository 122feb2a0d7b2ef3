// MatSolve, MatSolveTranspose, MatMatSolve(Transpose): PETSc's arrays go straight to
// SparseLU's solves (dense right-hand sides column-major, with their leading dimensions).
#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

// Two flops per stored entry of L and U, per right-hand side (for -log_view's rates).
PetscErrorCode log_solve_flops(const Factor* f, PetscInt nrhs) {
  PetscFunctionBegin;
  if (f->lu->analyzed()) {
    const Schedule& s = f->lu->schedule();
    PetscCall(PetscLogFlops(nrhs * (2.0 * static_cast<PetscLogDouble>(s.nnz_factor()) - s.n)));
  }
  PetscFunctionReturn(0);
}

// A solve whose refinement could not bring the backward error down (perturbed zero pivots)
// is no solution of A x = b; say so, counted in MatView, so that -ksp_type preonly users
// learn that only a Krylov method can use this factor.
PetscErrorCode report_inaccurate_solve(Mat F) {
  Factor* f = factor_of(F);
  const SolveStats& ss = f->lu->solve_stats();
  PetscFunctionBegin;
  if (ss.inaccurate) {
    ++f->inaccurate_solves;
    PetscCall(PetscInfo(F,
                        "gpuglu: backward error %g after %d refinement steps is above %g: the factor (with %" PetscInt64_FMT
                        " perturbed pivots) is a preconditioner, not a direct solver, for this matrix\n",
                        ss.backward_error, ss.refine_steps, SolveStats::kAcceptableBackwardError,
                        (PetscInt64)f->lu->factor_stats().perturbed_pivots));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode vec_solve(Mat F, Vec b, Vec x, bool transpose) {
  Factor* f = factor_of(F);
  const PetscScalar* bv;
  PetscScalar* xv;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(b, &bv));
  PetscCall(VecGetArrayWrite(x, &xv));
  PetscCall(PetscLogEventBegin(log_events.solve, F, b, x, 0));
  const PetscErrorCode ierr =
      guarded(PETSC_COMM_SELF, transpose ? "gpuglu::SparseLU::solve_transpose" : "gpuglu::SparseLU::solve", [&] {
        if (transpose)
          f->lu->solve_transpose(bv, xv);
        else
          f->lu->solve(bv, xv);
      });
  if (!ierr) PetscCall(log_solve_flops(f, 1));
  PetscCall(PetscLogEventEnd(log_events.solve, F, b, x, 0));
  PetscCall(VecRestoreArrayWrite(x, &xv));
  PetscCall(VecRestoreArrayRead(b, &bv));
  PetscCall(ierr);
  PetscCall(report_inaccurate_solve(F));
  PetscFunctionReturn(0);
}

// Dense column-major views of B and X. A sparse B is converted to dense first (PETSc allows
// AIJ right-hand sides); X must be dense, as PETSc requires.
PetscErrorCode mat_solve(Mat F, Mat B, Mat X, bool transpose) {
  Factor* f = factor_of(F);
  Mat Bd = B;
  PetscBool b_dense, x_dense;
  const PetscScalar* bv;
  PetscScalar* xv;
  PetscInt ldb, ldx, nrhs;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)X, &x_dense, MATSEQDENSE, ""));
  PetscCheck(x_dense, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "gpuglu: MatMatSolve needs a MATSEQDENSE X, not %s",
             ((PetscObject)X)->type_name);
  PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &b_dense, MATSEQDENSE, ""));
  if (!b_dense) PetscCall(MatConvert(B, MATSEQDENSE, MAT_INITIAL_MATRIX, &Bd));
  PetscCall(MatGetSize(Bd, nullptr, &nrhs));
  PetscCheck(nrhs <= PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "gpuglu: %" PetscInt_FMT " right-hand sides do not fit a 32-bit count", nrhs);
  PetscCall(MatDenseGetLDA(Bd, &ldb));
  PetscCall(MatDenseGetLDA(X, &ldx));
  PetscCall(MatDenseGetArrayRead(Bd, &bv));
  PetscCall(MatDenseGetArrayWrite(X, &xv));

  PetscCall(PetscLogEventBegin(log_events.solve, F, Bd, X, 0));
  const PetscErrorCode ierr = guarded(PETSC_COMM_SELF, "gpuglu::SparseLU::solve", [&] {
    if (!transpose) {
      f->lu->solve(static_cast<int32_t>(nrhs), bv, ldb, xv, ldx);
    } else {
      // The core has no many-right-hand-side transpose solve: one column at a time.
      for (PetscInt c = 0; c < nrhs; ++c) f->lu->solve_transpose(bv + c * ldb, xv + c * ldx);
    }
  });
  if (!ierr) PetscCall(log_solve_flops(f, nrhs));
  PetscCall(PetscLogEventEnd(log_events.solve, F, Bd, X, 0));
  PetscCall(MatDenseRestoreArrayWrite(X, &xv));
  PetscCall(MatDenseRestoreArrayRead(Bd, &bv));
  if (Bd != B) PetscCall(MatDestroy(&Bd));
  PetscCall(ierr);
  PetscCall(report_inaccurate_solve(F));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode MatSolve_GPUGLU(Mat F, Vec b, Vec x) {
  PetscFunctionBegin;
  PetscCall(vec_solve(F, b, x, false));
  PetscFunctionReturn(0);
}

PetscErrorCode MatSolveTranspose_GPUGLU(Mat F, Vec b, Vec x) {
  PetscFunctionBegin;
  PetscCall(vec_solve(F, b, x, true));
  PetscFunctionReturn(0);
}

PetscErrorCode MatMatSolve_GPUGLU(Mat F, Mat B, Mat X) {
  PetscFunctionBegin;
  PetscCall(mat_solve(F, B, X, false));
  PetscFunctionReturn(0);
}

PetscErrorCode MatMatSolveTranspose_GPUGLU(Mat F, Mat B, Mat X) {
  PetscFunctionBegin;
  PetscCall(mat_solve(F, B, X, true));
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
