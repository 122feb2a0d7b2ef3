static const char help[] =
    "Schur complements of gpuglu factors (MatFactorSetSchurIS) and PCFIELDSPLIT's Schur preconditioner\n"
    "with gpuglu factoring A00.\n"
    "  -case direct|fieldsplit|errors|parallel   what to run (default direct)\n"
    "  -matrix <spec>        gpuglu generator spec (default lap2d5:12x12)\n"
    "  -is trailing|leading|scattered   which unknowns form the Schur block (default trailing)\n"
    "  -schur_size <k>       how many (default 12)\n"
    "  -factor lu|cholesky   the factor type of the direct case (default lu)\n"
    "  -flag none|spd        MAT_SPD on A (default none)\n"
    "  -storage aij|sbaij    the Mat type of the direct case (default aij)\n"
    "  -compare_mumps        compare S (direct) or the solution (fieldsplit) with MUMPS's\n"
    "  -view                 the factor's -ksp_view section after the first factorization\n"
    "  -require_device       exit 77 (skipped) without a usable CUDA device\n"
    "Exit status 1 when a check fails (the printed line says which).\n";

#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"
#include "gpuglu/device.hpp"

namespace {

using namespace gpuglu_test;

constexpr PetscReal s_tol = 1e-12;         // S against a reference, relative Frobenius
constexpr PetscReal residual_tol = 1e-10;  // solves, relative 2-norm residual
constexpr PetscReal inverse_tol = 1e-10;   // the inverted S against a dense inverse

int failures = 0;

struct Args {
  char kase[32] = "direct";
  char matrix[256] = "lap2d5:12x12";
  char is[32] = "trailing";
  PetscInt schur_size = 12;
  char factor[32] = "lu";
  char flag[16] = "none";
  char storage[16] = "aij";
  PetscBool compare_mumps = PETSC_FALSE;
  PetscBool view = PETSC_FALSE;
  PetscBool require_device = PETSC_FALSE;
};

PetscErrorCode read_args(Args* a) {
  PetscFunctionBeginUser;
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "ex8 options", nullptr);
  PetscCall(PetscOptionsString("-case", "direct, fieldsplit, errors, parallel", nullptr, a->kase, a->kase, sizeof(a->kase), nullptr));
  PetscCall(PetscOptionsString("-matrix", "generator spec", nullptr, a->matrix, a->matrix, sizeof(a->matrix), nullptr));
  PetscCall(PetscOptionsString("-is", "trailing, leading, scattered", nullptr, a->is, a->is, sizeof(a->is), nullptr));
  PetscCall(PetscOptionsInt("-schur_size", "unknowns in the Schur block", nullptr, a->schur_size, &a->schur_size, nullptr));
  PetscCall(PetscOptionsString("-factor", "lu or cholesky", nullptr, a->factor, a->factor, sizeof(a->factor), nullptr));
  PetscCall(PetscOptionsString("-flag", "none or spd", nullptr, a->flag, a->flag, sizeof(a->flag), nullptr));
  PetscCall(PetscOptionsString("-storage", "aij or sbaij", nullptr, a->storage, a->storage, sizeof(a->storage), nullptr));
  PetscCall(PetscOptionsBool("-compare_mumps", "compare with MUMPS", nullptr, a->compare_mumps, &a->compare_mumps, nullptr));
  PetscCall(PetscOptionsBool("-view", "view the factor", nullptr, a->view, &a->view, nullptr));
  PetscCall(PetscOptionsBool("-require_device", "skip without a GPU", nullptr, a->require_device, &a->require_device, nullptr));
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

PetscErrorCode report(const char* what, PetscReal value, PetscReal tol, const char* measure) {
  PetscFunctionBeginUser;
  if (value < tol) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s < %g\n", what, measure, (double)tol));
  } else {
    ++failures;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s %g is NOT below %g\n", what, measure, (double)value, (double)tol));
  }
  PetscFunctionReturn(0);
}

