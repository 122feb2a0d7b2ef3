// MatSolve, MatSolveTranspose, MatMatSolve(Transpose): PETSc's arrays go straight to
// SparseLU's solves (dense right-hand sides column-major, with their leading dimensions).
// A factor with a Schur IS solves through schur.cpp (condense, solve with S, expand), a
// factor split over two devices through split_factor.cpp.
#include <cstdio>

#include "impl.hpp"

namespace gpuglu::petsc {

PetscErrorCode DenseSolveOperands::get(Mat b_in, Mat x_in) {
  PetscBool b_dense, x_dense;
  PetscFunctionBegin;
  B = b_in;
  X = x_in;
  Bd = B;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)X, &x_dense, MATSEQDENSE, ""));
  PetscCheck(x_dense, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "gpuglu: MatMatSolve needs a MATSEQDENSE X, not %s",
             ((PetscObject)X)->type_name);
  PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &b_dense, MATSEQDENSE, ""));
  if (!b_dense) PetscCall(MatConvert(B, MATSEQDENSE, MAT_INITIAL_MATRIX, &Bd));
  PetscCall(MatGetSize(Bd, nullptr, &nrhs));
  PetscCall(MatDenseGetLDA(Bd, &ldb));
  PetscCall(MatDenseGetLDA(X, &ldx));
  PetscCall(MatDenseGetArrayRead(Bd, &b));
  PetscCall(MatDenseGetArrayWrite(X, &x));
  PetscFunctionReturn(0);
}

PetscErrorCode DenseSolveOperands::restore() {
  PetscFunctionBegin;
  PetscCall(MatDenseRestoreArrayWrite(X, &x));
  PetscCall(MatDenseRestoreArrayRead(Bd, &b));
  if (Bd != B) PetscCall(MatDestroy(&Bd));
  PetscFunctionReturn(0);
}

PetscErrorCode set_inf(Vec x) {
  PetscFunctionBegin;
#if PETSC_VERSION_LT(3, 22, 0)
  PetscCall(VecSetInf(x));
#else
  PetscCall(VecFlag(x, 1));  // VecSetInf's successor (3.22)
#endif
  PetscFunctionReturn(0);
}

PetscErrorCode set_inf(Mat X) {
  PetscScalar* xv;
  PetscInt lda, m, ncols;
  PetscFunctionBegin;
  PetscCall(MatDenseGetLDA(X, &lda));
  PetscCall(MatGetLocalSize(X, &m, nullptr));
  PetscCall(MatGetSize(X, nullptr, &ncols));
  PetscCall(MatDenseGetArrayWrite(X, &xv));
  for (PetscInt c = 0; c < ncols; ++c)
    for (PetscInt i = 0; i < m; ++i) xv[c * lda + i] = PETSC_INFINITY;
  PetscCall(MatDenseRestoreArrayWrite(X, &xv));
  PetscFunctionReturn(0);
}

