#pragma once
// Shared helpers of the PETSc-harness tests: build a PETSc matrix from a gpuglu
// generator, and print residuals in the tolerance-aware way PETSc's tests do (the
// expected output holds "< tol", so a wrong answer changes the text, not just a number
// that petscdiff would ignore).
#include <petscgpuglu.h>
#include <petscksp.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu_test {

using Csr = gpuglu::CsrMatrix<int32_t, double>;

inline PetscErrorCode generate(const char* spec, Csr* a) {
  PetscFunctionBeginUser;
  try {
    *a = gpuglu::gen::from_spec(spec);
  } catch (const gpuglu::Error& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "cannot generate '%s': %s", spec, e.what());
  }
  PetscFunctionReturn(0);
}

// An AIJ matrix on comm holding a (every rank passes the same a and keeps its own rows);
// type: MATAIJ or one of its kind (MATAIJCUSPARSE for the device-resident tests).
inline PetscErrorCode create_aij(MPI_Comm comm, const Csr& a, Mat* A, MatType type = MATAIJ) {
  PetscInt rstart, rend;
  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, a.nrows, a.ncols));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSetUp(*A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  std::vector<PetscInt> rowptr(rend - rstart + 1, 0), colind;
  std::vector<PetscScalar> values;
  for (PetscInt i = rstart; i < rend; ++i) {
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      colind.push_back(a.colind[p]);
      values.push_back(a.values[p]);
    }
    rowptr[i - rstart + 1] = static_cast<PetscInt>(colind.size());
  }
  PetscCall(MatSeqAIJSetPreallocationCSR(*A, rowptr.data(), colind.data(), values.data()));
  PetscCall(MatMPIAIJSetPreallocationCSR(*A, rowptr.data(), colind.data(), values.data()));
  PetscFunctionReturn(0);
}

// x_i = 1 + (i mod 7) / 10: not a constant, so permutation mistakes show.
inline PetscErrorCode set_exact_solution(Vec x) {
  PetscInt rstart, rend;
  PetscScalar* xv;
  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(x, &rstart, &rend));
  PetscCall(VecGetArray(x, &xv));
  for (PetscInt i = rstart; i < rend; ++i) xv[i - rstart] = 1.0 + static_cast<double>(i % 7) / 10.0;
  PetscCall(VecRestoreArray(x, &xv));
  PetscFunctionReturn(0);
}

// Prints "<what>: relative residual < tol" when ||b - op(A) x|| / ||b|| < tol.
inline PetscErrorCode check_residual(const char* what, Mat A, Vec x, Vec b, PetscReal tol, bool transpose = false) {
  Vec r;
  PetscReal rnorm, bnorm;
  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &r));
  if (transpose)
    PetscCall(MatMultTranspose(A, x, r));
  else
    PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(VecDestroy(&r));
  const PetscReal rel = bnorm > 0 ? rnorm / bnorm : rnorm;
  if (rel < tol)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: relative residual < %g\n", what, (double)tol));
  else
    PetscCall(
        PetscPrintf(PETSC_COMM_WORLD, "%s: relative residual %g is NOT below %g\n", what, (double)rel, (double)tol));
  PetscFunctionReturn(0);
}