// ||X - R||_F / ||R||_F of two dense matrices.
PetscErrorCode relative_difference(Mat X, Mat R, PetscReal* rel) {
  Mat D;
  PetscReal dn, rn;
  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(X, MAT_COPY_VALUES, &D));
  PetscCall(MatAXPY(D, -1.0, R, SAME_NONZERO_PATTERN));
  PetscCall(MatNorm(D, NORM_FROBENIUS, &dn));
  PetscCall(MatNorm(R, NORM_FROBENIUS, &rn));
  PetscCall(MatDestroy(&D));
  *rel = rn > 0 ? dn / rn : dn;
  PetscFunctionReturn(0);
}

PetscErrorCode check_solve(const char* what, Mat A, Vec x, Vec b, bool transpose) {
  Vec r;
  PetscReal rn, bn;
  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &r));
  if (transpose)
    PetscCall(MatMultTranspose(A, x, r));
  else
    PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  PetscCall(VecDestroy(&r));
  PetscCall(report(what, rn / bn, residual_tol, "relative residual"));
  PetscFunctionReturn(0);
}

PetscErrorCode create_matrix(const Args& args, MPI_Comm comm, Mat* A) {
  Csr a;
  PetscFunctionBeginUser;
  PetscCall(generate(args.matrix, &a));
  PetscCall(create_aij(comm, a, A));
  if (!std::strcmp(args.flag, "spd")) PetscCall(MatSetOption(*A, MAT_SPD, PETSC_TRUE));
  PetscFunctionReturn(0);
}

// trailing: the last k unknowns (a saddle point's constraints); leading: the first k;
// scattered: k unknowns spread evenly over [0, n).
PetscErrorCode create_is(const Args& args, MPI_Comm comm, PetscInt n, IS* is) {
  const PetscInt k = args.schur_size;
  PetscFunctionBeginUser;
  PetscCheck(k >= 0 && k <= n, comm, PETSC_ERR_ARG_OUTOFRANGE, "-schur_size %" PetscInt_FMT " not in [0, %" PetscInt_FMT "]", k, n);
  if (!std::strcmp(args.is, "trailing")) {
    PetscCall(ISCreateStride(comm, k, n - k, 1, is));
  } else if (!std::strcmp(args.is, "leading")) {
    PetscCall(ISCreateStride(comm, k, 0, 1, is));
  } else {
    std::vector<PetscInt> idx(k);
    for (PetscInt i = 0; i < k; ++i) idx[i] = (2 * i + 1) * n / (2 * k);
    PetscCall(ISCreateGeneral(comm, k, idx.data(), PETSC_COPY_VALUES, is));
  }
  PetscFunctionReturn(0);
}

// S = A22 - A21 A11^{-1} A12 by PETSc's dense LU (partial pivoting): the reference that needs
// no external package.
PetscErrorCode dense_schur(Mat A, IS is, Mat* S) {
  Mat Aaij = A, Ad, A11, A12, A21, A22, X, P;
  IS js;
  PetscInt n;
  PetscBool sbaij;
  MatFactorInfo info;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscCall(ISComplement(is, 0, n, &js));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQSBAIJ, &sbaij));
  if (sbaij) PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &Aaij));
  PetscCall(MatConvert(Aaij, MATSEQDENSE, MAT_INITIAL_MATRIX, &Ad));
  if (Aaij != A) PetscCall(MatDestroy(&Aaij));
  PetscCall(MatCreateSubMatrix(Ad, js, js, MAT_INITIAL_MATRIX, &A11));
  PetscCall(MatCreateSubMatrix(Ad, js, is, MAT_INITIAL_MATRIX, &A12));
  PetscCall(MatCreateSubMatrix(Ad, is, js, MAT_INITIAL_MATRIX, &A21));
  PetscCall(MatCreateSubMatrix(Ad, is, is, MAT_INITIAL_MATRIX, &A22));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatLUFactor(A11, nullptr, nullptr, &info));
  PetscCall(MatDuplicate(A12, MAT_DO_NOT_COPY_VALUES, &X));
  PetscCall(MatMatSolve(A11, A12, X));
  PetscCall(MatMatMult(A21, X, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &P));
  PetscCall(MatDuplicate(A22, MAT_COPY_VALUES, S));
  PetscCall(MatAXPY(*S, -1.0, P, SAME_NONZERO_PATTERN));
  for (Mat* m : {&Ad, &A11, &A12, &A21, &A22, &X, &P}) PetscCall(MatDestroy(m));
  PetscCall(ISDestroy(&js));
  PetscFunctionReturn(0);
}

