// MatGetFactor for MATSOLVERGPUGLU, and the LU phases PETSc drives:
//   MatLUFactorSymbolic -> SparseLU::analyze   (once per nonzero pattern)
//   MatLUFactorNumeric  -> SparseLU::refactor / factor (every new set of values)
// Failures of the matrix (structurally singular, zero pivot) become MatFactorErrors, as in
// PETSc's own LU, so KSP reports DIVERGED_PC_FAILED; -ksp_error_if_not_converged (which sets
// erroriffailure) turns them into PETSC_ERR_MAT_LU_ZRPVT errors instead.
#include <cmath>
#include <cstdio>
#include <limits>

#include "impl.hpp"

namespace gpuglu::petsc {

PetscErrorCode BorrowedCsr::borrow(Mat a) {
  PetscBool done = PETSC_FALSE;
  PetscFunctionBegin;
  mat = a;
  ncols = a->cmap->n;
  // symmetric = FALSE, inodecompressed = FALSE: SeqAIJ hands out its own arrays (sorted, unique columns).
  PetscCall(MatGetRowIJ(a, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &rowptr, &colind, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "gpuglu: cannot access the CSR arrays of a %s matrix",
             ((PetscObject)a)->type_name);
  PetscCall(MatSeqAIJGetArrayRead(a, &values));
  PetscFunctionReturn(0);
}

PetscErrorCode BorrowedCsr::restore() {
  PetscBool done = PETSC_FALSE;
  PetscFunctionBegin;
  if (!mat) PetscFunctionReturn(0);
  PetscCall(MatSeqAIJRestoreArrayRead(mat, &values));
  PetscCall(MatRestoreRowIJ(mat, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &rowptr, &colind, &done));
  mat = nullptr;
  PetscFunctionReturn(0);
}

namespace {

bool error_if_failure(Mat F, Mat A) { return A->erroriffailure || F->erroriffailure; }

// A structurally singular A is a property of the matrix, not a malfunction: PETSc's
// MAT_FACTOR_STRUCT_ZEROPIVOT (KSP: DIVERGED_PC_FAILED), unless errors were asked for.
PetscErrorCode report_structural(Mat F, Mat A, const char* why) {
  PetscFunctionBegin;
  PetscCheck(!error_if_failure(F, A), PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "gpuglu: %s", why);
  F->factorerrortype = MAT_FACTOR_STRUCT_ZEROPIVOT;
  F->factorerror_zeropivot_value = 0.0;
  F->factorerror_zeropivot_row = -1;
  PetscCall(PetscInfo(F, "gpuglu: %s (MatFactorError: MAT_FACTOR_STRUCT_ZEROPIVOT)\n", why));
  PetscFunctionReturn(0);
}

// Analysis of A's current pattern on the factor's SparseLU (the object persists, so its
// buffers and the analyses counter survive re-analysis).
PetscErrorCode analyze(Mat F, Mat A) {
  Factor* f = factor_of(F);
  BorrowedCsr csr;
  PetscErrorCode ierr = 0;
  char structural[512] = "";

  PetscFunctionBegin;
  PetscCall(csr.borrow(A));
  PetscCall(PetscObjectGetId((PetscObject)A, &f->matrix_id));
  f->nonzerostate = A->nonzerostate;
  f->nnz_a = csr.rowptr[csr.nrows];
  f->analysis_ok = false;
  const int32_t* perm = f->use_petsc_ordering ? f->given_perm.data() : nullptr;

  PetscCall(PetscLogEventBegin(log_events.analysis, A, 0, 0, 0));
  try {
    f->lu->analyze(csr.view(), perm);
    f->analysis_ok = true;
  } catch (const Error& e) {
    if (e.status() == Status::structurally_singular || e.status() == Status::empty_row)
      std::snprintf(structural, sizeof(structural), "%s", e.what());
    else
      ierr = raise_current_exception(PETSC_COMM_SELF, "gpuglu::SparseLU::analyze");
  } catch (...) {
    ierr = raise_current_exception(PETSC_COMM_SELF, "gpuglu::SparseLU::analyze");
  }
  PetscCall(PetscLogEventEnd(log_events.analysis, A, 0, 0, 0));
  PetscCall(csr.restore());
  PetscCall(ierr);

  if (!f->analysis_ok) {
    PetscCall(report_structural(F, A, structural));
  } else {
    ++f->analyses;
    F->factorerrortype = MAT_FACTOR_NOERROR;
    // PETSc's factorizations preallocate from -pc_factor_fill and say when it was short;
    // gpuglu's symbolic factorization is exact, so the given ratio is only reported.
    if (f->nnz_a > 0)
      PetscCall(PetscInfo(A, "gpuglu: fill ratio given %g, needed %g (exact symbolic factorization: nothing is reallocated)\n",
                          f->fill_given, static_cast<double>(f->lu->schedule().nnz_factor()) / static_cast<double>(f->nnz_a)));
    const Backend active = f->lu->active_backend();
    if (active == Backend::cuda)
      PetscCall(PetscInfo(F, "gpuglu: CUDA backend on device %d (%s), nnz(L+U) %" PetscInt64_FMT "\n",
                          f->lu->device_info().ordinal, f->lu->device_info().name.c_str(),
                          (PetscInt64)f->lu->schedule().nnz_factor()));
    else if (!f->lu->backend_note().empty())
      PetscCall(PetscInfo(F, "gpuglu: backend %s falls back to the CPU: %s\n", to_string(f->lu->options().backend).data(),
                          f->lu->backend_note().c_str()));
  }
  PetscFunctionReturn(0);
}

// -mat_gpuglu_ordering petsc: the column permutation PETSc computed (new -> old), applied
// symmetrically after the matching. Any other ordering ignores PETSc's.
PetscErrorCode take_ordering(Mat F, Mat A, IS col, Factor* f) {
  PetscInt len;
  const PetscInt* idx;

  PetscFunctionBegin;
  f->given_perm.clear();
  if (!f->use_petsc_ordering) {
    if (col) PetscCall(PetscInfo(F, "gpuglu: ignoring PETSc's ordering (-mat_gpuglu_ordering petsc would use it)\n"));
    PetscFunctionReturn(0);
  }
  PetscCheck(col, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "gpuglu: -mat_gpuglu_ordering petsc needs an ordering from PETSc, but none was passed (with "
             "-pc_type lu choose one with -pc_factor_mat_ordering_type, e.g. rcm, nd, natural)");
  PetscCall(ISGetLocalSize(col, &len));
  PetscCheck(len == A->cmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "gpuglu: PETSc's column ordering has %" PetscInt_FMT " entries for %" PetscInt_FMT " columns", len,
             A->cmap->n);
  PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::take_ordering", [&] { f->given_perm.resize(len); }));
  PetscCall(ISGetIndices(col, &idx));
  for (PetscInt i = 0; i < len; ++i) {
    PetscCheck(idx[i] >= 0 && idx[i] < len, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "gpuglu: PETSc's column ordering maps %" PetscInt_FMT " to %" PetscInt_FMT ", outside [0, %" PetscInt_FMT
               ")",
               i, idx[i], len);
    f->given_perm[i] = static_cast<int32_t>(idx[i]);  // repeated entries are named by the analysis
  }
  PetscCall(ISRestoreIndices(col, &idx));
  PetscFunctionReturn(0);
}

// -mat_gpuglu_pivot_policy repivot: what the re-analysis did, before the usual report of
// the (final) status.
PetscErrorCode report_repivot(Mat F, const FactorStats& stats) {
  Factor* f = factor_of(F);

  PetscFunctionBegin;
  if (stats.repivoted) {
    ++f->repivots;
    PetscCall(PetscInfo(F,
                        "gpuglu: tiny pivot %g in column %" PetscInt_FMT
                        "; re-analyzed with KLU partial pivoting, nnz(L+U) %" PetscInt64_FMT " -> %" PetscInt64_FMT
                        ", continuing on %s\n",
                        stats.repivot_pivot_value, (PetscInt)stats.repivot_column_original,
                        (PetscInt64)stats.repivot_nnz_before, (PetscInt64)f->lu->schedule().nnz_factor(),
                        f->lu->active_backend() == Backend::cuda ? "the GPU" : "the CPU"));
  } else if (stats.repivot_singular) {
    PetscCall(PetscInfo(F,
                        "gpuglu: tiny pivot %g in column %" PetscInt_FMT
                        "; KLU's partial pivoting finds the matrix singular as well, the schedule is kept\n",
                        stats.repivot_pivot_value, (PetscInt)stats.repivot_column_original));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode report_factor_stats(Mat F, Mat A, const FactorStats& stats) {
  Factor* f = factor_of(F);
  PetscInt row = -1;
  const PetscInt col = stats.pivot_column_original;

  PetscFunctionBegin;
  PetscCall(report_repivot(F, stats));
  if (stats.shift_tries > 0)
    PetscCall(PetscInfo(A, "gpuglu: number of shift_%s tries %d, shift_amount %g\n",
                        f->options.shift_type == ShiftType::positive_definite ? "pd" : "nz", stats.shift_tries,
                        stats.shift_amount));
  switch (stats.status) {
    case Status::ok:
      F->factorerrortype = MAT_FACTOR_NOERROR;
      if (stats.perturbed_pivots > 0)
        PetscCall(PetscInfo(F,
                            "gpuglu: %" PetscInt64_FMT " tiny pivots perturbed (relative perturbation %g); "
                            "solves refine iteratively\n",
                            (PetscInt64)stats.perturbed_pivots, f->options.perturbation));
      break;
    case Status::numerically_singular: {
      PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::Schedule", [&] {
        if (stats.pivot_column >= 0) row = f->lu->schedule().row_perm.at(stats.pivot_column);
      }));
      PetscCheck(!error_if_failure(F, A), PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT,
                 "gpuglu: zero pivot in row %" PetscInt_FMT ", column %" PetscInt_FMT
                 " of A: value %g (tiny: |pivot| <= %g * max |column| or <= %g)",
                 row, col, stats.pivot_value, f->options.pivot_threshold, f->options.zero_pivot);
      F->factorerrortype = MAT_FACTOR_NUMERIC_ZEROPIVOT;
      F->factorerror_zeropivot_value = std::fabs(stats.pivot_value);
      F->factorerror_zeropivot_row = row;
      PetscCall(PetscInfo(F,
                          "gpuglu: zero pivot in row %" PetscInt_FMT ", column %" PetscInt_FMT
                          " of A, value %g (MatFactorError: MAT_FACTOR_NUMERIC_ZEROPIVOT; "
                          "-mat_gpuglu_pivot_policy perturb or -pc_factor_shift_type nonzero perturbs it, "
                          "-mat_gpuglu_pivot_policy repivot re-analyzes with partial pivoting)\n",
                          row, col, stats.pivot_value));
      break;
    }
    case Status::nan_or_inf:
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FP,
              "gpuglu: %s in column %" PetscInt_FMT " of A (an input value, or produced by the factorization)",
              std::isnan(stats.pivot_value) ? "NaN" : "Inf", col);
    default:
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "gpuglu: numeric factorization failed: %s", to_string(stats.status));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode MatLUFactorNumeric_GPUGLU(Mat F, Mat A, const MatFactorInfo* info) {
  Factor* f = factor_of(F);
  PetscObjectId id;
  BorrowedCsr csr;
  FactorStats stats;
  bool other_pattern = false;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)A, &id));
  if (id == f->matrix_id && A->nonzerostate != f->nonzerostate) {
    PetscCall(PetscInfo(F, "gpuglu: the nonzero pattern of A changed since the analysis; analyzing again\n"));
    PetscCall(analyze(F, A));
  } else if (!f->analysis_ok) {
    // The matching looks at values too: new values may make a failed analysis succeed.
    PetscCall(PetscInfo(F, "gpuglu: the last analysis failed; analyzing again\n"));
    PetscCall(analyze(F, A));
  }
  if (!f->analysis_ok) PetscFunctionReturn(0);  // analyze() reported the MatFactorError
  const bool same_matrix = id == f->matrix_id;

  PetscCall(csr.borrow(A));
  PetscCall(PetscLogEventBegin(log_events.numeric, A, 0, 0, 0));
  try {
    // Same Mat and nonzero state: the pattern is the analyzed one, only values travel.
    // Another Mat: factor() compares its pattern with the analyzed one.
    stats = same_matrix ? f->lu->refactor(csr.values) : f->lu->factor(csr.view());
  } catch (const Error& e) {
    if (e.status() == Status::pattern_changed)
      other_pattern = true;
    else
      ierr = raise_current_exception(PETSC_COMM_SELF, "gpuglu::SparseLU::factor");
  } catch (...) {
    ierr = raise_current_exception(PETSC_COMM_SELF, "gpuglu::SparseLU::factor");
  }
  PetscCall(PetscLogEventEnd(log_events.numeric, A, 0, 0, 0));
  PetscCall(csr.restore());
  PetscCall(ierr);

  if (other_pattern) {
    PetscCall(PetscInfo(F, "gpuglu: A is not the analyzed matrix and its pattern differs; analyzing again\n"));
    PetscCall(analyze(F, A));
    // Now A is the analyzed matrix: the second call refactors.
    if (f->analysis_ok) PetscCall(MatLUFactorNumeric_GPUGLU(F, A, info));
    PetscFunctionReturn(0);
  }
  PetscCall(report_factor_stats(F, A, stats));
  PetscFunctionReturn(0);
}

