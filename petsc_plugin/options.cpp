// MatFactorInfo and the -mat_gpuglu_* options -> gpuglu::Options (one to one; the
// defaults and meanings are those of include/gpuglu/options.hpp and docs/user_guide.md).
// Read at every MatLUFactorSymbolic(), when the factor already carries its prefix
// (MatGetFactor() sets it only after the factor is created).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

constexpr std::array<const char*, 3> backend_names = {"auto", "cpu", "cuda"};
constexpr std::array<Backend, 3> backend_values = {Backend::automatic, Backend::cpu, Backend::cuda};
// "petsc" is Ordering::given: the column ordering PETSc passes to MatLUFactorSymbolic().
constexpr std::array<const char*, 5> ordering_names = {"amd", "colamd", "metis", "natural", "petsc"};
constexpr std::array<Ordering, 5> ordering_values = {Ordering::amd, Ordering::colamd, Ordering::metis,
                                                     Ordering::natural, Ordering::given};
constexpr std::array<const char*, 6> trsv_names = {"auto", "levr", "levc", "slfr", "slfc", "cusparse"};
constexpr std::array<TrsvKernel, 6> trsv_values = {TrsvKernel::automatic, TrsvKernel::levr, TrsvKernel::levc,
                                                   TrsvKernel::slfr, TrsvKernel::slfc, TrsvKernel::cusparse};
constexpr std::array<const char*, 2> site_names = {"cpu", "gpu"};
constexpr std::array<TrsvAnalysisSite, 2> site_values = {TrsvAnalysisSite::cpu, TrsvAnalysisSite::gpu};
constexpr std::array<const char*, 4> pivot_names = {"auto", "report", "perturb", "repivot"};
constexpr std::array<PivotPolicy, 4> pivot_values = {PivotPolicy::automatic, PivotPolicy::report, PivotPolicy::perturb,
                                                     PivotPolicy::repivot};

template <class T, size_t N>
PetscInt index_of(const std::array<T, N>& values, T v) {
  for (size_t i = 0; i < N; ++i)
    if (values[i] == v) return static_cast<PetscInt>(i);
  return 0;
}

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

