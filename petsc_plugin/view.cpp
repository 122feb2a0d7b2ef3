// What -ksp_view / -mat_factor_view show of a gpuglu factor (ASCII info format), and
// MatGetInfo (nonzeros of L+U, the fill ratio PETSc reports and reuses).
#include <algorithm>
#include <cstdio>
#include <string>

#include "gpuglu/device.hpp"
#include "gpuglu/options.hpp"
#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

const char* on_off(bool b) { return b ? "on" : "off"; }

const char* ordering_name(Ordering o) {
  return o == Ordering::given ? "petsc (PETSc's column ordering)" : to_string(o).data();
}

PetscErrorCode view_device(const Factor* f, Backend active, PetscViewer viewer) {
  PetscFunctionBegin;
  if (active == Backend::cuda) {
    const DeviceInfo& d = f->solver->device_info();
    PetscCall(PetscViewerASCIIPrintf(viewer, "device: GPU %d: %s (%d SMs, %.1f GiB), factor memory %.1f MiB\n",
                                     d.ordinal, d.name.c_str(), d.sm_count,
                                     static_cast<double>(d.memory_bytes) / (1 << 30),
                                     static_cast<double>(f->solver->device_bytes()) / (1 << 20)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "triangular solves: %s (-mat_gpuglu_trsv %s), level analysis on the %s\n",
                                     to_string(f->solver->trsv_kernel()).data(), to_string(f->options.trsv_kernel).data(),
                                     f->options.trsv_analysis == TrsvAnalysisSite::gpu ? "GPU" : "CPU"));
    if (f->device_numerics > 0 || f->device_vec_solves > 0)
      PetscCall(PetscViewerASCIIPrintf(viewer,
                                       "device-resident data: values from the device in %" PetscInt64_FMT
                                       " of %" PetscInt64_FMT " numeric factorizations, %" PetscInt64_FMT
                                       " of %" PetscInt64_FMT " solves on device vectors\n",
                                       (PetscInt64)f->device_numerics, (PetscInt64)f->numerics,
                                       (PetscInt64)f->device_vec_solves, (PetscInt64)f->vec_solves));
  } else {
    if (!f->solver->backend_note().empty())
      PetscCall(PetscViewerASCIIPrintf(viewer, "GPU not used: %s\n", f->solver->backend_note().c_str()));
    if (f->threads_defaulted) {
      const NodeShare& s = rank_node_share();
      const int32_t w = f->waiting_ranks;
      const std::string lent = w > 0 ? "; with the spare processors of " + std::to_string(w) +
                                           (w == 1 ? " rank" : " ranks") + " of its group waiting for it"
                                     : std::string();
      PetscCall(PetscViewerASCIIPrintf(viewer,
                                       "device: CPU, %d threads (the rank's share of its node: %d processors, %d "
                                       "ranks; this rank may run on %d%s)\n",
                                       f->options.num_threads, s.node_processors, s.ranks_on_node,
                                       s.process_processors, lent.c_str()));
    } else {
      const int threads = threads_of(f->options.num_threads);
      PetscCall(PetscViewerASCIIPrintf(viewer, "device: CPU, %d threads\n", threads));
    }
  }
  PetscFunctionReturn(0);
}

