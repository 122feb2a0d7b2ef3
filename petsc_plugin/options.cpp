// MatFactorInfo and the -mat_gpuglu_* options -> gpuglu::Options (one to one; the
// defaults and meanings are those of include/gpuglu/options.hpp and docs/user_guide.md).
// Read at every MatLUFactorSymbolic(), when the factor already carries its prefix
// (MatGetFactor() sets it only after the factor is created).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

// ILU: PETSc's pivot test and shifts exactly (Options::shift_type, src/api/ilu_shift.hpp).
// PETSc tests an ILU pivot against zeropivot alone (absolute, shift none) or times its row's
// sum (nonzero, positive_definite), never against its column: the relative threshold is off.
PetscErrorCode apply_ilu_shift(Mat F, const MatFactorInfo* info, Options* o) {
  PetscFunctionBegin;
  o->pivot_policy = PivotPolicy::report;
  o->pivot_threshold = 0.0;
  if (info->shiftamount > 0) o->shift_amount = static_cast<double>(info->shiftamount);
  const auto shift = static_cast<MatFactorShiftType>(static_cast<int>(info->shifttype));
  switch (shift) {
    case MAT_SHIFT_NONE: o->shift_type = ShiftType::none; break;
    case MAT_SHIFT_NONZERO: o->shift_type = ShiftType::nonzero; break;
    case MAT_SHIFT_POSITIVE_DEFINITE: o->shift_type = ShiftType::positive_definite; break;
    case MAT_SHIFT_INBLOCKS:
      // PETSc adds the amount to each small pivot in place; gpuglu restarts with the whole
      // diagonal shifted by it (nonzero), which also removes every small pivot.
      o->shift_type = ShiftType::nonzero;
      PetscCall(PetscInfo(F, "gpuglu: ILU shift type inblocks is applied as nonzero (the whole diagonal is shifted)\n"));
      break;
  }
  PetscFunctionReturn(0);
}

// MatFactorInfo first, so that explicit -mat_gpuglu_* options override it.
PetscErrorCode apply_factor_info(Mat F, const MatFactorInfo* info, Options* o) {
  PetscFunctionBegin;
  if (!info) PetscFunctionReturn(0);
  o->zero_pivot = static_cast<double>(info->zeropivot);
  if (F->factortype == MAT_FACTOR_ILU) {
    PetscCall(apply_ilu_shift(F, info, o));
    PetscFunctionReturn(0);
  }
  const auto shift = static_cast<MatFactorShiftType>(static_cast<int>(info->shifttype));
  switch (shift) {
    case MAT_SHIFT_NONE: break;
    case MAT_SHIFT_NONZERO:
      // PETSc's shift amount is used as gpuglu's perturbation, which is RELATIVE to the
      // column's largest entry (gpuglu pivots statically, so an absolute shift would not
      // scale with the matched and scaled matrix).
      o->pivot_policy = PivotPolicy::perturb;
      if (info->shiftamount > 0) o->perturbation = static_cast<double>(info->shiftamount);
      PetscCall(PetscInfo(F, "gpuglu: MAT_SHIFT_NONZERO -> pivot policy perturb, relative perturbation %g\n",
                          o->perturbation));
      break;
    case MAT_SHIFT_POSITIVE_DEFINITE:
    case MAT_SHIFT_INBLOCKS:
      o->pivot_policy = PivotPolicy::perturb;
      PetscCall(PetscInfo(F,
                          "gpuglu: shift type %s has no gpuglu counterpart; tiny pivots are perturbed by the "
                          "default relative amount %g instead\n",
                          MatFactorShiftTypes[shift], o->perturbation));
      break;
  }
  PetscFunctionReturn(0);
}

// A real option must be a finite number in [lo, hi] ((lo, hi] when lo is excluded): a NaN
// threshold would silently disable its test.
PetscErrorCode check_real(const char* name, PetscReal v, double lo, double hi, bool lo_included) {
  PetscFunctionBegin;
  const bool ok = std::isfinite(static_cast<double>(v)) && (lo_included ? v >= lo : v > lo) && v <= hi;
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "gpuglu: %s %g is outside %s%g, %g]", name, (double)v,
             lo_included ? "[" : "(", lo, hi);
  PetscFunctionReturn(0);
}

PetscErrorCode check_int(const char* name, PetscInt v, PetscInt lo, PetscInt hi, const char* why) {
  PetscFunctionBegin;
  PetscCheck(v >= lo && v <= hi, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "gpuglu: %s %" PetscInt_FMT " is outside [%" PetscInt_FMT ", %" PetscInt_FMT "]%s", name, v, lo, hi, why);
  PetscFunctionReturn(0);
}

}  // namespace

