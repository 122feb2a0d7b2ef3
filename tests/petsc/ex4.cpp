static const char help[] =
    "Bad input for gpuglu through KSP/PCLU: each -case is a matrix the factorization must refuse\n"
    "cleanly (a PETSc error naming the cause, or a MatFactorError that KSP reports).\n"
    "  -case <name>          nonsquare | structsingular | emptyrow | numsingular | zerodiag | nan | empty | laplacian\n"
    "  -residual_tol <tol>   the relative residual of a successful solve must be below this (1e-10)\n";

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "common.hpp"

namespace {

struct Entry {
  PetscInt i, j;
  PetscScalar v;
};

PetscErrorCode create_from_entries(PetscInt m, PetscInt n, const std::vector<Entry>& entries, Mat* A) {
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, n, 5, nullptr, A));
  for (const Entry& e : entries) PetscCall(MatSetValue(*A, e.i, e.j, e.v, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

// Tridiagonal n x n (4 on the diagonal, -1 beside it), without the rows in `skip_rows`.
std::vector<Entry> tridiagonal(PetscInt n, PetscInt skip_row = -1) {
  std::vector<Entry> e;
  for (PetscInt i = 0; i < n; ++i) {
    if (i == skip_row) continue;
    if (i > 0) e.push_back({i, i - 1, -1.0});
    e.push_back({i, i, 4.0});
    if (i + 1 < n) e.push_back({i, i + 1, -1.0});
  }
  return e;
}

// The singular 2 x 2 block [1 2; 2 4] in rows/columns 2 and 3 of a coupled 6 x 6 matrix:
// structurally fine (a perfect matching exists), numerically singular.
constexpr PetscInt singular_rows[2] = {2, 3};
std::vector<Entry> numerically_singular() {
  return {{0, 0, 4.0}, {0, 1, 1.0}, {0, 2, 1.0}, {1, 0, 1.0}, {1, 1, 4.0}, {2, 2, 1.0}, {2, 3, 2.0}, {3, 2, 2.0},
          {3, 3, 4.0}, {4, 3, 1.0}, {4, 4, 5.0}, {4, 5, 1.0}, {5, 1, 1.0}, {5, 4, 1.0}, {5, 5, 5.0}};
}

// Nonsingular, but A(0, 0) and A(1, 1) are not stored: without matching, column 0's static
// pivot is exactly 0 (nothing updates the first column). KLU's partial pivoting swaps rows 0, 1.
std::vector<Entry> zero_diagonal() {
  std::vector<Entry> e = {{0, 1, 2.0}, {0, 2, -1.0}, {1, 0, 3.0}, {1, 3, 1.0}};
  for (const Entry& t : tridiagonal(8))
    if (t.i >= 2) e.push_back(t);
  return e;
}

// Rows 0-2 only touch columns 0 and 1: structural rank 4 of 5.
std::vector<Entry> structurally_singular() {
  return {{0, 0, 2.0}, {0, 1, 1.0}, {1, 0, 1.0}, {1, 1, 3.0}, {2, 0, 1.0}, {2, 1, 1.0},
          {3, 3, 4.0}, {3, 4, 1.0}, {4, 2, 1.0}, {4, 3, 1.0}, {4, 4, 4.0}};
}

PetscErrorCode build(const char* which, Mat* A) {
  PetscBool is;
  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(which, "nonsquare", &is));
  if (is) {
    std::vector<Entry> e;
    for (PetscInt i = 0; i < 5; ++i) e.push_back({i, i + 2, 1.0 + i});
    PetscCall(create_from_entries(5, 7, e, A));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrcmp(which, "structsingular", &is));
  if (is) PetscCall(create_from_entries(5, 5, structurally_singular(), A));
  if (is) PetscFunctionReturn(0);
  PetscCall(PetscStrcmp(which, "emptyrow", &is));
  if (is) PetscCall(create_from_entries(5, 5, tridiagonal(5, 2), A));
  if (is) PetscFunctionReturn(0);
  PetscCall(PetscStrcmp(which, "numsingular", &is));
  if (is) PetscCall(create_from_entries(6, 6, numerically_singular(), A));
  if (is) PetscFunctionReturn(0);
  PetscCall(PetscStrcmp(which, "zerodiag", &is));
  if (is) PetscCall(create_from_entries(8, 8, zero_diagonal(), A));
  if (is) PetscFunctionReturn(0);
  PetscCall(PetscStrcmp(which, "empty", &is));
  if (is) PetscCall(create_from_entries(0, 0, {}, A));
  if (is) PetscFunctionReturn(0);
  PetscCall(PetscStrcmp(which, "laplacian", &is));
  if (is) PetscCall(create_from_entries(8, 8, tridiagonal(8), A));
  if (is) PetscFunctionReturn(0);
  PetscCall(PetscStrcmp(which, "nan", &is));
  PetscCheck(is, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "unknown -case %s", which);
  // The NaN goes in after assembly, so that no PETSc check sees it before gpuglu does.
  PetscScalar* v;
  PetscCall(create_from_entries(8, 8, tridiagonal(8), A));
  PetscCall(MatSeqAIJGetArray(*A, &v));
  v[10] = std::numeric_limits<double>::quiet_NaN();
  PetscCall(MatSeqAIJRestoreArray(*A, &v));
  PetscFunctionReturn(0);
}

// Where a zero pivot was reported, in A's numbering.
PetscErrorCode report_zero_pivot(KSP ksp) {
  PC pc;
  Mat F;
  MatFactorError err;
  PetscReal pivot;
  PetscInt row;
  PetscFunctionBeginUser;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCFactorGetMatrix(pc, &F));
  PetscCall(MatFactorGetError(F, &err));
  if (err != MAT_FACTOR_NUMERIC_ZEROPIVOT) PetscFunctionReturn(0);
  PetscCall(MatFactorGetErrorZeroPivot(F, &pivot, &row));
  if (row == singular_rows[0] || row == singular_rows[1])
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "zero pivot row: in the singular block\n"));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "zero pivot row: %" PetscInt_FMT " OUTSIDE the singular block\n", row));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  char which[64] = "laplacian";
  PetscReal residual_tol = 1e-10;
  PetscBool nonsquare, nan;
  Mat A;
  Vec x, b, xexact;
  KSP ksp;
  KSPConvergedReason reason;

  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "ex4 options", nullptr);
  PetscCall(PetscOptionsString("-case", "which bad matrix", nullptr, which, which, sizeof(which), nullptr));
  PetscCall(PetscOptionsReal("-residual_tol", "residual tolerance", nullptr, residual_tol, &residual_tol, nullptr));
  PetscOptionsEnd();
  PetscCall(PetscGPUGLURegister());
  PetscCall(build(which, &A));

  PetscCall(PetscStrcmp(which, "nonsquare", &nonsquare));
  if (nonsquare) {
    // KSP refuses a non-square operator for LU before any factorization: ask the factor directly.
    Mat F;
    MatFactorInfo info;
    PetscCall(MatGetFactor(A, MATSOLVERGPUGLU, MAT_FACTOR_LU, &F));
    PetscCall(MatFactorInfoInitialize(&info));
    PetscCall(MatLUFactorSymbolic(F, A, nullptr, nullptr, &info));
    PetscCall(MatDestroy(&F));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscFinalize());
    return 0;
  }

  PetscCall(PetscStrcmp(which, "nan", &nan));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xexact));
  PetscCall(gpuglu_test::set_exact_solution(xexact));
  if (nan)
    PetscCall(VecSet(b, 1.0));
  else
    PetscCall(MatMult(A, xexact, b));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(gpuglu_test::print_reason(ksp, &reason));
  if (reason > 0)
    PetscCall(gpuglu_test::check_residual("solve", A, x, b, residual_tol));
  else
    PetscCall(report_zero_pivot(ksp));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xexact));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