// What the analysis did where there is one (the matching may be skipped, e.g. for n = 0),
// else what the options ask for.
PetscErrorCode view_settings(const Factor* f, PetscViewer viewer) {
  const Options& o = f->options;
  const Schedule* s = f->solver.analyzed() ? &f->solver->schedule() : nullptr;
  PetscFunctionBegin;
  if (s && s->repivoted) {
    // Pivot policy auto or repivot replaced the matching and ordering by KLU's pivot order.
    PetscCall(PetscViewerASCIIPrintf(viewer, "ordering: KLU partial pivoting (BTF + AMD, row scaling), after the static "
                                             "pivots failed\n"));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "ordering: %s\n", ordering_name(s ? s->ordering : o.ordering)));
    if (f->solver.symmetric()) {
      PetscCall(PetscViewerASCIIPrintf(viewer, "symmetric scaling (from MC64's): %s\n",
                                       on_off(s ? s->scaled : o.scaling && o.ilu_levels < 0)));
    } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "matching (MC64): %s, scaling: %s%s\n",
                                     on_off(s ? s->matched : o.matching),
                                     on_off(s ? s->scaled : o.matching && o.scaling),
                                     !o.matching && o.scaling ? " (MC64's scaling comes from its matching)" : ""));
    }
    if (s && s->scales_clamped > 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "scales clamped to the double range: %d\n", s->scales_clamped));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "pivot policy: %s, threshold %g (relative), zero pivot %g (absolute)\n",
                                   to_string(o.pivot_policy).data(), o.pivot_threshold, o.zero_pivot));
  if (o.ilu_levels >= 0)
    PetscCall(PetscViewerASCIIPrintf(viewer, "shift type: %s, shift amount %g (PETSc's shift loop)\n",
                                     to_string(o.shift_type).data(), o.shift_amount));
  if (o.pivot_policy == PivotPolicy::perturb)
    PetscCall(
        PetscViewerASCIIPrintf(viewer, "perturbation: %g (relative to the column's largest entry)\n", o.perturbation));
  if (o.ilu_levels < 0 && o.refine_steps != 0)
    PetscCall(PetscViewerASCIIPrintf(viewer, "backward-error tolerance: %g (%s)\n", o.backward_error_tolerance,
                                     o.pivot_policy == PivotPolicy::automatic
                                         ? (f->solver.symmetric() ? "above it: gpuglu's LU on the same matrix"
                                                                  : "above it: a fresh analysis, then KLU's pivoting")
                                     : o.pivot_policy == PivotPolicy::perturb ? "above it: reported by -info"
                                                                              : "above it: the factor fails"));
  if (o.ilu_levels >= 0)
    PetscCall(PetscViewerASCIIPrintf(viewer, "iterative refinement: none (an incomplete factor preconditions)\n"));
  else if (o.refine_steps < 0) {
    char sampled[96] = "";
    if (o.refine_check_interval > 1)
      std::snprintf(sampled, sizeof(sampled), "; once a solve needs none, every %d solves", (int)o.refine_check_interval);
    PetscCall(PetscViewerASCIIPrintf(viewer, "iterative refinement: auto (backward error checked, up to 3 steps%s%s), tolerance %g\n",
                                     f->solver.symmetric() ? "; 10 after perturbed pivots" : "", sampled,
                                     o.refine_tolerance));
  }
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "iterative refinement: up to %d steps, tolerance %g\n", o.refine_steps,
                                     o.refine_tolerance));
  PetscFunctionReturn(0);
}

PetscErrorCode view_analysis(const Factor* f, PetscViewer viewer) {
  const Schedule& s = f->solver->schedule();
  const AnalysisTimes& t = s.times;
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "n: %d, nnz(A): %" PetscInt64_FMT ", %s: %" PetscInt64_FMT "\n", s.n,
                                   (PetscInt64)s.input_nnz, s.symmetric() ? "nnz(L+D)" : "nnz(L+U)",
                                   (PetscInt64)s.nnz_factor()));
  if (s.supernodal()) {
    const Supernodes& sn = s.supernodes;
    int32_t widest = 0;
    for (int32_t k = 0; k < sn.count; ++k) widest = std::max(widest, sn.cols(k));
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "supernodes: %d on %s (widest %d columns), supernodal levels: %d, "
                                     "explicit zeros: %" PetscInt64_FMT "%s\n",
                                     sn.count, s.symmetric() ? "C" : "C + C^T", widest, sn.num_levels(),
                                     (PetscInt64)sn.explicit_zeros,
                                     s.symmetric() ? "; Bunch-Kaufman 1x1/2x2 pivots inside supernodes" : ""));
  } else if (s.kind == FactorKind::row_ilu) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "factored by rows on the CPU (IKJ, as PETSc's ILU), one row after another%s\n",
                                     f->solver.symmetric() ? ": the incomplete LU of A, whose U is D L^T" : ""));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "levels: %d (small-block %d, large-block %d, stream %d)\n", s.num_levels(),
                                     s.levels_in_mode(KernelMode::small_block), s.levels_in_mode(KernelMode::large_block),
                                     s.levels_in_mode(KernelMode::stream)));
  }
  if (s.kind != FactorKind::row_ilu)
    PetscCall(PetscViewerASCIIPrintf(viewer, "column dependencies: %" PetscInt64_FMT "%s\n", (PetscInt64)s.num_dependencies,
                                     s.symmetric() && !s.incomplete ? " (edges of the elimination tree)" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer,
                                   "analysis time (ms): matching %.3f, ordering %.3f, symbolic %.3f, levels %.3f, "
                                   "total %.3f\n",
                                   t.matching_ms, t.ordering_ms, t.symbolic_ms, t.levels_ms, t.total_ms));
  PetscFunctionReturn(0);
}