PetscErrorCode to_int32(PetscInt v, const char* name, int32_t* out) {
  PetscFunctionBegin;
  PetscCheck(v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max(), PETSC_COMM_SELF,
             PETSC_ERR_ARG_OUTOFRANGE, "gpuglu: %s = %" PetscInt_FMT " does not fit a 32-bit integer", name, v);
  *out = static_cast<int32_t>(v);
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode set_options(Mat F, Mat A, const MatFactorInfo* info, Factor* factor) {
  Options o;
  const char* prefix = ((PetscObject)F)->prefix ? ((PetscObject)F)->prefix : ((PetscObject)A)->prefix;
  PetscInt backend = 0, ordering = 0, pivot = 0, trsv = 0, site = 0;
  PetscInt refine_steps, stream_columns, total_warps, min_warps, max_warps, threads, block_threads, rows_per_thread;
  PetscInt auto_gpu_nnz = static_cast<PetscInt>(std::min<int64_t>(o.auto_gpu_min_factor_nnz, PETSC_MAX_INT));
  PetscInt device = o.device;
  PetscBool matching, scaling, right_looking, programmatic, cpu_fallback;
  PetscReal threshold, perturbation, refine_tol, berr_tol, check_growth;

  PetscFunctionBegin;
  PetscCall(apply_factor_info(F, info, &o));
  backend = index_of(backend_values, o.backend);
  ordering = index_of(ordering_values, o.ordering);
  pivot = index_of(pivot_values, o.pivot_policy);
  trsv = index_of(trsv_values, o.trsv_kernel);
  site = index_of(site_values, o.trsv_analysis);
  matching = o.matching ? PETSC_TRUE : PETSC_FALSE;
  scaling = o.scaling ? PETSC_TRUE : PETSC_FALSE;
  threshold = o.pivot_threshold;
  perturbation = o.perturbation;
  refine_tol = o.refine_tolerance;
  berr_tol = o.backward_error_tolerance;
  check_growth = o.check_growth;
  refine_steps = o.refine_steps;
  stream_columns = o.modes.stream_max_columns;
  total_warps = o.modes.total_warps;
  min_warps = o.modes.min_warps;
  max_warps = o.modes.max_warps;
  threads = o.num_threads;
  block_threads = o.modes.max_block_threads;
  rows_per_thread = o.modes.rows_per_thread;
  programmatic = o.modes.programmatic_launch ? PETSC_TRUE : PETSC_FALSE;
  cpu_fallback = o.cpu_fallback ? PETSC_TRUE : PETSC_FALSE;
  right_looking = o.cpu_right_looking ? PETSC_TRUE : PETSC_FALSE;

  PetscOptionsBegin(PetscObjectComm((PetscObject)F), prefix, "gpuglu sparse LU (GLU3.0) options", "Mat");
  PetscCall(PetscOptionsEList("-mat_gpuglu_backend", "Numeric backend (cuda needs a CUDA build and a GPU)", "None",
                              backend_names.data(), (PetscInt)backend_names.size(), backend_names[backend], &backend,
                              nullptr));
  PetscCall(PetscOptionsEList(
      "-mat_gpuglu_ordering", "Fill-reducing ordering; petsc = the one of -pc_factor_mat_ordering_type", "None",
      ordering_names.data(), (PetscInt)ordering_names.size(), ordering_names[ordering], &ordering, nullptr));
  PetscCall(PetscOptionsBool("-mat_gpuglu_matching", "MC64-style maximum-product matching and scaling", "None",
                             matching, &matching, nullptr));
  PetscCall(PetscOptionsBool("-mat_gpuglu_scaling", "MC64 row/column scaling (with matching)", "None", scaling,
                             &scaling, nullptr));
  PetscCall(PetscOptionsEList("-mat_gpuglu_pivot_policy",
                              "Failed static pivots: auto (fresh analysis, then KLU's partial pivoting, then "
                              "DIVERGED_PC_FAILED), report (DIVERGED_PC_FAILED), perturb (and refine), repivot (KLU's "
                              "partial pivoting once)",
                              "None", pivot_names.data(), (PetscInt)pivot_names.size(), pivot_names[pivot], &pivot,
                              nullptr));
  PetscCall(PetscOptionsReal("-mat_gpuglu_pivot_threshold", "A pivot is tiny when |p| <= threshold * max|column|",
                             "None", threshold, &threshold, nullptr));
  PetscCall(PetscOptionsReal("-mat_gpuglu_perturbation",
                             "perturb: tiny pivot -> sign(p) * perturbation * max|column| (relative)", "None",
                             perturbation, &perturbation, nullptr));
  PetscCall(PetscOptionsRangeInt("-mat_gpuglu_refine_steps",
                                 "Iterative refinement steps (-1: check the backward error, up to 3 steps)", "None",
                                 refine_steps, &refine_steps, nullptr, -1, 1000));
  PetscCall(PetscOptionsReal("-mat_gpuglu_refine_tol", "Refinement stops below this componentwise backward error",
                             "None", refine_tol, &refine_tol, nullptr));
  PetscCall(PetscOptionsReal("-mat_gpuglu_berr_tol",
                             "A solve above this componentwise backward error after refinement is no solution "
                             "(pivot policy auto: recover; report, repivot: the factor fails)",
                             "None", berr_tol, &berr_tol, nullptr));
  PetscCall(PetscOptionsReal("-mat_gpuglu_check_growth",
                             "Pivot policy auto: a factor whose growth exceeds this is checked by a solve before it is "
                             "accepted (1e300: never)",
                             "None", check_growth, &check_growth, nullptr));
  PetscCall(PetscOptionsBoundedInt("-mat_gpuglu_stream_columns",
                                   "Levels with at most this many columns run in stream mode", "None", stream_columns,
                                   &stream_columns, nullptr, 0));
  PetscCall(PetscOptionsBoundedInt("-mat_gpuglu_total_warps", "Resident warps for GLU3.0 Eq. 7", "None", total_warps,
                                   &total_warps, nullptr, 1));
  PetscCall(PetscOptionsRangeInt("-mat_gpuglu_min_warps", "Fewest warps per column in small-block mode", "None",
                                 min_warps, &min_warps, nullptr, 1, 32));
  PetscCall(PetscOptionsRangeInt("-mat_gpuglu_max_warps", "Warps per column from which large-block mode is used",
                                 "None", max_warps, &max_warps, nullptr, 1, 32));
  PetscCall(PetscOptionsRangeInt("-mat_gpuglu_block_threads",
                                 "Most threads per block of a block-per-target update (power of two)", "None",
                                 block_threads, &block_threads, nullptr, 32, 1024));
  PetscCall(PetscOptionsRangeInt("-mat_gpuglu_rows_per_thread",
                                 "Rows of the longest source column per thread in block-per-target updates", "None",
                                 rows_per_thread, &rows_per_thread, nullptr, 1, 1024));
  PetscCall(PetscOptionsBool("-mat_gpuglu_programmatic_launch",
                             "Overlap each level's kernels with the previous one (Hopper's programmatic launch)",
                             "None", programmatic, &programmatic, nullptr));
  PetscCall(PetscOptionsEList("-mat_gpuglu_trsv",
                              "GPU triangular-solve kernel: auto, R. Li's levr/levc/slfr/slfc, or cuSPARSE SpSV", "None",
                              trsv_names.data(), (PetscInt)trsv_names.size(), trsv_names[trsv], &trsv, nullptr));
  PetscCall(PetscOptionsEList("-mat_gpuglu_trsv_analysis",
                              "Level analysis of the GPU triangular solves: cpu, or gpu (Kahn's algorithm; same levels)",
                              "None", site_names.data(), (PetscInt)site_names.size(), site_names[site], &site, nullptr));
  PetscCall(PetscOptionsInt("-mat_gpuglu_threads",
                            "CPU backend threads (0: OpenMP default; at most 4 per processor OpenMP sees)", "None",
                            threads, &threads, nullptr));
  PetscCall(PetscOptionsBoundedInt("-mat_gpuglu_auto_gpu_nnz",
                                   "backend auto: the GPU factors from this nnz(L+U) on (-1: never)", "None",
                                   auto_gpu_nnz, &auto_gpu_nnz, nullptr, -1));
  PetscCall(PetscOptionsBool("-mat_gpuglu_cpu_fallback",
                             "backend cuda: out of device memory falls back to the CPU backend (else an error)", "None",
                             cpu_fallback, &cpu_fallback, nullptr));
  PetscCall(PetscOptionsBoundedInt("-mat_gpuglu_device", "CUDA device (-1: node-local MPI rank mod device count)",
                                   "None", device, &device, nullptr, -1));
  PetscCall(PetscOptionsBool("-mat_gpuglu_cpu_right_looking",
                             "CPU backend runs the GPU's right-looking level updates instead of the left-looking gather",
                             "None", right_looking, &right_looking, nullptr));
  PetscOptionsEnd();

  PetscCheck(threads >= 0 && threads <= max_cpu_threads(), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "gpuglu: -mat_gpuglu_threads %" PetscInt_FMT " is outside [0, %d] (0: OpenMP's default; at most 4 threads "
             "per processor OpenMP sees)",
             threads, max_cpu_threads());
  PetscCall(check_real("-mat_gpuglu_pivot_threshold", threshold, 0.0, 1.0, true));
  PetscCall(check_real("-mat_gpuglu_perturbation", perturbation, 0.0, 1.0, false));
  PetscCall(check_real("-mat_gpuglu_refine_tol", refine_tol, 0.0, 1.0, true));
  PetscCall(check_real("-mat_gpuglu_berr_tol", berr_tol, 0.0, 1.0, true));
  PetscCall(check_real("-mat_gpuglu_check_growth", check_growth, 1.0, 1e300, true));
  PetscCheck((block_threads & (block_threads - 1)) == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "gpuglu: -mat_gpuglu_block_threads %" PetscInt_FMT " must be a power of two", block_threads);
  PetscCheck(min_warps <= max_warps, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "gpuglu: -mat_gpuglu_min_warps %" PetscInt_FMT " exceeds -mat_gpuglu_max_warps %" PetscInt_FMT, min_warps,
             max_warps);

  o.backend = backend_values[backend];
  o.ordering = ordering_values[ordering];
  o.matching = matching;
  o.scaling = scaling;
  o.pivot_policy = pivot_values[pivot];
  o.trsv_kernel = trsv_values[trsv];
  o.trsv_analysis = site_values[site];
  o.pivot_threshold = threshold;
  o.perturbation = perturbation;
  o.refine_tolerance = refine_tol;
  o.backward_error_tolerance = berr_tol;
  o.check_growth = check_growth;
  PetscCall(to_int32(refine_steps, "-mat_gpuglu_refine_steps", &o.refine_steps));
  PetscCall(to_int32(stream_columns, "-mat_gpuglu_stream_columns", &o.modes.stream_max_columns));
  PetscCall(to_int32(total_warps, "-mat_gpuglu_total_warps", &o.modes.total_warps));
  PetscCall(to_int32(min_warps, "-mat_gpuglu_min_warps", &o.modes.min_warps));
  PetscCall(to_int32(max_warps, "-mat_gpuglu_max_warps", &o.modes.max_warps));
  PetscCall(to_int32(threads, "-mat_gpuglu_threads", &o.num_threads));
  PetscCall(to_int32(block_threads, "-mat_gpuglu_block_threads", &o.modes.max_block_threads));
  PetscCall(to_int32(rows_per_thread, "-mat_gpuglu_rows_per_thread", &o.modes.rows_per_thread));
  o.modes.programmatic_launch = programmatic == PETSC_TRUE;
  o.cpu_fallback = cpu_fallback == PETSC_TRUE;
  o.cpu_right_looking = right_looking == PETSC_TRUE;
  o.auto_gpu_min_factor_nnz = auto_gpu_nnz;
  PetscCall(to_int32(device, "-mat_gpuglu_device", &o.device));
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
