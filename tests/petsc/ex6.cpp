static const char help[] =
    "Cholesky (gpuglu's LDL^T) and ICC through KSP/PCCholesky/PCICC: SPD and symmetric indefinite\n"
    "matrices in AIJ or SBAIJ storage, refactorization, many right-hand sides, MatGetInertia against\n"
    "MUMPS's, and the matrices a symmetric factorization must refuse.\n"
    "  -matrix <spec>        gpuglu generator spec (default shiftlap3d:8x7x6:2.5)\n"
    "  -storage aij|sbaij    the Mat type (default aij)\n"
    "  -flag none|symmetric|spd   what the program tells PETSc about A (MatSetOption)\n"
    "  -asymmetric           change A(0, 1) so that A is no longer symmetric\n"
    "  -block_size <bs>      SBAIJ block size (default 1)\n"
    "  -steps <n>            factorizations with new values on the same pattern (default 1)\n"
    "  -inertia              print whether MatGetInertia's counts equal MUMPS's (or the error)\n"
    "  -nrhs <k>             also solve k right-hand sides at once with MatMatSolve\n"
    "  -residual_tol <tol>   bound for the relative residual and error (default 1e-10)\n";

#include <cstring>
#include <string>

#include "common.hpp"

namespace {

using namespace gpuglu_test;

struct Args {
  char matrix[256] = "shiftlap3d:8x7x6:2.5";
  char storage[16] = "aij";
  char flag[16] = "none";
  PetscBool asymmetric = PETSC_FALSE;
  PetscInt block_size = 1;
  PetscInt steps = 1;
  PetscBool inertia = PETSC_FALSE;
  PetscInt nrhs = 0;
  PetscReal tol = 1e-10;
};

PetscErrorCode read_args(Args* a) {
  PetscFunctionBeginUser;
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "ex6 options", nullptr);
  PetscCall(PetscOptionsString("-matrix", "generator spec", nullptr, a->matrix, a->matrix, sizeof(a->matrix), nullptr));
  PetscCall(PetscOptionsString("-storage", "aij or sbaij", nullptr, a->storage, a->storage, sizeof(a->storage), nullptr));
  PetscCall(PetscOptionsString("-flag", "none, symmetric or spd", nullptr, a->flag, a->flag, sizeof(a->flag), nullptr));
  PetscCall(PetscOptionsBool("-asymmetric", "break the symmetry", nullptr, a->asymmetric, &a->asymmetric, nullptr));
  PetscCall(PetscOptionsInt("-block_size", "SBAIJ block size", nullptr, a->block_size, &a->block_size, nullptr));
  PetscCall(PetscOptionsInt("-steps", "factorizations", nullptr, a->steps, &a->steps, nullptr));
  PetscCall(PetscOptionsBool("-inertia", "compare the inertia with MUMPS", nullptr, a->inertia, &a->inertia, nullptr));
  PetscCall(PetscOptionsInt("-nrhs", "right-hand sides of MatMatSolve", nullptr, a->nrhs, &a->nrhs, nullptr));
  PetscCall(PetscOptionsReal("-residual_tol", "residual bound", nullptr, a->tol, &a->tol, nullptr));
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

// A (AIJ, possibly made asymmetric), then converted to the requested storage and flagged.
PetscErrorCode create_matrix(const Args& args, Mat* A) {
  Csr a;
  PetscFunctionBeginUser;
  PetscCall(generate(args.matrix, &a));
  if (args.asymmetric) {
    for (int32_t p = a.rowptr[0]; p < a.rowptr[1]; ++p)
      if (a.colind[p] == 1) a.values[p] += 0.5;
  }
  PetscCall(create_aij(PETSC_COMM_WORLD, a, A));
  if (!std::strcmp(args.storage, "sbaij")) {
    Mat B;
    PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));  // MatConvert's requirement
    if (args.block_size > 1) PetscCall(MatSetBlockSize(*A, args.block_size));
    PetscCall(MatConvert(*A, MATSBAIJ, MAT_INITIAL_MATRIX, &B));
    PetscCall(MatDestroy(A));
    *A = B;
  }
  if (!std::strcmp(args.flag, "symmetric")) PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  if (!std::strcmp(args.flag, "spd")) PetscCall(MatSetOption(*A, MAT_SPD, PETSC_TRUE));
  PetscFunctionReturn(0);
}

