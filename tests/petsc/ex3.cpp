static const char help[] =
    "MatSolveTranspose, MatMatSolve and MatMatSolveTranspose of a gpuglu factor against MatSolve /\n"
    "MatSolveTranspose column by column, with leading dimensions larger than n.\n"
    "  -matrix <spec>   gpuglu generator spec (default convdiff3d:7x6x5, unsymmetric)\n"
    "  -nrhs <k>        right-hand sides (default 5)\n"
    "  -error_tol <tol>  the relative error of the vector solves must be below this (default 1e-8)\n"
    "  -require_device   exit 77 (skipped) without a usable CUDA device\n";

#include <cmath>

#include "common.hpp"
#include "gpuglu/device.hpp"

namespace {

constexpr PetscReal residual_tol = 1e-10;
constexpr PetscReal match_tol = 1e-12;
constexpr PetscScalar padding = 7.0;  // rows n..lda-1 of X must keep it

// Dense matrix with A's rows and nrhs columns, on A's communicator, B(i, c) = cos(0.37 i + 1.3 c)
// by global row i. On one rank its leading dimension is the rows plus `pad`, and the padding
// rows hold `padding`; on several ranks the local blocks are not padded.
PetscErrorCode create_dense(Mat A, PetscInt nrhs, PetscInt pad, Mat* M) {
  PetscInt m, n, rstart, lda;
  PetscMPIInt size;
  PetscScalar* v;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCall(MatGetLocalSize(A, &m, nullptr));
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscCall(MatGetOwnershipRange(A, &rstart, nullptr));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), M));
  PetscCall(MatSetSizes(*M, m, PETSC_DECIDE, n, nrhs));
  if (size == 1) {
    PetscCall(MatSetType(*M, MATSEQDENSE));
    PetscCall(MatDenseSetLDA(*M, m + pad));
    PetscCall(MatSeqDenseSetPreallocation(*M, nullptr));
  } else {
    PetscCall(MatSetType(*M, MATMPIDENSE));
    PetscCall(MatMPIDenseSetPreallocation(*M, nullptr));
  }
  PetscCall(MatDenseGetLDA(*M, &lda));
  PetscCall(MatDenseGetArray(*M, &v));
  for (PetscInt c = 0; c < nrhs; ++c)
    for (PetscInt i = 0; i < lda; ++i) v[c * lda + i] = i < m ? std::cos(0.37 * (rstart + i) + 1.3 * c) : padding;
  PetscCall(MatDenseRestoreArray(*M, &v));
  PetscFunctionReturn(0);
}

