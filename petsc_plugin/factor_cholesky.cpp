// The Cholesky and ICC phases PETSc drives on a gpuglu factor Mat (SeqAIJ, SeqSBAIJ with
// block size 1), and MatGetInertia:
//   MatCholeskyFactorSymbolic / MatICCFactorSymbolic -> SparseLDLT::analyze (once per pattern)
//   MatCholeskyFactorNumeric                         -> SparseLDLT::refactor / factor (factor.cpp)
// PETSc's Cholesky is gpuglu's LDL^T (static pivots, symmetric scaling): it takes SPD and
// symmetric indefinite matrices alike and falls back to gpuglu's LU where its pivots cannot
// give a backward error within the tolerance (reported by -info and -ksp_view).
// -mat_gpuglu_devices 2 splits a Cholesky factor of an AIJ matrix over two devices (SplitLU's
// LDL^T split, split_factor.cpp); SBAIJ (one triangle) and ICC refuse it.
#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

PetscErrorCode MatCholeskyFactorNumeric_GPUGLU(Mat F, Mat A, const MatFactorInfo*) {
  PetscFunctionBegin;
  if (split_active(factor_of(F)))
    PetscCall(split_numeric(F, A));
  else if (schur_active(factor_of(F)))
    PetscCall(schur_numeric(F, A));
  else
    PetscCall(factor_numeric(F, A));
  PetscFunctionReturn(0);
}

// How the LDL^T reads A: SBAIJ's upper triangle, or AIJ's two, whose symmetry is checked
// unless PETSc already knows it (MAT_SYMMETRIC, MAT_SPD). MAT_SPD also skips the scaling,
// which only guards indefinite pivots.
PetscErrorCode symmetric_input(Mat F, Mat A, Solver::SymmetricInput* in) {
  PetscBool sbaij, set, flag;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQSBAIJ, &sbaij));
  in->stored = sbaij ? StoredTriangle::upper : StoredTriangle::full;
  PetscCall(MatIsSPDKnown(A, &set, &flag));
  in->spd = set && flag;
#if defined(PETSC_USE_COMPLEX)
  // A complex A is factored L D L^T (A = A^T, PETSc's default for complex Cholesky) unless
  // PETSc flags it Hermitian (MAT_HERMITIAN): then L D L^H, whose D is real.
  PetscCall(MatIsHermitianKnown(A, &set, &flag));
  in->symmetry = set && flag ? Symmetry::hermitian : Symmetry::symmetric;
  if (in->symmetry == Symmetry::hermitian) {
    in->check_symmetry = false;  // PETSc vouches for A = A^H
    PetscCall(PetscInfo(F, "gpuglu: PETSc flags the complex A Hermitian: L D L^H\n"));
  } else {
    PetscCall(MatIsSymmetricKnown(A, &set, &flag));
    in->check_symmetry = !(set && flag);
    PetscCall(PetscInfo(F, "gpuglu: complex A without MAT_HERMITIAN: complex symmetric L D L^T\n"));
  }
#else
  PetscCall(MatIsSymmetricKnown(A, &set, &flag));
  in->check_symmetry = !(set && flag) && !in->spd;
#endif
  if (!sbaij)
    PetscCall(PetscInfo(F, "gpuglu: Cholesky of an AIJ matrix: %s\n",
                        in->check_symmetry ? "its symmetry is checked (MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE) "
                                             "skips the check)"
                                           : "PETSc flags it symmetric, the check is skipped"));
  if (in->spd) PetscCall(PetscInfo(F, "gpuglu: PETSc flags A SPD: no symmetric scaling\n"));
  PetscFunctionReturn(0);
}

