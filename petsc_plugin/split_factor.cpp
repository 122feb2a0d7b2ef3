// -mat_gpuglu_devices 2: one LU or Cholesky factor of a sequential matrix split over two
// devices by gpuglu::SplitLU (include/gpuglu/split_lu.hpp; docs/user_guide.md, "One LU over
// two GPUs"); a Cholesky factor is its LDL^T split (SplitFactorization::ldlt), of an AIJ A:
//   MatLU/CholeskyFactorSymbolic   -> SplitLU::analyze (a half structurally singular: the
//                                     ordinary one-device SparseLU / SparseLDLT instead, said
//                                     by -ksp_view)
//   MatLU/CholeskyFactorNumeric    -> SplitLU::factor (a failure is a MatFactorError)
//   MatSolve, MatSolveTranspose    -> SplitLU::solve / solve_transpose
//   MatMatSolve(Transpose)         -> the same, column by column
// The split is real only: complex scalars, a Schur IS and -mat_gpuglu_ordering petsc are
// refused, and so are -mat_gpuglu_devices 2 on ILU and ICC factors and on SBAIJ. A's values
// and the vectors go through the host (a CUDA PETSc's device arrays are read and written there).
#include <cmath>
#include <cstdio>
#include <string>

#include "gpuglu/device.hpp"
#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

#if !defined(PETSC_USE_COMPLEX)

// The devices the split takes: a gathered factor's root's share of its node's, else this
// process's (devices_of_rank of the launcher's environment), the first two; with one device
// both halves share it, with none (a CPU build, no visible GPU) both ordinals are 0, which the
// CPU backend ignores.
std::vector<int32_t> split_devices(const Factor* f) {
  const int32_t count = query_device().device_count;
  const std::vector<int32_t> mine =
      f->split.sharers > 0 ? devices_of_rank(count, f->split.share_index, f->split.sharers)
                           : devices_of_rank(count, local_rank_from_environment(), local_size_from_environment());
  if (mine.empty()) return {0, 0};
  if (mine.size() == 1) return {mine[0], mine[0]};
  return {mine[0], mine[1]};
}

// A's CSR with 32-bit indices for SplitLU: PETSc's own arrays where PetscInt has 32 bits,
// else copies kept in f->split.
CsrView<int32_t, double> view32(Factor* f, const BorrowedCsr& csr) {
  if constexpr (sizeof(PetscInt) == sizeof(int32_t)) {
    (void)f;
    return {static_cast<int32_t>(csr.nrows), static_cast<int32_t>(csr.ncols),
            reinterpret_cast<const int32_t*>(csr.rowptr), reinterpret_cast<const int32_t*>(csr.colind), csr.values};
  } else {
    const PetscInt nnz = csr.rowptr[csr.nrows];
    f->split.rowptr32.assign(csr.rowptr, csr.rowptr + csr.nrows + 1);
    f->split.colind32.assign(csr.colind, csr.colind + nnz);
    return {static_cast<int32_t>(csr.nrows), static_cast<int32_t>(csr.ncols), f->split.rowptr32.data(),
            f->split.colind32.data(), csr.values};
  }
}

// Flops on -log_view's GPU counter where a half runs there, else the CPU's.
PetscErrorCode log_split_flops(const SplitLU& s, double flops) {
  PetscFunctionBegin;
#if defined(PETSC_HAVE_DEVICE)
  for (int d = 0; d < 2; ++d)
    if (s.half(d) && s.half(d)->active_backend() == Backend::cuda) {
      PetscCall(PetscLogGpuFlops(flops));
      PetscFunctionReturn(0);
    }
#else
  (void)s;
#endif
  PetscCall(PetscLogFlops(flops));
  PetscFunctionReturn(0);
}

// The halves' factorizations and the root's dense LU of S (2/3 k^3); per right-hand side, the
// halves' triangular solves and the root's (2 k^2).
double factor_flops(const SplitLU& s) {
  const double k = s.separator_size();
  double flops = 2.0 / 3.0 * k * k * k;
  for (int d = 0; d < 2; ++d)
    if (s.half(d) && s.half(d)->analyzed()) flops += s.half(d)->schedule().factor_flops;
  return flops;
}