PetscErrorCode view_factor(const Factor* f, PetscViewer viewer) {
  const FactorStats& fs = f->solver->factor_stats();
  const SolveStats& ss = f->solver->solve_stats();
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer,
                                   "analyses run: %" PetscInt64_FMT
                                   ", numeric factorizations since the last analysis: %" PetscInt64_FMT "\n",
                                   (PetscInt64)f->analyses, (PetscInt64)fs.factorizations));
  if (f->repivots + f->reanalyses > 0)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "recoveries from failed static pivots: %" PetscInt64_FMT
                                     " re-pivots (KLU partial pivoting), %" PetscInt64_FMT
                                     " fresh analyses; the last after: %s\n",
                                     (PetscInt64)f->repivots, (PetscInt64)f->reanalyses, to_string(f->last_recovery)));
  if (!f->solver.factored()) {
    PetscCall(
        PetscViewerASCIIPrintf(viewer, "no usable numeric factorization (last status: %s)\n", to_string(fs.status)));
    PetscFunctionReturn(0);
  }
  if (f->solver.uses_lu())
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "the LDL^T could not reach the backward-error tolerance (%s): this factor is "
                                     "gpuglu's LU of the same matrix, nnz(L+U) %" PetscInt64_FMT "\n",
                                     to_string(fs.recovery), (PetscInt64)f->solver.active_schedule().nnz_factor()));
  else if (f->lu_fallbacks > 0)
    PetscCall(PetscViewerASCIIPrintf(viewer, "factorizations handed to gpuglu's LU so far: %" PetscInt64_FMT "\n",
                                     (PetscInt64)f->lu_fallbacks));
  PetscCall(PetscViewerASCIIPrintf(viewer, "perturbed pivots: %" PetscInt64_FMT ", min pivot ratio: %.3e\n",
                                   (PetscInt64)fs.perturbed_pivots, fs.min_pivot_ratio));
  if (fs.pivoted_supernodes > 0)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "supernodes pivoting inside their diagonal blocks (a static pivot failed "
                                     "there): %" PetscInt64_FMT "\n",
                                     (PetscInt64)fs.pivoted_supernodes));
  if (f->solver.inertia_defined() && !f->solver.uses_lu() && !f->solver->schedule().incomplete && fs.perturbed_pivots == 0) {
    Inertia in;
    if (!guarded(PETSC_COMM_SELF, "gpuglu::SparseLDLT::inertia", [&] { in = f->solver.ldlt().inertia(); }))
      PetscCall(PetscViewerASCIIPrintf(viewer, "inertia: %" PetscInt64_FMT " negative, %" PetscInt64_FMT
                                               " zero, %" PetscInt64_FMT " positive pivots\n",
                                       (PetscInt64)in.negative, (PetscInt64)in.zero, (PetscInt64)in.positive));
  }
  if (f->solver->active_backend() == Backend::cuda)
    PetscCall(PetscViewerASCIIPrintf(viewer, "last factorization time (ms): %.3f (GPU scatter + level loop %.3f)\n",
                                     fs.factor_ms, fs.device_ms));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "last factorization time (ms): %.3f\n", fs.factor_ms));
  if (ss.backward_error >= 0)
    PetscCall(PetscViewerASCIIPrintf(viewer, "last solve time (ms): %.3f, refinement steps: %d, backward error: %.3e\n",
                                     ss.solve_ms, ss.refine_steps, ss.backward_error));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "last solve time (ms): %.3f\n", ss.solve_ms));
  if (f->inaccurate_solves > 0)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "solves left above backward error %g after refinement: %" PetscInt64_FMT
                                     " (perturbed pivots: use a Krylov method)\n",
                                     f->options.backward_error_tolerance, (PetscInt64)f->inaccurate_solves));
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode MatView_GPUGLU(Mat F, PetscViewer viewer) {
  const Factor* f = factor_of(F);
  PetscBool iascii;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (format != PETSC_VIEWER_ASCII_INFO && format != PETSC_VIEWER_ASCII_INFO_DETAIL) PetscFunctionReturn(0);
  if (split_active(f)) {
    PetscCall(split_view(F, viewer));
    PetscFunctionReturn(0);
  }
  if (!f->split.fallback.empty())
    PetscCall(PetscViewerASCIIPrintf(viewer, "not split over 2 devices (-mat_gpuglu_devices 2): %s; one device:\n",
                                     f->split.fallback.c_str()));

  const Backend active = f->solver.analyzed() ? f->solver->active_backend() : f->options.backend;
  if (f->solver.symmetric() && f->options.ilu_levels >= 0)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "gpuglu incomplete Cholesky, ICC(%d) by levels of fill (%s), in PETSc's "
                                     "ordering:\n",
                                     f->options.ilu_levels, f->solver.hermitian() ? "L D L^H" : "L D L^T"));
  else if (f->solver.symmetric() && f->solver.analyzed() &&
           f->solver->schedule().kind == FactorKind::supernodal_ldlt)