PetscErrorCode factor(Mat F, Mat A, MatFactorType type, bool symbolic) {
  MatFactorInfo info;
  PetscFunctionBeginUser;
  PetscCall(MatFactorInfoInitialize(&info));
  if (type == MAT_FACTOR_CHOLESKY) {
    if (symbolic) PetscCall(MatCholeskyFactorSymbolic(F, A, nullptr, &info));
    PetscCall(MatCholeskyFactorNumeric(F, A, &info));
  } else {
    if (symbolic) PetscCall(MatLUFactorSymbolic(F, A, nullptr, nullptr, &info));
    PetscCall(MatLUFactorNumeric(F, A, &info));
  }
  PetscFunctionReturn(0);
}

// MUMPS's S of the same factorization type (its Schur mode), or none where PETSc has no MUMPS.
PetscErrorCode mumps_schur(Mat A, IS is, MatFactorType type, Mat* S) {
  PetscBool have;
  Mat G;
  PetscFunctionBeginUser;
  *S = nullptr;
  PetscCall(MatGetFactorAvailable(A, MATSOLVERMUMPS, type, &have));
  if (!have) PetscFunctionReturn(0);
  PetscCall(MatGetFactor(A, MATSOLVERMUMPS, type, &G));
  PetscCall(MatFactorSetSchurIS(G, is));
  PetscCall(factor(G, A, type, true));
  PetscCall(MatFactorCreateSchurComplement(G, S, nullptr));
  PetscCall(MatDestroy(&G));
  PetscFunctionReturn(0);
}

// F's S (a copy, and in place) against the dense reference and MUMPS's.
PetscErrorCode check_schur(const char* what, Mat F, Mat A, IS is, MatFactorType type, bool compare_mumps, Mat* copy) {
  Mat R, M, inside;
  MatFactorSchurStatus status;
  PetscReal rel;
  char line[128];
  PetscFunctionBeginUser;
  PetscCall(MatFactorCreateSchurComplement(F, copy, &status));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: status %s\n", what,
                        status == MAT_FACTOR_SCHUR_UNFACTORED ? "unfactored" : "NOT unfactored"));
  if (status != MAT_FACTOR_SCHUR_UNFACTORED) ++failures;
  PetscCall(dense_schur(A, is, &R));
  PetscCall(relative_difference(*copy, R, &rel));
  PetscCall(PetscSNPrintf(line, sizeof(line), "%s against the dense reference", what));
  PetscCall(report(line, rel, s_tol, "relative difference"));
  PetscCall(MatDestroy(&R));
  if (compare_mumps) {
    PetscCall(mumps_schur(A, is, type, &M));
    if (M) {
      PetscCall(relative_difference(*copy, M, &rel));
      PetscCall(PetscSNPrintf(line, sizeof(line), "%s against MUMPS's", what));
      PetscCall(report(line, rel, s_tol, "relative difference"));
      PetscCall(MatDestroy(&M));
    } else {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s against MUMPS's: skipped (no MUMPS)\n", what));
    }
  }
  PetscCall(MatFactorGetSchurComplement(F, &inside, &status));
  PetscCall(relative_difference(inside, *copy, &rel));
  if (rel != 0) ++failures;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s from MatFactorGetSchurComplement: %s\n", what,
                        rel == 0 ? "the same as MatFactorCreateSchurComplement's" : "DIFFERENT from MatFactorCreateSchurComplement's"));
  PetscCall(MatFactorRestoreSchurComplement(F, &inside, status));
  PetscFunctionReturn(0);
}