double solve_flops(const SplitLU& s) {
  const double k = s.separator_size();
  double flops = 2.0 * k * k;
  for (int d = 0; d < 2; ++d)
    if (s.half(d) && s.half(d)->analyzed()) {
      const Schedule& h = s.half(d)->schedule();
      flops += 2.0 * static_cast<double>(h.nnz_factor()) - h.n;
    }
  return flops;
}

int64_t split_nnz(const SplitLU& s) {
  const int64_t k = s.separator_size();
  int64_t nnz = k * k;
  for (int d = 0; d < 2; ++d)
    if (s.half(d) && s.half(d)->analyzed()) nnz += s.half(d)->schedule().nnz_factor();
  return nnz;
}

// SplitLU::analyze of A's current pattern. A half (or A) structurally singular: this factor
// falls back to the one-device SparseLU, whose analysis then reports what A itself is.
PetscErrorCode split_analyze(Mat F, Mat A) {
  Factor* f = factor_of(F);
  std::string failure;
  bool fall_back = false;

  PetscFunctionBegin;
  PetscCall(analyze_borrowed(
      F, A, "gpuglu::SplitLU::analyze", [&](const BorrowedCsr& csr) { f->split.lu->analyze(view32(f, csr)); },
      &fall_back, &failure));

  if (fall_back) {
    f->split.lu.reset();
    f->split.fallback = failure;
    const bool cholesky = F->factortype == MAT_FACTOR_CHOLESKY;
    PetscCall(PetscInfo(F, "gpuglu: -mat_gpuglu_devices 2: %s; this factor runs on one device (%s)\n",
                        failure.c_str(), cholesky ? "SparseLDLT" : "SparseLU"));
    if (cholesky)
      PetscCall(make_cholesky_solver(F, A));
    else
      PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::SparseLU", [&] { f->solver.make_lu(f->options); }));
    PetscCall(analyze(F, A));
    PetscFunctionReturn(0);
  }
  if (!f->analysis_ok) {
    // NaN/Inf values may be gone at the next factorization, which analyzes again.
    PetscCall(
        set_factor_error(F, error_if_failure(F, A), MAT_FACTOR_NUMERIC_ZEROPIVOT, PETSC_ERR_FP, 0.0, -1, failure.c_str()));
    PetscFunctionReturn(0);
  }
  ++f->analyses;
  F->factorerrortype = MAT_FACTOR_NOERROR;
  const SplitLU& s = *f->split.lu;
  PetscCall(PetscInfo(F,
                      "gpuglu: split over 2 devices (ordinals %d, %d): separator %d, parts %d / %d, nnz(L+U) of the "
                      "halves and S %" PetscInt64_FMT "\n",
                      s.devices()[0], s.devices()[1], s.separator_size(), s.part_size(0), s.part_size(1),
                      (PetscInt64)split_nnz(s)));
  PetscFunctionReturn(0);
}

// FactorStats of the split -> PETSc's factor error conventions (factor.cpp's
// report_factor_stats): numeric failures are MAT_FACTOR_NUMERIC_ZEROPIVOT, so that KSP reports
// DIVERGED_PC_FAILED and PCSetUp retries with the next values. The split has no recovery
// ladder of its own: the message names the one-device factor, which has.
PetscErrorCode report_split_stats(Mat F, Mat A, const FactorStats& stats) {
  Factor* f = factor_of(F);
  const bool error_if = error_if_failure(F, A);
  char why[768];

  PetscFunctionBegin;
  switch (stats.status) {
    case Status::ok:
      F->factorerrortype = MAT_FACTOR_NOERROR;
      if (stats.perturbed_pivots > 0)
        PetscCall(PetscInfo(F,
                            "gpuglu: split factorization: %" PetscInt64_FMT
                            " tiny pivots perturbed in the halves; solves refine iteratively\n",
                            (PetscInt64)stats.perturbed_pivots));
      break;
    case Status::numerically_singular:
      // A half's failure says "factor it on one device"; the root's (S singular) does not.
      std::snprintf(why, sizeof(why), "the factorization split over 2 devices failed: %s%s",
                    f->split.lu->failure().c_str(),
                    f->split.lu->failure().find("one device") == std::string::npos
                        ? " (-mat_gpuglu_devices 1 factors A on one device, with the pivot policy's recoveries)"
                        : "");
      PetscCall(set_factor_error(F, error_if, MAT_FACTOR_NUMERIC_ZEROPIVOT, PETSC_ERR_MAT_LU_ZRPVT,
                                 std::fabs(stats.pivot_value), stats.pivot_column_original, why));
      break;
    case Status::nan_or_inf:
      std::snprintf(why, sizeof(why), "the factorization split over 2 devices failed: %s",
                    f->split.lu->failure().c_str());
      PetscCall(set_factor_error(F, error_if, MAT_FACTOR_NUMERIC_ZEROPIVOT, PETSC_ERR_FP, stats.pivot_value, -1, why));
      break;
    default:
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "gpuglu: the factorization split over 2 devices failed: %s (%s)",
              to_string(stats.status), f->split.lu->failure().c_str());
  }
  PetscFunctionReturn(0);
}

