// petsc_devres_bench: one configuration of issue 15's device-resident benchmarks, driven
// through PETSc's public API only, so that the matrix and vector types, the factor package
// and everything else come from PETSc options: the same program measures gpuglu on
// MATAIJCUSPARSE / CUDA vectors, gpuglu on host Mat/Vec, PETSc's own ILU and PETSc's
// cuSPARSE ILU. scripts/devres_bench.py runs it once per configuration with -log_view and
// turns the runs into JSONL records.
//
//   petsc_devres_bench -problem SPEC -mode ilu_gmres|lu [-warmup K] [-rounds N]
//                      [-mat_type aij|aijcusparse] [-vec_type standard|cuda] [-pc_... -ksp_...]
//
// The matrix is a gpuglu generator spec (convdiff3d:100x100x100: 10^6 unknowns), assembled
// on the host, with MatSetFromOptions choosing its type and MatCreateVecs the vectors' (CUDA
// vectors for AIJCUSPARSE). b = A t. A round is what a Newton step or a time step costs: A's
// values change (MatScale by 2 or 1/2, exact, and done where A's valid copy lives: on the
// device for AIJCUSPARSE), then KSPSolve (the numeric factorization in PCSetUp, then the
// iterations: ILU(0)-GMRES, or preonly LU). Prints one line "devres: {json}" with the
// rounds' median and minimum times, the first round, GMRES's iterations and the error.
// Under mpiexec every rank owns an equal block of rows (MPIAIJ / MPIAIJCUSPARSE): ILU(0)
// becomes block Jacobi with one ILU(0) block per rank (-sub_pc_factor_mat_solver_type picks
// its package), LU the gathered factor.
#include <petscgpuglu.h>
#include <petscksp.h>
#include <petsctime.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/status.hpp"