// An error handler that keeps the message of an error where it is raised (the caller
// prints it) and passes the code on without printing.
PetscErrorCode keep_first_message(MPI_Comm, int, const char*, const char*, PetscErrorCode n, PetscErrorType p,
                                  const char* mess, void* ctx) {
  if (p == PETSC_ERROR_INITIAL && mess) *static_cast<std::string*>(ctx) = mess;
  return n;
}

// MatGetInertia of the KSP's factor against MUMPS's LDL^T of the same matrix (MUMPS counts
// the negative pivots of a factorization with 2 x 2 pivots, which is A's inertia).
PetscErrorCode compare_inertia(KSP ksp, Mat A) {
  PC pc;
  Mat F, G;
  PetscInt nneg, nzero, npos, mneg, mzero, mpos;
  MatFactorInfo info;
  PetscFunctionBeginUser;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCFactorGetMatrix(pc, &F));
  std::string why;
  PetscCall(PetscPushErrorHandler(keep_first_message, &why));
  const PetscErrorCode ierr = MatGetInertia(F, &nneg, &nzero, &npos);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatGetInertia refused: %s\n", why.c_str()));
    PetscFunctionReturn(0);
  }
  PetscCall(MatGetFactor(A, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &G));
  PetscCall(MatMumpsSetIcntl(G, 24, 1));  // null pivot detection: MUMPS counts zero pivots only so
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatCholeskyFactorSymbolic(G, A, nullptr, &info));
  PetscCall(MatCholeskyFactorNumeric(G, A, &info));
  PetscCall(MatGetInertia(G, &mneg, &mzero, &mpos));
  PetscCall(MatDestroy(&G));
  if (nneg == mneg && nzero == mzero && npos == mpos)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "inertia: equal to MUMPS's%s\n", nneg > 0 ? " (indefinite)" : " (definite)"));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "inertia: gpuglu (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT
                          ") differs from MUMPS's (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ")\n",
                          nneg, nzero, npos, mneg, mzero, mpos));
  PetscFunctionReturn(0);
}

