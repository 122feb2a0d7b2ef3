// PETSc's Schur-complement interface on a gpuglu factor (MatFactorSetSchurIS and what
// PETSc's matrix.c builds on F->schur), backed by the core's Schur mode (gpuglu/solver.hpp:
// set_schur_indices, schur_complement, condense, expand) of SparseLU for an LU factor and of
// SparseLDLT for a Cholesky one. What the user sees follows PETSc's MUMPS interface:
//   MatFactorSetSchurIS  F->schur becomes a k x k MATSEQDENSE (k = |IS|), the IS remembered
//   numeric phase        F->schur = S in the IS's order, status MAT_FACTOR_SCHUR_UNFACTORED
//   MatSolve(Transpose)  A x = b whole: condense, solve with S through
//                        MatFactorSolveSchurComplement(Transpose) (which factors F->schur
//                        the first time), expand
// Everything else (Get/Restore/Create/Invert/Factorize/SolveSchurComplement) is PETSc's, on
// F->schur. A Cholesky factor's S is symmetric (both triangles written) and PETSc factors it
// by its dense Cholesky (LDL^T, or LL^T where A is flagged SPD), as it does MUMPS's.
#include <utility>
#include <vector>

#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

const char* status_name(MatFactorSchurStatus s) {
  switch (s) {
    case MAT_FACTOR_SCHUR_UNFACTORED: return "unfactored";
    case MAT_FACTOR_SCHUR_FACTORED: return "factored";
    case MAT_FACTOR_SCHUR_INVERTED: return "inverted";
  }
  return "unknown";
}

// The core checks the indices too (Error(invalid_input)), but only at the symbolic phase;
// here the error names the IS's position, where the user can still see which IS it was.
PetscErrorCode read_indices(Mat F, IS is, std::vector<int32_t>* out) {
  PetscInt n, k;
  const PetscInt* idx;
  PetscFunctionBegin;
  PetscCall(MatGetSize(F, &n, nullptr));
  PetscCall(ISGetLocalSize(is, &k));
  PetscCall(guarded(PETSC_COMM_SELF, "gpuglu MatFactorSetSchurIS", [&] { out->resize(static_cast<size_t>(k)); }));
  PetscCall(ISGetIndices(is, &idx));
  for (PetscInt i = 0; i < k; ++i) {
    PetscCheck(idx[i] >= 0 && idx[i] < n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "gpuglu: MatFactorSetSchurIS: index %" PetscInt_FMT " at position %" PetscInt_FMT
               " of the IS is out of range [0, %" PetscInt_FMT ")",
               idx[i], i, n);
    PetscCheck(i == 0 || idx[i] != idx[i - 1], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "gpuglu: MatFactorSetSchurIS: the IS has duplicates: index %" PetscInt_FMT " at positions %" PetscInt_FMT
               " and %" PetscInt_FMT,
               idx[i], i - 1, i);
    // The core orders S's rows as the indices ascend: an unsorted IS would not get S in its order.
    PetscCheck(i == 0 || idx[i] > idx[i - 1], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "gpuglu: MatFactorSetSchurIS: the IS is not sorted: index %" PetscInt_FMT " at position %" PetscInt_FMT
               " follows %" PetscInt_FMT " (ISSort() it; S's rows and columns then follow the sorted order)",
               idx[i], i, idx[i - 1]);
    (*out)[i] = static_cast<int32_t>(idx[i]);
  }
  PetscCall(ISRestoreIndices(is, &idx));
  PetscFunctionReturn(0);
}

// MatFactorSetSchurIS after the symbolic phase leaves a factor without the Schur block: the
// IS takes effect at the next symbolic phase, as MUMPS's does.
PetscErrorCode require_schur_factor(Mat F, bool factored) {
  const Factor* f = factor_of(F);
  PetscFunctionBegin;
  const auto k = static_cast<int32_t>(f->schur_indices.size());
  const bool in_schur_mode = f->solver.analyzed() && f->solver->schur_indices().size() == f->schur_indices.size();
  const bool keeps_block = f->solver.factored() && f->solver->schedule().schur_size == k;
  PetscCheck(in_schur_mode && (!factored || keeps_block), PETSC_COMM_SELF, PETSC_ERR_ORDER,
             "gpuglu: MatFactorSetSchurIS was called after the symbolic factorization: call it before "
             "MatLUFactorSymbolic / MatCholeskyFactorSymbolic");
  PetscFunctionReturn(0);
}