namespace {

// Two flops per stored entry of L and U per right-hand side; an LDL^T reads L twice (L and
// L^T) and divides by D once. For -log_view's rates.
PetscErrorCode log_solve_flops(const Factor* f, PetscInt nrhs) {
  PetscFunctionBegin;
  if (f->solver.analyzed()) {
    const Schedule& s = f->solver.active_schedule();
    const double per_rhs = s.symmetric() ? 4.0 * static_cast<double>(s.nnz_l) + s.n
                                       : 2.0 * static_cast<double>(s.nnz_factor()) - s.n;
    PetscCall(log_flops(f, nrhs * per_rhs));
  }
  PetscFunctionReturn(0);
}

// After a solve: a recovery it made (a new pivot order) goes to -info; a solve no pivot order
// could bring within the backward-error tolerance fails the factor as PETSc's conventions
// ask (MatFactorError, so KSP reports DIVERGED_PC_FAILED at the next setup, and later
// MatSolves return Inf as PETSc's MatSolve does for a failed factor); a perturbed factor
// left above the tolerance is only reported (it is a preconditioner by the user's choice).
PetscErrorCode report_solve(Mat F, bool* failed) {
  Factor* f = factor_of(F);
  const SolveStats& ss = f->solver->solve_stats();
  const double tol = f->options.backward_error_tolerance;
  PetscFunctionBegin;
  *failed = ss.status != Status::ok;
  // Every solve's cost and accuracy, for -info: where MatSolve's time goes (refinement steps).
  PetscCall(PetscInfo(F, "gpuglu: solve %.3f ms, %d refinement steps, backward error %g (normwise %g)\n", ss.solve_ms,
                      (int)ss.refine_steps, ss.backward_error, ss.normwise_error));
  if (ss.recovered || *failed) PetscCall(report_recovery(F, f->solver->factor_stats(), "solve"));
  if (*failed) {
    char why[256];
    std::snprintf(why, sizeof(why),
                  "the solve's backward error %g stays above %g with every pivot order (A is singular to working "
                  "precision); the solution is set to Inf",
                  ss.backward_error, tol);
    PetscCall(set_factor_error(F, f->error_if_failure, MAT_FACTOR_NUMERIC_ZEROPIVOT, PETSC_ERR_NOT_CONVERGED, 0.0, -1,
                               why));
  } else if (ss.accepted_normwise && !ss.inaccurate) {
    PetscCall(PetscInfo(F,
                        "gpuglu: componentwise backward error %g is above %g with every pivot order; the normwise one "
                        "(Arioli-Demmel-Duff) is %g: solution accepted\n",
                        ss.backward_error, tol, ss.normwise_error));
  } else if (ss.inaccurate) {
    ++f->inaccurate_solves;
    PetscCall(PetscInfo(F,
                        "gpuglu: backward error %g after %d refinement steps is above %g: the factor (with %" PetscInt64_FMT
                        " perturbed pivots) is a preconditioner, not a direct solver, for this matrix\n",
                        ss.backward_error, ss.refine_steps, tol, (PetscInt64)f->solver->factor_stats().perturbed_pivots));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode vec_solve(Mat F, Vec b, Vec x, bool transpose) {
  Factor* f = factor_of(F);
  const PetscScalar* bv;
  PetscScalar* xv;

  PetscFunctionBegin;
  if (split_active(f)) {
    PetscCall(split_vec_solve(F, b, x, transpose));
    PetscFunctionReturn(0);
  }
  if (schur_active(f)) {
    PetscCall(schur_vec_solve(F, b, x, transpose));
    PetscFunctionReturn(0);
  }
  // b and x on the device where b is valid there (CUDA vectors, a CUDA engine:
  // device_data.cpp), else on the host.
  PetscCall(get_device_vectors(F, b, x, &bv, &xv));
  const bool on_device = bv != nullptr;
  if (!on_device) {
    PetscCall(VecGetArrayRead(b, &bv));
    PetscCall(VecGetArrayWrite(x, &xv));
  }
  PetscCall(PetscLogEventBegin(log_events.solve, F, b, x, 0));
  const PetscErrorCode ierr =
      guarded(PETSC_COMM_SELF, transpose ? "gpuglu solve_transpose" : "gpuglu solve", [&] {
        if (on_device && transpose)
          f->solver->solve_transpose_device(bv, xv);
        else if (on_device)
          f->solver->solve_device(bv, xv);
        else if (transpose)
          f->solver->solve_transpose(bv, xv);
        else
          f->solver->solve(bv, xv);
      });
  if (!ierr) PetscCall(log_solve_flops(f, 1));
  PetscCall(PetscLogEventEnd(log_events.solve, F, b, x, 0));
  if (on_device) {
    PetscCall(restore_device_vectors(b, x, &bv, &xv));
  } else {
    PetscCall(VecRestoreArrayWrite(x, &xv));
    PetscCall(VecRestoreArrayRead(b, &bv));
  }
  PetscCall(ierr);
  ++f->vec_solves;
  f->device_vec_solves += on_device;
  bool failed = false;
  PetscCall(report_solve(F, &failed));
  if (failed) PetscCall(set_inf(x));
  PetscFunctionReturn(0);
}

PetscErrorCode mat_solve(Mat F, Mat B, Mat X, bool transpose) {
  Factor* f = factor_of(F);
  DenseSolveOperands op;

  PetscFunctionBegin;
  if (split_active(f)) {
    PetscCall(split_mat_solve(F, B, X, transpose));
    PetscFunctionReturn(0);
  }
  if (schur_active(f)) {
    PetscCall(schur_mat_solve(F, B, X, transpose));
    PetscFunctionReturn(0);
  }
  PetscInt nrhs;
  PetscCall(MatGetSize(B, nullptr, &nrhs));
  PetscCheck(nrhs <= PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "gpuglu: %" PetscInt_FMT " right-hand sides do not fit a 32-bit count", nrhs);
  PetscCall(op.get(B, X));

  PetscCall(PetscLogEventBegin(log_events.solve, F, op.Bd, X, 0));
  const PetscErrorCode ierr = guarded(PETSC_COMM_SELF, "gpuglu solve", [&] {
    if (!transpose) {
      f->solver->solve(static_cast<int32_t>(op.nrhs), op.b, op.ldb, op.x, op.ldx);
    } else {
      // The core has no many-right-hand-side transpose solve: one column at a time.
      for (PetscInt c = 0; c < op.nrhs; ++c) f->solver->solve_transpose(op.b + c * op.ldb, op.x + c * op.ldx);
    }
  });
  if (!ierr) PetscCall(log_solve_flops(f, op.nrhs));
  PetscCall(PetscLogEventEnd(log_events.solve, F, op.Bd, X, 0));
  PetscCall(op.restore());
  PetscCall(ierr);
  bool failed = false;
  PetscCall(report_solve(F, &failed));
  if (failed) PetscCall(set_inf(X));
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