PetscErrorCode solve_many(KSP ksp, Mat A, PetscInt nrhs, PetscReal tol) {
  PC pc;
  Mat F, X, B, R;
  PetscReal rnorm, bnorm;
  PetscFunctionBeginUser;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCFactorGetMatrix(pc, &F));
  PetscInt n;
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, nrhs, nullptr, &X));
  PetscCall(MatSetRandom(X, nullptr));
  PetscCall(MatMatMult(A, X, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &B));
  PetscCall(MatConvert(B, MATSEQDENSE, MAT_INPLACE_MATRIX, &B));
  PetscCall(MatMatSolve(F, B, X));
  PetscCall(MatMatMult(A, X, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &R));
  PetscCall(MatAXPY(R, -1.0, B, SAME_NONZERO_PATTERN));
  PetscCall(MatNorm(R, NORM_FROBENIUS, &rnorm));
  PetscCall(MatNorm(B, NORM_FROBENIUS, &bnorm));
  if (rnorm / bnorm < tol)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatMatSolve: relative residual < %g\n", (double)tol));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatMatSolve: relative residual %g is NOT below %g\n",
                          (double)(rnorm / bnorm), (double)tol));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&X));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  Mat A;
  KSP ksp;
  Vec x, b, xexact;
  KSPConvergedReason reason;

  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(PetscGPUGLURegister());
  PetscCall(read_args(&args));
  PetscCall(create_matrix(args, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xexact));
  PetscCall(set_exact_solution(xexact));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetFromOptions(ksp));
  for (PetscInt step = 0; step < args.steps; ++step) {
    if (step > 0) PetscCall(MatScale(A, 1.5));  // new values, same pattern: a refactorization
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(MatMult(A, xexact, b));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(print_reason(ksp, &reason));
    if (reason > 0) {
      PetscCall(check_residual("solve", A, x, b, args.tol));
      PetscCall(check_error("solve", x, xexact, args.tol));
    }
  }
  if (reason > 0 && args.inertia) PetscCall(compare_inertia(ksp, A));
  if (reason > 0 && args.nrhs > 0) PetscCall(solve_many(ksp, A, args.nrhs, args.tol));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xexact));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # -inertia compares with MUMPS's MatGetInertia, which a complex PETSc does not have: those
   # cases need real scalars (ex7 checks the complex inertia).
   testset:
      args: -ksp_type preonly -pc_type cholesky -pc_factor_mat_solver_type gpuglu
      test:
         suffix: spd
         requires: !complex
         args: -matrix elast3d:4x4x3 -ksp_view -inertia -nrhs 3
         filter: grep -E "KSP:|residual|error <|inertia|gpuglu sparse LDL|symmetric scaling|perturbed pivots"
      test:
         suffix: spd_flag
         args: -matrix elast3d:4x4x3 -flag spd -ksp_view
         filter: grep -E "KSP:|residual|error <|symmetric scaling"
      test:
         suffix: sbaij
         requires: !complex
         args: -matrix lap3d27:6x6x6 -storage sbaij -inertia -steps 3
         filter: grep -E "KSP:|residual|error <|inertia"
      test:
         suffix: indefinite
         requires: !complex
         args: -inertia -steps 2 -info
         filter: grep -E "KSP:|residual|error <|inertia|gpuglu: .*(perturbed|LU)"
      test:
         suffix: kkt
         requires: !complex
         args: -matrix kkt:400:120:3 -inertia -ksp_view
         filter: grep -E "KSP:|residual|error <|inertia|perturbed pivots|symmetric scaling"
      test:
         suffix: kkt_lu_fallback
         args: -matrix kkt:400:120:3 -mat_gpuglu_scaling 0 -mat_gpuglu_perturbation 0.5 -inertia -info -ksp_view
         filter: grep -o -E "KSP:.*|solve: .*|MatGetInertia refused: .*|gpuglu: factorization: .*|the LDL.T could not.*"
      test:
         suffix: mpiaij_kkt
         requires: !complex
         nsize: 3
         args: -matrix kkt:400:120:3 -inertia -mat_gpuglu_gather_ranks {{0 2}}
         filter: grep -E "KSP:|residual|error <|inertia"
      test:
         suffix: asymmetric
         args: -asymmetric
         filter: Error: grep -E "PETSC ERROR: gpuglu" | sed -E "s/A\([0-9]+, [0-9]+\) = [^ ]+/A(i, j) = v/g"
      test:
         suffix: asymmetric_flagged_symmetric
         args: -asymmetric -flag symmetric -info
         filter: grep -o -E "KSP:.*|solve: .*|gpuglu: solve: .*"
      test:
         suffix: sbaij_block_size_3
         args: -matrix elast3d:2x2x2 -storage sbaij -block_size 3
         filter: Error: grep -E "PETSC ERROR: gpuglu"

   testset:
      args: -pc_factor_mat_solver_type gpuglu -ksp_type cg -ksp_rtol 1e-12 -residual_tol 1e-9
      test:
         suffix: icc
         args: -matrix elast3d:4x4x3 -pc_type icc -ksp_view
         filter: grep -E "KSP:|residual|error <|incomplete Cholesky"
      test:
         # An indefinite A under PETSc's default ICC shift (positive definite): factored by rows
         # on the CPU with PETSc's shift loop, GMRES takes PETSc's own ICC's 52 iterations.
         suffix: icc_shift_by_rows
         args: -matrix shiftlap3d:10x10x10:1.0 -pc_type icc -ksp_type gmres -ksp_rtol 1e-8 -residual_tol 1e-5 -ksp_view -ksp_converged_reason
         filter: grep -E "KSP:|residual|error <|factored by rows|shift type|Linear solve"
      test:
         suffix: icc_sbaij_levels
         args: -matrix lap3d7:8x8x8 -storage sbaij -pc_type icc -pc_factor_levels 2
         filter: grep -E "KSP:|residual|error <"
      test:
         suffix: icc_inertia_refused
         args: -matrix lap3d7:6x6x6 -pc_type icc -inertia
         filter: grep -E "KSP:|MatGetInertia refused"

   test:
      suffix: bjacobi_cholesky
      nsize: 2
      args: -matrix elast3d:4x4x4 -ksp_type cg -ksp_rtol 1e-12 -pc_type bjacobi -sub_pc_type cholesky -sub_pc_factor_mat_solver_type gpuglu -residual_tol 1e-9
      filter: grep -E "KSP:|residual|error <"

TEST*/
