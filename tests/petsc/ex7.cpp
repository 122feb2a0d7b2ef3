static const char help[] =
    "Complex scalars (a PETSc built --with-scalar-type=complex): gpuglu's complex LU, ILU and LDL^T\n"
    "through PETSc - an unsymmetric complex matrix, a complex symmetric Helmholtz-like operator\n"
    "(Cholesky = L D L^T) and a Hermitian one (MAT_HERMITIAN: L D L^H, with its inertia).\n"
    "  -matrix <spec>  gpuglu generator spec of the real matrix the complex one is made from\n"
    "                  (default lap2d5:30x20)\n"
    "  -kind <k>       unsymmetric | helmholtz | hermitian (default unsymmetric)\n"
    "  -shift <s>      helmholtz: A - s (1 + t i) I; hermitian: the diagonal lowered by s (default 1.7)\n"
    "  -shift_im <t>   helmholtz: the shift's relative imaginary part t (default 0.05; 0: a real A)\n"
    "  -factor <f>     lu | cholesky | ilu | icc (ilu, icc: a GMRES solve preconditioned by it) (default lu)\n";

#include <cmath>

#include "common.hpp"

#if defined(PETSC_USE_COMPLEX)

namespace {

constexpr PetscReal residual_tol = 1e-10;

// A phase in [0, 2 pi) from (i, j): deterministic, no PRNG state.
PetscReal phase_of(PetscInt i, PetscInt j) {
  const unsigned long long h = (static_cast<unsigned long long>(i) * 2654435761ull) ^ (static_cast<unsigned long long>(j) * 40503ull);
  return 2.0 * PETSC_PI * static_cast<PetscReal>(h % 100003ull) / 100003.0;
}

// The complex matrix of `kind` from the real (symmetric, for helmholtz and hermitian) a.
PetscErrorCode complex_values(const gpuglu_test::Csr& a, const char* kind, PetscReal shift, PetscReal shift_im,
                              std::vector<PetscScalar>* values) {
  PetscBool unsym, helm, herm;
  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(kind, "unsymmetric", &unsym));
  PetscCall(PetscStrcmp(kind, "helmholtz", &helm));
  PetscCall(PetscStrcmp(kind, "hermitian", &herm));
  PetscCheck(unsym || helm || herm, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "unknown -kind %s", kind);
  values->resize(a.values.size());
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const int32_t j = a.colind[p];
      const PetscReal v = a.values[p];
      PetscScalar z = v;
      if (unsym) {
        z = std::polar(v, phase_of(i, j));
      } else if (helm) {
        if (i == j) z = v - shift * PetscScalar(1.0, shift_im);
      } else if (i == j) {
        z = v - shift;
      } else {
        const PetscReal phi = phase_of(PetscMin(i, j), PetscMax(i, j));
        z = std::polar(v, i < j ? phi : -phi);
      }
      (*values)[p] = z;
    }
  PetscFunctionReturn(0);
}

PetscErrorCode create_complex_aij(const gpuglu_test::Csr& a, const std::vector<PetscScalar>& values, Mat* A) {
  PetscFunctionBeginUser;
  std::vector<PetscInt> rowptr(a.rowptr.begin(), a.rowptr.end()), colind(a.colind.begin(), a.colind.end());
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, a.nrows, a.ncols, a.nrows, a.ncols));
  PetscCall(MatSetType(*A, MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(*A, rowptr.data(), colind.data(), values.data()));
  PetscFunctionReturn(0);
}

// x_i = (1 + (i mod 7) / 10) + i (0.5 - (i mod 5) / 10): complex, not a constant.
PetscErrorCode set_complex_solution(Vec x) {
  PetscInt n;
  PetscScalar* xv;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArray(x, &xv));
  for (PetscInt i = 0; i < n; ++i)
    xv[i] = PetscScalar(1.0 + static_cast<double>(i % 7) / 10.0, 0.5 - static_cast<double>(i % 5) / 10.0);
  PetscCall(VecRestoreArray(x, &xv));
  PetscFunctionReturn(0);
}

// MatGetInertia of the factor: the counts where it is defined (Hermitian), or the refusal.
PetscErrorCode report_inertia(Mat F) {
  PetscInt nneg, nzero, npos;
  PetscErrorCode ierr;
  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  ierr = MatGetInertia(F, &nneg, &nzero, &npos);
  PetscCall(PetscPopErrorHandler());
  if (ierr)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatGetInertia: refused (error %d)\n", (int)ierr));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatGetInertia: %" PetscInt_FMT " negative, %" PetscInt_FMT
                                            " zero, %" PetscInt_FMT " positive\n",
                          nneg, nzero, npos));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  char spec[256] = "lap2d5:30x20", kind[64] = "unsymmetric", factor[64] = "lu";
  PetscReal shift = 1.7, shift_im = 0.05;
  gpuglu_test::Csr a;
  std::vector<PetscScalar> values;
  Mat A, F;
  Vec x, b, xexact;
  PetscBool lu, cholesky, ilu, icc, herm;

  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "ex7 options", nullptr);
  PetscCall(PetscOptionsString("-matrix", "generator spec", nullptr, spec, spec, sizeof(spec), nullptr));
  PetscCall(PetscOptionsString("-kind", "unsymmetric, helmholtz, hermitian", nullptr, kind, kind, sizeof(kind), nullptr));
  PetscCall(PetscOptionsString("-factor", "lu, cholesky, ilu", nullptr, factor, factor, sizeof(factor), nullptr));
  PetscCall(PetscOptionsReal("-shift", "diagonal shift", nullptr, shift, &shift, nullptr));
  PetscCall(PetscOptionsReal("-shift_im", "the shift's relative imaginary part", nullptr, shift_im, &shift_im, nullptr));
  PetscOptionsEnd();
  PetscCall(PetscGPUGLURegister());
  PetscCall(PetscStrcmp(factor, "lu", &lu));
  PetscCall(PetscStrcmp(factor, "cholesky", &cholesky));
  PetscCall(PetscStrcmp(factor, "ilu", &ilu));
  PetscCall(PetscStrcmp(factor, "icc", &icc));
  PetscCall(PetscStrcmp(kind, "hermitian", &herm));
  PetscCheck(lu || cholesky || ilu || icc, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "unknown -factor %s", factor);

  PetscCall(gpuglu_test::generate(spec, &a));
  PetscCall(complex_values(a, kind, shift, shift_im, &values));
  PetscCall(create_complex_aij(a, values, &A));
  if (herm) PetscCall(MatSetOption(A, MAT_HERMITIAN, PETSC_TRUE));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xexact));
  PetscCall(set_complex_solution(xexact));
  PetscCall(MatMult(A, xexact, b));

  if (ilu || icc) {
    KSP ksp;
    PC pc;
    KSPConvergedReason reason;
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPGMRES));
#if PETSC_VERSION_LT(3, 22, 0)
    PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 500));