// After a solve: -info's line; a solve left above the backward-error tolerance (no recovery
// here) fails the factor as solve.cpp's report_solve does, or is only counted under perturb.
PetscErrorCode report_split_solve(Mat F, bool* failed) {
  Factor* f = factor_of(F);
  const SolveStats& ss = f->split.lu->solve_stats();
  PetscFunctionBegin;
  *failed = ss.status != Status::ok;
  PetscCall(PetscInfo(F, "gpuglu: split solve %.3f ms, %d refinement steps, backward error %g\n", ss.solve_ms,
                      (int)ss.refine_steps, ss.backward_error));
  if (*failed) {
    char why[256];
    std::snprintf(why, sizeof(why),
                  "the split solve's backward error %g stays above %g (the split has no recovery; "
                  "-mat_gpuglu_devices 1 has); the solution is set to Inf",
                  ss.backward_error, f->options.backward_error_tolerance);
    PetscCall(set_factor_error(F, f->error_if_failure, MAT_FACTOR_NUMERIC_ZEROPIVOT, PETSC_ERR_NOT_CONVERGED, 0.0, -1,
                               why));
  } else if (ss.inaccurate) {
    ++f->inaccurate_solves;
    PetscCall(PetscInfo(F, "gpuglu: split solve: backward error %g after %d refinement steps is above %g\n",
                        ss.backward_error, ss.refine_steps, f->options.backward_error_tolerance));
  }
  PetscFunctionReturn(0);
}

const char* backend_words(const BasicSparseSolver<double>* h) {
  return h->active_backend() == Backend::cuda ? "cuda" : "cpu";
}

#endif  // !PETSC_USE_COMPLEX

}  // namespace

bool split_active(const Factor* f) { return f->split.lu != nullptr; }

PetscErrorCode refuse_split(Mat F, const Factor* f) {
  PetscFunctionBegin;
  PetscCheck(f->devices == DevicesOption::one, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: %s %" PetscInt_FMT " splits LU and Cholesky factors only (SplitLU); the %s factor runs on one "
             "device: use %s %" PetscInt_FMT,
             DevicesOption::name, f->devices, MatFactorTypes[F->factortype], DevicesOption::name, DevicesOption::one);
  PetscFunctionReturn(0);
}

PetscErrorCode split_symbolic(Mat F, Mat A) {
  Factor* f = factor_of(F);
  PetscFunctionBegin;
  f->split.lu.reset();
  f->split.fallback.clear();
  f->split.solves = 0;
#if defined(PETSC_USE_COMPLEX)
  (void)A;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP,
          "gpuglu: %s %" PetscInt_FMT ": the split LU (SplitLU) factors real matrices only, and this PETSc's scalars "
          "are complex: use %s %" PetscInt_FMT,
          DevicesOption::name, f->devices, DevicesOption::name, DevicesOption::one);
#else
  PetscCheck(!schur_active(f), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: %s %" PetscInt_FMT " with a Schur IS (MatFactorSetSchurIS): the split keeps no Schur block of "
             "the caller's; use %s %" PetscInt_FMT,
             DevicesOption::name, f->devices, DevicesOption::name, DevicesOption::one);
  PetscCheck(!f->use_petsc_ordering, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "gpuglu: -mat_gpuglu_ordering petsc with %s %" PetscInt_FMT
             ": each half of the split orders its own block with gpuglu's orderings",
             DevicesOption::name, f->devices);
  const std::vector<int32_t> devices = split_devices(f);
  const SplitFactorization how =
      F->factortype == MAT_FACTOR_CHOLESKY ? SplitFactorization::ldlt : SplitFactorization::lu;
  PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::SplitLU",
                    [&] { f->split.lu = std::make_unique<SplitLU>(f->options, devices, how); }));
  PetscCall(split_analyze(F, A));
