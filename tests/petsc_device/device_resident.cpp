// Device-resident operation with a CUDA PETSc (issue 15), checked through PETSc's own
// counters: with MATAIJCUSPARSE matrices and CUDA vectors whose valid copies are on the
// device, gpuglu's numeric factorization and solves make no host<->device copy that PETSc
// logs ("CpuToGpu" / "GpuToCpu" of -log_view, read here by PetscLogEventGetPerfInfo), the
// factor Mat reports that its values and vectors came from the device, and the solutions
// are right. A positive control (gpuglu's CPU backend on the same device-valid vectors)
// shows that the counters do see the copies a host path makes.
//
//   device_resident [-case lu|ilu|bjacobi] [-spec GENERATOR_SPEC]
//   one rank: lu (MatGetFactor + MatSolve/MatSolveTranspose), ilu (KSP GMRES with ILU(0));
//   mpiexec -n 2: bjacobi (MPIAIJCUSPARSE, sub-PC ILU(0) with gpuglu on each block)
//
// Exit 77 (CTest: skipped) without a usable CUDA device; 1 on a failed check.
#include <petscgpuglu.h>
#include <petscksp.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "common.hpp"
#include "gpuglu/device.hpp"

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) ++failures;
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
}

// The copies PETSc logged in `event` within `stage` (0 where the event never ran).
PetscErrorCode copies(PetscLogStage stage, const char* event, double* to_gpu, double* to_cpu, double* count) {
  PetscLogEvent id;
  PetscEventPerfInfo info;
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventGetId(event, &id));
  PetscCall(PetscLogEventGetPerfInfo(stage, id, &info));
  *to_gpu = info.CpuToGpuCount;
  *to_cpu = info.GpuToCpuCount;
  *count = info.count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode expect_no_copies(PetscLogStage stage, const char* event, bool must_run) {
  double to_gpu, to_cpu, count;
  char what[256];
  PetscFunctionBeginUser;
  PetscCall(copies(stage, event, &to_gpu, &to_cpu, &count));
  std::snprintf(what, sizeof(what), "%s: %g calls, %g CpuToGpu, %g GpuToCpu copies", event, count, to_gpu, to_cpu);
  check((!must_run || count > 0) && to_gpu == 0 && to_cpu == 0, what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The factor Mat's view (-ksp_view's text) names how much of its work took device data.
PetscErrorCode factor_view(Mat F, std::string* text) {
  PetscViewer v;
  char path[PETSC_MAX_PATH_LEN];
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  std::snprintf(path, sizeof(path), "device_resident_view_%d.txt", rank);
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, path, &v));
  PetscCall(PetscViewerPushFormat(v, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(F, v));
  PetscCall(PetscViewerPopFormat(v));
  PetscCall(PetscViewerDestroy(&v));
  std::ifstream in(path);
  text->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::remove(path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The factor's counts in its view: numeric factorizations with values from the device and
// all of them, solves on device vectors and all of them. False where the line is missing.
bool device_counts(const std::string& view, long* dn, long* n, long* ds, long* s) {
  const size_t p = view.find("device-resident data:");
  if (p == std::string::npos) return false;
  return std::sscanf(view.c_str() + p,
                     "device-resident data: values from the device in %ld of %ld numeric factorizations, %ld of "
                     "%ld solves",
                     dn, n, ds, s) == 4;
}

// ||x - t|| / ||t||
PetscErrorCode error_norm(Vec x, Vec t, PetscReal* e) {
  Vec d;
  PetscReal nt;
  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(x, &d));
  PetscCall(VecWAXPY(d, -1.0, t, x));
  PetscCall(VecNorm(d, NORM_2, e));
  PetscCall(VecNorm(t, NORM_2, &nt));
  *e /= nt;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// LU through MatGetFactor: the values change on the device (MatScale of a CUSPARSE matrix
// runs there), the refactorization reads them there, and the solves run on device vectors.
PetscErrorCode case_lu(Mat A, Vec t, Vec b, Vec x) {
  Mat F;
  MatFactorInfo info;
  PetscLogStage stage, control;
  PetscReal err;
  std::string view;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsSetValue(nullptr, "-mat_gpuglu_backend", "cuda"));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatGetFactor(A, MATSOLVERGPUGLU, MAT_FACTOR_LU, &F));
  PetscCall(MatLUFactorSymbolic(F, A, nullptr, nullptr, &info));
  PetscCall(MatLUFactorNumeric(F, A, &info));
  PetscCall(MatScale(A, 2.0));       // on the device: A's valid copy is there alone
  PetscCall(MatMult(A, t, b));        // b = (2A) t on the device
  PetscCall(PetscLogStageRegister("DeviceLU", &stage));
  PetscCall(PetscLogStagePush(stage));
  PetscCall(MatLUFactorNumeric(F, A, &info));
  for (int i = 0; i < 3; ++i) PetscCall(MatSolve(F, b, x));
  PetscCall(PetscLogStagePop());
  PetscCall(expect_no_copies(stage, "MatLUFactorNum", true));
  PetscCall(expect_no_copies(stage, "MatSolve", true));
  PetscCall(error_norm(x, t, &err));
  check(err < 1e-10, "LU: the solution of the refactored (2A) x = b");
  // The transposed solve: b = (2A)^T t.
  PetscCall(MatMultTranspose(A, t, b));
  PetscCall(PetscLogStagePush(stage));
  PetscCall(MatSolveTranspose(F, b, x));
  PetscCall(PetscLogStagePop());
  PetscCall(expect_no_copies(stage, "MatSolveTranspos", true));
  PetscCall(error_norm(x, t, &err));
  check(err < 1e-10, "LU: the solution of (2A)^T x = b");
  PetscCall(factor_view(F, &view));
  long dn = 0, n = 0, ds = 0, ns = 0;
  // Both factorizations: A was valid on the device after the first MatMult already.
  const bool counted = device_counts(view, &dn, &n, &ds, &ns) && dn == 2 && n == 2 && ds == 4 && ns == 4;
  check(counted, "LU: the factor's view counts 2 of 2 factorizations and 4 of 4 solves on device data");
  if (!counted) std::printf("%s\n", view.c_str());
  PetscCall(MatDestroy(&F));

  // The positive control: gpuglu's CPU backend reads b on the host, which PETSc copies down
  // (and x is written there): the counters must see it.
  PetscCall(PetscOptionsSetValue(nullptr, "-mat_gpuglu_backend", "cpu"));
  PetscCall(MatGetFactor(A, MATSOLVERGPUGLU, MAT_FACTOR_LU, &F));
  PetscCall(MatLUFactorSymbolic(F, A, nullptr, nullptr, &info));
  PetscCall(MatLUFactorNumeric(F, A, &info));
  PetscCall(MatMult(A, t, b));
  PetscCall(PetscLogStageRegister("HostControl", &control));
  PetscCall(PetscLogStagePush(control));
  PetscCall(MatSolve(F, b, x));
  PetscCall(PetscLogStagePop());
  double to_gpu, to_cpu, count;
  PetscCall(copies(control, "MatSolve", &to_gpu, &to_cpu, &count));
  check(to_cpu > 0, "control: a host-path MatSolve on device-valid b shows a GpuToCpu copy");
  PetscCall(MatDestroy(&F));
  PetscCall(PetscOptionsClearValue(nullptr, "-mat_gpuglu_backend"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// ILU(0)-GMRES through KSP (or bjacobi with ILU(0) blocks on two ranks), fully on the device.
PetscErrorCode case_ksp(Mat A, Vec t, Vec b, Vec x, bool bjacobi) {
  KSP ksp;
  PC pc;
  PetscLogStage stage;
  PetscInt its;
  KSPConvergedReason reason;
  PetscReal err;
  std::string view;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsSetValue(nullptr, "-mat_gpuglu_backend", "cuda"));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_CURRENT, PETSC_CURRENT, 500));
  PetscCall(KSPGetPC(ksp, &pc));
  if (bjacobi) {
    PetscCall(PCSetType(pc, PCBJACOBI));
    PetscCall(PetscOptionsSetValue(nullptr, "-sub_pc_type", "ilu"));
    PetscCall(PetscOptionsSetValue(nullptr, "-sub_pc_factor_mat_solver_type", MATSOLVERGPUGLU));
  } else {
    PetscCall(PCSetType(pc, PCILU));
    PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERGPUGLU));
  }
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(MatScale(A, 0.5));  // new values on the device: the next setup refactors from there
  PetscCall(MatMult(A, t, b));
  PetscCall(PetscLogStageRegister(bjacobi ? "DeviceBJacobi" : "DeviceILU", &stage));
  PetscCall(PetscLogStagePush(stage));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PetscLogStagePop());
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(error_norm(x, t, &err));
  check(reason > 0 && err < 1e-6, bjacobi ? "bjacobi/ILU(0)-GMRES converges" : "ILU(0)-GMRES converges");
  PetscCall(expect_no_copies(stage, "MatSolve", true));
  PetscCall(expect_no_copies(stage, "MatLUFactorNum", true));
  Mat F;
  if (bjacobi) {
    KSP* sub;
    PetscInt nlocal, first;
    PetscCall(PCBJacobiGetSubKSP(pc, &nlocal, &first, &sub));
    PC subpc;
    PetscCall(KSPGetPC(sub[0], &subpc));
    PetscCall(PCFactorGetMatrix(subpc, &F));
  } else {
    PetscCall(PCFactorGetMatrix(pc, &F));
  }
  PetscCall(factor_view(F, &view));
  long dn = 0, n = 0, ds = 0, ns = 0;
  // Two factorizations (KSPSetUp, then the new values); the second reads the device for sure
  // (MatScale left A valid there alone). Under bjacobi only the second: the blocks are factored
  // by KSPSetUpOnBlocks inside the first KSPSolve. Every solve of GMRES's preconditioner on
  // device vectors.
  const long factorizations = bjacobi ? 1 : 2;
  const bool counted =
      device_counts(view, &dn, &n, &ds, &ns) && n == factorizations && dn >= 1 && ns >= its && ds == ns;
  check(counted, "the factor's view counts its factorizations and solves on device data");
  std::printf("view: %ld of %ld factorizations, %ld of %ld solves on device data; %d GMRES iterations\n", dn, n, ds,
              ns, static_cast<int>(its));
  if (!counted) std::printf("%s\n", view.c_str());
  PetscCall(KSPDestroy(&ksp));
  PetscCall(PetscOptionsClearValue(nullptr, "-mat_gpuglu_backend"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char** argv) {
  char kase[32] = "lu", spec[256] = "convdiff3d:24x20x16";
  PetscMPIInt size;
  Mat A;
  Vec t, b, x;

  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscCall(PetscOptionsGetString(nullptr, nullptr, "-case", kase, sizeof(kase), nullptr));
  PetscCall(PetscOptionsGetString(nullptr, nullptr, "-spec", spec, sizeof(spec), nullptr));
  const gpuglu::DeviceInfo dev = gpuglu::query_device();
  if (!dev.usable) {
    std::printf("skipped: no usable CUDA device (%s)\n", dev.reason.c_str());
    PetscCall(PetscFinalize());
    return 77;
  }
  PetscCall(PetscGPUGLURegister());
  PetscCall(PetscLogDefaultBegin());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  const std::string which = kase;
  PetscCheck((which == "bjacobi") == (size > 1), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG,
             "-case bjacobi runs on several ranks, lu and ilu on one");

  gpuglu_test::Csr a;
  PetscCall(gpuglu_test::generate(spec, &a));
  PetscCall(gpuglu_test::create_aij(PETSC_COMM_WORLD, a, &A, MATAIJCUSPARSE));
  PetscCall(MatCreateVecs(A, &t, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(gpuglu_test::set_exact_solution(t));
  PetscCall(MatMult(A, t, b));  // A, t and b valid on the device from here on
  PetscBool cuda;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)b, &cuda, VECSEQCUDA, VECMPICUDA, ""));
  check(cuda, "MatCreateVecs of an AIJCUSPARSE matrix gives CUDA vectors");

  if (which == "lu")
    PetscCall(case_lu(A, t, b, x));
  else
    PetscCall(case_ksp(A, t, b, x, which == "bjacobi"));

  PetscCall(VecDestroy(&t));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