PetscErrorCode check_full_solves(const char* what, Mat F, Mat A) {
  Vec x, b, xe;
  Mat B, X, R;
  PetscInt n;
  PetscReal rn, bn;
  char line[128];
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xe));
  PetscCall(set_exact_solution(xe));
  PetscCall(MatMult(A, xe, b));
  PetscCall(MatSolve(F, b, x));
  PetscCall(PetscSNPrintf(line, sizeof(line), "MatSolve %s", what));
  PetscCall(check_solve(line, A, x, b, false));
  PetscCall(MatMultTranspose(A, xe, b));
  PetscCall(MatSolveTranspose(F, b, x));
  PetscCall(PetscSNPrintf(line, sizeof(line), "MatSolveTranspose %s", what));
  PetscCall(check_solve(line, A, x, b, true));
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, 3, nullptr, &X));
  PetscCall(MatSetRandom(X, nullptr));
  PetscCall(MatMatMult(A, X, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &B));
  PetscCall(MatConvert(B, MATSEQDENSE, MAT_INPLACE_MATRIX, &B));
  PetscCall(MatMatSolve(F, B, X));
  PetscCall(MatMatMult(A, X, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &R));
  PetscCall(MatConvert(R, MATSEQDENSE, MAT_INPLACE_MATRIX, &R));
  PetscCall(MatAXPY(R, -1.0, B, SAME_NONZERO_PATTERN));
  PetscCall(MatNorm(R, NORM_FROBENIUS, &rn));
  PetscCall(MatNorm(B, NORM_FROBENIUS, &bn));
  PetscCall(PetscSNPrintf(line, sizeof(line), "MatMatSolve %s", what));
  PetscCall(report(line, rn / bn, residual_tol, "relative residual"));
  for (Mat* m : {&B, &X, &R}) PetscCall(MatDestroy(m));
  for (Vec* v : {&x, &b, &xe}) PetscCall(VecDestroy(v));
  PetscFunctionReturn(0);
}

// MatFactorSolveSchurComplement(Transpose) against S itself, then MatFactorInvertSchurComplement
// against the inverse PETSc's dense LU gives.
PetscErrorCode check_schur_solves(Mat F, Mat S) {
  Vec r, y, t;
  Mat Sf, I, Sinv, inside;
  MatFactorSchurStatus status;
  MatFactorInfo info;
  PetscReal rel;
  PetscInt k;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(S, &k, nullptr));
  PetscCall(MatCreateVecs(S, &y, &r));
  PetscCall(VecDuplicate(r, &t));
  PetscCall(VecSetRandom(r, nullptr));
  {
    PetscReal tn, rn;
    PetscCall(MatFactorSolveSchurComplement(F, r, y));
    PetscCall(MatMult(S, y, t));
    PetscCall(VecAXPY(t, -1.0, r));
    PetscCall(VecNorm(t, NORM_2, &tn));
    PetscCall(VecNorm(r, NORM_2, &rn));
    PetscCall(report("MatFactorSolveSchurComplement", tn / rn, residual_tol, "relative residual"));
    PetscCall(MatFactorSolveSchurComplementTranspose(F, r, y));
    PetscCall(MatMultTranspose(S, y, t));
    PetscCall(VecAXPY(t, -1.0, r));
    PetscCall(VecNorm(t, NORM_2, &tn));
    PetscCall(report("MatFactorSolveSchurComplementTranspose", tn / rn, residual_tol, "relative residual"));
  }
  PetscCall(MatDuplicate(S, MAT_COPY_VALUES, &Sf));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatLUFactor(Sf, nullptr, nullptr, &info));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, k, k, nullptr, &I));
  PetscCall(MatZeroEntries(I));
  PetscCall(MatShift(I, 1.0));
  PetscCall(MatDuplicate(I, MAT_DO_NOT_COPY_VALUES, &Sinv));
  PetscCall(MatMatSolve(Sf, I, Sinv));
  PetscCall(MatFactorInvertSchurComplement(F));
  PetscCall(MatFactorGetSchurComplement(F, &inside, &status));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatFactorInvertSchurComplement: status %s\n",
                        status == MAT_FACTOR_SCHUR_INVERTED ? "inverted" : "NOT inverted"));
  if (status != MAT_FACTOR_SCHUR_INVERTED) ++failures;
  PetscCall(relative_difference(inside, Sinv, &rel));
  PetscCall(report("MatFactorInvertSchurComplement against the dense inverse", rel, inverse_tol, "relative difference"));
  PetscCall(MatFactorRestoreSchurComplement(F, &inside, status));
  for (Mat* m : {&Sf, &I, &Sinv}) PetscCall(MatDestroy(m));
  for (Vec* v : {&r, &y, &t}) PetscCall(VecDestroy(v));
  PetscFunctionReturn(0);
}