namespace {

// Every rank generated the whole matrix and keeps its own rows' block.
PetscErrorCode create_matrix(const gpuglu::CsrMatrix<int32_t, double>& a, Mat* A) {
  PetscMPIInt size, rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  const PetscInt n = a.nrows, first = n * rank / size, end = n * (rank + 1) / size;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, end - first, end - first, n, n));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSetFromOptions(*A));  // -mat_type aijcusparse
  const int32_t base = a.rowptr[first];
  std::vector<PetscInt> rowptr(a.rowptr.begin() + first, a.rowptr.begin() + end + 1);
  for (PetscInt& p : rowptr) p -= base;
  std::vector<PetscInt> colind(a.colind.begin() + base, a.colind.begin() + a.rowptr[end]);
  // A complex PETSc factors the generator's real values in complex arithmetic.
  std::vector<PetscScalar> values(a.values.begin() + base, a.values.begin() + a.rowptr[end]);
  // Each call does nothing for the other type.
  PetscCall(MatSeqAIJSetPreallocationCSR(*A, rowptr.data(), colind.data(), values.data()));
  PetscCall(MatMPIAIJSetPreallocationCSR(*A, rowptr.data(), colind.data(), values.data()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The device work queued by PETSc is finished (a norm reads back a scalar).
PetscErrorCode wait_for(Vec x) {
  PetscReal r;
  PetscFunctionBeginUser;
  PetscCall(VecNorm(x, NORM_1, &r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char** argv) {
  char problem[256] = "convdiff3d:100x100x100", mode[32] = "ilu_gmres";
  PetscInt warmup = 1, rounds = 3;
  Mat A;
  Vec t, b, x;
  KSP ksp;
  PC pc;

  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscCall(PetscGPUGLURegister());
  PetscCall(PetscOptionsGetString(nullptr, nullptr, "-problem", problem, sizeof(problem), nullptr));
  PetscCall(PetscOptionsGetString(nullptr, nullptr, "-mode", mode, sizeof(mode), nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-warmup", &warmup, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-rounds", &rounds, nullptr));
  const std::string m = mode;
  PetscCheck(m == "ilu_gmres" || m == "lu", PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-mode ilu_gmres or lu, not %s", mode);
  PetscCheck(rounds > 0 && warmup >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-rounds > 0, -warmup >= 0");

  gpuglu::CsrMatrix<int32_t, double> a;
  try {
    a = gpuglu::gen::from_spec(problem);
  } catch (const gpuglu::Error& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "cannot generate '%s': %s", problem, e.what());
  }
  PetscCall(create_matrix(a, &A));
  const long long n = a.nrows, nnz = static_cast<long long>(a.colind.size());
  a = {};  // PETSc holds the matrix now
  PetscCall(MatCreateVecs(A, &t, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecSet(t, 1.0));
  PetscCall(MatMult(A, t, b));  // A, t and b where PETSc computes: on the device for CUSPARSE

  PetscMPIInt ranks;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &ranks));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  if (m == "ilu_gmres") {
    PetscCall(KSPSetType(ksp, KSPGMRES));
    PetscCall(KSPGMRESSetRestart(ksp, 30));
    PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_CURRENT, PETSC_CURRENT, 2000));
    PetscCall(PCSetType(pc, ranks > 1 ? PCBJACOBI : PCILU));  // bjacobi's blocks: ILU(0) by default
  } else {
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(PCSetType(pc, PCLU));
  }
  PetscCall(KSPSetFromOptions(ksp));  // -pc_factor_mat_solver_type gpuglu|petsc|cusparse, ...

  std::vector<double> ms;
  double first_ms = 0.0;
  PetscInt its = 0;
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  PetscScalar scale = 1.0;
  for (PetscInt r = 0; r < warmup + rounds; ++r) {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    const PetscScalar s = (r % 2 == 0) ? 2.0 : 0.5;  // exact: the values come back every other round
    PetscCall(MatScale(A, s));
    scale *= s;
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(wait_for(x));
    PetscCall(PetscTime(&t1));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    const double elapsed = 1000.0 * (t1 - t0);
    if (r == 0) first_ms = elapsed;
    if (r >= warmup) ms.push_back(elapsed);
  }
  // x solves (scale A) x = A t: x = t / scale.
  PetscReal err, tn;
  PetscCall(VecScale(x, scale));
  PetscCall(VecAXPY(x, -1.0, t));
  PetscCall(VecNorm(x, NORM_2, &err));
  PetscCall(VecNorm(t, NORM_2, &tn));
  std::sort(ms.begin(), ms.end());
  const double median = ms.size() % 2 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
  MatType mtype;
  VecType vtype;
  MatSolverType solver = nullptr;
  PetscCall(MatGetType(A, &mtype));
  PetscCall(VecGetType(b, &vtype));
  PC factor_pc = pc;  // bjacobi: this rank's block's PC names the package
  PetscBool bjacobi;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &bjacobi));
  if (bjacobi) {
    KSP* sub;
    PetscInt blocks;
    PetscCall(PCBJacobiGetSubKSP(pc, &blocks, nullptr, &sub));
    if (blocks > 0) PetscCall(KSPGetPC(sub[0], &factor_pc));
  }
  PetscCall(PCFactorGetMatSolverType(factor_pc, &solver));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "devres: {\"mode\": \"%s\", \"problem\": \"%s\", \"ranks\": %d, \"n\": %lld, \"nnz\": %lld, "
                        "\"mat_type\": \"%s\", "
                        "\"vec_type\": \"%s\", \"solver\": \"%s\", \"iterations\": %d, \"converged\": %s, "
                        "\"rounds\": %d, \"warmup\": %d, \"median_ms\": %.4f, \"min_ms\": %.4f, \"first_ms\": %.4f, "
                        "\"rel_error\": %.3e}\n",
                        mode, problem, static_cast<int>(ranks), n, nnz, mtype, vtype, solver ? solver : "?", static_cast<int>(its),
                        reason > 0 ? "true" : "false", static_cast<int>(rounds), static_cast<int>(warmup), median,
                        ms.front(), first_ms, static_cast<double>(err / tn)));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&t));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return reason > 0 ? 0 : 1;
}
