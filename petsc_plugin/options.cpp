// MatFactorInfo and the -mat_gpuglu_* options -> gpuglu::Options (one option per row of
// gpuglu/option_table.hpp; the defaults and meanings are those of include/gpuglu/options.hpp,
// docs/options.md and docs/user_guide.md).
// Read at every MatLUFactorSymbolic(), when the factor already carries its prefix
// (MatGetFactor() sets it only after the factor is created).
#include <algorithm>
#include <cmath>
#include <string>

#include "gpuglu/option_table.hpp"
#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

// ILU and ICC: PETSc's pivot test and shifts exactly (Options::shift_type,
// src/api/ilu_shift.hpp). PETSc tests an incomplete factor's pivot against zeropivot alone
// (absolute, shift none) or times its row's sum (nonzero, positive_definite), never against
// its column: the relative threshold is off.
PetscErrorCode apply_incomplete_shift(Mat F, const MatFactorInfo* info, Options* o) {
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
      PetscCall(PetscInfo(F, "gpuglu: ILU/ICC shift type inblocks is applied as nonzero (the whole diagonal is shifted)\n"));
      break;
  }
  PetscFunctionReturn(0);
}

// MatFactorInfo first, so that explicit -mat_gpuglu_* options override it.
PetscErrorCode apply_factor_info(Mat F, const MatFactorInfo* info, Options* o) {
  PetscFunctionBegin;
  if (!info) PetscFunctionReturn(0);
  o->zero_pivot = static_cast<double>(info->zeropivot);
  if (F->factortype == MAT_FACTOR_ILU || F->factortype == MAT_FACTOR_ICC) {
    PetscCall(apply_incomplete_shift(F, info, o));
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

// Every row of the option table (gpuglu/option_table.hpp) with a PETSc name is the option
// -mat_gpuglu_<name>: its -help text, its list of names (an enum's table, so -help cannot go
// stale), its default (the field's current value) and its range come from the row, and an
// integer or real is checked against that range under the option's own name before any work.
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
  PetscInt devices = DevicesOption::one;  // -mat_gpuglu_devices, read after the table's rows
  PetscOptionsBegin(PetscObjectComm((PetscObject)F), prefix, "gpuglu sparse LU (GLU3.0) options", "Mat");
  auto as_petsc_int = [](int64_t v) {
    return static_cast<PetscInt>(std::clamp<int64_t>(v, PETSC_MIN_INT, PETSC_MAX_INT));
  };
  // Rows in table order: a bound read from another field (max_warps >= min_warps) sees the
  // value just read for it.
  auto read = [&](const OptionRow& r) -> PetscErrorCode {
    const std::string name = std::string("-mat_gpuglu_") + r.name;
    switch (r.kind) {
      case OptionKind::flag: {
        PetscBool v = r.get_int(o) ? PETSC_TRUE : PETSC_FALSE;
        PetscCall(PetscOptionsBool(name.c_str(), r.help, "None", v, &v, nullptr));
        r.set_int(o, v == PETSC_TRUE);
        break;
      }
      case OptionKind::choice: {
        PetscInt i = static_cast<PetscInt>(r.get_int(o));
        PetscCall(PetscOptionsEList(name.c_str(), r.help, "None", r.choices, static_cast<PetscInt>(r.num_choices),
                                    r.choices[i], &i, nullptr));
        r.set_int(o, i);
        break;
      }
      case OptionKind::integer: {
        PetscInt v = as_petsc_int(r.get_int(o));
        PetscCall(PetscOptionsInt(name.c_str(), r.help, "None", v, &v, nullptr));
        PetscCall(check_int(name.c_str(), v, as_petsc_int(r.lower(o)), as_petsc_int(r.upper(o)), r.why));
        PetscCheck(!r.rule || r.rule(v), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
                   "gpuglu: %s %" PetscInt_FMT " must be %s", name.c_str(), v, r.range_words);
        r.set_int(o, v);
        break;
      }
      case OptionKind::real: {
        PetscReal v = r.get_real(o);
        PetscCall(PetscOptionsReal(name.c_str(), r.help, "None", v, &v, nullptr));
        PetscCall(check_real(name.c_str(), v, r.lo, r.hi, !r.lo_open));
        r.set_real(o, static_cast<double>(v));
        break;
      }
    }
    return 0;
  };
  for (const OptionRow& r : option_table())
    if (r.has_petsc_option()) PetscCall(read(r));
  // The adapter's own -mat_gpuglu_devices (no Options field: it chooses SparseLU or SplitLU).
  PetscCall(PetscOptionsInt(DevicesOption::name, DevicesOption::help, "None", devices, &devices, nullptr));
  PetscCall(check_int(DevicesOption::name, devices, DevicesOption::one, DevicesOption::split,
                      ": one factor runs on 1 device or is split over 2 (SplitLU); more are not supported"));
  PetscOptionsEnd();

  if (!o.matching && o.scaling)
    PetscCall(PetscInfo(F, "gpuglu: -mat_gpuglu_scaling has no effect with -mat_gpuglu_matching 0 (MC64's scaling "
                           "comes from its matching): the matrix is factored unscaled\n"));
  // -mat_gpuglu_threads 0 (or none): the rank's share of its node, not OpenMP's default of
  // every processor in every rank (threads.cpp); a gathered factor's root adds what the ranks
  // waiting for it do not use.
  factor->threads_defaulted = o.num_threads == 0 && rank_node_share().known;
  if (factor->threads_defaulted)  // waiting_ranks 0 (not a gathered root): the share itself
    o.num_threads = root_share_of_threads(rank_node_share().threads, factor->waiting_ranks, factor->free_processors);
  // Every option was range-checked above under its name; the core's check of the same rows
  // covers the fields PETSc sets from MatFactorInfo.
  PetscCall(guarded(PETSC_COMM_SELF, "gpuglu::validate", [&] { validate(o); }));
  factor->options = o;
  factor->devices = devices;
  if (info) factor->fill_given = static_cast<double>(info->fill);
  factor->use_petsc_ordering = o.ordering == Ordering::given;
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