// New values on the same pattern (D A D keeps a symmetric A symmetric and an SPD one SPD).
PetscErrorCode new_values(Mat A) {
  Vec d;
  PetscInt lo, hi;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &d, nullptr));
  PetscCall(VecGetOwnershipRange(d, &lo, &hi));
  for (PetscInt i = lo; i < hi; ++i) PetscCall(VecSetValue(d, i, 1.0 + 0.1 * (i % 5), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(d));
  PetscCall(VecAssemblyEnd(d));
  PetscCall(MatDiagonalScale(A, d, d));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(0);
}

PetscErrorCode run_direct(const Args& args) {
  Mat A, F, S;
  IS is;
  PetscInt n;
  const MatFactorType type = !std::strcmp(args.factor, "cholesky") ? MAT_FACTOR_CHOLESKY : MAT_FACTOR_LU;
  PetscFunctionBeginUser;
  PetscCall(create_matrix(args, PETSC_COMM_SELF, &A));
  if (!std::strcmp(args.storage, "sbaij")) {
    Mat B;
    PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatConvert(A, MATSEQSBAIJ, MAT_INITIAL_MATRIX, &B));
    PetscCall(MatDestroy(&A));
    A = B;
  }
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscCall(create_is(args, PETSC_COMM_SELF, n, &is));
  PetscCall(MatGetFactor(A, MATSOLVERGPUGLU, type, &F));
  PetscCall(MatFactorSetSchurIS(F, is));
  PetscCall(factor(F, A, type, true));
  if (args.view) PetscCall(view_factor(F));
  PetscCall(check_schur("S", F, A, is, type, args.compare_mumps, &S));
  PetscCall(check_full_solves("(S factored by PETSc)", F, A));
  PetscCall(check_schur_solves(F, S));
  PetscCall(check_full_solves("(S inverted by PETSc)", F, A));
  PetscCall(MatDestroy(&S));
  PetscCall(new_values(A));
  PetscCall(factor(F, A, type, false));
  PetscCall(check_schur("S after refactorization", F, A, is, type, args.compare_mumps, &S));
  PetscCall(check_full_solves("after refactorization", F, A));
  PetscCall(MatDestroy(&S));
  PetscCall(MatDestroy(&F));
  PetscCall(ISDestroy(&is));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