// The k reduced right-hand sides in PETSc vectors of F->schur's type, solved with S as
// PETSc's Schur status says (factored or inverted), in place of the core's own solve.
PetscErrorCode solve_columns(Mat F, PetscInt nrhs, const PetscScalar* b, PetscInt ldb, PetscScalar* x, PetscInt ldx,
                             bool transpose) {
  Factor* f = factor_of(F);
  Vec r, y;
  PetscScalar* rv;
  const PetscScalar* yv;
  PetscFunctionBegin;
  PetscCall(require_schur_factor(F, true));
  PetscCall(MatCreateVecs(F->schur, &y, &r));
  for (PetscInt c = 0; c < nrhs; ++c) {
    PetscCall(VecGetArrayWrite(r, &rv));
    const PetscErrorCode condensed =
        guarded(PETSC_COMM_SELF, "gpuglu condense", [&] { f->solver->condense(b + c * ldb, rv, transpose); });
    PetscCall(VecRestoreArrayWrite(r, &rv));
    PetscCall(condensed);
    if (transpose)
      PetscCall(MatFactorSolveSchurComplementTranspose(F, r, y));
    else
      PetscCall(MatFactorSolveSchurComplement(F, r, y));
    PetscCall(VecGetArrayRead(y, &yv));
    const PetscErrorCode expanded =
        guarded(PETSC_COMM_SELF, "gpuglu expand", [&] { f->solver->expand(yv, x + c * ldx, transpose); });
    PetscCall(VecRestoreArrayRead(y, &yv));
    PetscCall(expanded);
  }
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

}  // namespace

bool schur_active(const Factor* f) { return !f->schur_indices.empty(); }

PetscErrorCode MatFactorSetSchurIS_GPUGLU(Mat F, IS is) {
  Factor* f = factor_of(F);
  std::vector<int32_t> indices;
  PetscFunctionBegin;
  PetscCheck(F->factortype == MAT_FACTOR_LU || F->factortype == MAT_FACTOR_CHOLESKY, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: Schur complements need a complete factorization (-pc_type lu or cholesky); an incomplete %s "
             "factor has no exact Schur complement",
             MatFactorTypes[F->factortype]);
  PetscCheck(!split_active(f), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: MatFactorSetSchurIS on a factor split over 2 devices (%s 2): the split keeps no Schur block "
             "of the caller's; use %s %" PetscInt_FMT,
             DevicesOption::name, DevicesOption::name, DevicesOption::one);
  PetscCall(read_indices(F, is, &indices));
  // Complex scalars: the core's refusal (its supernodal LU is real only), raised now rather
  // than at the symbolic phase.
  if (!indices.empty())
    PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::SparseLU::set_schur_indices",
                      [&] { BasicSparseLU<PetscScalar>(f->options).set_schur_indices(indices); }));
  f->schur_indices = std::move(indices);
  const PetscInt k = static_cast<PetscInt>(f->schur_indices.size());
  PetscCall(MatDestroy(&F->schur));
  PetscCall(MatCreateSeqDense(PetscObjectComm((PetscObject)F), k, k, nullptr, &F->schur));
  // PETSc's MatFactorFactorizeSchurComplement factors a Cholesky factor's S by its dense
  // Cholesky; the symbolic phase adds MAT_SPD where A is flagged so.
  if (F->factortype == MAT_FACTOR_CHOLESKY) PetscCall(MatSetOption(F->schur, MAT_SYMMETRIC, PETSC_TRUE));
  F->schur_status = MAT_FACTOR_SCHUR_UNFACTORED;
  PetscFunctionReturn(0);
}

// The gathered factor's S would live on one rank while PETSc's Schur calls are collective on
// F's communicator; MUMPS refuses parallel Schur complements from PETSc alike.
PetscErrorCode MatFactorSetSchurIS_GPUGLU_Gathered(Mat F, IS) {
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)F), PETSC_ERR_SUP,
          "gpuglu: Schur complements of a parallel matrix (the factor gathered to one rank) are not supported: "
          "factor a sequential matrix with MatFactorSetSchurIS");
}