PetscErrorCode MatLUFactorSymbolic_GPUGLU(Mat F, Mat A, IS row, IS col, const MatFactorInfo* info) {
  Factor* f = factor_of(F);

  PetscFunctionBegin;
  (void)row;  // a symmetric ordering is applied: PETSc's row and column orderings coincide for LU
  PetscCall(set_options(F, A, info, f));
  PetscCall(take_ordering(F, A, col, f));
  PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::SparseLU", [&] { f->lu = std::make_unique<SparseLU>(f->options); }));
  PetscCall(analyze(F, A));
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
  PetscCheck(info->levels >= 0 && info->levels <= 1000000, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "gpuglu: ILU levels of fill %g out of range", (double)info->levels);
  f->options.ilu_levels = static_cast<int32_t>(info->levels);
  f->options.ordering = Ordering::given;
  f->use_petsc_ordering = true;
  PetscCall(take_ordering(F, A, col, f));
  PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::SparseLU", [&] { f->lu = std::make_unique<SparseLU>(f->options); }));
  PetscCall(analyze(F, A));
  F->ops->lufactornumeric = MatLUFactorNumeric_GPUGLU;
  PetscFunctionReturn(0);
}

PetscErrorCode MatDestroy_GPUGLU(Mat F) {
  PetscFunctionBegin;
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

PetscErrorCode MatGetFactor_SeqAIJ_GPUGLU(Mat A, MatFactorType ftype, Mat* F) {
  Mat B;
  Factor* f = nullptr;

  PetscFunctionBegin;
  PetscCheck(ftype == MAT_FACTOR_LU || ftype == MAT_FACTOR_ILU, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: factor type %s is not supported (LU and ILU are)", MatFactorTypes[ftype]);
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &B));
  PetscCall(MatSetSizes(B, PETSC_DECIDE, PETSC_DECIDE, A->rmap->n, A->cmap->n));
  // A factor Mat has no Mat type of its own: its type name only names the package.
  PetscCall(PetscStrallocpy(MATSOLVERGPUGLU, &((PetscObject)B)->type_name));
  PetscCall(MatSetUp(B));

  const PetscErrorCode ierr = guarded(PETSC_COMM_SELF, "gpuglu::SparseLU", [&] {
    auto holder = std::make_unique<Factor>();
    holder->lu = std::make_unique<SparseLU>(holder->options);
    f = holder.release();
  });
  if (ierr) PetscCall(MatDestroy(&B));
  PetscCall(ierr);
  B->data = f;
  // lufactornumeric is set by the symbolic phase: PETSc rejects a numeric factorization before it.
  B->ops->lufactorsymbolic = MatLUFactorSymbolic_GPUGLU;
  B->ops->ilufactorsymbolic = MatILUFactorSymbolic_GPUGLU;
  B->ops->solve = MatSolve_GPUGLU;
  B->ops->solvetranspose = MatSolveTranspose_GPUGLU;
  B->ops->matsolve = MatMatSolve_GPUGLU;
  B->ops->matsolvetranspose = MatMatSolveTranspose_GPUGLU;
  B->ops->getinfo = MatGetInfo_GPUGLU;
  B->ops->view = MatView_GPUGLU;
  B->ops->destroy = MatDestroy_GPUGLU;
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatFactorGetSolverType_C", MatFactorGetSolverType_GPUGLU));

  B->factortype = ftype;
  B->assembled = PETSC_TRUE;  // -ksp_view views only assembled matrices
  B->preallocated = PETSC_TRUE;
  PetscCall(PetscFree(B->solvertype));
  PetscCall(PetscStrallocpy(MATSOLVERGPUGLU, &B->solvertype));
  // gpuglu orders by itself (external); it can use PETSc's ordering on request (-mat_gpuglu_ordering petsc).
  B->canuseordering = PETSC_TRUE;
  PetscCall(PetscStrallocpy(MATORDERINGEXTERNAL, (char**)&B->preferredordering[MAT_FACTOR_LU]));
  // ILU follows PETSc's ordering, natural by default as PETSc's own ILU.
  PetscCall(PetscStrallocpy(MATORDERINGNATURAL, (char**)&B->preferredordering[MAT_FACTOR_ILU]));
  *F = B;
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