#endif
  PetscFunctionReturn(0);
}

PetscErrorCode split_numeric(Mat F, Mat A) {
  PetscFunctionBegin;
#if defined(PETSC_USE_COMPLEX)
  (void)F;
  (void)A;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "gpuglu: the split LU factors real matrices only");
#else
  Factor* f = factor_of(F);
  PetscObjectId id;
  BorrowedCsr csr;
  FactorStats stats;
  bool other_pattern = false;
  PetscErrorCode ierr = 0;

  PetscCall(PetscObjectGetId((PetscObject)A, &id));
  if (id == f->matrix_id && A->nonzerostate != f->nonzerostate) {
    PetscCall(PetscInfo(F, "gpuglu: the nonzero pattern of A changed since the split's analysis; analyzing again\n"));
    PetscCall(split_analyze(F, A));
  } else if (!f->analysis_ok) {
    PetscCall(PetscInfo(F, "gpuglu: the split's last analysis failed; analyzing again\n"));
    PetscCall(split_analyze(F, A));
  }
  if (!split_active(f)) {  // the analysis fell back to one device
    if (f->analysis_ok) PetscCall(factor_numeric(F, A));
    PetscFunctionReturn(0);
  }
  if (!f->analysis_ok) PetscFunctionReturn(0);  // split_analyze() reported the MatFactorError

  PetscCall(csr.borrow(A));
  PetscCall(PetscLogEventBegin(log_events.numeric, A, 0, 0, 0));
  try {
    // Another Mat with the analyzed pattern refactors too: SplitLU compares the patterns.
    stats = f->split.lu->factor(view32(f, csr));
  } catch (const Error& e) {
    if (e.status() == Status::pattern_changed)
      other_pattern = true;
    else
      ierr = raise_current_exception(PETSC_COMM_SELF, "gpuglu::SplitLU::factor");
  } catch (...) {
    ierr = raise_current_exception(PETSC_COMM_SELF, "gpuglu::SplitLU::factor");
  }
  if (!ierr && !other_pattern) PetscCall(log_split_flops(*f->split.lu, factor_flops(*f->split.lu)));
  PetscCall(PetscLogEventEnd(log_events.numeric, A, 0, 0, 0));
  PetscCall(csr.restore());
  PetscCall(ierr);
  if (other_pattern) {
    PetscCall(PetscInfo(F, "gpuglu: A is not the analyzed matrix and its pattern differs; analyzing again\n"));
    PetscCall(split_analyze(F, A));
    if (f->analysis_ok) PetscCall(split_numeric(F, A));  // the split's or the fallback's
    PetscFunctionReturn(0);
  }
  ++f->numerics;
  f->error_if_failure = error_if_failure(F, A);
  PetscCall(report_split_stats(F, A, stats));
#endif
  PetscFunctionReturn(0);
}

PetscErrorCode split_vec_solve(Mat F, Vec b, Vec x, bool transpose) {
  PetscFunctionBegin;
#if defined(PETSC_USE_COMPLEX)
  (void)F;
  (void)b;
  (void)x;
  (void)transpose;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "gpuglu: the split LU solves real systems only");
#else
  Factor* f = factor_of(F);
  const PetscScalar* bv;
  PetscScalar* xv;
  // Through the host: a CUDA vector's values come down and the solution goes up by PETSc.
  PetscCall(VecGetArrayRead(b, &bv));
  PetscCall(VecGetArrayWrite(x, &xv));
  PetscCall(PetscLogEventBegin(log_events.solve, F, b, x, 0));
  const PetscErrorCode ierr =
      guarded(PETSC_COMM_SELF, transpose ? "gpuglu::SplitLU::solve_transpose" : "gpuglu::SplitLU::solve", [&] {
        if (transpose)
          f->split.lu->solve_transpose(bv, xv);
        else
          f->split.lu->solve(bv, xv);
      });
  if (!ierr) PetscCall(log_split_flops(*f->split.lu, solve_flops(*f->split.lu)));
  PetscCall(PetscLogEventEnd(log_events.solve, F, b, x, 0));
  PetscCall(VecRestoreArrayWrite(x, &xv));
  PetscCall(VecRestoreArrayRead(b, &bv));
  PetscCall(ierr);
  ++f->vec_solves;
  ++f->split.solves;
  bool failed = false;
  PetscCall(report_split_solve(F, &failed));
  if (failed) PetscCall(set_inf(x));
