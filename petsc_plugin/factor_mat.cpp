// The factor Mat of MATSOLVERGPUGLU: MatGetFactor for every factor type gpuglu provides,
// with the operations the symbolic phases (factor_lu.cpp, factor_cholesky.cpp) complete.
#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

PetscErrorCode MatDestroy_GPUGLU(Mat F) {
  PetscFunctionBegin;
  PetscCall(schur_destroy(F));
  delete factor_of(F);
  F->data = nullptr;
  PetscCall(PetscObjectComposeFunction((PetscObject)F, "MatFactorGetSolverType_C", nullptr));
  PetscFunctionReturn(0);
}

PetscErrorCode MatFactorGetSolverType_GPUGLU(Mat, MatSolverType* type) {
  PetscFunctionBegin;
  *type = MATSOLVERGPUGLU;
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode MatGetFactor_GPUGLU(Mat A, MatFactorType ftype, Mat* F) {
  Mat B;
  Factor* f = nullptr;

  PetscFunctionBegin;
  PetscBool sbaij;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQSBAIJ, &sbaij));
  const bool symmetric = ftype == MAT_FACTOR_CHOLESKY || ftype == MAT_FACTOR_ICC;
  PetscCheck(symmetric || ftype == MAT_FACTOR_LU || ftype == MAT_FACTOR_ILU, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: factor type %s is not supported (LU, ILU, Cholesky and ICC are)", MatFactorTypes[ftype]);
  PetscCheck(symmetric || !sbaij, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: an SBAIJ matrix stores one triangle: use -pc_type cholesky or icc, or convert it to AIJ for %s",
             MatFactorTypes[ftype]);
  PetscCheck(!sbaij || A->rmap->bs == 1, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: SBAIJ matrices with block size %" PetscInt_FMT " are not supported (block size 1 is)", A->rmap->bs);
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &B));
  PetscCall(MatSetSizes(B, PETSC_DECIDE, PETSC_DECIDE, A->rmap->n, A->cmap->n));
  // A factor Mat has no Mat type of its own: its type name only names the package.
  PetscCall(PetscStrallocpy(MATSOLVERGPUGLU, &((PetscObject)B)->type_name));
  PetscCall(MatSetUp(B));

  const PetscErrorCode ierr = guarded(PETSC_COMM_SELF, "gpuglu::SparseLU", [&] {
    auto holder = std::make_unique<Factor>();
    if (symmetric)
      holder->solver.make_ldlt(holder->options, {});
    else
      holder->solver.make_lu(holder->options);
    f = holder.release();
  });
  if (ierr) PetscCall(MatDestroy(&B));
  PetscCall(ierr);
  B->data = f;
  // lufactornumeric is set by the symbolic phase: PETSc rejects a numeric factorization before it.
  B->ops->lufactorsymbolic = MatLUFactorSymbolic_GPUGLU;
  B->ops->ilufactorsymbolic = MatILUFactorSymbolic_GPUGLU;
  B->ops->choleskyfactorsymbolic = MatCholeskyFactorSymbolic_GPUGLU;
  B->ops->iccfactorsymbolic = MatICCFactorSymbolic_GPUGLU;
  B->ops->getinertia = MatGetInertia_GPUGLU;
  B->ops->solve = MatSolve_GPUGLU;
  B->ops->solvetranspose = MatSolveTranspose_GPUGLU;
  B->ops->matsolve = MatMatSolve_GPUGLU;
  B->ops->matsolvetranspose = MatMatSolveTranspose_GPUGLU;
  B->ops->getinfo = MatGetInfo_GPUGLU;
  B->ops->view = MatView_GPUGLU;
  B->ops->destroy = MatDestroy_GPUGLU;
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatFactorGetSolverType_C", MatFactorGetSolverType_GPUGLU));
  // Every factor type: ILU and ICC answer with an error that says why, not PETSc's generic one.
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatFactorSetSchurIS_C", MatFactorSetSchurIS_GPUGLU));

  B->factortype = ftype;
  B->assembled = PETSC_TRUE;  // -ksp_view views only assembled matrices
  B->preallocated = PETSC_TRUE;
  PetscCall(PetscFree(B->solvertype));
  PetscCall(PetscStrallocpy(MATSOLVERGPUGLU, &B->solvertype));
  // gpuglu orders by itself (external); it can use PETSc's ordering on request (-mat_gpuglu_ordering petsc).
  B->canuseordering = PETSC_TRUE;
  PetscCall(PetscStrallocpy(MATORDERINGEXTERNAL, (char**)&B->preferredordering[MAT_FACTOR_LU]));
  PetscCall(PetscStrallocpy(MATORDERINGEXTERNAL, (char**)&B->preferredordering[MAT_FACTOR_CHOLESKY]));
  // ILU and ICC follow PETSc's ordering, natural by default as PETSc's own.
  PetscCall(PetscStrallocpy(MATORDERINGNATURAL, (char**)&B->preferredordering[MAT_FACTOR_ILU]));
  PetscCall(PetscStrallocpy(MATORDERINGNATURAL, (char**)&B->preferredordering[MAT_FACTOR_ICC]));
  *F = B;
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