// max_ij |X(i,j) - x_j(i)| / max_ij |x_j(i)| where x_j comes from one vector solve per column,
// and whether X's padding rows were left alone (over all ranks).
PetscErrorCode compare_with_columns(Mat F, Mat B, Mat X, bool transpose, const char* what) {
  PetscInt m, nrhs, lda;
  Vec b, x;
  PetscReal local[2] = {0, 0}, global[2];  // max difference, max value
  PetscMPIInt kept = 1, all_kept;
  const PetscScalar* xv;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(B, nullptr, &nrhs));
  PetscCall(MatGetLocalSize(B, &m, nullptr));
  PetscCall(MatDenseGetLDA(X, &lda));
  PetscCall(MatCreateVecs(F, &x, nullptr));
  for (PetscInt c = 0; c < nrhs; ++c) {
    const PetscScalar* col;
    PetscCall(MatDenseGetColumnVecRead(B, c, &b));
    if (transpose)
      PetscCall(MatSolveTranspose(F, b, x));
    else
      PetscCall(MatSolve(F, b, x));
    PetscCall(MatDenseRestoreColumnVecRead(B, c, &b));
    PetscCall(VecGetArrayRead(x, &col));
    PetscCall(MatDenseGetArrayRead(X, &xv));
    for (PetscInt i = 0; i < m; ++i) {
      local[0] = PetscMax(local[0], PetscAbsScalar(xv[c * lda + i] - col[i]));
      local[1] = PetscMax(local[1], PetscAbsScalar(col[i]));
    }
    for (PetscInt i = m; i < lda; ++i) kept = kept && xv[c * lda + i] == padding;
    PetscCall(MatDenseRestoreArrayRead(X, &xv));
    PetscCall(VecRestoreArrayRead(x, &col));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(MPIU_Allreduce(local, global, 2, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)F)));
  PetscCallMPI(MPI_Allreduce(&kept, &all_kept, 1, MPI_INT, MPI_MIN, PetscObjectComm((PetscObject)F)));
  const PetscReal rel = global[1] > 0 ? global[0] / global[1] : global[0];
  if (rel < match_tol)
    PetscCall(
        PetscPrintf(PETSC_COMM_WORLD, "%s vs one solve per column: max difference < %g\n", what, (double)match_tol));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s vs one solve per column: max difference %g is NOT below %g\n", what,
                          (double)rel, (double)match_tol));
  PetscCall(
      PetscPrintf(PETSC_COMM_WORLD, "%s: padding rows of X %s\n", what, all_kept ? "untouched" : "OVERWRITTEN"));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  char spec[256] = "convdiff3d:7x6x5";
  PetscInt nrhs = 5, n;
  PetscReal error_tol = 1e-8;
  PetscBool require_device = PETSC_FALSE;
  gpuglu_test::Csr a;
  Mat A, F, B, X;
  Vec x, b, xexact;
  MatFactorInfo info;

  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "ex3 options", nullptr);
  PetscCall(PetscOptionsString("-matrix", "generator spec", nullptr, spec, spec, sizeof(spec), nullptr));
  PetscCall(PetscOptionsInt("-nrhs", "right-hand sides", nullptr, nrhs, &nrhs, nullptr));
  PetscCall(PetscOptionsReal("-error_tol", "error tolerance", nullptr, error_tol, &error_tol, nullptr));
  PetscCall(PetscOptionsBool("-require_device", "skip without a GPU", nullptr, require_device, &require_device, nullptr));
  PetscOptionsEnd();
  if (require_device && !gpuglu::query_device().usable) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "skipped: no usable CUDA device (%s)\n", gpuglu::query_device().reason.c_str()));
    PetscCall(PetscFinalize());
    return 77;
  }
  PetscCall(PetscGPUGLURegister());

  PetscCall(gpuglu_test::generate(spec, &a));
  PetscCall(gpuglu_test::create_aij(PETSC_COMM_WORLD, a, &A));
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscCall(MatGetFactor(A, MATSOLVERGPUGLU, MAT_FACTOR_LU, &F));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatLUFactorSymbolic(F, A, nullptr, nullptr, &info));
  PetscCall(MatLUFactorNumeric(F, A, &info));

  // A x = b and A^T x = b against the exact solution.
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xexact));
  PetscCall(gpuglu_test::set_exact_solution(xexact));
  PetscCall(MatMult(A, xexact, b));
  PetscCall(MatSolve(F, b, x));
  PetscCall(gpuglu_test::check_residual("MatSolve", A, x, b, residual_tol));
  PetscCall(gpuglu_test::check_error("MatSolve", x, xexact, error_tol));
  PetscCall(MatMultTranspose(A, xexact, b));
  PetscCall(MatSolveTranspose(F, b, x));
  PetscCall(gpuglu_test::check_residual("MatSolveTranspose", A, x, b, residual_tol, true));
  PetscCall(gpuglu_test::check_error("MatSolveTranspose", x, xexact, error_tol));

  // Many right-hand sides, B and X with different leading dimensions.
  PetscCall(create_dense(A, nrhs, 3, &B));
  PetscCall(create_dense(A, nrhs, 5, &X));
  PetscCall(MatMatSolve(F, B, X));
  PetscCall(compare_with_columns(F, B, X, false, "MatMatSolve"));
  PetscCall(MatDestroy(&X));
  PetscCall(create_dense(A, nrhs, 2, &X));
  PetscCall(MatMatSolveTranspose(F, B, X));
  PetscCall(compare_with_columns(F, B, X, true, "MatMatSolveTranspose"));

  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&X));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xexact));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: solves

   test:
      suffix: solves_circuit
      args: -matrix circuit:1200 -nrhs 3 -error_tol 1e-6

   # A parallel (MPIAIJ) matrix: gathered to rank 0, B and X distributed (MPIDENSE).
   test:
      suffix: solves_mpiaij
      nsize: 2
      args: -matrix circuit:1200 -nrhs 3 -error_tol 1e-6

   test:
      suffix: solves_mpiaij_np3
      nsize: 3

   test:
      suffix: solves_mpiaij_groups
      nsize: 4
      args: -matrix circuit:1200 -nrhs 3 -error_tol 1e-6 -mat_gpuglu_gather_ranks 2

   # -mat_gpuglu_devices 2 (SplitLU) on the CPU backend: MatSolveTranspose and MatMatSolve(Transpose)
   # (column by column) give what the one-device factor gives; also on each gathered group's root.
   testset:
      requires: !complex
      args: -mat_gpuglu_devices 2 -mat_gpuglu_backend cpu
      test:
         suffix: solves_split
      test:
         suffix: solves_split_circuit
         args: -matrix circuit:1200 -nrhs 3 -error_tol 1e-6
      test:
         suffix: solves_split_mpiaij_groups
         nsize: 4
         args: -matrix circuit:1200 -nrhs 3 -error_tol 1e-6 -mat_gpuglu_gather_ranks 2

TEST*/