PetscErrorCode symbolic(Mat F, Mat A, IS perm, const MatFactorInfo* info, bool incomplete) {
  Factor* f = factor_of(F);

  PetscFunctionBegin;
  PetscCall(set_options(F, A, info, f));
  f->split.lu.reset();
  f->split.fallback.clear();
  if (incomplete) PetscCall(refuse_split(F, f));  // -mat_gpuglu_devices 2 splits complete factors only
  if (!incomplete && f->devices == DevicesOption::split) {
    PetscBool sbaij;
    PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQSBAIJ, &sbaij));
    PetscCheck(!sbaij, PETSC_COMM_SELF, PETSC_ERR_SUP,
               "gpuglu: %s %" PetscInt_FMT " splits a Cholesky factor of an AIJ matrix (both triangles); this one is "
               "SBAIJ (one triangle): use MATAIJ or %s %" PetscInt_FMT,
               DevicesOption::name, f->devices, DevicesOption::name, DevicesOption::one);
    PetscCall(take_ordering(F, A, perm, f));
    PetscCall(split_symbolic(F, A));  // the LDL^T split, or SparseLDLT where a half is structurally singular
    F->ops->choleskyfactornumeric = MatCholeskyFactorNumeric_GPUGLU;
    PetscFunctionReturn(0);
  }
  if (incomplete) {
    // ICC(k) in PETSc's ordering (natural by default), as PETSc's own ICC, so that Krylov
    // iteration counts match it; its shift type comes from MatFactorInfo (positive
    // definite by default for ICC).
    PetscCheck(info->levels >= 0 && info->levels <= 1000000, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "gpuglu: ICC levels of fill %g out of range", (double)info->levels);
    f->options.ilu_levels = static_cast<int32_t>(info->levels);
    f->options.ordering = Ordering::given;
    f->use_petsc_ordering = true;
  }
  PetscCall(take_ordering(F, A, perm, f));
  if (schur_active(f)) {
    PetscCall(schur_symbolic(F, A, f));  // the LDL^T's Schur mode (schur.cpp)
    F->ops->choleskyfactornumeric = MatCholeskyFactorNumeric_GPUGLU;
    PetscFunctionReturn(0);
  }
  PetscCall(make_cholesky_solver(F, A));
  PetscCall(analyze(F, A));
  F->ops->choleskyfactornumeric = MatCholeskyFactorNumeric_GPUGLU;
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode make_cholesky_solver(Mat F, Mat A) {
  Factor* f = factor_of(F);
  Solver::SymmetricInput in;
  PetscFunctionBegin;
  PetscCall(symmetric_input(F, A, &in));
  PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::SparseLDLT", [&] { f->solver.make_ldlt(f->options, in); }));
  PetscFunctionReturn(0);
}

PetscErrorCode MatCholeskyFactorSymbolic_GPUGLU(Mat F, Mat A, IS perm, const MatFactorInfo* info) {
  PetscFunctionBegin;
  PetscCall(symbolic(F, A, perm, info, false));
  PetscFunctionReturn(0);
}

PetscErrorCode MatICCFactorSymbolic_GPUGLU(Mat F, Mat A, IS perm, const MatFactorInfo* info) {
  PetscFunctionBegin;
  PetscCall(symbolic(F, A, perm, info, true));
  PetscFunctionReturn(0);
}

// Sylvester's inertia of A from the signs of D (S P A P^T S = L D L^T is congruent to A).
// An error where D cannot tell: an incomplete factor, perturbed pivots, the LU fallback,
// and a complex symmetric (not Hermitian) A, whose eigenvalues are complex.
PetscErrorCode MatGetInertia_GPUGLU(Mat F, PetscInt* nneg, PetscInt* nzero, PetscInt* npos) {
  Factor* f = factor_of(F);
  Inertia in;

  PetscFunctionBegin;
  PetscCheck(!split_active(f), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: MatGetInertia: the factor is split over two devices (%s %" PetscInt_FMT "), whose root S has no "
             "D of its own; use %s %" PetscInt_FMT,
             DevicesOption::name, f->devices, DevicesOption::name, DevicesOption::one);
  PetscCheck(!schur_active(f), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: MatGetInertia: a Cholesky factor with a Schur IS leaves S unfactored; the inertia of A is that "
             "of A11 plus that of S (Haynsworth)");
  PetscCheck(f->solver.symmetric(), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: MatGetInertia needs a Cholesky factor (-pc_type cholesky), not an %s one",
             MatFactorTypes[F->factortype]);
  PetscCheck(f->solver.inertia_defined(), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: MatGetInertia: a complex symmetric (not Hermitian) matrix has complex eigenvalues; set "
             "MAT_HERMITIAN on a Hermitian one");
  PetscCheck(F->factortype != MAT_FACTOR_ICC, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: MatGetInertia: an incomplete (ICC) factor's D is not A's inertia; use -pc_type cholesky");
  PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::SparseLDLT::inertia", [&] { in = f->solver.ldlt().inertia(); }));
  if (nneg) *nneg = static_cast<PetscInt>(in.negative);
  if (nzero) *nzero = static_cast<PetscInt>(in.zero);
  if (npos) *npos = static_cast<PetscInt>(in.positive);
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
