static const char help[] =
    "Refactorization with gpuglu: new values on the same pattern reuse the analysis; a new nonzero\n"
    "(or another matrix with another pattern) makes the factor analyze again.\n"
    "  -matrix <spec>      gpuglu generator spec (default convdiff3d:6x6x6)\n"
    "  -api ksp|mat        drive the factor through KSP/PCLU or through MatGetFactor/MatLUFactor*\n"
    "  -steps <n>          factorizations with new values (default 4)\n"
    "  -pattern_change     then insert a new nonzero into A and factor again\n"
    "  -other_matrix       then factor a copy of A (same pattern) and another matrix (new pattern)\n";

#include <cmath>
#include <cstring>

#include "common.hpp"

namespace {

constexpr PetscReal residual_tol = 1e-10;

// A_k = D_k A0 with D_k = diag(1 + 0.3 sin(i + k)): new values, same pattern, never singular.
PetscErrorCode set_step_values(Mat A, Mat A0, PetscInt step) {
  Vec d;
  PetscInt rstart, rend;
  PetscScalar* dv;
  PetscFunctionBeginUser;
  PetscCall(MatCopy(A0, A, SAME_NONZERO_PATTERN));
  PetscCall(MatCreateVecs(A, nullptr, &d));
  PetscCall(VecGetOwnershipRange(d, &rstart, &rend));
  PetscCall(VecGetArray(d, &dv));
  for (PetscInt i = rstart; i < rend; ++i) dv[i - rstart] = 1.0 + 0.3 * std::sin(static_cast<double>(i + step));
  PetscCall(VecRestoreArray(d, &dv));
  PetscCall(MatDiagonalScale(A, d, nullptr));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(0);
}

// A new entry in row 0 (the last column not yet stored there): the nonzero state changes.
// Row 0's owner finds and sets it; every rank assembles.
PetscErrorCode add_nonzero(Mat A) {
  PetscInt n, ncols, j, rstart;
  const PetscInt* cols;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscCall(MatGetOwnershipRange(A, &rstart, nullptr));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  if (rstart == 0 && n > 0) {
    PetscCall(MatGetRow(A, 0, &ncols, &cols, nullptr));
    j = n - 1;
    for (PetscInt p = ncols - 1; p >= 0 && cols[p] == j; --p) --j;
    PetscCall(MatRestoreRow(A, 0, &ncols, &cols, nullptr));
    PetscCheck(j > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "row 0 is full: no new nonzero possible");
    PetscCall(MatSetValue(A, 0, j, 1e-3, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

PetscErrorCode solve_direct(Mat F, Mat A, Vec xexact, const char* what) {
  Vec x, b;
  MatFactorInfo info;
  PetscFunctionBeginUser;
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatLUFactorNumeric(F, A, &info));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(MatMult(A, xexact, b));
  PetscCall(MatSolve(F, b, x));
  PetscCall(gpuglu_test::check_residual(what, A, x, b, residual_tol));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(0);
}

PetscErrorCode solve_ksp(KSP ksp, Mat A, Vec xexact, const char* what) {
  Vec x, b;
  KSPConvergedReason reason;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(MatMult(A, xexact, b));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: KSP did not converge: %s", what,
             KSPConvergedReasons[reason]);
  PetscCall(gpuglu_test::check_residual(what, A, x, b, residual_tol));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(0);
}

PetscErrorCode factor_of_ksp(KSP ksp, Mat* F) {
  PC pc;
  PetscFunctionBeginUser;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCFactorGetMatrix(pc, F));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  char spec[256] = "convdiff3d:6x6x6", api[16] = "ksp";
  PetscInt steps = 4;
  PetscBool pattern_change = PETSC_FALSE, other_matrix = PETSC_FALSE, use_ksp;
  gpuglu_test::Csr a;
  Mat A0, A, F = nullptr;
  Vec xexact;
  KSP ksp = nullptr;
  char what[64];

  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "ex2 options", nullptr);
  PetscCall(PetscOptionsString("-matrix", "generator spec", nullptr, spec, spec, sizeof(spec), nullptr));
  PetscCall(PetscOptionsString("-api", "ksp or mat", nullptr, api, api, sizeof(api), nullptr));
  PetscCall(PetscOptionsInt("-steps", "factorizations with new values", nullptr, steps, &steps, nullptr));
  PetscCall(
      PetscOptionsBool("-pattern_change", "insert a new nonzero", nullptr, pattern_change, &pattern_change, nullptr));
  PetscCall(PetscOptionsBool("-other_matrix", "factor other matrices", nullptr, other_matrix, &other_matrix, nullptr));
  PetscOptionsEnd();
  PetscCall(PetscStrcmp(api, "ksp", &use_ksp));
  PetscCall(PetscGPUGLURegister());

  PetscCall(gpuglu_test::generate(spec, &a));
  PetscCall(gpuglu_test::create_aij(PETSC_COMM_WORLD, a, &A0));
  PetscCall(MatDuplicate(A0, MAT_COPY_VALUES, &A));
  PetscCall(MatCreateVecs(A, &xexact, nullptr));
  PetscCall(gpuglu_test::set_exact_solution(xexact));

  if (use_ksp) {
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPSetFromOptions(ksp));
  } else {
    MatFactorInfo info;
    PetscCall(MatGetFactor(A, MATSOLVERGPUGLU, MAT_FACTOR_LU, &F));
    PetscCall(MatFactorInfoInitialize(&info));
    PetscCall(MatLUFactorSymbolic(F, A, nullptr, nullptr, &info));
  }

