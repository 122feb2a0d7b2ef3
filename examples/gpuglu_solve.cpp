// gpuglu_solve: the main job. Builds (or reads) a sparse system, then solves it
// with whatever KSP/PC the options say - by default the way a circuit simulator's
// Newton loop uses a direct solver: analyze once, then refactor and solve with new
// values of the same pattern at every step.
//
//   gpuglu_solve -matrix circuit:200000 -newton_steps 5 \
//       -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu -ksp_view
//
// Each step prints, as it finishes, the seconds of the analysis, the numeric factorization
// and the solve. The operators are set again at every step and the solver set up before
// KSPSolve, as a Newton loop does: otherwise PETSc refactors lazily inside KSPSolve, and the
// factorization would be counted as solve time. PETSc's log events split the setup into
// analysis and factorization for any package (phase_log.hpp), so -pc_factor_mat_solver_type
// petsc or mumps print the same columns.
//
// -matrix takes a generator spec (gpuglu/generators.hpp) or a Matrix Market file.
// -no_register skips PetscGPUGLURegister(), to load the plugin with -dll_append instead.
#include <petscgpuglu.h>
#include <petscksp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cmath>
#include <string>

#include "gpuglu/generators.hpp"
#include "gpuglu/matrix_market.hpp"
#include "gpuglu/status.hpp"
#include "phase_log.hpp"

static const char help[] = "Solves A x = b with PETSc + gpuglu, refactoring as a Newton loop would.\n"
                           "  -matrix <spec|file.mtx>  generator spec or Matrix Market file\n"
                           "  -newton_steps <n>        factorizations with perturbed values (default 3)\n"
                           "  -no_register             do not call PetscGPUGLURegister() (use -dll_append)\n";

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

PetscErrorCode load_matrix(const std::string& what, gpuglu::CsrMatrix<int32_t, double>* a) {
  PetscFunctionBeginUser;
  try {
    const bool is_file = what.size() > 4 && what.compare(what.size() - 4, 4, ".mtx") == 0;
    *a = is_file ? gpuglu::read_matrix_market(what) : gpuglu::gen::from_spec(what);
  } catch (const gpuglu::Error& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "cannot build matrix '%s': %s", what.c_str(), e.what());
  }
  PetscFunctionReturn(0);
}

// Newton-like value change on the same pattern: every stored value is scaled by a
// factor in [0.9, 1.1] that depends on the step, keeping the structure (and the
// matching's assumptions) of the circuit matrix. A(i, j) and A(j, i) get the same factor, so
// a symmetric matrix stays symmetric and -pc_type cholesky / icc factor every step's matrix.
void perturb_values(const gpuglu::CsrMatrix<int32_t, double>& a, int step, std::vector<PetscScalar>* v) {
  v->resize(a.values.size());
  for (int32_t i = 0; i < a.nrows; ++i) {
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const uint64_t lo = static_cast<uint64_t>(std::min(i, a.colind[p]));
      const uint64_t hi = static_cast<uint64_t>(std::max(i, a.colind[p]));
      const uint64_t pair = lo * 2654435761u + hi * 40503u;
      const double phase = 0.61803398875 * static_cast<double>((pair + static_cast<uint64_t>(step) * 97u) % 1000u);
      (*v)[p] = a.values[p] * (1.0 + 0.1 * std::sin(phase + step));
    }
  }
}

// The seconds of one step. KSPSetUp's wall time is split by PETSc's log events into the
// analysis, the numeric factorization and the rest of the setup (e.g. MatGetFactor, a
// conversion, a preconditioner with no factorization); factorization work that a
// preconditioner still defers into KSPSolve (sub-solvers set up on first use) is moved from
// the solve to its phase, so the columns add up to the step's setup and solve time.
struct StepTimes {
  double analysis = 0.0;
  double factorization = 0.0;
  double solve = 0.0;
  double other_setup = 0.0;

  StepTimes& operator+=(const StepTimes& o) {
    analysis += o.analysis;
    factorization += o.factorization;
    solve += o.solve;
    other_setup += o.other_setup;
    return *this;
  }
};