// Prints "<what>: backward error < tol" when the componentwise (Oettli-Prager) backward error
// max_i |b - A x|_i / (|A| |x| + |b|)_i is below tol: the test for badly scaled rows, whose
// 2-norms would overflow. A sequential AIJ matrix.
inline PetscErrorCode check_backward_error(const char* what, Mat A, Vec x, Vec b, PetscReal tol) {
  Mat absA;
  Vec r, absx, denom;
  PetscScalar* v;
  PetscReal berr = 0.0;
  const PetscScalar *rv, *dv;
  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &absA));
  PetscCall(MatSeqAIJGetArray(absA, &v));
  {
    PetscInt n;
    const PetscInt *ia, *ja;
    PetscBool done;
    PetscCall(MatGetRowIJ(absA, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
    for (PetscInt p = 0; p < ia[n]; ++p) v[p] = PetscAbsScalar(v[p]);
    PetscCall(MatRestoreRowIJ(absA, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  }
  PetscCall(MatSeqAIJRestoreArray(absA, &v));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(VecDuplicate(b, &absx));
  PetscCall(VecDuplicate(b, &denom));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecCopy(x, absx));
  PetscCall(VecAbs(absx));
  PetscCall(MatMult(absA, absx, denom));
  PetscCall(VecCopy(b, absx));
  PetscCall(VecAbs(absx));
  PetscCall(VecAXPY(denom, 1.0, absx));
  PetscCall(VecGetArrayRead(r, &rv));
  PetscCall(VecGetArrayRead(denom, &dv));
  PetscInt n;
  PetscCall(VecGetLocalSize(r, &n));
  for (PetscInt i = 0; i < n; ++i) {
    const PetscReal num = PetscAbsScalar(rv[i]);
    if (num == 0) continue;
    const PetscReal e = PetscRealPart(dv[i]) > 0 ? num / PetscRealPart(dv[i]) : PETSC_INFINITY;
    berr = !(e <= berr) ? e : berr;  // a NaN counts as infinitely wrong
  }
  PetscCall(VecRestoreArrayRead(r, &rv));
  PetscCall(VecRestoreArrayRead(denom, &dv));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&absx));
  PetscCall(VecDestroy(&denom));
  PetscCall(MatDestroy(&absA));
  if (berr < tol)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: backward error < %g\n", what, (double)tol));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: backward error %g is NOT below %g\n", what, (double)berr, (double)tol));
  PetscFunctionReturn(0);
}

inline PetscErrorCode check_error(const char* what, Vec x, Vec xexact, PetscReal tol) {
  Vec e;
  PetscReal enorm, xnorm;
  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(x, &e));
  PetscCall(VecWAXPY(e, -1.0, xexact, x));
  PetscCall(VecNorm(e, NORM_INFINITY, &enorm));
  PetscCall(VecNorm(xexact, NORM_INFINITY, &xnorm));
  PetscCall(VecDestroy(&e));
  const PetscReal rel = xnorm > 0 ? enorm / xnorm : enorm;
  if (rel < tol)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: relative error < %g\n", what, (double)tol));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: relative error %g is NOT below %g\n", what, (double)rel, (double)tol));
  PetscFunctionReturn(0);
}

// "KSP: CONVERGED_ITS", or the divergence with the PC's failure ("PC failed: FACTOR_NUMERIC_ZEROPIVOT").
inline PetscErrorCode print_reason(KSP ksp, KSPConvergedReason* reason) {
  PC pc;
  PCFailedReason pcreason;
  PetscFunctionBeginUser;
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSP: %s\n", KSPConvergedReasons[*reason]));
  if (*reason == KSP_DIVERGED_PC_FAILED) {
    PetscCall(KSPGetPC(ksp, &pc));
#if PETSC_VERSION_LT(3, 21, 0)
    PetscCall(PCGetFailedReasonRank(pc, &pcreason));  // this rank's (PCGetFailedReason was the reduced one)
#else
    PetscCall(PCGetFailedReason(pc, &pcreason));
#endif
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "PC failed: %s\n", PCFailedReasons[pcreason]));
  }
  PetscFunctionReturn(0);
}

// The factor's -ksp_view section, on its own (MatView of the factor in ASCII info format).
inline PetscErrorCode view_factor(Mat F) {
  PetscViewer viewer = PETSC_VIEWER_STDOUT_(PetscObjectComm((PetscObject)F));
  PetscFunctionBeginUser;
  PetscCall(PetscViewerPushFormat(viewer, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(F, viewer));
  PetscCall(PetscViewerPopFormat(viewer));
  PetscFunctionReturn(0);
}

}  // namespace gpuglu_test
