// The LU and ILU phases PETSc drives on a gpuglu factor Mat (SeqAIJ):
//   MatLUFactorSymbolic / MatILUFactorSymbolic -> SparseLU::analyze (once per pattern)
//   MatLUFactorNumeric                         -> SparseLU::refactor / factor (factor.cpp)
// -mat_gpuglu_devices 2 splits an LU over two devices (SplitLU, split_factor.cpp); ILU refuses it.
#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

PetscErrorCode MatLUFactorNumeric_GPUGLU(Mat F, Mat A, const MatFactorInfo*) {
  PetscFunctionBegin;
  if (split_active(factor_of(F)))
    PetscCall(split_numeric(F, A));
  else if (schur_active(factor_of(F)))
    PetscCall(schur_numeric(F, A));
  else
    PetscCall(factor_numeric(F, A));
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode MatLUFactorSymbolic_GPUGLU(Mat F, Mat A, IS row, IS col, const MatFactorInfo* info) {
  Factor* f = factor_of(F);

  PetscFunctionBegin;
  (void)row;  // a symmetric ordering is applied: PETSc's row and column orderings coincide for LU
  PetscCall(set_options(F, A, info, f));
  PetscCall(take_ordering(F, A, col, f));
  f->split.lu.reset();
  f->split.fallback.clear();
  if (f->devices == DevicesOption::split) {
    PetscCall(split_symbolic(F, A));  // SplitLU, or SparseLU where a half is structurally singular
  } else if (schur_active(f)) {
    PetscCall(schur_symbolic(F, A, f));
  } else {
    PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::SparseLU", [&] { f->solver.make_lu(f->options); }));
    PetscCall(analyze(F, A));
  }
  F->ops->lufactornumeric = MatLUFactorNumeric_GPUGLU;
  PetscFunctionReturn(0);
}

// ILU(k): the same SparseLU on the levels-of-fill pattern (Options::ilu_levels), in PETSc's
// ordering (natural unless -pc_factor_mat_ordering_type says otherwise), as PETSc's own ILU,
// so that Krylov iteration counts match it. The numeric phase is the LU one.
PetscErrorCode MatILUFactorSymbolic_GPUGLU(Mat F, Mat A, IS row, IS col, const MatFactorInfo* info) {
  Factor* f = factor_of(F);

  PetscFunctionBegin;
  (void)row;
  PetscCall(set_options(F, A, info, f));
  PetscCall(refuse_split(F, f));
  f->split.lu.reset();
  PetscCheck(info->levels >= 0 && info->levels <= 1000000, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "gpuglu: ILU levels of fill %g out of range", (double)info->levels);
  f->options.ilu_levels = static_cast<int32_t>(info->levels);
  f->options.ordering = Ordering::given;
  f->use_petsc_ordering = true;
  PetscCall(take_ordering(F, A, col, f));
  PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::SparseLU", [&] { f->solver.make_lu(f->options); }));
  PetscCall(analyze(F, A));
  F->ops->lufactornumeric = MatLUFactorNumeric_GPUGLU;
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