// The CUDA-backend cases stand alone below the testset: PETSc's harness does not honour the
// "requires:" of a test inside a testset.
/*TEST

   test:
      suffix: nonsquare
      args: -case nonsquare
      filter: Error: grep -E "PETSC ERROR: (gpuglu|Nonconforming)"

   testset:
      args: -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu
      test:
         suffix: structurally_singular
         args: -case structsingular -info
         filter: grep -o -E "gpuglu: .*|KSP: .*|PC failed: .*"
      test:
         suffix: structurally_singular_error
         args: -case structsingular -ksp_error_if_not_converged
         filter: Error: grep -E "PETSC ERROR: (gpuglu|Zero pivot)"
      test:
         suffix: empty_row
         args: -case emptyrow -info
         filter: grep -o -E "gpuglu: .*|KSP: .*|PC failed: .*"
      test:
         suffix: numerically_singular
         args: -case numsingular
      test:
         suffix: numerically_singular_error
         args: -case numsingular -ksp_error_if_not_converged
         filter: Error: grep -E "PETSC ERROR: (gpuglu|Zero pivot)" | sed -E "s/row [0-9]+, column [0-9]+/row R, column C/"
      test:
         suffix: numerically_singular_shift
         args: -case numsingular -pc_factor_shift_type nonzero -ksp_view
         filter: grep -E "KSP:|PC failed|residual|pivot policy|perturbed pivots|perturbation"
      test:
         suffix: numerically_singular_perturb
         args: -case numsingular -mat_gpuglu_pivot_policy perturb
      # The column engine (-mat_gpuglu_lu_engine column): its static pivots meet the zero
      # diagonal that these policies answer; the default supernodal LU pivots inside supernodes.
      test:
         suffix: zero_diagonal_report
         args: -case zerodiag -mat_gpuglu_matching 0 -mat_gpuglu_pivot_policy report -mat_gpuglu_lu_engine column
         filter: grep -E "KSP:|PC failed"
      test:
         suffix: zero_diagonal_auto
         args: -case zerodiag -mat_gpuglu_matching 0 -info -ksp_view -mat_gpuglu_lu_engine column
         filter: grep -o -E "gpuglu: factorization: .*|KSP: .*|solve: .*|ordering: .*|pivot policy: .*|recoveries.*"
      test:
         suffix: zero_diagonal_repivot
         args: -case zerodiag -mat_gpuglu_matching 0 -mat_gpuglu_pivot_policy repivot -info -ksp_view -mat_gpuglu_lu_engine column
         filter: grep -o -E "gpuglu: factorization: .*|KSP: .*|solve: .*|ordering: .*|pivot policy: .*|recoveries.*"
      test:
         suffix: numerically_singular_repivot
         args: -case numsingular -mat_gpuglu_pivot_policy repivot -info
         filter: grep -o -E "gpuglu: factorization: .*|KSP: .*|PC failed: .*|zero pivot row: .*"
      test:
         suffix: numerically_singular_auto
         args: -case numsingular -info
         filter: grep -o -E "gpuglu: factorization: .*|KSP: .*|PC failed: .*|zero pivot row: .*"
      test:
         suffix: nan
         args: -case nan -info
         filter: grep -o -E "gpuglu: entry .*|KSP: .*|PC failed: .*"
      test:
         suffix: nan_error
         args: -case nan -ksp_error_if_not_converged
         filter: Error: grep -E "PETSC ERROR: (gpuglu|Floating point)"
      test:
         suffix: empty
         args: -case empty

   # -mat_gpuglu_devices 2: a structurally singular A falls back to the one-device factor (which
   # reports it, and -ksp_view says so); a failed split is the usual MatFactorError, its message
   # the split's failure.
   testset:
      requires: !complex
      args: -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu -mat_gpuglu_devices 2 -mat_gpuglu_backend cpu
      test:
         suffix: split_structurally_singular
         args: -case structsingular -info -ksp_view
         filter: grep -o -E "gpuglu: .*|KSP: .*|PC failed: .*|not split over.*"
      test:
         suffix: split_numerically_singular
         args: -case numsingular -info
         filter: grep -o -E "gpuglu: the factorization split.*|KSP: .*|PC failed: .*"
      test:
         suffix: split_numerically_singular_error
         args: -case numsingular -ksp_error_if_not_converged
         filter: Error: grep -E "PETSC ERROR: (gpuglu|Zero pivot)" | sed -E "s/column [0-9]+/column C/"
      test:
         suffix: split_nan
         args: -case nan -info
         filter: grep -o -E "gpuglu: entry .*|KSP: .*|PC failed: .*"
      test:
         suffix: split_zero_diagonal
         args: -case zerodiag -mat_gpuglu_matching 0

   test:
      suffix: cuda_backend_unsupported
      requires: !cuda
      args: -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu -case laplacian -mat_gpuglu_backend cuda
      filter: Error: grep -E "PETSC ERROR: (gpuglu|No support)"

   test:
      suffix: cuda_backend_no_device
      requires: cuda
      args: -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu -case laplacian -mat_gpuglu_backend cuda
      filter: Error: grep -o -E "gpuglu: backend cuda: no CUDA device"

TEST*/