#endif
  PetscFunctionReturn(0);
}

// SplitLU solves one right-hand side at a time: B's columns one after another (dense B and
// X, leading dimensions honoured; a sparse B is converted to dense first, as solve.cpp does).
PetscErrorCode split_mat_solve(Mat F, Mat B, Mat X, bool transpose) {
  PetscFunctionBegin;
#if defined(PETSC_USE_COMPLEX)
  (void)F;
  (void)B;
  (void)X;
  (void)transpose;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "gpuglu: the split LU solves real systems only");
#else
  Factor* f = factor_of(F);
  DenseSolveOperands op;
  bool failed = false;

  PetscCall(op.get(B, X));
  PetscCall(PetscLogEventBegin(log_events.solve, F, op.Bd, X, 0));
  PetscErrorCode ierr = 0;
  for (PetscInt c = 0; c < op.nrhs && !ierr && !failed; ++c) {
    ierr = guarded(PETSC_COMM_SELF, transpose ? "gpuglu::SplitLU::solve_transpose" : "gpuglu::SplitLU::solve", [&] {
      if (transpose)
        f->split.lu->solve_transpose(op.b + c * op.ldb, op.x + c * op.ldx);
      else
        f->split.lu->solve(op.b + c * op.ldb, op.x + c * op.ldx);
    });
    if (!ierr) {
      ++f->split.solves;
      failed = f->split.lu->solve_stats().status != Status::ok;
    }
  }
  if (!ierr) PetscCall(log_split_flops(*f->split.lu, op.nrhs * solve_flops(*f->split.lu)));
  PetscCall(PetscLogEventEnd(log_events.solve, F, op.Bd, X, 0));
  PetscCall(op.restore());
  if (failed) PetscCall(set_inf(X));  // no solution in X
  PetscCall(ierr);
  PetscCall(report_split_solve(F, &failed));
#endif
  PetscFunctionReturn(0);
}

