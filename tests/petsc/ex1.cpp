static const char help[] =
    "Solves A x = b with KSP for a generated matrix, rows distributed over the ranks; the LU is gpuglu's.\n"
    "  -matrix <spec>          gpuglu generator spec: lap2d5:NXxNY, convdiff3d:NXxNYxNZ, circuit:NODES, ...\n"
    "  -no_register            do not call PetscGPUGLURegister() (load the plugin with -dll_append)\n"
    "  -residual_tol <tol>     the relative residual must be below this (default 1e-10)\n"
    "  -error_tol <tol>        the relative error must be below this (default 1e-6)\n"
    "  -print_option_tables    print the core's name table of every -mat_gpuglu_* list option\n"
    "  -require_device         exit 77 (skipped) without a usable CUDA device\n";

#include <cstdio>

#include "common.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/options.hpp"

namespace {

// "table -mat_gpuglu_<name>: <names in order>", the line check_help_tables.py compares with
// the list PETSc's -help prints for the same option.
template <class Table>
PetscErrorCode print_table(const char* option, const Table& table) {
  std::string line = std::string("table ") + option + ":";
  for (const auto& e : table) line += std::string(" ") + e.name;
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", line.c_str()));
  PetscFunctionReturn(0);
}

PetscErrorCode print_option_tables() {
  PetscFunctionBeginUser;
  PetscCall(print_table("-mat_gpuglu_backend", gpuglu::kBackendNames));
  PetscCall(print_table("-mat_gpuglu_ordering", gpuglu::kOrderingNames));
  PetscCall(print_table("-mat_gpuglu_lu_engine", gpuglu::kLuEngineNames));
  PetscCall(print_table("-mat_gpuglu_ldlt_engine", gpuglu::kLuEngineNames));
  PetscCall(print_table("-mat_gpuglu_pivot_policy", gpuglu::kPivotPolicyNames));
  PetscCall(print_table("-mat_gpuglu_trsv", gpuglu::kTrsvKernelNames));
  PetscCall(print_table("-mat_gpuglu_trsv_analysis", gpuglu::kTrsvAnalysisSiteNames));
  PetscCall(print_table("-mat_gpuglu_staging", gpuglu::kStagingNames));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  char spec[256] = "lap2d5:20x20";
  PetscBool no_register = PETSC_FALSE, print_tables = PETSC_FALSE, require_device = PETSC_FALSE;
  PetscReal residual_tol = 1e-10, error_tol = 1e-6;
  gpuglu_test::Csr a;
  Mat A;
  Vec x, b, xexact;
  KSP ksp;
  KSPConvergedReason reason;

  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "ex1 options", nullptr);
  PetscCall(PetscOptionsString("-matrix", "generator spec", nullptr, spec, spec, sizeof(spec), nullptr));
  PetscCall(
      PetscOptionsBool("-no_register", "skip PetscGPUGLURegister()", nullptr, no_register, &no_register, nullptr));
  PetscCall(PetscOptionsReal("-residual_tol", "residual tolerance", nullptr, residual_tol, &residual_tol, nullptr));
  PetscCall(PetscOptionsReal("-error_tol", "error tolerance", nullptr, error_tol, &error_tol, nullptr));
  PetscCall(PetscOptionsBool("-print_option_tables", "print the option name tables", nullptr, print_tables,
                             &print_tables, nullptr));
  PetscCall(PetscOptionsBool("-require_device", "skip without a GPU", nullptr, require_device, &require_device, nullptr));
  PetscOptionsEnd();
  if (require_device && !gpuglu::query_device().usable) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "skipped: no usable CUDA device (%s)\n", gpuglu::query_device().reason.c_str()));
    PetscCall(PetscFinalize());
    return 77;
  }
  if (print_tables) PetscCall(print_option_tables());
  if (!no_register) PetscCall(PetscGPUGLURegister());

  PetscCall(gpuglu_test::generate(spec, &a));
  PetscCall(gpuglu_test::create_aij(PETSC_COMM_WORLD, a, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xexact));
  PetscCall(gpuglu_test::set_exact_solution(xexact));
  PetscCall(MatMult(A, xexact, b));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(gpuglu_test::print_reason(ksp, &reason));
  if (reason > 0) {
    PetscCall(gpuglu_test::check_residual("solve", A, x, b, residual_tol));
    PetscCall(gpuglu_test::check_error("solve", x, xexact, error_tol));
  }

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xexact));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   testset:
      args: -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu
      filter: grep -v -E "time .ms.|device: CPU|GPU not used|convergence test|checking for convergence|Factored matrix|linear system matrix" | sed -E "/nnz|levels:|dependencies:|nonzeros=/s/[0-9]+/N/g"
      test:
         suffix: circuit
         args: -matrix circuit:2000 -ksp_view
      test:
         suffix: laplacian
         args: -matrix lap2d5:30x30 -ksp_view
      # -ksp_view says why auto kept a small factor on the CPU (any machine: the size rule).
      test:
         suffix: auto_note
         args: -matrix lap2d5:30x30 -ksp_view
         filter: grep "GPU not used" | sed -E "s/[0-9]+/N/g"
      # The supernodal LU is real only (complex: ex7's complex_supernodal_refused).
      test:
         suffix: supernodal_view
         requires: !complex
         args: -matrix circuit:2000 -mat_gpuglu_lu_engine supernodal -ksp_view

   testset:
      args: -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu
      test:
         suffix: orderings
         args: -matrix {{lap2d5:20x20 convdiff3d:6x6x6}} -mat_gpuglu_ordering {{amd colamd metis natural}} -mat_gpuglu_matching {{0 1}}
      test:
         suffix: supernodal
         requires: !complex
         args: -matrix {{circuit:2000 lap2d5:20x20 convdiff3d:6x6x6 powergrid:500}} -mat_gpuglu_lu_engine supernodal -mat_gpuglu_ordering {{amd metis}}
      test:
         suffix: orderings_circuit
         args: -matrix circuit:1500 -mat_gpuglu_ordering {{amd colamd metis natural}}
      test:
         suffix: petsc_ordering
         args: -matrix convdiff3d:6x6x6 -mat_gpuglu_ordering petsc -pc_factor_mat_ordering_type {{rcm nd natural}} -ksp_view
         filter: grep -E "KSP:|residual|relative error|PETSC ERROR|^ *ordering:"
      test:
         suffix: petsc_ordering_default
         args: -matrix lap2d5:5x5 -mat_gpuglu_ordering petsc -info
         filter: grep -o -E "gpuglu: -mat_gpuglu_ordering petsc.*|KSP: .*|solve: .*"

   # MPIAIJ: -pc_type lu / cholesky with gpuglu gathers the matrix to rank 0 (factor_gathered.cpp).
   testset:
      args: -ksp_type preonly -pc_factor_mat_solver_type gpuglu
      test:
         suffix: mpiaij_lu
         nsize: 2
         args: -pc_type lu -matrix {{circuit:2000 lap2d5:30x30 convdiff3d:6x6x6 powergrid:500}}
      test:
         suffix: mpiaij_lu_np4
         nsize: 4
         args: -pc_type lu -matrix {{circuit:2000 convdiff3d:6x6x6}}
      test:
         suffix: mpiaij_lu_np4_supernodal
         nsize: 4
         requires: !complex
         args: -pc_type lu -matrix {{circuit:2000 convdiff3d:6x6x6}} -mat_gpuglu_lu_engine supernodal
      test:
         suffix: mpiaij_cholesky
         nsize: 3
         args: -pc_type cholesky -matrix {{lap2d5:30x30 elast3d:4x4x3}}
      test:
         suffix: mpiaij_view
         nsize: 2
         args: -pc_type lu -matrix circuit:2000 -ksp_view
         filter: grep -E "KSP:|residual|relative error|gathered|type: gpuglu|gpuglu sparse LU|type: mpiaij"
      test:
         suffix: mpiaij_groups
         nsize: 4
         args: -pc_type lu -matrix {{circuit:2000 convdiff3d:6x6x6}} -mat_gpuglu_gather_ranks {{1 2 3 -1}}
      test:
         suffix: mpiaij_groups_view
         nsize: 4
         args: -pc_type lu -matrix circuit:2000 -mat_gpuglu_gather_ranks 2 -ksp_view
         filter: grep -E "KSP:|residual|relative error|gathered|factors, one per group"
      test:
         suffix: mpiaij_gather_ranks_out_of_range
         nsize: 2
         args: -pc_type lu -matrix lap2d5:10x10 -mat_gpuglu_gather_ranks -2
         filter: Error: grep -o -E "gpuglu: -mat_gpuglu_gather_ranks.*"
      test:
         suffix: mpiaij_ilu_refused
         nsize: 2
         args: -pc_type ilu -matrix lap2d5:10x10
         filter: Error: grep -o -E "gpuglu: ILU of a parallel.*"

   # -mat_gpuglu_devices 2: one LU split over two devices (SplitLU, petsc_plugin/split_factor.cpp),
   # on the CPU backend (the ordinals are not used there): the answer of devices 1, and
   # -ksp_view shows the split; MPIAIJ's gathered factor splits on its root.
   testset:
      args: -ksp_type preonly -pc_factor_mat_solver_type gpuglu -mat_gpuglu_devices 2 -mat_gpuglu_backend cpu
      requires: !complex
      test:
         suffix: split_devices
         args: -pc_type lu -matrix {{lap2d5:30x30 circuit:2000 convdiff3d:6x6x6 powergrid:500}}
      test:
         suffix: split_devices_view
         args: -pc_type lu -matrix lap2d5:30x30 -ksp_view
         filter: grep -E "KSP:|residual|relative error|gpuglu sparse LU|split over|half [01]:|root:|backend requested|analyses run|perturbed" | sed -E -e "s/ordinals [0-9]+, [0-9]+/ordinals A, B/" -e "s/nnz[(]L[+]U[)] [0-9]+/nnz(L+U) N/"
      test:
         suffix: split_devices_mpiaij
         nsize: 2
         args: -pc_type lu -matrix {{circuit:2000 convdiff3d:6x6x6}} -ksp_view
         filter: grep -E "KSP:|residual|relative error|gathered|split over 2 devices [(]"  | sed -E -e "s/ordinals [0-9]+, [0-9]+/ordinals A, B/" -e "s/separator [0-9]+, parts [0-9]+ . [0-9]+/separator K, parts P0 \/ P1/"
      # Cholesky: the LDL^T split of an AIJ matrix (SplitFactorization::ldlt); ILU and ICC
      # refuse the split with a PETSc error.
      test:
         suffix: split_devices_cholesky
         args: -pc_type cholesky -matrix lap2d5:30x30 -ksp_view
         filter: grep -E "KSP:|residual|relative error|split over|half [01]:|root:" | sed -E -e "s/ordinals [0-9]+, [0-9]+/ordinals A, B/" -e "s/nnz[(]L[+]U[)] [0-9]+/nnz(L+U) N/"
      test:
         suffix: split_devices_cholesky_kkt
         args: -pc_type cholesky -matrix kkt:400:150 -ksp_view
         filter: grep -E "KSP:|residual|relative error|gpuglu sparse LDL.T split|not split"
      test:
         suffix: split_devices_icc_refused
         args: -pc_type icc -matrix lap2d5:10x10
         filter: Error: grep -E "PETSC ERROR: (gpuglu|No support)"
      test:
         suffix: split_devices_ilu_refused
         args: -pc_type ilu -matrix lap2d5:10x10
         filter: Error: grep -E "PETSC ERROR: (gpuglu|No support)"

   test:
      suffix: bjacobi
      nsize: 2
      args: -matrix convdiff3d:8x8x8 -ksp_type gmres -ksp_rtol 1e-12 -pc_type bjacobi -sub_pc_type lu -sub_pc_factor_mat_solver_type gpuglu -sub_mat_gpuglu_threads 1 -residual_tol 1e-9 -ksp_view
      filter: grep -v -E "time .ms.|GPU not used|convergence test|checking for convergence|Factored matrix|linear system matrix|Gram-Schmidt|happy breakdown" | sed -E "/nnz|levels:|dependencies:|nonzeros=/s/[0-9]+/N/g"

   # No -mat_gpuglu_threads: each rank's block takes the rank's share of its node, and
   # -ksp_view says so (check_thread_share.py checks the numbers against the machine).
   test:
      suffix: threads_default
      nsize: 2
      args: -matrix lap2d5:24x24 -ksp_type gmres -ksp_rtol 1e-12 -pc_type bjacobi -sub_pc_type lu -sub_pc_factor_mat_solver_type gpuglu -sub_mat_gpuglu_backend cpu -residual_tol 1e-9 -ksp_view
      filter: grep -E "KSP:|residual|relative error|device: CPU" | sed -E "/device: CPU/s/[0-9]+/N/g"

   testset:
      args: -no_register -dll_append ${GPUGLU_PLUGIN} -ksp_view
      filter: grep -E "KSP:|residual|relative error|PETSC ERROR|type: gpuglu|package used|gpuglu sparse LU"
      test:
         suffix: dll_append
         args: -matrix circuit:1000 -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu
      test:
         suffix: dll_append_bjacobi
         nsize: 2
         args: -matrix lap2d5:24x24 -ksp_type gmres -ksp_rtol 1e-12 -pc_type bjacobi -sub_pc_type lu -sub_pc_factor_mat_solver_type gpuglu -sub_mat_gpuglu_threads 1 -residual_tol 1e-9

   test:
      suffix: help
      args: -help -matrix lap2d5:5x5 -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu
      filter: grep -o -E "[-]mat_gpuglu_[a-z_]+" | sort -u

   test:
      suffix: log_view
      args: -log_view -matrix lap2d5:10x10 -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu
      filter: grep -o -E "GPUGLU[A-Za-z]+" | sort -u

   # The numeric factorization and the solve log their flops: an event whose Max Flop column
   # reads 0 drops out of the list (petscdiff ignores the numbers themselves).
   test:
      suffix: log_view_flops
      args: -log_view -matrix lap2d5:10x10 -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu
      filter: grep -E "^(MatLUFactorNum|MatSolve|GPUGLUNumeric|GPUGLUSolve) " | tr -s " " | cut -d " " -f 1,6 | grep -v " 0.00e+00" | cut -d " " -f 1

   # Options out of their range: a PETSc error that names the option, before any work.
   testset:
      args: -matrix lap2d5:5x5 -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu
      filter: Error: grep -E "PETSC ERROR: (gpuglu|Argument out of range)" | sed -E "s/\[0, [0-9]+\]/[0, MAX]/"
      test:
         suffix: threads_out_of_range
         args: -mat_gpuglu_threads 100000
      test:
         suffix: berr_tol_out_of_range
         args: -mat_gpuglu_berr_tol 2
      test:
         suffix: pivot_threshold_out_of_range
         args: -mat_gpuglu_pivot_threshold -1
      test:
         suffix: devices_out_of_range
         args: -mat_gpuglu_devices 3

TEST*/