  for (PetscInt k = 0; k < steps; ++k) {
    PetscCall(set_step_values(A, A0, k));
    PetscCall(PetscSNPrintf(what, sizeof(what), "step %" PetscInt_FMT, k));
    if (use_ksp)
      PetscCall(solve_ksp(ksp, A, xexact, what));
    else
      PetscCall(solve_direct(F, A, xexact, what));
  }
  if (use_ksp) PetscCall(factor_of_ksp(ksp, &F));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after %" PetscInt_FMT " factorizations with new values:\n", steps));
  PetscCall(gpuglu_test::view_factor(F));

  if (pattern_change) {
    PetscCall(add_nonzero(A));
    if (use_ksp) {
      PetscCall(solve_ksp(ksp, A, xexact, "new nonzero"));
      PetscCall(factor_of_ksp(ksp, &F));
    } else {
      PetscCall(solve_direct(F, A, xexact, "new nonzero"));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after a new nonzero:\n"));
    PetscCall(gpuglu_test::view_factor(F));
  }

  if (other_matrix && !use_ksp) {
    Mat same, other;
    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &same));
    PetscCall(solve_direct(F, same, xexact, "copy of A"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after factoring a copy of A (same pattern):\n"));
    PetscCall(gpuglu_test::view_factor(F));
    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &other));
    PetscCall(add_nonzero(other));
    PetscCall(solve_direct(F, other, xexact, "other matrix"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after factoring a matrix with another pattern:\n"));
    PetscCall(gpuglu_test::view_factor(F));
    PetscCall(MatDestroy(&same));
    PetscCall(MatDestroy(&other));
  }

  if (use_ksp)
    PetscCall(KSPDestroy(&ksp));
  else
    PetscCall(MatDestroy(&F));
  PetscCall(VecDestroy(&xexact));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&A0));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   testset:
      filter: grep -E "residual|^after|analyses run"
      test:
         suffix: refactor_ksp
         args: -api ksp -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu
      test:
         suffix: refactor_ksp_supernodal
         requires: !complex
         args: -api ksp -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu -mat_gpuglu_lu_engine supernodal -pattern_change
      test:
         suffix: refactor_ksp_mpiaij
         nsize: 2
         args: -api ksp -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu -pattern_change
      test:
         suffix: refactor_mat
         args: -api mat -matrix circuit:800 -pattern_change
      test:
         suffix: refactor_ksp_reuse_ordering
         args: -api ksp -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu -pc_factor_reuse_ordering -pattern_change
         # PETSc 3.18 keeps the factor Mat across the pattern change (two analyses on it), 3.26 makes a new one.
         filter: grep -E "residual|^after"
      test:
         suffix: refactor_ksp_new_factor
         args: -api ksp -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu -pattern_change -steps 2
      test:
         suffix: pattern_change_other_matrix
         args: -api mat -steps 1 -other_matrix

   test:
      suffix: pattern_change_info
      args: -api mat -steps 1 -pattern_change -info
      filter: grep -o -E "gpuglu: the nonzero pattern of A changed.*"

TEST*/