#if defined(PETSC_USE_COMPLEX)
    // A complex A is factored through its equivalent real form (docs/user_guide.md).
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "gpuglu sparse %s (supernodal, Bunch-Kaufman 1x1/2x2 pivots inside supernodes, "
                                     "on the equivalent real form of order 2n):\n",
                                     f->solver.hermitian() ? "LDL^H" : "LDL^T"));
#else
    PetscCall(PetscViewerASCIIPrintf(viewer, "gpuglu sparse LDL^T (supernodal, Bunch-Kaufman 1x1/2x2 pivots inside "
                                             "supernodes):\n"));
#endif
  else if (f->solver.symmetric())
    PetscCall(PetscViewerASCIIPrintf(viewer, "gpuglu sparse %s (Chen & Wang, right-looking by levels of the "
                                             "elimination tree, static pivots):\n",
                                     f->solver.hermitian() ? "LDL^H" : "LDL^T"));
  else if (f->options.ilu_levels >= 0)
    PetscCall(PetscViewerASCIIPrintf(viewer, "gpuglu incomplete LU, ILU(%d) by levels of fill, in PETSc's ordering:\n",
                                     f->options.ilu_levels));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, (f->solver.analyzed() ? f->solver.lu_engine() : f->options.lu_engine) ==
                                                     LuEngine::supernodal
                                                 ? "gpuglu sparse LU (supernodal, static pivoting):\n"
                                                 : "gpuglu sparse LU (GLU3.0, static pivoting):\n"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "backend: %s (requested %s)\n", to_string(active).data(),
                                   to_string(f->options.backend).data()));
  PetscCall(view_device(f, active, viewer));
  PetscCall(view_settings(f, viewer));
  PetscCall(schur_view(F, viewer));
  if (f->solver.analyzed()) {
    PetscCall(view_analysis(f, viewer));
    PetscCall(view_factor(f, viewer));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "not analyzed%s\n",
                                     f->analyses > 0 || F->factorerrortype ? " (the last analysis failed)" : ""));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode MatGetInfo_GPUGLU(Mat F, MatInfoType, MatInfo* info) {
  const Factor* f = factor_of(F);
  PetscFunctionBegin;
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->block_size = 1.0;
  if (split_active(f)) {
    PetscCall(split_info(F, info));
  } else if (f->solver.analyzed()) {
    const double nnz_f = static_cast<double>(f->solver->schedule().nnz_factor());
    info->nz_used = nnz_f;
    info->nz_allocated = nnz_f;
    info->fill_ratio_needed = f->nnz_a > 0 ? nnz_f / static_cast<double>(f->nnz_a) : 0.0;
    info->fill_ratio_given = f->fill_given;
  }
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