// A Cholesky factor: SparseLDLT's Schur mode, on A as the LDL^T reads it (SBAIJ's triangle,
// or AIJ's two with their symmetry checked unless PETSc vouches for it).
PetscErrorCode schur_symbolic(Mat F, Mat A, Factor* f) {
  PetscFunctionBegin;
  if (F->factortype == MAT_FACTOR_CHOLESKY) {
    PetscBool set, spd;
    PetscCall(MatIsSPDKnown(A, &set, &spd));
    PetscCall(MatSetOption(F->schur, MAT_SPD, set && spd ? PETSC_TRUE : PETSC_FALSE));
    PetscCall(MatSetOption(F->schur, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(PetscInfo(F, "gpuglu: Cholesky with a Schur IS of %" PetscInt_FMT
                           " unknowns: gpuglu's supernodal LDL^T of A11, S left unfactored\n",
                        (PetscInt)f->schur_indices.size()));
    PetscCall(make_cholesky_solver(F, A));
  } else {
    PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::SparseLU", [&] { f->solver.make_lu(f->options); }));
  }
  PetscCall(guarded(PETSC_COMM_SELF, "gpuglu set_schur_indices",
                    [&] { f->solver->set_schur_indices(f->schur_indices); }));
  PetscCall(analyze(F, A));
  PetscFunctionReturn(0);
}

PetscErrorCode schur_numeric(Mat F, Mat A) {
  Factor* f = factor_of(F);
  PetscScalar* s;
  PetscInt lda;
  PetscFunctionBegin;
  PetscCall(require_schur_factor(F, false));
  PetscCall(factor_numeric(F, A));
  // A failed factorization is a MatFactorError (factor_numeric); F->schur keeps the last S.
  if (F->factorerrortype != MAT_FACTOR_NOERROR || !f->solver.factored()) PetscFunctionReturn(0);
  PetscCall(require_schur_factor(F, true));
  // Status first: it clears the factored (or inverted) state of the previous S.
  PetscCall(MatFactorRestoreSchurComplement(F, nullptr, MAT_FACTOR_SCHUR_UNFACTORED));
  PetscCall(MatDenseGetLDA(F->schur, &lda));
  PetscCall(MatDenseGetArrayWrite(F->schur, &s));
  const PetscErrorCode ierr =
      guarded(PETSC_COMM_SELF, "gpuglu schur_complement", [&] { f->solver->schur_complement(s, lda); });
  PetscCall(MatDenseRestoreArrayWrite(F->schur, &s));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode schur_vec_solve(Mat F, Vec b, Vec x, bool transpose) {
  const PetscScalar* bv;
  PetscScalar* xv;
  PetscInt n;
  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(b, &n));
  PetscCall(PetscLogEventBegin(log_events.solve, F, b, x, 0));
  PetscCall(VecGetArrayRead(b, &bv));
  PetscCall(VecGetArrayWrite(x, &xv));
  PetscCall(solve_columns(F, 1, bv, n, xv, n, transpose));
  PetscCall(VecRestoreArrayWrite(x, &xv));
  PetscCall(VecRestoreArrayRead(b, &bv));
  PetscCall(PetscLogEventEnd(log_events.solve, F, b, x, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode schur_mat_solve(Mat F, Mat B, Mat X, bool transpose) {
  DenseSolveOperands op;
  PetscFunctionBegin;
  PetscCall(op.get(B, X));
  PetscCall(PetscLogEventBegin(log_events.solve, F, op.Bd, X, 0));
  PetscCall(solve_columns(F, op.nrhs, op.b, op.ldb, op.x, op.ldx, transpose));
  PetscCall(PetscLogEventEnd(log_events.solve, F, op.Bd, X, 0));
  PetscCall(op.restore());
  PetscFunctionReturn(0);
}

PetscErrorCode schur_view(Mat F, PetscViewer viewer) {
  const Factor* f = factor_of(F);
  PetscFunctionBegin;
  if (!F->schur) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer,
                                   "Schur complement (MatFactorSetSchurIS): %" PetscInt_FMT " x %" PetscInt_FMT
                                   " dense block of the IS's unknowns, %s; solves condense, solve with it, expand\n",
                                   (PetscInt)f->schur_indices.size(), (PetscInt)f->schur_indices.size(),
                                   status_name(F->schur_status)));
  if (F->factortype == MAT_FACTOR_CHOLESKY && schur_active(f))
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "Cholesky with a Schur IS: gpuglu's supernodal LDL^T of A11, S symmetric\n"));
  PetscFunctionReturn(0);
}

PetscErrorCode schur_destroy(Mat F) {
  PetscFunctionBegin;
  PetscCall(MatDestroy(&F->schur));
  PetscCall(PetscObjectComposeFunction((PetscObject)F, "MatFactorSetSchurIS_C", nullptr));
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