// PCFIELDSPLIT (Schur) with fields J (the complement) and I (the IS), its options from the
// command line; A00 by -fieldsplit_0_pc_factor_mat_solver_type (gpuglu), then, for the
// comparison, the same run with MUMPS factoring A00.
PetscErrorCode fieldsplit_solve(Mat A, IS is, Vec b, Vec x, bool print) {
  KSP ksp, *sub;
  PC pc, pc0;
  IS js;
  PetscInt n, nsplits;
  Mat F0, S0 = nullptr;
  MatSolverType type;
  KSPConvergedReason reason;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscCall(ISComplement(is, 0, n, &js));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCFIELDSPLIT));
  PetscCall(PCFieldSplitSetIS(pc, "0", js));
  PetscCall(PCFieldSplitSetIS(pc, "1", is));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  if (print) {
    PetscCall(print_reason(ksp, &reason));
    PetscCall(PCFieldSplitGetSubKSP(pc, &nsplits, &sub));
    PetscCall(KSPGetPC(sub[0], &pc0));
    PetscCall(PCFactorGetMatrix(pc0, &F0));
    PetscCall(MatFactorGetSolverType(F0, &type));
    PetscCall(MatFactorGetSchurComplement(F0, &S0, nullptr));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "A00 factored by %s, %s\n", type,
                          S0 ? "with a Schur IS" : "without a Schur IS (PCFIELDSPLIT never calls MatFactorSetSchurIS)"));
    PetscCall(PetscFree(sub));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(ISDestroy(&js));
  PetscFunctionReturn(0);
}

PetscErrorCode run_fieldsplit(const Args& args) {
  Mat A;
  IS is;
  Vec x, b, xe, xm;
  PetscInt n;
  PetscBool have;
  PetscFunctionBeginUser;
  PetscCall(create_matrix(args, PETSC_COMM_SELF, &A));
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscCall(create_is(args, PETSC_COMM_SELF, n, &is));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xe));
  PetscCall(VecDuplicate(x, &xm));
  PetscCall(set_exact_solution(xe));
  PetscCall(MatMult(A, xe, b));
  PetscCall(fieldsplit_solve(A, is, b, x, true));
  PetscCall(check_solve("fieldsplit", A, x, b, false));
  if (args.compare_mumps) {
    PetscCall(MatGetFactorAvailable(A, MATSOLVERMUMPS, MAT_FACTOR_LU, &have));
    if (have) {
      PetscReal dn, xn;
      PetscCall(PetscOptionsSetValue(nullptr, "-fieldsplit_0_pc_factor_mat_solver_type", MATSOLVERMUMPS));
      PetscCall(fieldsplit_solve(A, is, b, xm, false));
      PetscCall(VecAXPY(xm, -1.0, x));
      PetscCall(VecNorm(xm, NORM_2, &dn));
      PetscCall(VecNorm(x, NORM_2, &xn));
      PetscCall(report("fieldsplit with MUMPS for A00: the same solution", dn / xn, residual_tol, "relative difference"));
    } else {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "fieldsplit with MUMPS for A00: skipped (no MUMPS)\n"));
    }
  }
  for (Vec* v : {&x, &b, &xe, &xm}) PetscCall(VecDestroy(v));
  PetscCall(ISDestroy(&is));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

// Keeps the first message of an error (the caller prints it) and passes the code on silently.
PetscErrorCode keep_first_message(MPI_Comm, int, const char*, const char*, PetscErrorCode n, PetscErrorType p,
                                  const char* mess, void* ctx) {
  if (p == PETSC_ERROR_INITIAL && mess) *static_cast<std::string*>(ctx) = mess;
  return n;
}

// What MatFactorSetSchurIS (and the symbolic phase after it) says for one IS on one factor type.
PetscErrorCode try_schur(const char* what, Mat A, MatFactorType type, std::vector<PetscInt> idx) {
  Mat F;
  IS is;
  MatFactorInfo info;
  std::string why;
  PetscFunctionBeginUser;
  PetscCall(ISCreateGeneral(PetscObjectComm((PetscObject)A), (PetscInt)idx.size(), idx.data(), PETSC_COPY_VALUES, &is));
  PetscCall(MatGetFactor(A, MATSOLVERGPUGLU, type, &F));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(PetscPushErrorHandler(keep_first_message, &why));
  PetscErrorCode ierr = MatFactorSetSchurIS(F, is);
  if (!ierr && type == MAT_FACTOR_LU) ierr = MatLUFactorSymbolic(F, A, nullptr, nullptr, &info);
  PetscCall(PetscPopErrorHandler());
  if (ierr)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: refused (error %d): %s\n", what, (int)ierr, why.c_str()));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: accepted\n", what));
  PetscCall(MatDestroy(&F));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(0);
}