PetscErrorCode solve_step(KSP ksp, const PhaseLog& phases, Vec b, Vec x, StepTimes* t) {
  Mat A, P;
  PhaseSeconds before, after_setup, after_solve;
  PetscFunctionBeginUser;
  // Setting the operators again is what tells KSPSetUp that their values changed; without it
  // KSPSetUp returns at once and PCSetUp runs inside KSPSolve.
  PetscCall(KSPGetOperators(ksp, &A, &P));
  PetscCall(KSPSetOperators(ksp, A, P));
  PetscCall(phases.read(&before));
  auto t0 = std::chrono::steady_clock::now();
  PetscCall(KSPSetUp(ksp));
  const double setup = seconds_since(t0);
  PetscCall(phases.read(&after_setup));
  t0 = std::chrono::steady_clock::now();
  PetscCall(KSPSolve(ksp, b, x));
  const double solve = seconds_since(t0);
  PetscCall(phases.read(&after_solve));

  const PhaseSeconds in_setup = after_setup - before;
  const PhaseSeconds in_solve = after_solve - after_setup;
  t->analysis = in_setup.analysis + in_solve.analysis;
  t->factorization = in_setup.factorization + in_solve.factorization;
  t->solve = solve - in_solve.analysis - in_solve.factorization;
  t->other_setup = setup - in_setup.analysis - in_setup.factorization;
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  char spec[PETSC_MAX_PATH_LEN] = "circuit:20000";
  PetscInt steps = 3;
  PetscBool no_register = PETSC_FALSE;
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "gpuglu_solve options", nullptr);
  PetscCall(PetscOptionsString("-matrix", "generator spec or .mtx file", nullptr, spec, spec, sizeof(spec), nullptr));
  PetscCall(PetscOptionsInt("-newton_steps", "factorizations with new values", nullptr, steps, &steps, nullptr));
  PetscCall(PetscOptionsBool("-no_register", "skip PetscGPUGLURegister()", nullptr, no_register, &no_register, nullptr));
  PetscOptionsEnd();
  if (!no_register) PetscCall(PetscGPUGLURegister());

  PetscMPIInt size;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "gpuglu_solve builds a sequential matrix; run it on 1 rank");

  gpuglu::CsrMatrix<int32_t, double> a;
  auto t0 = std::chrono::steady_clock::now();
  PetscCall(load_matrix(spec, &a));
  const PetscInt n = a.nrows;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matrix %s: n = %" PetscInt_FMT ", nnz = %zu (built in %.3f s)\n", spec, n,
                        a.values.size(), seconds_since(t0)));

  // MatSeqAIJSetPreallocationCSR copies the arrays: the generator's storage stays ours.
  Mat A;
  // PetscScalar: the generator's real values, or their complex copies in a complex PETSc.
  std::vector<PetscScalar> values(a.values.begin(), a.values.end());
  PetscCall(MatCreate(PETSC_COMM_SELF, &A));
  PetscCall(MatSetSizes(A, n, n, n, n));
  PetscCall(MatSetType(A, MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(A, a.rowptr.data(), a.colind.data(), values.data()));

  Vec x, b, xexact, r;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xexact));
  PetscCall(VecDuplicate(x, &r));
  PetscCall(VecSet(xexact, 1.0));

  // -ksp_view is printed once, after the last step: KSPSolve would print it at every step,
  // inside the time of the solve.
  PetscViewer view = nullptr;
  PetscViewerFormat view_format = PETSC_VIEWER_DEFAULT;
  PetscBool view_set = PETSC_FALSE;
#if PETSC_VERSION_GE(3, 22, 0)  // the same call, renamed
  PetscCall(PetscOptionsCreateViewer(PETSC_COMM_WORLD, nullptr, nullptr, "-ksp_view", &view, &view_format, &view_set));
#else
  PetscCall(PetscOptionsGetViewer(PETSC_COMM_WORLD, nullptr, nullptr, "-ksp_view", &view, &view_format, &view_set));
#endif
  if (view_set) PetscCall(PetscOptionsClearValue(nullptr, "-ksp_view"));

  KSP ksp;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetFromOptions(ksp));
  PhaseLog phases;
  PetscCall(phases.start());

  StepTimes total;
  for (PetscInt step = 0; step < steps; ++step) {
    if (step > 0) {
      // New values, same pattern: PETSc passes SAME_NONZERO_PATTERN, gpuglu only refactors.
      perturb_values(a, static_cast<int>(step), &values);
      PetscScalar* av;
      PetscCall(MatSeqAIJGetArray(A, &av));
      std::copy(values.begin(), values.end(), av);
      PetscCall(MatSeqAIJRestoreArray(A, &av));
    }
    PetscCall(MatMult(A, xexact, b));
    StepTimes t;
    PetscCall(solve_step(ksp, phases, b, x, &t));
    total += t;

    KSPConvergedReason reason;
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscReal rnorm, bnorm, enorm;
    PetscCall(MatMult(A, x, r));
    PetscCall(VecAYPX(r, -1.0, b));
    PetscCall(VecNorm(r, NORM_2, &rnorm));
    PetscCall(VecNorm(b, NORM_2, &bnorm));
    PetscCall(VecAXPY(x, -1.0, xexact));
    PetscCall(VecNorm(x, NORM_INFINITY, &enorm));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "step %" PetscInt_FMT ": analysis %.4f s, factorization %.4f s, solve %.4f s, other setup "
                          "%.4f s; relative residual %.3e, max error %.3e, %s\n",
                          step, t.analysis, t.factorization, t.solve, t.other_setup, (double)(rnorm / bnorm),
                          (double)enorm, KSPConvergedReasons[reason]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "total of %" PetscInt_FMT " steps: analysis %.4f s, factorization %.4f s, solve %.4f s, other "
                        "setup %.4f s\n",
                        steps, total.analysis, total.factorization, total.solve, total.other_setup));

  if (view_set) {
    PetscCall(PetscViewerPushFormat(view, view_format));
    PetscCall(KSPView(ksp, view));
    PetscCall(PetscViewerPopFormat(view));
    PetscCall(PetscViewerDestroy(&view));
  }

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xexact));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
