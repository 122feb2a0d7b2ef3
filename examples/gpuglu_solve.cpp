// gpuglu_solve: the main job. Builds (or reads) a sparse system, then solves it
// with whatever KSP/PC the options say - by default the way a circuit simulator's
// Newton loop uses a direct solver: analyze once, then refactor and solve with new
// values of the same pattern at every step.
//
//   gpuglu_solve -matrix circuit:200000 -newton_steps 5 \
//       -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu -ksp_view
//
// -matrix takes a generator spec (gpuglu/generators.hpp) or a Matrix Market file.
// -no_register skips PetscGPUGLURegister(), to load the plugin with -dll_append instead.
#include <petscgpuglu.h>
#include <petscksp.h>

#include <chrono>
#include <cmath>
#include <string>

#include "gpuglu/generators.hpp"
#include "gpuglu/matrix_market.hpp"
#include "gpuglu/status.hpp"

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
// matching's assumptions) of the circuit matrix.
void perturb_values(const gpuglu::CsrMatrix<int32_t, double>& a, int step, std::vector<PetscScalar>* v) {
  v->resize(a.values.size());
  for (size_t p = 0; p < a.values.size(); ++p) {
    const double phase = 0.61803398875 * static_cast<double>((p * 2654435761u + step * 97u) % 1000u);
    (*v)[p] = a.values[p] * (1.0 + 0.1 * std::sin(phase + step));
  }
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

  KSP ksp;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetFromOptions(ksp));

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
    auto ts = std::chrono::steady_clock::now();
    PetscCall(KSPSetUp(ksp));
    const double t_setup = seconds_since(ts);
    ts = std::chrono::steady_clock::now();
    PetscCall(KSPSolve(ksp, b, x));
    const double t_solve = seconds_since(ts);

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
                          "step %" PetscInt_FMT ": %s, factorization %.4f s, solve %.4f s, "
                          "relative residual %.3e, max error %.3e\n",
                          step, KSPConvergedReasons[reason], t_setup, t_solve, (double)(rnorm / bnorm), (double)enorm));
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