// MatFactorSetSchurIS after the symbolic phase: the numeric phase says that it came too late.
PetscErrorCode try_late_schur(Mat A) {
  Mat F;
  IS is;
  MatFactorInfo info;
  PetscInt n;
  std::string why;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, 2, n - 2, 1, &is));
  PetscCall(MatGetFactor(A, MATSOLVERGPUGLU, MAT_FACTOR_LU, &F));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatLUFactorSymbolic(F, A, nullptr, nullptr, &info));
  PetscCall(PetscPushErrorHandler(keep_first_message, &why));
  PetscErrorCode ierr = MatFactorSetSchurIS(F, is);
  if (!ierr) ierr = MatLUFactorNumeric(F, A, &info);
  PetscCall(PetscPopErrorHandler());
  if (ierr)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "IS set after the symbolic phase: refused (error %d): %s\n", (int)ierr, why.c_str()));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "IS set after the symbolic phase: accepted\n"));
  PetscCall(MatDestroy(&F));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(0);
}

PetscErrorCode run_errors(const Args& args) {
  Mat A;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(create_matrix(args, PETSC_COMM_SELF, &A));
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscCall(try_schur("unsorted IS", A, MAT_FACTOR_LU, {5, 3, 8}));
  PetscCall(try_schur("IS with duplicates", A, MAT_FACTOR_LU, {2, 4, 4, 9}));
  PetscCall(try_schur("IS out of range", A, MAT_FACTOR_LU, {1, n}));
  PetscCall(try_schur("ILU factor", A, MAT_FACTOR_ILU, {1, 2}));
  PetscCall(try_schur("ICC factor", A, MAT_FACTOR_ICC, {1, 2}));
  PetscCall(PetscOptionsSetValue(nullptr, "-mat_gpuglu_lu_engine", "column"));
  PetscCall(try_schur("column LU engine", A, MAT_FACTOR_LU, {n - 2, n - 1}));
  PetscCall(PetscOptionsClearValue(nullptr, "-mat_gpuglu_lu_engine"));
  PetscCall(try_schur("a valid IS", A, MAT_FACTOR_LU, {n - 2, n - 1}));
  PetscCall(try_late_schur(A));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

// A parallel (MPIAIJ) matrix: the gathered factor refuses Schur complements.
PetscErrorCode run_parallel(const Args& args) {
  Mat A;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(create_matrix(args, PETSC_COMM_WORLD, &A));
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscMPIInt rank;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank == 0)
    PetscCall(try_schur("MPIAIJ factor", A, MAT_FACTOR_LU, {n - 1}));
  else
    PetscCall(try_schur("MPIAIJ factor", A, MAT_FACTOR_LU, {}));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  Args args;

  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(read_args(&args));
  if (args.require_device && !gpuglu::query_device().usable) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "skipped: no usable CUDA device (%s)\n", gpuglu::query_device().reason.c_str()));
    PetscCall(PetscFinalize());
    return 77;
  }
  PetscCall(PetscGPUGLURegister());
  const std::string kase = args.kase;
  if (kase == "direct")
    PetscCall(run_direct(args));
  else if (kase == "fieldsplit")
    PetscCall(run_fieldsplit(args));
  else if (kase == "errors")
    PetscCall(run_errors(args));
  else if (kase == "parallel")
    PetscCall(run_parallel(args));
  else
    SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "unknown -case %s", args.kase);
  PetscCall(PetscFinalize());
  return failures > 0 ? 1 : 0;
}

