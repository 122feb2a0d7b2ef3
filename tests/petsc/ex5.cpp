static const char help[] =
    "Robustness of gpuglu through KSP/PCLU, as a Newton loop meets it: every step either solves A x = b\n"
    "accurately or reports a failure KSP can act on, and a failed step does not end the loop.\n"
    "  -case newton      values change every step; one step puts a NaN in A (a step too far)\n"
    "  -case history     A1 = [1 1; 1 0], then A2 = [1 1; 0 1] in the leading block (same pattern)\n"
    "  -case scaled      a circuit matrix with its rows scaled by up to 10^(+-180)\n"
    "  -case unstable    a 7 x 7 matrix whose diagonal static pivots grow to 1e17 (use without matching)\n"
    "  -matrix <spec>    newton and scaled: gpuglu generator spec (default circuit:600)\n"
    "  -steps <n>        newton: steps (default 4); -nan_step <k>: the step with the NaN (default 2)\n"
    "  -no_register      do not call PetscGPUGLURegister() (load the plugin with -dll_append)\n";

#include <cmath>
#include <limits>
#include <vector>

#include "common.hpp"

namespace {

constexpr PetscReal residual_tol = 1e-10;

struct Entry {
  PetscInt i, j;
  PetscScalar v;
};

PetscErrorCode create_seq(PetscInt n, const std::vector<Entry>& entries, Mat* A) {
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 5, nullptr, A));
  for (const Entry& e : entries) PetscCall(MatSetValue(*A, e.i, e.j, e.v, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

// The leading 2 x 2 block of the history case: A1 = [1 1; 1 0] or A2 = [1 1; 0 1], explicit
// zeros kept, so both have one pattern. MC64 on A1 matches row 1 with column 0, the pivot
// A2 makes exactly zero.
PetscErrorCode set_history_block(Mat A, bool second) {
  PetscFunctionBeginUser;
  PetscCall(MatSetValue(A, 1, 0, second ? 0.0 : 1.0, INSERT_VALUES));
  PetscCall(MatSetValue(A, 1, 1, second ? 1.0 : 0.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

PetscErrorCode history_matrix(Mat* A) {
  const PetscInt n = 50;
  std::vector<Entry> e = {{0, 0, 1.0}, {0, 1, 1.0}, {1, 0, 1.0}, {1, 1, 0.0}, {1, 2, 0.5}};
  for (PetscInt i = 2; i < n; ++i) {
    e.push_back({i, i - 1, -1.0});
    e.push_back({i, i, 4.0});
    if (i + 1 < n) e.push_back({i, i + 1, -1.0});
  }
  PetscFunctionBeginUser;
  PetscCall(create_seq(n, e, A));
  PetscFunctionReturn(0);
}

// Found by a search over random matrices with tiny diagonals (tests/unit/cpu/
// recovery_checks.hpp, unstable_static_matrix): diagonal static pivots pass the threshold
// test but grow to 1.7e17, so refinement cannot repair them; KLU's backward error is 3e-16.
PetscErrorCode unstable_matrix(Mat* A) {
  const std::vector<Entry> e = {
      {0, 0, -1.5324418658918755e-07}, {0, 3, -0.33644765375157992},   {0, 5, 0.81951710151385071},
      {1, 1, -2.5680571578147546e-07}, {1, 5, -0.75861586044484985},   {1, 6, 0.98420463852139384},
      {2, 0, -0.51639564098437707},    {2, 2, -1.0609671740601547e-11}, {2, 3, -0.031977383060258102},
      {2, 4, -0.54422132148821079},    {3, 2, 0.63537166873124629},    {3, 3, 2.9056256526810832e-11},
      {3, 4, 0.50667578994695806},     {4, 0, 0.11759484949902865},    {4, 1, -0.30491029131877023},
      {4, 4, -3.9773384883024913e-05}, {4, 6, -0.29683044103954748},   {5, 0, 0.43359646995074952},
      {5, 2, -0.92761939554456796},    {5, 5, 1.1753790109834983e-05}, {6, 0, 0.52662050533346161},
      {6, 6, 6.6713565219226629e-09}};
  PetscFunctionBeginUser;
  PetscCall(create_seq(7, e, A));
  PetscFunctionReturn(0);
}

// A_k = D_k A0, D_k = diag(1 + 0.3 sin(i + k)): new values on the same pattern every step.
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

// Row i scaled by 10^(180 sin(i)): scales up to 1e+-180, which an MC64 scaling computed
// outside the log domain overflows.
PetscErrorCode scale_rows(Mat A) {
  Vec d;
  PetscInt rstart, rend;
  PetscScalar* dv;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, nullptr, &d));
  PetscCall(VecGetOwnershipRange(d, &rstart, &rend));
  PetscCall(VecGetArray(d, &dv));
  for (PetscInt i = rstart; i < rend; ++i) dv[i - rstart] = std::pow(10.0, 180.0 * std::sin(static_cast<double>(i)));
  PetscCall(VecRestoreArray(d, &dv));
  PetscCall(MatDiagonalScale(A, d, nullptr));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(0);
}

// Under block Jacobi: each rank's block factor, by rank. PETSc keeps the outer PC's
// SUBPC_ERROR once a block failed (PCSetUpOnBlocks_BJacobi never clears it), so the outer
// reason alone cannot show that a block recovered at the next step.
PetscErrorCode print_blocks(KSP ksp) {
  PC pc, subpc;
  KSP* sub;
  PetscInt nlocal;
  PetscBool bjacobi;
  PCFailedReason reason;
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &bjacobi));
  if (!bjacobi) PetscFunctionReturn(0);
  PetscCall(PCBJacobiGetSubKSP(pc, &nlocal, nullptr, &sub));
  PetscCall(KSPGetPC(sub[0], &subpc));
  PetscCall(PCGetFailedReason(subpc, &reason));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "  block on rank %d: %s\n", rank, PCFailedReasons[reason]));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscFunctionReturn(0);
}

