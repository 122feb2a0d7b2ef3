// The phases every gpuglu factor type shares, driven by PETSc:
//   symbolic -> analyze(): the solver's analysis (once per nonzero pattern)
//   numeric  -> factor_numeric(): factor / refactor with every new set of values
// and what they report. Failures of the matrix (structurally singular, zero pivot) become
// MatFactorErrors, as in PETSc's own factorizations, so KSP reports DIVERGED_PC_FAILED;
// -ksp_error_if_not_converged (which sets erroriffailure) turns them into errors instead.
// The entry points per factor type are in factor_lu.cpp (LU, ILU) and factor_cholesky.cpp
// (Cholesky, ICC); the factor Mat itself in factor_mat.cpp.
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
  PetscCall(PetscObjectTypeCompare((PetscObject)a, MATSEQSBAIJ, &sbaij));
  PetscCheck(!sbaij || a->rmap->bs == 1, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: SBAIJ matrices with block size %" PetscInt_FMT " are not supported (block size 1 is)",
             a->rmap->bs);
  // symmetric = FALSE, inodecompressed = FALSE: SeqAIJ (and SeqSBAIJ with block size 1, its
  // upper triangle) hand out their own arrays, sorted with unique columns.
  PetscCall(MatGetRowIJ(a, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &rowptr, &colind, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "gpuglu: cannot access the CSR arrays of a %s matrix",
             ((PetscObject)a)->type_name);
  if (sbaij) {
    PetscScalar* v = nullptr;
    PetscCall(MatSeqSBAIJGetArray(a, &v));  // there is no read-only accessor for SBAIJ
    values = v;
  } else {
    PetscCall(MatSeqAIJGetArrayRead(a, &values));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode BorrowedCsr::restore() {
  PetscBool done = PETSC_FALSE;
  PetscFunctionBegin;
  if (!mat) PetscFunctionReturn(0);
  if (sbaij) {
    PetscScalar* v = const_cast<PetscScalar*>(values);
    PetscCall(MatSeqSBAIJRestoreArray(mat, &v));
  } else {
    PetscCall(MatSeqAIJRestoreArrayRead(mat, &values));
  }
  PetscCall(MatRestoreRowIJ(mat, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &rowptr, &colind, &done));
  mat = nullptr;
  PetscFunctionReturn(0);
}


// Analysis of A's current pattern on the factor's solver (the object persists, so its
// buffers and the analyses counter survive re-analysis).
PetscErrorCode analyze(Mat F, Mat A) {
  Factor* f = factor_of(F);
  std::string failure;
  bool structural_failure = false;

  PetscFunctionBegin;
  const int32_t* perm = f->use_petsc_ordering ? f->given_perm.data() : nullptr;
  PetscCall(analyze_borrowed(
      F, A, f->solver.symmetric() ? "gpuglu::SparseLDLT::analyze" : "gpuglu::SparseLU::analyze",
      [&](const BorrowedCsr& csr) { f->solver.analyze(csr.view(), perm); }, &structural_failure, &failure));

  if (!f->analysis_ok) {
    // A structurally singular pattern stays so for every value (STRUCT_ZEROPIVOT sticks to
    // the factor, as in PETSc's LU); NaN/Inf values may be gone at the next factorization.
    PetscCall(set_factor_error(F, error_if_failure(F, A), structural_failure ? MAT_FACTOR_STRUCT_ZEROPIVOT : MAT_FACTOR_NUMERIC_ZEROPIVOT,
                               structural_failure ? PETSC_ERR_MAT_LU_ZRPVT : PETSC_ERR_FP, 0.0, -1, failure.c_str()));
  } else {
    ++f->analyses;
    F->factorerrortype = MAT_FACTOR_NOERROR;
    // PETSc's factorizations preallocate from -pc_factor_fill and say when it was short;
    // gpuglu's symbolic factorization is exact, so the given ratio is only reported.
    if (f->nnz_a > 0)
      PetscCall(PetscInfo(A, "gpuglu: fill ratio given %g, needed %g (exact symbolic factorization: nothing is reallocated)\n",
                          f->fill_given, static_cast<double>(f->solver->schedule().nnz_factor()) / static_cast<double>(f->nnz_a)));
    if (f->solver->schedule().scales_clamped > 0)
      PetscCall(PetscInfo(F,
                          "gpuglu: %d MC64 scales lie outside the double range and were clamped to it; the others "
                          "are exact (the pivot policy handles what the clamped ones leave)\n",
                          f->solver->schedule().scales_clamped));
    const Backend active = f->solver->active_backend();
    if (active == Backend::cuda)
      PetscCall(PetscInfo(F, "gpuglu: CUDA backend on device %d (%s), nnz(L+U) %" PetscInt64_FMT "\n",
                          f->solver->device_info().ordinal, f->solver->device_info().name.c_str(),
                          (PetscInt64)f->solver->schedule().nnz_factor()));
    else if (!f->solver->backend_note().empty())
      PetscCall(PetscInfo(F, "gpuglu: backend %s falls back to the CPU: %s\n", to_string(f->solver->options().backend).data(),
                          f->solver->backend_note().c_str()));
  }
  PetscFunctionReturn(0);
}

// -mat_gpuglu_ordering petsc: the column permutation PETSc computed (new -> old), applied
// symmetrically after the matching. Any other ordering ignores PETSc's. PCFactor passes none
// when the user named no -pc_factor_mat_ordering_type (gpuglu prefers its own, "external"):
// then PETSc's default for LU, nested dissection, is computed here.
PetscErrorCode take_ordering(Mat F, Mat A, IS col, Factor* f) {
  PetscInt len;
  const PetscInt* idx;
  IS own_row = nullptr, own_col = nullptr;

  PetscFunctionBegin;
  f->given_perm.clear();
  if (!f->use_petsc_ordering) {
    if (col) PetscCall(PetscInfo(F, "gpuglu: ignoring PETSc's ordering (-mat_gpuglu_ordering petsc would use it)\n"));
    PetscFunctionReturn(0);
  }
  if (!col) {
    PetscCall(PetscInfo(F, "gpuglu: -mat_gpuglu_ordering petsc without -pc_factor_mat_ordering_type: using PETSc's "
                           "%s ordering\n", MATORDERINGND));
    PetscCall(MatGetOrdering(A, MATORDERINGND, &own_row, &own_col));
    col = own_col;
  }
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
  PetscCall(ISDestroy(&own_row));
  PetscCall(ISDestroy(&own_col));
  PetscFunctionReturn(0);
}

PetscErrorCode set_factor_error(Mat F, bool error_if_failure, MatFactorError type, PetscErrorCode code, PetscReal value,
                                PetscInt row, const char* why) {
  PetscFunctionBegin;
  PetscCheck(!error_if_failure, PETSC_COMM_SELF, code, "gpuglu: %s", why);
  F->factorerrortype = type;
  F->factorerror_zeropivot_value = value;
  F->factorerror_zeropivot_row = row;
  PetscCall(PetscInfo(F, "gpuglu: %s (MatFactorError: %s)\n", why,
                      type == MAT_FACTOR_STRUCT_ZEROPIVOT ? "MAT_FACTOR_STRUCT_ZEROPIVOT" : "MAT_FACTOR_NUMERIC_ZEROPIVOT"));
  PetscFunctionReturn(0);
}

PetscErrorCode log_flops(const Factor* f, double flops) {
  PetscFunctionBegin;
#if defined(PETSC_HAVE_DEVICE)
  if (f->solver->active_backend() == Backend::cuda) {
    PetscCall(PetscLogGpuFlops(flops));
    PetscFunctionReturn(0);
  }
#else
  (void)f;
#endif
  PetscCall(PetscLogFlops(flops));
  PetscFunctionReturn(0);
}

// What a failed static pivot order led to (pivot policies auto and repivot): one -info line
// with the trigger, the new schedule(s) and the outcome.
PetscErrorCode report_recovery(Mat F, const FactorStats& stats, const char* where) {
  Factor* f = factor_of(F);
  char trigger[256], action[256];

  PetscFunctionBegin;
  if (stats.recovery == RecoveryReason::none && !stats.repivoted && !stats.repivot_singular && !stats.lu_fallback)
    PetscFunctionReturn(0);
  switch (stats.recovery) {
    case RecoveryReason::backward_error:
      std::snprintf(trigger, sizeof(trigger), "a solve's backward error stayed above %g after refinement",
                    f->options.backward_error_tolerance);
      break;
    case RecoveryReason::growth:
      std::snprintf(trigger, sizeof(trigger),
                    "a suspicious factor (growth %g, check above %g; clamped scales %d) failed its check solve "
                    "(backward error above %g)",
                    stats.recovery_growth, f->options.check_growth, f->solver.analyzed() ? f->solver->schedule().scales_clamped : 0,
                    f->options.backward_error_tolerance);
      break;
    default:
      if (stats.lu_fallback && stats.repivot_column_original < 0)
        std::snprintf(trigger, sizeof(trigger),
                      "the LDL^T's perturbed tiny pivots left its check solve at backward error %g, above %g",
                      stats.check_backward_error, f->options.backward_error_tolerance);
      else
        std::snprintf(trigger, sizeof(trigger), "tiny pivot %g in column %" PetscInt_FMT " of A",
                      stats.repivot_pivot_value, (PetscInt)stats.repivot_column_original);
  }
  if (stats.lu_fallback)
    std::snprintf(action, sizeof(action), "the LDL^T handed A to gpuglu's LU (nnz(L+U) %" PetscInt64_FMT
                                          " against nnz(L+D) %" PetscInt64_FMT ")",
                  (PetscInt64)f->solver.active_schedule().nnz_factor(), (PetscInt64)f->solver->schedule().nnz_factor());
  else if (stats.repivot_singular)
    std::snprintf(action, sizeof(action), "KLU's partial pivoting finds A singular as well, the schedule is kept");
  else
    std::snprintf(action, sizeof(action), "%s%s%s, nnz(L+U) %" PetscInt64_FMT " -> %" PetscInt64_FMT,
                  stats.reanalyzed ? "analyzed the current values afresh" : "",
                  stats.reanalyzed && stats.repivoted ? ", then " : "",
                  stats.repivoted ? "re-pivoted with KLU's partial pivoting" : "", (PetscInt64)stats.repivot_nnz_before,
                  (PetscInt64)f->solver->schedule().nnz_factor());
  f->reanalyses += stats.reanalyzed;
  f->repivots += stats.repivoted;
  f->lu_fallbacks += stats.lu_fallback;
  if (stats.reanalyzed || stats.repivoted || stats.lu_fallback)
    f->last_recovery = stats.recovery != RecoveryReason::none ? stats.recovery : RecoveryReason::tiny_pivot;
  PetscCall(PetscInfo(F, "gpuglu: %s: %s; %s; %s\n", where, trigger, action,
                      stats.status != Status::ok ? "failed"
                      : f->solver->active_backend() == Backend::cuda ? "continuing on the GPU"
                                                                 : "continuing on the CPU"));
  PetscFunctionReturn(0);
}

PetscErrorCode report_factor_stats(Mat F, Mat A, const FactorStats& stats) {
  Factor* f = factor_of(F);
  PetscInt row = -1;
  const PetscInt col = stats.pivot_column_original;
  const bool error_if = error_if_failure(F, A);
  char why[512];

  PetscFunctionBegin;
  PetscCall(report_recovery(F, stats, "factorization"));
  if (stats.shift_tries > 0)
    PetscCall(PetscInfo(A, "gpuglu: number of shift_%s tries %d, shift_amount %g\n",
                        f->options.shift_type == ShiftType::positive_definite ? "pd" : "nz", stats.shift_tries,
                        stats.shift_amount));
  switch (stats.status) {
    case Status::ok:
      F->factorerrortype = MAT_FACTOR_NOERROR;
      if (stats.check_backward_error >= 0 && stats.recovery == RecoveryReason::none)
        PetscCall(PetscInfo(F,
                            "gpuglu: factorization: growth %g (check above %g); a check solve reached backward error "
                            "%g, within %g: accepted\n",
                            stats.growth, f->options.check_growth, stats.check_backward_error,
                            f->options.backward_error_tolerance));
      if (stats.perturbed_pivots > 0)
        PetscCall(PetscInfo(F,
                            "gpuglu: %" PetscInt64_FMT " tiny pivots perturbed (relative perturbation %g); "
                            "solves refine iteratively\n",
                            (PetscInt64)stats.perturbed_pivots, f->options.perturbation));
      break;
    case Status::numerically_singular:
      if (col < 0) {
        // Every pivot passed, but no pivot order gave a solve within the tolerance.
        std::snprintf(why, sizeof(why),
                      "no pivot order factors A accurately: the check solve's backward error %g stays above %g "
                      "(A is singular to working precision)",
                      stats.check_backward_error, f->options.backward_error_tolerance);
        PetscCall(set_factor_error(F, error_if, MAT_FACTOR_NUMERIC_ZEROPIVOT, PETSC_ERR_MAT_LU_ZRPVT, 0.0, -1, why));
        break;
      }
      PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::Schedule", [&] {
        if (stats.pivot_column >= 0) row = f->solver->schedule().row_perm.at(stats.pivot_column);
      }));
      std::snprintf(why, sizeof(why),
                    "zero pivot in row %" PetscInt_FMT ", column %" PetscInt_FMT
                    " of A: value %g (tiny: |pivot| <= %g * max |column| or <= %g)%s",
                    row, col, stats.pivot_value, f->options.pivot_threshold, f->options.zero_pivot,
                    f->options.pivot_policy == PivotPolicy::automatic
                        ? ", also after a fresh analysis and KLU's partial pivoting"
                        : "; -mat_gpuglu_pivot_policy auto re-analyzes and re-pivots, perturb (or "
                          "-pc_factor_shift_type nonzero) perturbs it");
      PetscCall(set_factor_error(F, error_if, MAT_FACTOR_NUMERIC_ZEROPIVOT, PETSC_ERR_MAT_LU_ZRPVT,
                                 std::fabs(stats.pivot_value), row, why));
      break;
    case Status::nan_or_inf:
      // Values gone bad (a Newton step too far) fail this factorization only, so that SNES
      // can cut the step and go on.
      std::snprintf(why, sizeof(why), "%s in column %" PetscInt_FMT " of A (an input value)",
                    std::isnan(stats.pivot_value) ? "NaN" : "Inf", col);
      PetscCall(set_factor_error(F, error_if, MAT_FACTOR_NUMERIC_ZEROPIVOT, PETSC_ERR_FP, stats.pivot_value, -1, why));
      break;
    default:
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "gpuglu: numeric factorization failed: %s", to_string(stats.status));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode factor_numeric(Mat F, Mat A) {
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

  // A's values from the device where they are valid there (a CUDA PETSc's SeqAIJCUSPARSE
  // and a CUDA engine: device_data.cpp), else from the host.
  const PetscScalar* d_values = nullptr;
  if (same_matrix) PetscCall(get_device_values(F, A, &d_values));
  const bool on_device = d_values != nullptr;
  if (!on_device) PetscCall(csr.borrow(A));
  PetscCall(PetscLogEventBegin(log_events.numeric, A, 0, 0, 0));
  try {
    // Same Mat and nonzero state: the pattern is the analyzed one, only values travel.
    // Another Mat: factor() compares its pattern with the analyzed one.
    stats = on_device     ? f->solver->factor_device(d_values)
            : same_matrix ? f->solver->refactor(csr.values)
                          : f->solver->factor(csr.view());
  } catch (const Error& e) {
    if (e.status() == Status::pattern_changed)
      other_pattern = true;
    else
      ierr = raise_current_exception(PETSC_COMM_SELF, f->solver.symmetric() ? "gpuglu::SparseLDLT::factor" : "gpuglu::SparseLU::factor");
  } catch (...) {
    ierr = raise_current_exception(PETSC_COMM_SELF, f->solver.symmetric() ? "gpuglu::SparseLDLT::factor" : "gpuglu::SparseLU::factor");
  }
  if (!ierr && !other_pattern && f->solver.analyzed()) PetscCall(log_flops(f, f->solver->schedule().factor_flops));
  PetscCall(PetscLogEventEnd(log_events.numeric, A, 0, 0, 0));
  PetscCall(restore_device_values(A, &d_values));
  PetscCall(csr.restore());
  PetscCall(ierr);
  if (!other_pattern) {
    ++f->numerics;
    f->device_numerics += on_device;
  }

  if (other_pattern) {
    PetscCall(PetscInfo(F, "gpuglu: A is not the analyzed matrix and its pattern differs; analyzing again\n"));
    PetscCall(analyze(F, A));
    // Now A is the analyzed matrix: the second call refactors.
    if (f->analysis_ok) PetscCall(factor_numeric(F, A));
    PetscFunctionReturn(0);
  }
  f->error_if_failure = error_if_failure(F, A);
  PetscCall(report_factor_stats(F, A, stats));
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