// Each option reads straight into its Options field through four typed readers: a list
// (its names from the enum's table in include/gpuglu/options.hpp, so -help cannot go
// stale), a flag, an integer and a real, the last two checked against their ranges under
// the option's own name before any work.
PetscErrorCode set_options(Mat F, Mat A, const MatFactorInfo* info, Factor* factor) {
  Options o;
  const char* prefix = ((PetscObject)F)->prefix ? ((PetscObject)F)->prefix : ((PetscObject)A)->prefix;

  PetscFunctionBegin;
  o.device = factor->default_device;
  PetscCall(apply_factor_info(F, info, &o));
#if defined(GPUGLU_PETSC_DEVICE_DATA)
  // A's values already on the GPU (MATSEQAIJCUSPARSE, also bjacobi/asm's blocks of
  // MPIAIJCUSPARSE): backend auto takes the GPU whatever the factor's size, since a CPU factor
  // would bring A and every right-hand side across (-mat_gpuglu_auto_gpu_nnz still rules).
  PetscBool on_gpu = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJCUSPARSE, &on_gpu));
  if (on_gpu) o.auto_gpu_min_factor_nnz = 0;
#endif
  PetscOptionsBegin(PetscObjectComm((PetscObject)F), prefix, "gpuglu sparse LU (GLU3.0) options", "Mat");
  auto list = [&](const char* name, const char* help, const auto& table, auto* value) -> PetscErrorCode {
    const auto names = names_of(table);
    PetscInt i = static_cast<PetscInt>(index_in(table, *value));
    PetscCall(PetscOptionsEList(name, help, "None", names.data(), static_cast<PetscInt>(names.size()), names[i], &i,
                                nullptr));
    *value = table[static_cast<size_t>(i)].value;
    return 0;
  };
  auto flag = [&](const char* name, const char* help, bool* value) -> PetscErrorCode {
    PetscBool v = *value ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(PetscOptionsBool(name, help, "None", v, &v, nullptr));
    *value = v == PETSC_TRUE;
    return 0;
  };
  auto integer = [&](const char* name, const char* help, auto* value, PetscInt lo, PetscInt hi,
                     const char* why = "") -> PetscErrorCode {
    PetscInt v = static_cast<PetscInt>(std::clamp<int64_t>(*value, PETSC_MIN_INT, PETSC_MAX_INT));
    PetscCall(PetscOptionsInt(name, help, "None", v, &v, nullptr));
    PetscCall(check_int(name, v, lo, hi, why));
    *value = static_cast<std::remove_pointer_t<decltype(value)>>(v);
    return 0;
  };
  auto real = [&](const char* name, const char* help, double* value, double lo, double hi,
                  bool lo_included = true) -> PetscErrorCode {
    PetscReal v = *value;
    PetscCall(PetscOptionsReal(name, help, "None", v, &v, nullptr));
    PetscCall(check_real(name, v, lo, hi, lo_included));
    *value = static_cast<double>(v);
    return 0;
  };
  KernelModeThresholds& m = o.modes;
  PetscCall(list("-mat_gpuglu_backend", "Numeric backend (cuda needs a CUDA build and a GPU)", kBackendNames, &o.backend));
  PetscCall(list("-mat_gpuglu_ordering", "Fill-reducing ordering; petsc = the one of -pc_factor_mat_ordering_type",
                 kOrderingNames, &o.ordering));
  PetscCall(list("-mat_gpuglu_lu_engine",
                 "LU numeric engine: column (GLU3.0 levels of columns), supernodal (dense panels on C + C^T), auto "
                 "(supernodal where the GPU factors a real matrix)",
                 kLuEngineNames, &o.lu_engine));
  PetscCall(flag("-mat_gpuglu_matching", "MC64-style maximum-product matching and scaling", &o.matching));
  PetscCall(flag("-mat_gpuglu_scaling", "MC64 row/column scaling (with matching)", &o.scaling));
  PetscCall(flag("-mat_gpuglu_symmetric_pairs",
                 "Cholesky: order a small-diagonal variable after its matched partner (fills KKT zero pivots)",
                 &o.symmetric_pairs));
  PetscCall(list("-mat_gpuglu_pivot_policy",
                 "Failed static pivots: auto (fresh analysis, then KLU's partial pivoting, then DIVERGED_PC_FAILED), "
                 "report (DIVERGED_PC_FAILED), perturb (and refine), repivot (KLU's partial pivoting once)",
                 kPivotPolicyNames, &o.pivot_policy));
  PetscCall(real("-mat_gpuglu_pivot_threshold", "A pivot is tiny when |p| <= threshold * max|column|",
                 &o.pivot_threshold, 0.0, 1.0));
  PetscCall(real("-mat_gpuglu_perturbation", "perturb: tiny pivot -> sign(p) * perturbation * max|column| (relative)",
                 &o.perturbation, 0.0, 1.0, false));
  PetscCall(integer("-mat_gpuglu_refine_steps",
                    "Iterative refinement steps (-1: check the backward error, up to 3 steps)", &o.refine_steps, -1,
                    1000));
  PetscCall(real("-mat_gpuglu_refine_tol", "Refinement stops below this backward error",
                 &o.refine_tolerance, 0.0, 1.0));
  PetscCall(real("-mat_gpuglu_berr_tol",
                 "A solve above this backward error after refinement is no solution "
                 "(pivot policy auto: recover; report, repivot: the factor fails)",
                 &o.backward_error_tolerance, 0.0, 1.0));
  PetscCall(real("-mat_gpuglu_check_growth",
                 "Pivot policy auto: a factor whose growth exceeds this is checked by a solve before it is "
                 "accepted (1e300: never)",
                 &o.check_growth, 1.0, 1e300));
  PetscCall(integer("-mat_gpuglu_stream_columns", "Levels with at most this many columns run in stream mode",
                    &m.stream_max_columns, 0, PETSC_MAX_INT));
  PetscCall(integer("-mat_gpuglu_total_warps", "Resident warps for GLU3.0 Eq. 7", &m.total_warps, 1, PETSC_MAX_INT));
  PetscCall(integer("-mat_gpuglu_min_warps", "Fewest warps per column in small-block mode", &m.min_warps, 1, 32));
  PetscCall(integer("-mat_gpuglu_max_warps", "Warps per column from which large-block mode is used", &m.max_warps,
                    m.min_warps, 32, " (and at least -mat_gpuglu_min_warps)"));
  PetscCall(integer("-mat_gpuglu_block_threads", "Most threads per block of a block-per-target update (power of two)",
                    &m.max_block_threads, 32, 1024));
  PetscCheck((m.max_block_threads & (m.max_block_threads - 1)) == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "gpuglu: -mat_gpuglu_block_threads %d must be a power of two", m.max_block_threads);
  PetscCall(integer("-mat_gpuglu_rows_per_thread",
                    "Rows of the longest source column per thread in block-per-target updates", &m.rows_per_thread, 1,
                    1024));
  PetscCall(flag("-mat_gpuglu_programmatic_launch",
                 "Overlap each level's kernels with the previous one (Hopper's programmatic launch)",
                 &m.programmatic_launch));
  PetscCall(list("-mat_gpuglu_trsv", "GPU triangular-solve kernel: auto, R. Li's levr/levc/slfr/slfc, or cuSPARSE SpSV",
                 kTrsvKernelNames, &o.trsv_kernel));
  PetscCall(list("-mat_gpuglu_trsv_analysis",
                 "Level analysis of the GPU triangular solves: cpu, or gpu (Kahn's algorithm; same levels)",
                 kTrsvAnalysisSiteNames, &o.trsv_analysis));
  PetscCall(flag("-mat_gpuglu_graph", "GPU level loop replayed as one CUDA graph (0: launched level by level)",
                 &o.cuda.level_graph));
  PetscCall(list("-mat_gpuglu_staging", "How A, b and x reach the GPU: auto, pinned (a copy, one DMA), direct (pageable)",
                 kStagingNames, &o.cuda.staging));
  PetscCall(integer("-mat_gpuglu_threads",
                    "CPU backend threads (0: OpenMP default; at most 4 per processor OpenMP sees)", &o.num_threads, 0,
                    max_cpu_threads(), " (0: OpenMP's default; at most 4 threads per processor OpenMP sees)"));
  PetscCall(integer("-mat_gpuglu_auto_gpu_nnz", "backend auto: the GPU factors from this nnz(L+U) on (-1: never)",
                    &o.auto_gpu_min_factor_nnz, -1, PETSC_MAX_INT));
  PetscCall(flag("-mat_gpuglu_cpu_fallback",
                 "backend cuda: out of device memory falls back to the CPU backend (else an error)", &o.cpu_fallback));
  PetscCall(integer("-mat_gpuglu_device", "CUDA device (-1: node-local MPI rank mod device count)", &o.device, -1,
                    PETSC_MAX_INT));
  PetscCall(flag("-mat_gpuglu_cpu_right_looking",
                 "CPU backend runs the GPU's right-looking level updates instead of the left-looking gather",
                 &o.cpu_right_looking));
  PetscOptionsEnd();

  if (!o.matching && o.scaling)
    PetscCall(PetscInfo(F, "gpuglu: -mat_gpuglu_scaling has no effect with -mat_gpuglu_matching 0 (MC64's scaling "
                           "comes from its matching): the matrix is factored unscaled\n"));
  // Every field was range-checked above under its option's name; the core's own check is
  // the backstop for a field this file forgets.
  PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::validate", [&] { validate(o); }));
  factor->options = o;
  if (info) factor->fill_given = static_cast<double>(info->fill);
  factor->use_petsc_ordering = o.ordering == Ordering::given;
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
