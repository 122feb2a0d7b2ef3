// The first solve through PETSc's KSP (first_solve.hpp). Every PETSc call goes through
// PetscCall; run_first_solve turns an error into the result's failure with PETSc's message
// (PetscErrorCapture), so that one solver failing is a record, not the end of the run.
#include "first_solve.hpp"

#include <petscksp.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "factor_view.hpp"
#include "petsc_error_capture.hpp"
#include "solve_accuracy.hpp"

namespace gpuglu::bench {

namespace {

struct Objects {
  Mat A = nullptr;
  Vec ones = nullptr, b = nullptr, x = nullptr;
  KSP ksp = nullptr;
  ~Objects() {
    KSPDestroy(&ksp);
    VecDestroy(&x);
    VecDestroy(&b);
    VecDestroy(&ones);
    MatDestroy(&A);
  }
};

// The events PCSetUp and KSPSolve run for an LU, in the order of FirstSolveResult's fields.
constexpr const char* kEvents[] = {"MatGetOrdering", "MatLUFactorSym", "MatLUFactorNum", "MatSolve"};
constexpr int kNumEvents = 4;
enum { ev_ordering, ev_symbolic, ev_numeric, ev_solve };

struct EventTotals {
  PetscLogDouble time[kNumEvents] = {}, flops[kNumEvents] = {};
  int count[kNumEvents] = {};
};

// This rank's totals of the events so far (PetscLogDefaultBegin must have run): the
// benchmark's share is the difference of two snapshots, whatever ran before it.
PetscErrorCode snapshot(EventTotals* t) {
  PetscFunctionBegin;
  for (int e = 0; e < kNumEvents; ++e) {
    PetscLogEvent id = 0;
    PetscEventPerfInfo info;
    PetscCall(PetscLogEventGetId(kEvents[e], &id));
    PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, id, &info));
    t->time[e] = info.time;
    t->flops[e] = info.flops;
#if defined(PETSC_HAVE_DEVICE)
    t->flops[e] += info.GpuFlops;  // gpuglu logs its GPU factorizations' flops as GPU flops
#endif
    t->count[e] = info.count;
  }
  PetscFunctionReturn(0);
}

// A as ksp ex10's MatLoad leaves it: MATAIJ (SeqAIJ on one rank, MPIAIJ on more), rows in
// PETSc's default split (row_block.hpp), options applied (-mat_type).
PetscErrorCode create_matrix(const RowBlock& m, MPI_Comm comm, Mat* A) {
  PetscFunctionBegin;
  const std::vector<PetscInt> rowptr(m.local.rowptr.begin(), m.local.rowptr.end());
  const std::vector<PetscInt> colind(m.local.colind.begin(), m.local.colind.end());
  const auto local = static_cast<PetscInt>(m.local.nrows), n = static_cast<PetscInt>(m.n);
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, local, local, n, n));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSeqAIJSetPreallocationCSR(*A, rowptr.data(), colind.data(), m.local.values.data()));
  PetscCall(MatMPIAIJSetPreallocationCSR(*A, rowptr.data(), colind.data(), m.local.values.data()));
  PetscFunctionReturn(0);
}

// nnz(L+U) and the factorization's flops where the solver reports them: MUMPS in its INFOG
// and RINFOG arrays (PETSc logs no flops for it), the others through MatGetInfo and the flops
// they log in MatLUFactorNum (gpuglu and PETSc's own LU do; KLU does neither).
PetscErrorCode solver_facts(Mat F, const std::string& solver, double logged_flops, MPI_Comm comm,
                            FirstSolveResult* r) {
  PetscFunctionBegin;
#if defined(PETSC_HAVE_MUMPS)
  if (solver == MATSOLVERMUMPS) {
    PetscInt entries = 0, ordering = 0, icntl7 = 0;
    PetscReal flops = 0;
    PetscCall(MatMumpsGetInfog(F, 29, &entries));  // entries in the factors; negative: millions
    PetscCall(MatMumpsGetRinfog(F, 3, &flops));     // the analysis's count of the elimination's flops
    PetscCall(MatMumpsGetInfog(F, 7, &ordering));   // the ordering the analysis chose (ICNTL(7) codes)
    PetscCall(MatMumpsGetIcntl(F, 7, &icntl7));
    r->nnz_factor = entries >= 0 ? entries : -static_cast<int64_t>(entries) * 1000000;
    r->factor_flops = flops;
    r->flops_source = "MUMPS RINFOG(3)";
    r->extra["mumps_infog7"] = static_cast<double>(ordering);
    r->extra["mumps_icntl7"] = static_cast<double>(icntl7);
    PetscFunctionReturn(0);
  }
#endif
  MatInfo info;
  PetscCall(MatGetInfo(F, MAT_LOCAL, &info));
  // gpuglu's gathered factor reports on the root only: the largest count is the factor's.
  double nz = info.nz_used;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &nz, 1, MPI_DOUBLE, MPI_MAX, comm));
  // KLU's factor Mat holds no entries of its own (KLU keeps L and U): it reports 0.
  if (nz > 0) r->nnz_factor = static_cast<int64_t>(nz);
  if (logged_flops > 0) {
    r->factor_flops = logged_flops;
    r->flops_source = "PETSc log, MatLUFactorNum";
  }
  PetscFunctionReturn(0);
}