#else
    PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_CURRENT, PETSC_CURRENT, 500));
#endif
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, ilu ? PCILU : PCICC));
    PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERGPUGLU));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(gpuglu_test::print_reason(ksp, &reason));
    PetscCall(gpuglu_test::check_residual(ilu ? "ILU-GMRES" : "ICC-GMRES", A, x, b, 1e-9));
    PetscCall(KSPDestroy(&ksp));
  } else {
    MatFactorInfo info;
    PetscCall(MatFactorInfoInitialize(&info));
    PetscCall(MatGetFactor(A, MATSOLVERGPUGLU, lu ? MAT_FACTOR_LU : MAT_FACTOR_CHOLESKY, &F));
    if (lu) {
      PetscCall(MatLUFactorSymbolic(F, A, nullptr, nullptr, &info));
      PetscCall(MatLUFactorNumeric(F, A, &info));
    } else {
      PetscCall(MatCholeskyFactorSymbolic(F, A, nullptr, &info));
      PetscCall(MatCholeskyFactorNumeric(F, A, &info));
    }
    PetscCall(MatSolve(F, b, x));
    PetscCall(gpuglu_test::check_residual("MatSolve", A, x, b, residual_tol));
    PetscCall(gpuglu_test::check_error("MatSolve", x, xexact, 1e-8));
    // A^T x = b (not A^H): MatSolveTranspose's meaning in PETSc; for a Hermitian A that is
    // conj(A) x = b, which the L D L^H factor must not answer with A^{-1} b.
    PetscCall(MatMultTranspose(A, xexact, b));
    PetscCall(MatSolveTranspose(F, b, x));
    PetscCall(gpuglu_test::check_residual("MatSolveTranspose", A, x, b, residual_tol, true));
    PetscCall(gpuglu_test::check_error("MatSolveTranspose", x, xexact, 1e-8));
    if (!lu) PetscCall(report_inertia(F));
    PetscCall(MatDestroy(&F));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xexact));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

#else

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "ex7 needs a PETSc with complex scalars\n"));
  PetscCall(PetscFinalize());
  return 0;
}

#endif

/*TEST

   build:
      requires: complex

   test:
      suffix: complex_lu
      requires: complex

   test:
      suffix: complex_lu_circuit
      requires: complex
      args: -matrix circuit:1500:30:4

   test:
      suffix: complex_helmholtz_lu
      requires: complex
      args: -kind helmholtz

   test:
      suffix: complex_helmholtz_cholesky
      requires: complex
      args: -kind helmholtz -factor cholesky

   # A complex symmetric A whose values are all real is Hermitian too: its inertia is defined.
   test:
      suffix: complex_helmholtz_real_values_cholesky
      requires: complex
      args: -kind helmholtz -factor cholesky -shift 2.3 -shift_im 0

   test:
      suffix: complex_hermitian_cholesky
      requires: complex
      args: -kind hermitian -factor cholesky -shift 2.5

   test:
      suffix: complex_hermitian_cholesky_spd
      requires: complex
      args: -kind hermitian -factor cholesky -shift -0.5

   # Cholesky defaults to the supernodal LDL^T on the equivalent real form; the column LDL^H
   # (complex arithmetic) gives the same answers and inertia.
   test:
      suffix: complex_hermitian_cholesky_column
      requires: complex
      args: -kind hermitian -factor cholesky -shift 2.5 -mat_gpuglu_ldlt_engine column
      output_file: output/ex7_complex_hermitian_cholesky.out

   test:
      suffix: complex_ilu
      requires: complex
      args: -matrix convdiff3d:10x10x8:5 -factor ilu

   # ICC(0) of a Hermitian positive definite A (L D L^H on A's pattern).
   test:
      suffix: complex_hermitian_icc
      requires: complex
      args: -kind hermitian -shift -0.5 -factor icc

   # The real-only supernodal LU refuses complex scalars with an error naming the
   # alternative (the CUDA backend takes them: ex4's cuda_backend_* run in complex builds).
   test:
      suffix: complex_supernodal_refused
      requires: complex
      args: -mat_gpuglu_lu_engine supernodal
      filter: Error: grep -o -E "gpuglu: complex scalars: .*"

TEST*/