// One step: b = A x_exact, solve, print the reason and (when it converged) the residual, or
// for badly scaled rows (whose 2-norms overflow) the componentwise backward error.
PetscErrorCode solve_step(KSP ksp, Mat A, PetscInt step, bool componentwise = false) {
  Vec x, b, xexact;
  KSPConvergedReason reason;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xexact));
  PetscCall(gpuglu_test::set_exact_solution(xexact));
  PetscCall(MatMult(A, xexact, b));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "step %" PetscInt_FMT ": ", step));
  PetscCall(gpuglu_test::print_reason(ksp, &reason));
  PetscCall(print_blocks(ksp));
  if (reason > 0 && componentwise) PetscCall(gpuglu_test::check_backward_error("solve", A, x, b, 1e-14));
  if (reason > 0 && !componentwise) PetscCall(gpuglu_test::check_residual("solve", A, x, b, residual_tol));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xexact));
  PetscFunctionReturn(0);
}

PetscErrorCode create_ksp(Mat A, KSP* ksp) {
  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscFunctionReturn(0);
}

PetscErrorCode run_newton(const char* spec, PetscInt steps, PetscInt nan_step) {
  gpuglu_test::Csr a;
  Mat A0, A;
  KSP ksp;
  PetscInt rstart, rend;
  PetscFunctionBeginUser;
  PetscCall(gpuglu_test::generate(spec, &a));
  PetscCall(gpuglu_test::create_aij(PETSC_COMM_WORLD, a, &A0));
  PetscCall(MatDuplicate(A0, MAT_COPY_VALUES, &A));
  PetscCall(create_ksp(A, &ksp));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt step = 0; step < steps; ++step) {
    PetscCall(set_step_values(A, A0, step));
    if (step == nan_step) {
      // On the first rank only: under bjacobi one block fails, the others do not.
      if (rstart == 0) PetscCall(MatSetValue(A, 0, 0, std::numeric_limits<double>::quiet_NaN(), INSERT_VALUES));
      PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    }
    PetscCall(solve_step(ksp, A, step));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&A0));
  PetscFunctionReturn(0);
}

