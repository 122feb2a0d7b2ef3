#include "ilu_gmres_run.hpp"

#include <petscksp.h>

#include <cstdio>
#include <vector>

#include "factor_view.hpp"
#include "gpuglu/device.hpp"
#include "petsc_error_capture.hpp"
#include "timing.hpp"
#ifdef GPUGLU_BENCH_HAVE_CUDA
#include "pc_cusparse_ilu0.hpp"
#endif

namespace gpuglu::bench {

namespace {

struct KspHolder {
  KSP ksp = nullptr;
  ~KspHolder() { KSPDestroy(&ksp); }
};

std::string ksp_options(const GmresSettings& s) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "-ksp_type gmres -ksp_gmres_restart %d -ksp_pc_side right -ksp_norm_type unpreconditioned "
                "-ksp_rtol %.17g -ksp_atol 0 -ksp_max_it %d",
                s.restart, s.rtol, s.max_it);
  return buf;
}

// The variant's options go into PETSc's database under its own prefix (name + "_"): no
// variant sees another's, and --petsc-options reach each one after its own options.
PetscErrorCode insert_options(const std::string& prefix, const std::string& options) {
  PetscFunctionBegin;
  PetscCall(PetscOptionsPrefixPush(nullptr, prefix.c_str()));
  const PetscErrorCode ierr = PetscOptionsInsertString(nullptr, options.c_str());
  PetscCall(PetscOptionsPrefixPop(nullptr));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode barrier_time(double* t) {
  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  *t = MPI_Wtime() * 1e3;
  PetscFunctionReturn(0);
}

// Why the last solve failed, or "" when it converged within the tolerances.
PetscErrorCode check_solve(KSP ksp, const IluProblem& p, const GmresSettings& s, VariantResult& r, std::string* why) {
  KSPConvergedReason reason;
  PetscInt its = 0;
  PetscReal rr = 0;
  PetscFunctionBegin;
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(p.relative_residual(&rr));
  r.reason = KSPConvergedReasons[reason];
  // The worst over the rounds (a NaN fails the round below, and no round follows a failure).
  if (r.iterations < 0 || !(rr <= r.rel_residual)) r.rel_residual = rr;
  why->clear();
  if (reason < 0) {
    *why = "did not converge: " + r.reason + " after " + std::to_string(its) + " iterations";
    if (reason == KSP_DIVERGED_PC_FAILED) {
      PC pc;
      PCFailedReason pcr;
      PetscCall(KSPGetPC(ksp, &pc));
      PetscCall(PCGetFailedReason(pc, &pcr));
      *why += std::string(" (") + PCFailedReasons[pcr] + ")";
    }
  } else if (!(rr <= s.max_rel_residual)) {
    *why = "true relative residual " + sci(rr) + " above " + sci(s.max_rel_residual) + " after " +
           std::to_string(its) + " iterations (" + r.reason + ")";
  } else if (r.iterations >= 0 && its != r.iterations) {
    *why = "iterations differ between rounds: " + std::to_string(r.iterations) + " then " + std::to_string(its);
  }
  if (why->empty()) r.iterations = static_cast<int>(its);
  PetscFunctionReturn(0);
}

// nnz of the ILU factor and gpuglu's view, where the PC is a factorization on one rank.
PetscErrorCode describe_factor(KSP ksp, VariantResult& r) {
  PC pc;
  PetscBool is_ilu = PETSC_FALSE;
  PetscFunctionBegin;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCILU, &is_ilu));
  if (!is_ilu) PetscFunctionReturn(0);
  Mat F = nullptr;
  MatSolverType type = nullptr;
  MatInfo info;
  PetscCall(PCFactorGetMatrix(pc, &F));
  PetscCall(MatGetInfo(F, MAT_LOCAL, &info));
  if (info.nz_used > 0) r.nnz_factor = static_cast<int64_t>(info.nz_used);
  PetscCall(MatFactorGetSolverType(F, &type));
  if (type && std::string(type) == "gpuglu") PetscCall(view_factor_to_string(F, &r.view));
  PetscFunctionReturn(0);
}

PetscErrorCode measure(IluProblem& p, const Variant& v, const GmresSettings& s, VariantResult& r) {
  KspHolder k;
  const std::string prefix = v.name + "_";
  PetscFunctionBegin;
  r.options = ksp_options(s) + (v.pc_options.empty() ? "" : " " + v.pc_options) +
              (s.extra_options.empty() ? "" : " " + s.extra_options);
  PetscCall(insert_options(prefix, r.options));
  if (v.cusparse_shell) {
#ifdef GPUGLU_BENCH_HAVE_CUDA
    const DeviceInfo d = query_device(-1, local_rank_from_environment());
    if (!d.usable) {
      r.failure = "no GPU (" + d.reason + ")";
      PetscFunctionReturn(0);
    }
#else
    r.failure = "not built (no CUDA in this build)";
    PetscFunctionReturn(0);
#endif
  }
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &k.ksp));
  PetscCall(KSPSetOptionsPrefix(k.ksp, prefix.c_str()));
  PetscCall(KSPSetOperators(k.ksp, p.A, p.A));
#ifdef GPUGLU_BENCH_HAVE_CUDA
  if (v.cusparse_shell) {
    PC pc;
    PetscCall(KSPGetPC(k.ksp, &pc));
    PetscCall(pc_set_cusparse_ilu0(pc));
  }
#endif
  PetscCall(KSPSetFromOptions(k.ksp));

  std::vector<double> setup, solve, total;
  for (int round = 0; round < s.warmup + s.repeat; ++round) {
    double t0 = 0, t1 = 0, t2 = 0;
    PetscCall(p.refresh_values());
    PetscCall(barrier_time(&t0));
    PetscCall(KSPSetOperators(k.ksp, p.A, p.A));
    PetscCall(KSPSetUp(k.ksp));
    PetscCall(KSPSetUpOnBlocks(k.ksp));
    PetscCall(barrier_time(&t1));
    PetscCall(KSPSolve(k.ksp, p.b, p.x));
    PetscCall(barrier_time(&t2));
    std::string why;
    PetscCall(check_solve(k.ksp, p, s, r, &why));
    if (!why.empty()) {
      r.failure = why;
      break;
    }
    if (round == 0) r.first_setup_ms = t1 - t0;
    if (round >= s.warmup) {
      setup.push_back(t1 - t0);
      solve.push_back(t2 - t1);
      total.push_back(t2 - t0);
    }
  }
  r.setup_ms = median(setup);
  r.solve_ms = median(solve);
  r.total_ms = median(total);
  if (v.cusparse_shell) r.nnz_factor = p.nnz;  // csrilu02 factors in place, on A's pattern
  PetscCall(describe_factor(k.ksp, r));
  PetscFunctionReturn(0);
}

}  // namespace

VariantResult run_variant(IluProblem& problem, const Variant& v, const GmresSettings& s) {
  VariantResult r;
  PetscErrorCode ierr;
  {
    const PetscErrorCapture capture;
    if (!capture.ok()) {
      r.failure = "PetscPushErrorHandler failed";
      return r;
    }
    ierr = measure(problem, v, s, r);
  }
  if (ierr) r.failure = last_petsc_error() + " (PETSc error " + std::to_string(ierr) + ")";
  return r;
}

}  // namespace gpuglu::bench