PetscErrorCode measure(const RowBlock& m, const std::string& solver, MPI_Comm comm, FirstSolveResult* r) {
  Objects o;
  PetscMPIInt size = 1;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  r->ranks = size;
  PetscCall(create_matrix(m, comm, &o.A));
  PetscCall(MatCreateVecs(o.A, &o.x, &o.b));
  PetscCall(VecDuplicate(o.x, &o.ones));
  PetscCall(VecSet(o.ones, 1.0));
  PetscCall(MatMult(o.A, o.ones, o.b));

  PC pc = nullptr;
  PetscCall(KSPCreate(comm, &o.ksp));
  PetscCall(KSPSetOperators(o.ksp, o.A, o.A));
  PetscCall(KSPSetType(o.ksp, KSPPREONLY));
  PetscCall(KSPGetPC(o.ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  PetscCall(PCFactorSetMatSolverType(pc, solver.c_str()));
  PetscCall(KSPSetFromOptions(o.ksp));

  EventTotals before, after;
  PetscCall(snapshot(&before));
  PetscCallMPI(MPI_Barrier(comm));
  double t0 = MPI_Wtime();
  PetscCall(KSPSetUp(o.ksp));
  double setup = MPI_Wtime() - t0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &setup, 1, MPI_DOUBLE, MPI_MAX, comm));
  r->setup_ms = 1e3 * setup;

  Mat F = nullptr;
  PetscCall(PCFactorGetMatrix(pc, &F));
  {
    PetscBool can_order = PETSC_FALSE;
    MatSolverType type = nullptr;
    PetscCall(MatFactorGetSolverType(F, &type));
    if (type && solver != type) SETERRQ(comm, PETSC_ERR_PLIB, "PCLU used %s, not %s", type, solver.c_str());
    PetscCall(MatFactorGetCanUseOrdering(F, &can_order));
    if (can_order) {
      // PCLU's choice (PCFactorSetDefaultOrdering_Factor): -pc_factor_mat_ordering_type, else
      // the solver's preferred ordering (PETSc 3.18 has no getter for the one it used).
      char given[64] = "";
      PetscBool set = PETSC_FALSE;
      PetscCall(PetscOptionsGetString(nullptr, nullptr, "-pc_factor_mat_ordering_type", given, sizeof given, &set));
      MatOrderingType preferred = nullptr;
      PetscCall(MatFactorGetPreferredOrdering(F, MAT_FACTOR_LU, &preferred));
      r->ordering = set ? given : preferred ? preferred : "";
    } else {
      r->ordering = "none (the solver orders itself)";
    }
  }
  // A failed factorization may be known on some ranks only (gpuglu's root): all stop together.
  std::string why;
  PetscCall(factor_error_text(F, &why));
#if defined(PETSC_HAVE_MUMPS)
  if (!why.empty() && solver == MATSOLVERMUMPS) {  // PETSc folds several MUMPS errors into one type
    PetscInt info1 = 0, info2 = 0;
    PetscCall(MatMumpsGetInfog(F, 1, &info1));
    PetscCall(MatMumpsGetInfog(F, 2, &info2));
    why += " (MUMPS INFOG(1) = " + std::to_string(info1) + ", INFOG(2) = " + std::to_string(info2) + ")";
  }
#endif
  int failed = why.empty() ? 0 : 1;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm));
  if (failed) {
    r->failure = why.empty() ? "factorization failed on another rank" : why;
    PetscFunctionReturn(0);
  }

  PetscCallMPI(MPI_Barrier(comm));
  t0 = MPI_Wtime();
  PetscCall(KSPSolve(o.ksp, o.b, o.x));
  double solve = MPI_Wtime() - t0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &solve, 1, MPI_DOUBLE, MPI_MAX, comm));
  r->solve_ms = 1e3 * solve;
  PetscCall(snapshot(&after));
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  PetscCall(KSPGetConvergedReason(o.ksp, &reason));
  if (reason < 0) {
    r->failure = std::string("KSPSolve ended with ") + KSPConvergedReasons[reason];
    PetscFunctionReturn(0);
  }

  double times[kNumEvents], flops = after.flops[ev_numeric] - before.flops[ev_numeric];
  for (int e = 0; e < kNumEvents; ++e) times[e] = 1e3 * (after.time[e] - before.time[e]);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, times, kNumEvents, MPI_DOUBLE, MPI_MAX, comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &flops, 1, MPI_DOUBLE, MPI_SUM, comm));
  double* fields[kNumEvents] = {&r->ordering_ms, &r->symbolic_ms, &r->numeric_ms, &r->mat_solve_ms};
  for (int e = 0; e < kNumEvents; ++e)
    if (after.count[e] > before.count[e]) *fields[e] = times[e];
  PetscCall(solver_facts(F, solver, flops, comm, r));
  if (solver == "gpuglu" && size == 1) PetscCall(view_factor_to_string(F, &r->view));

  SolveAccuracy acc;
  PetscCall(solve_accuracy(m, o.A, o.b, o.x, &acc));
  r->residual = acc.residual;
  r->backward_error = acc.backward_error;
  r->error_inf = acc.error_inf;
  PetscFunctionReturn(0);
}

}  // namespace

FirstSolveResult run_first_solve(const RowBlock& m, const std::string& solver, MPI_Comm comm) {
  FirstSolveResult r;
  r.solver = solver;
  const PetscErrorCapture capture;
  if (!capture.ok()) {
    r.failure = "PetscPushErrorHandler failed";
    return r;
  }
  const PetscErrorCode ierr = measure(m, solver, comm, &r);
  if (ierr) r.failure = last_petsc_error().empty() ? "PETSc error " + std::to_string(ierr) : last_petsc_error();
  return r;
}

}  // namespace gpuglu::bench
