#pragma once
// One variant of the ILU(0)-GMRES benchmark on one problem: KSPGMRES (restart, right
// preconditioning, unpreconditioned norm, so rtol bounds the true relative residual) with
// the variant's preconditioner, a warm-up then timed rounds. Each round gives A new values
// (the same numbers: IluProblem::refresh_values) and times
//   setup_ms  KSPSetOperators + KSPSetUp + KSPSetUpOnBlocks (the numeric factorization;
//             bjacobi factors its blocks in KSPSetUpOnBlocks, which KSPSolve would
//             otherwise call)
//   solve_ms  KSPSolve from x0 = 0
// between MPI barriers with MPI_Wtime. After every solve the true relative residual
// ||b - A x|| / ||b|| is computed; a round that did not converge, whose residual exceeds
// max_rel_residual, or whose iteration count differs from the other rounds' fails the
// variant, with the reason.
#include <cstdint>
#include <limits>
#include <string>

#include "ilu_gmres_problem.hpp"
#include "ilu_gmres_variants.hpp"

namespace gpuglu::bench {

struct GmresSettings {
  int restart = 30;
  double rtol = 1e-8;
  int max_it = 5000;
  double max_rel_residual = 1e-7;
  int warmup = 1;  // untimed rounds (the first one includes the symbolic setup)
  int repeat = 3;
  std::string extra_options;  // --petsc-options, applied to every variant (after its own)
};

struct VariantResult {
  std::string failure;  // empty: every round converged within the tolerances
  double setup_ms = 0, solve_ms = 0, total_ms = 0;  // medians over the timed rounds
  double first_setup_ms = 0;  // the first round's setup (symbolic + numeric; analyses)
  int iterations = -1;        // of the last round that converged
  double rel_residual = std::numeric_limits<double>::quiet_NaN();  // the worst over all rounds
  std::string reason;         // KSPConvergedReason of the last round
  int64_t nnz_factor = -1;    // MatGetInfo of the ILU factor, where the PC has one on one rank
  std::string options;        // the options the variant ran with (with its prefix)
  std::string view;           // gpuglu's factor view (gpuglu only)
};

// Collective on PETSC_COMM_WORLD; never throws: PETSc errors end in failure.
VariantResult run_variant(IluProblem& problem, const Variant& v, const GmresSettings& s);

}  // namespace gpuglu::bench