PetscErrorCode run_history() {
  Mat A;
  KSP ksp;
  PetscFunctionBeginUser;
  PetscCall(history_matrix(&A));
  PetscCall(create_ksp(A, &ksp));
  for (PetscInt step = 0; step < 3; ++step) {
    PetscCall(set_history_block(A, step == 1));  // A1, A2, then A1 again
    PetscCall(solve_step(ksp, A, step));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

PetscErrorCode run_single(Mat A, bool componentwise) {
  KSP ksp;
  PetscFunctionBeginUser;
  PetscCall(create_ksp(A, &ksp));
  PetscCall(solve_step(ksp, A, 0, componentwise));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  char which[32] = "newton", spec[256] = "circuit:600";
  PetscInt steps = 4, nan_step = 2;
  PetscBool is, no_register = PETSC_FALSE;

  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "ex5 options", nullptr);
  PetscCall(PetscOptionsString("-case", "newton, history, scaled or unstable", nullptr, which, which, sizeof(which),
                               nullptr));
  PetscCall(PetscOptionsString("-matrix", "generator spec", nullptr, spec, spec, sizeof(spec), nullptr));
  PetscCall(PetscOptionsInt("-steps", "Newton steps", nullptr, steps, &steps, nullptr));
  PetscCall(PetscOptionsInt("-nan_step", "the step with a NaN", nullptr, nan_step, &nan_step, nullptr));
  PetscCall(
      PetscOptionsBool("-no_register", "skip PetscGPUGLURegister()", nullptr, no_register, &no_register, nullptr));
  PetscOptionsEnd();
  if (!no_register) PetscCall(PetscGPUGLURegister());

  PetscCall(PetscStrcmp(which, "newton", &is));
  if (is) PetscCall(run_newton(spec, steps, nan_step));
  PetscCall(PetscStrcmp(which, "history", &is));
  if (is) PetscCall(run_history());
  PetscCall(PetscStrcmp(which, "scaled", &is));
  if (is) {
    gpuglu_test::Csr a;
    Mat A;
    PetscCall(gpuglu_test::generate(spec, &a));
    PetscCall(gpuglu_test::create_aij(PETSC_COMM_WORLD, a, &A));
    PetscCall(scale_rows(A));
    PetscCall(run_single(A, true));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscStrcmp(which, "unstable", &is));
  if (is) {
    Mat A;
    PetscCall(unstable_matrix(&A));
    PetscCall(run_single(A, false));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   testset:
      args: -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu
      test:
         suffix: newton_nan
         args: -case newton -info
         filter: grep -o -E "^step .*|^PC failed.*|^solve: .*|gpuglu: NaN .*"
      test:
         suffix: newton_nan_error
         args: -case newton -ksp_error_if_not_converged
         filter: Error: grep -E "PETSC ERROR: (gpuglu|Floating point)"
      # The column engine: its static pivots fail where the recoveries below are checked (the
      # default supernodal LU pivots inside supernodes first).
      test:
         suffix: history
         args: -case history -info -mat_gpuglu_lu_engine column
         filter: grep -o -E "^step .*|^PC failed.*|^solve: .*|gpuglu: factorization: .*"
      test:
         suffix: history_report
         args: -case history -mat_gpuglu_pivot_policy report -mat_gpuglu_lu_engine column
      test:
         suffix: scaled
         args: -case scaled -info
         filter: grep -o -E "^step .*|^PC failed.*|^solve: .*|gpuglu: factorization: .*|gpuglu: .* scales .*"
      test:
         suffix: unstable
         args: -case unstable -mat_gpuglu_matching 0 -mat_gpuglu_ordering natural -info -mat_gpuglu_lu_engine column
         filter: grep -o -E "^step .*|^PC failed.*|^solve: .*|gpuglu: factorization: .*"

   # The same through -dll_append, as an unmodified PETSc program loads the plugin.
   testset:
      args: -no_register -dll_append ${GPUGLU_PLUGIN} -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu
      test:
         suffix: newton_nan_dll_append
         args: -case newton
         output_file: output/ex5_newton_nan_plain.out
      test:
         suffix: history_dll_append
         args: -case history
         output_file: output/ex5_history_plain.out

   test:
      suffix: newton_nan_bjacobi
      nsize: 2
      args: -case newton -matrix convdiff3d:8x8x8 -ksp_type gmres -ksp_rtol 1e-12 -pc_type bjacobi -sub_pc_type lu -sub_pc_factor_mat_solver_type gpuglu -sub_mat_gpuglu_threads 1

TEST*/