// -ksp_view of a split factor: the split, each half's backend, engine and device, the root,
// and the factorization's and last solve's outcome.
PetscErrorCode split_view(Mat F, PetscViewer viewer) {
  PetscFunctionBegin;
#if defined(PETSC_USE_COMPLEX)
  (void)F;
  (void)viewer;
#else
  const Factor* f = factor_of(F);
  const SplitLU& s = *f->split.lu;
  const Options& o = f->options;
  PetscCall(PetscViewerASCIIPrintf(viewer,
                                   "gpuglu sparse %s split over 2 devices (SplitLU: nested dissection's top "
                                   "separator, two halves in Schur-complement mode, a dense root):\n",
                                   s.factorization() == SplitFactorization::ldlt ? "LDL^T" : "LU"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (s.analyzed())
    PetscCall(PetscViewerASCIIPrintf(viewer, "split over 2 devices (ordinals %d, %d): separator %d, parts %d / %d\n",
                                     s.devices()[0], s.devices()[1], s.separator_size(), s.part_size(0),
                                     s.part_size(1)));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "split over 2 devices (ordinals %d, %d): not analyzed%s\n", s.devices()[0],
                                     s.devices()[1], F->factorerrortype ? " (the last analysis failed)" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "backend requested: %s, -mat_gpuglu_lu_engine %s, ordering %s%s\n",
                                   to_string(o.backend).data(), to_string(o.lu_engine).data(),
                                   to_string(o.ordering).data(),
                                   o.backend == Backend::cpu ? " (the CPU backend does not use the device ordinals)"
                                                             : ""));
  for (int d = 0; d < 2 && s.analyzed(); ++d) {
    const BasicSparseSolver<double>* h = s.half(d);
    if (!h) {
      PetscCall(PetscViewerASCIIPrintf(viewer, "half %d: empty part (no factor)\n", d));
      continue;
    }
    const Schedule& sc = h->schedule();
    if (h->active_backend() == Backend::cuda)
      PetscCall(PetscViewerASCIIPrintf(viewer,
                                       "half %d: backend %s, factor %s, device GPU %d (%s), n %d, nnz(L+U) %" PetscInt64_FMT
                                       "\n",
                                       d, backend_words(h), to_string(sc.kind), h->device_info().ordinal,
                                       h->device_info().name.c_str(), sc.n, (PetscInt64)sc.nnz_factor()));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "half %d: backend %s, factor %s, n %d, nnz(L+U) %" PetscInt64_FMT "%s%s\n",
                                       d, backend_words(h), to_string(sc.kind), sc.n,
                                       (PetscInt64)sc.nnz_factor(), h->backend_note().empty() ? "" : "; GPU not used: ",
                                       h->backend_note().c_str()));
  }
  if (s.analyzed()) {
    const bool root_on_gpu = s.half(s.half(0) ? 0 : 1) && s.half(s.half(0) ? 0 : 1)->active_backend() == Backend::cuda;
    if (root_on_gpu)
      PetscCall(PetscViewerASCIIPrintf(viewer,
                                       "root: dense S (%d x %d) on GPU %d, Cholesky for a symmetric S where it is positive "
                                       "definite, else LU without pivots where they pass the pivot test, else with "
                                       "partial pivoting; the last factorization: %s\n",
                                       s.separator_size(), s.separator_size(), s.devices()[0],
                                       to_string(s.root_factorization())));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "root: dense LU with partial pivoting of S (%d x %d) on the CPU\n",
                                       s.separator_size(), s.separator_size()));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer,
                                   "pivot policy (each half): %s, threshold %g (relative), zero pivot %g (absolute); a "
                                   "failed split is DIVERGED_PC_FAILED (no recovery: -mat_gpuglu_devices 1 has)\n",
                                   to_string(o.pivot_policy).data(), o.pivot_threshold, o.zero_pivot));
  if (o.refine_steps < 0)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "iterative refinement against A: auto (backward error checked, up to 3 steps), "
                                     "tolerance %g\n",
                                     o.refine_tolerance));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "iterative refinement against A: up to %d steps, tolerance %g\n",
                                     o.refine_steps, o.refine_tolerance));
#if defined(GPUGLU_PETSC_DEVICE_DATA)
  PetscCall(PetscViewerASCIIPrintf(viewer,
                                   "device-resident data: not used by the split (A's values and the vectors go "
                                   "through the host)\n"));
#endif
  const FactorStats& fs = s.factor_stats();
  PetscCall(PetscViewerASCIIPrintf(viewer,
                                   "analyses run: %" PetscInt64_FMT
                                   ", numeric factorizations since the last analysis: %" PetscInt64_FMT "\n",
                                   (PetscInt64)f->analyses, (PetscInt64)fs.factorizations));
  if (!s.factored()) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "no usable numeric factorization (last status: %s)%s%s\n",
                                     to_string(fs.status), s.failure().empty() ? "" : ": ", s.failure().c_str()));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "perturbed pivots: %" PetscInt64_FMT ", min pivot ratio: %.3e\n",
                                     (PetscInt64)fs.perturbed_pivots, fs.min_pivot_ratio));
    PetscCall(PetscViewerASCIIPrintf(viewer, "last factorization time (ms): %.3f\n", fs.factor_ms));
    const SolveStats& ss = s.solve_stats();
    if (f->split.solves > 0 && ss.backward_error >= 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "last solve time (ms): %.3f, refinement steps: %d, backward error: %.3e\n",
                                       ss.solve_ms, ss.refine_steps, ss.backward_error));
    else if (f->split.solves > 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "last solve time (ms): %.3f\n", ss.solve_ms));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
#endif
  PetscFunctionReturn(0);
}

PetscErrorCode split_info(Mat F, MatInfo* info) {
  PetscFunctionBegin;
#if defined(PETSC_USE_COMPLEX)
  (void)F;
  (void)info;
#else
  const Factor* f = factor_of(F);
  if (f->split.lu->analyzed()) {
    const double nnz_f = static_cast<double>(split_nnz(*f->split.lu));
    info->nz_used = nnz_f;
    info->nz_allocated = nnz_f;
    info->fill_ratio_needed = f->nnz_a > 0 ? nnz_f / static_cast<double>(f->nnz_a) : 0.0;
    info->fill_ratio_given = f->fill_given;
  }
#endif
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