/*TEST

   # Direct use of the Schur interface: S against a dense reference (and MUMPS's where PETSc has
   # it), the full solves (condense, Schur solve, expand), the Schur solves and inverse, and a
   # refactorization with new values. The supernodal LU keeps the Schur block: real scalars only.
   testset:
      requires: !complex
      args: -mat_gpuglu_backend cpu
      filter: grep -E "^[A-Z]|gpuglu sparse|Schur complement \(|Cholesky with a Schur" | grep -v "Mat Object"
      test:
         suffix: lu_laplacian
         args: -matrix lap2d5:12x12 -is {{trailing leading scattered}separate output} -schur_size 12 -view
      test:
         suffix: lu_convdiff
         args: -matrix convdiff3d:6x5x4 -is {{trailing scattered}separate output} -schur_size 10
      test:
         suffix: lu_saddle_point
         args: -matrix kkt:60:20 -is trailing -schur_size 20
      test:
         suffix: cholesky_spd
         args: -matrix lap2d5:12x12 -flag spd -factor cholesky -is {{trailing scattered}separate output} -schur_size 12 -view
      test:
         suffix: cholesky_saddle_point
         args: -matrix kkt:60:20 -factor cholesky -is trailing -schur_size 20 -view
      test:
         suffix: cholesky_sbaij
         args: -matrix lap2d5:10x10 -flag spd -storage sbaij -factor cholesky -is scattered -schur_size 8

   # The same S as MUMPS's Schur mode (MatFactorSetSchurIS on MATSOLVERMUMPS) to 1e-12.
   testset:
      requires: !complex mumps
      args: -mat_gpuglu_backend cpu -compare_mumps
      test:
         suffix: lu_mumps_laplacian
         args: -matrix lap2d5:12x12 -is scattered -schur_size 12
      test:
         suffix: lu_mumps_convdiff
         args: -matrix convdiff3d:6x5x4 -is trailing -schur_size 10
      test:
         suffix: lu_mumps_saddle_point
         args: -matrix kkt:60:20 -is trailing -schur_size 20
      test:
         suffix: cholesky_mumps_spd
         args: -matrix lap2d5:12x12 -flag spd -factor cholesky -is scattered -schur_size 12
      test:
         suffix: cholesky_mumps_saddle_point
         args: -matrix kkt:60:20 -factor cholesky -is trailing -schur_size 20

   # PCFIELDSPLIT's Schur preconditioner with gpuglu factoring A00, against the same run with
   # MUMPS factoring A00. "full" forms S by MatSchurComplementComputeExplicitOperator (KSPMatSolve:
   # MatMatSolve on the A00 factor), "selfp" from A00's diagonal; neither calls MatFactorSetSchurIS.
   testset:
      requires: !complex mumps
      args: -case fieldsplit -compare_mumps -mat_gpuglu_backend cpu -pc_fieldsplit_type schur -pc_fieldsplit_schur_fact_type full -fieldsplit_0_ksp_type preonly -fieldsplit_0_pc_type lu -fieldsplit_0_pc_factor_mat_solver_type gpuglu -fieldsplit_1_pc_type lu
      test:
         suffix: fieldsplit_full_saddle_point
         args: -matrix kkt:60:20 -schur_size 20 -pc_fieldsplit_schur_precondition full -ksp_type preonly -fieldsplit_1_ksp_type preonly
      test:
         suffix: fieldsplit_full_laplacian
         args: -matrix lap2d5:12x12 -is scattered -schur_size 20 -pc_fieldsplit_schur_precondition full -ksp_type preonly -fieldsplit_1_ksp_type preonly
      test:
         suffix: fieldsplit_selfp
         args: -matrix kkt:60:20 -schur_size 20 -pc_fieldsplit_schur_precondition selfp -ksp_type fgmres -ksp_rtol 1e-14 -fieldsplit_1_ksp_type gmres -fieldsplit_1_ksp_rtol 1e-14

   # Unsorted, duplicated and out-of-range ISs, incomplete factors and the column engine refused
   # with messages that name the problem; a complex PETSc's LU refuses Schur complements (the
   # supernodal LU is real only).
   test:
      suffix: errors
      requires: !complex
      args: -case errors -matrix lap2d5:8x8
   test:
      suffix: errors_complex
      requires: complex
      args: -case errors -matrix lap2d5:8x8

   test:
      suffix: parallel
      nsize: 2
      args: -case parallel -matrix lap2d5:8x8

TEST*/
