#include "gpuglu/option_table.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "gpuglu/status.hpp"

namespace gpuglu {

namespace {

constexpr double kNone = std::numeric_limits<double>::infinity();  // no upper bound

// A field of Options by its member path: Field<&Options::device> or
// Field<&Options::modes, &KernelModeThresholds::total_warps>.
template <auto... Members>
struct Field;
template <auto M>
struct Field<M> {
  static auto& ref(Options& o) { return o.*M; }
  static const auto& ref(const Options& o) { return o.*M; }
};
template <auto S, auto M>
struct Field<S, M> {
  static auto& ref(Options& o) { return (o.*S).*M; }
  static const auto& ref(const Options& o) { return (o.*S).*M; }
};

template <class F>
using ValueOf = std::decay_t<decltype(F::ref(std::declval<const Options&>()))>;

template <class F>
OptionRow flag(const char* name, const char* field, const char* help) {
  static_assert(std::is_same_v<ValueOf<F>, bool>);
  OptionRow r{name, field, OptionKind::flag, help};
  r.get_int = [](const Options& o) -> int64_t { return F::ref(o) ? 1 : 0; };
  r.set_int = [](Options& o, int64_t v) { F::ref(o) = v != 0; };
  return r;
}

template <class F>
OptionRow integer(const char* name, const char* field, double lo, double hi, const char* help) {
  using T = ValueOf<F>;
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
  OptionRow r{name, field, OptionKind::integer, help};
  r.lo = lo;
  r.hi = hi;
  r.type_max = std::numeric_limits<T>::max();
  r.get_int = [](const Options& o) -> int64_t { return F::ref(o); };
  r.set_int = [](Options& o, int64_t v) { F::ref(o) = static_cast<T>(v); };
  return r;
}

template <class F>
OptionRow real(const char* name, const char* field, double lo, double hi, const char* help, bool lo_open = false) {
  static_assert(std::is_same_v<ValueOf<F>, double>);
  OptionRow r{name, field, OptionKind::real, help};
  r.lo = lo;
  r.hi = hi;
  r.lo_open = lo_open;
  r.get_real = [](const Options& o) { return F::ref(o); };
  r.set_real = [](Options& o, double v) { F::ref(o) = v; };
  return r;
}

// An enum by its name table (include/gpuglu/options.hpp): -help lists the table's names.
template <class F, const auto& Table>
OptionRow choice(const char* name, const char* field, const char* help) {
  static constexpr auto names = names_of(Table);
  OptionRow r{name, field, OptionKind::choice, help};
  r.choices = names.data();
  r.num_choices = names.size();
  r.get_int = [](const Options& o) -> int64_t { return static_cast<int64_t>(index_in(Table, F::ref(o))); };
  r.set_int = [](Options& o, int64_t i) { F::ref(o) = Table[static_cast<std::size_t>(i)].value; };
  return r;
}

// A field PETSc sets from its own factor settings (MatFactorInfo, the factor type), which
// keep their PETSc names: no -mat_gpuglu_ option.
OptionRow from_petsc(OptionRow r, const char* source) {
  r.name = "";
  r.petsc_source = source;
  return r;
}

OptionRow with_bounds(OptionRow r, int64_t (*lo_of)(const Options&), int64_t (*hi_of)(const Options&),
                      const char* words, const char* why) {
  r.lo_of = lo_of;
  r.hi_of = hi_of;
  r.range_words = words;
  r.why = why;
  return r;
}

OptionRow with_rule(OptionRow r, bool (*rule)(int64_t), const char* words) {
  r.rule = rule;
  r.range_words = words;
  return r;
}

using O = Options;
using M = KernelModeThresholds;
using C = CudaTuning;

std::vector<OptionRow> build_table() {
  return {
      choice<Field<&O::backend>, kBackendNames>("backend", "backend",
                                                "Numeric backend (cuda needs a CUDA build and a GPU)"),
      integer<Field<&O::auto_gpu_min_factor_nnz>>("auto_gpu_nnz", "auto_gpu_min_factor_nnz", -1, kNone,
                                                  "backend auto: the GPU factors from this nnz(L+U) on (-1: never)"),
      flag<Field<&O::cpu_fallback>>("cpu_fallback", "cpu_fallback",
                                    "backend cuda: out of device memory falls back to the CPU backend (else an error)"),
      from_petsc(integer<Field<&O::ilu_levels>>("", "ilu_levels", -1, kNone,
                                                "Levels of fill of an incomplete factorization (-1: the complete LU)"),
                 "-pc_factor_levels"),
      from_petsc(choice<Field<&O::shift_type>, kShiftTypeNames>("", "shift_type", "ILU/ICC: shift on a small pivot"),
                 "-pc_factor_shift_type"),
      from_petsc(real<Field<&O::shift_amount>>("", "shift_amount", 0.0, 1e300, "ILU/ICC: the shift amount"),
                 "-pc_factor_shift_amount"),
      integer<Field<&O::device>>("device", "device", -1, kNone,
                                 "CUDA device (-1: node-local MPI rank mod device count)"),
      choice<Field<&O::ordering>, kOrderingNames>(
          "ordering", "ordering", "Fill-reducing ordering; petsc = the one of -pc_factor_mat_ordering_type"),
      flag<Field<&O::ordering_cache>>(
          "ordering_cache", "ordering_cache",
          "An equal pattern seen before in this process reuses its ordering (false: order anew)"),
      flag<Field<&O::matching>>("matching", "matching", "MC64-style maximum-product matching and scaling"),
      flag<Field<&O::scaling>>("scaling", "scaling", "MC64 row/column scaling (with matching)"),
      flag<Field<&O::symmetric_pairs>>(
          "symmetric_pairs", "symmetric_pairs",
          "Cholesky: order a small-diagonal variable after its matched partner (fills KKT zero pivots)"),
      choice<Field<&O::lu_engine>, kLuEngineNames>(
          "lu_engine", "lu_engine",
          "LU numeric engine: column (GLU3.0 levels of columns), supernodal (dense panels on C + C^T), auto "
          "(supernodal where the GPU factors a real matrix)"),
      choice<Field<&O::ldlt_engine>, kLuEngineNames>(
          "ldlt_engine", "ldlt_engine",
          "Cholesky/LDL^T numeric engine: column (levels of the elimination tree, static pivots), supernodal "
          "(dense panels, Bunch-Kaufman pivots inside supernodes), auto (supernodal where the GPU factors a real "
          "matrix)"),
      flag<Field<&O::ldlt_unpivoted>>(
          "ldlt_unpivoted", "ldlt_unpivoted",
          "Supernodal LDL^T: each supernode first factored without pivots, kept where positive definite or its "
          "multipliers pass the threshold test, else Bunch-Kaufman"),
      flag<Field<&O::lu_supernode_pivoting>>(
          "lu_supernode_pivoting", "lu_supernode_pivoting",
          "Supernodal LU: a supernode whose static pivot fails is factored again with partial pivoting inside its "
          "diagonal block"),
      choice<Field<&O::pivot_policy>, kPivotPolicyNames>(
          "pivot_policy", "pivot_policy",
          "Failed static pivots: auto (fresh analysis, then KLU's partial pivoting, then DIVERGED_PC_FAILED), "
          "report (DIVERGED_PC_FAILED), perturb (and refine), repivot (KLU's partial pivoting once)"),
      real<Field<&O::pivot_threshold>>("pivot_threshold", "pivot_threshold", 0.0, 1.0,
                                       "A pivot is tiny when |p| <= threshold * max|column|"),
      from_petsc(real<Field<&O::zero_pivot>>("", "zero_pivot", 0.0, 1e300, "A pivot is tiny when |p| <= zero_pivot"),
                 "-pc_factor_zeropivot"),
      real<Field<&O::perturbation>>("perturbation", "perturbation", 0.0, 1.0,
                                    "perturb: tiny pivot -> sign(p) * perturbation * max|column| (relative)",
                                    /*lo_open=*/true),
      integer<Field<&O::refine_steps>>("refine_steps", "refine_steps", -1, 1000,
                                       "Iterative refinement steps (-1: check the backward error, up to 3 steps)"),
      integer<Field<&O::refine_check_interval>>("refine_check_interval", "refine_check_interval", 1, 1 << 30,
                                                "Automatic refinement: once a solve needs no step, every Nth "
                                                "solve of the factorization is checked (1: every solve)"),
      real<Field<&O::refine_tolerance>>("refine_tol", "refine_tolerance", 0.0, 1.0,
                                        "Refinement stops below this backward error"),
      real<Field<&O::backward_error_tolerance>>("berr_tol", "backward_error_tolerance", 0.0, 1.0,
                                                "A solve above this backward error after refinement is no solution "
                                                "(pivot policy auto: recover; report, repivot: the factor fails)"),
      real<Field<&O::check_growth>>("check_growth", "check_growth", 1.0, 1e300,
                                    "Pivot policy auto: a factor whose growth exceeds this is checked by a solve "
                                    "before it is accepted (1e300: never)"),

      integer<Field<&O::modes, &M::stream_max_columns>>("stream_columns", "modes.stream_max_columns", 0, kNone,
                                                        "Levels with at most this many columns run in stream mode"),
      integer<Field<&O::modes, &M::total_warps>>(
          "total_warps", "modes.total_warps", 0, kNone,
          "Resident warps for GLU3.0 Eq. 7 (0: the resident warps of the device that factors)"),
      integer<Field<&O::modes, &M::min_warps>>("min_warps", "modes.min_warps", 1, 32,
                                               "Fewest warps per column in small-block mode"),
      with_bounds(integer<Field<&O::modes, &M::max_warps>>("max_warps", "modes.max_warps", 1, 32,
                                                           "Warps per column from which large-block mode is used"),
                  [](const Options& o) -> int64_t { return o.modes.min_warps; }, nullptr, "int in [min_warps, 32]",
                  " (and at least -mat_gpuglu_min_warps)"),
      with_rule(integer<Field<&O::modes, &M::max_block_threads>>(
                    "block_threads", "modes.max_block_threads", 32, 1024,
                    "Most threads per block of a block-per-target update (power of two)"),
                [](int64_t v) { return (v & (v - 1)) == 0; }, "a power of two in [32, 1024]"),
      integer<Field<&O::modes, &M::rows_per_thread>>(
          "rows_per_thread", "modes.rows_per_thread", 1, 1024,
          "Rows of the longest source column per thread in block-per-target updates"),
      flag<Field<&O::modes, &M::programmatic_launch>>(
          "programmatic_launch", "modes.programmatic_launch",
          "Overlap each level's kernels with the previous one (Hopper's programmatic launch)"),
      flag<Field<&O::modes, &M::persistent_kernel>>(
          "persistent_kernel", "modes.persistent_kernel",
          "GPU column LU: the whole level loop as one persistent, self-scheduled kernel"),

      choice<Field<&O::trsv_kernel>, kTrsvKernelNames>(
          "trsv", "trsv_kernel", "GPU triangular-solve kernel: auto, R. Li's levr/levc/slfr/slfc, or cuSPARSE SpSV"),
      choice<Field<&O::trsv_analysis>, kTrsvAnalysisSiteNames>(
          "trsv_analysis", "trsv_analysis",
          "Level analysis of the GPU triangular solves: cpu, or gpu (Kahn's algorithm; same levels)"),

      flag<Field<&O::cuda, &C::level_graph>>("graph", "cuda.level_graph",
                                             "GPU level loop replayed as one CUDA graph (0: launched level by level)"),
      choice<Field<&O::cuda, &C::staging>, kStagingNames>(
          "staging", "cuda.staging", "How A, b and x reach the GPU: auto, pinned (a copy, one DMA), direct (pageable)"),
      flag<Field<&O::cuda, &C::kernel_warm_up>>(
          "kernel_warm_up", "cuda.kernel_warm_up",
          "Load the engine's GPU kernels beside a large factor's analysis (0: at their first use)"),
      flag<Field<&O::cuda, &C::trsv_programmatic_launch>>(
          "trsv_programmatic_launch", "cuda.trsv_programmatic_launch",
          "LEVR/LEVC triangular-solve levels overlap the previous level's drain"),
      integer<Field<&O::cuda, &C::trsv_run_passes>>(
          "trsv_run_passes", "cuda.trsv_run_passes", -1, 64,
          "LEVR: single-block passes per run of narrow levels (-1: 1 up to 8192 rows, else 0)"),
      integer<Field<&O::cuda, &C::kahn_blocks_per_sm>>("kahn_blocks_per_sm", "cuda.kahn_blocks_per_sm", -1, 64,
                                                       "GPU level analysis: blocks per SM of its grid (-1: 1)"),
      integer<Field<&O::cuda, &C::kahn_narrow_rows>>(
          "kahn_narrow_rows", "cuda.kahn_narrow_rows", -1, 1024,
          "GPU level analysis: frontiers of at most this many rows run in one block (-1: the default)"),
      flag<Field<&O::cuda, &C::supernodal_panel_solve>>(
          "supernodal_panel_solve", "cuda.supernodal_panel_solve",
          "Supernodal LU: triangular solves on the panels (0: through F by the column engine's solves)"),
      flag<Field<&O::cuda, &C::supernodal_self_scheduled_solve>>(
          "supernodal_self_scheduled_solve", "cuda.supernodal_self_scheduled_solve",
          "Supernodal LU: each panel sweep one self-scheduled launch (0: a launch per tree level)"),
      with_rule(integer<Field<&O::cuda, &C::supernodal_solve_threads>>(
                    "supernodal_solve_threads", "cuda.supernodal_solve_threads", -1, 512,
                    "Supernodal LU: threads per block of the self-scheduled sweeps (-1: the default)"),
                [](int64_t v) { return v == -1 || (v >= 32 && v % 32 == 0); }, "-1 or a multiple of 32 in [32, 512]"),
      flag<Field<&O::cuda, &C::supernodal_staged_panels>>(
          "supernodal_staged_panels", "cuda.supernodal_staged_panels",
          "Supernodal LU: panels 16 columns at a time through shared memory (0: column by column)"),
      flag<Field<&O::cuda, &C::supernodal_resident_panels>>(
          "supernodal_resident_panels", "cuda.supernodal_resident_panels",
          "Supernodal LU: levels whose panels fit shared memory whole are factored there"),
      // The stepped trailing update's grid has a row per supernode (gridDim.y <= 65535).
      integer<Field<&O::cuda, &C::supernodal_stepped_max_nodes>>(
          "supernodal_stepped_max_nodes", "cuda.supernodal_stepped_max_nodes", 0, 65535,
          "Supernodal LU: levels of at most this many supernodes factored in 16-column steps (0: never)"),
      integer<Field<&O::cuda, &C::supernodal_stepped_min_entries>>(
          "supernodal_stepped_min_entries", "cuda.supernodal_stepped_min_entries", 0, kNone,
          "Supernodal LU: a stepped level's first step updates at least this many entries of one supernode"),
      integer<Field<&O::cuda, &C::supernodal_dense_min_cols>>(
          "supernodal_dense_min_cols", "cuda.supernodal_dense_min_cols", 0, kNone,
          "Supernodal LU: supernodes of at least this many columns factored by cuSOLVER (0: never)"),
      integer<Field<&O::cuda, &C::supernodal_streams>>(
          "supernodal_streams", "cuda.supernodal_streams", 1, 32,
          "Supernodal LU: a level's blocked and GEMM supernodes run on up to this many streams"),

      with_bounds(integer<Field<&O::num_threads>>(
                      "threads", "num_threads", 0, kNone,
                      "Analysis and CPU backend threads (0: the default, under PETSc the rank's share of its node's processors, "
                      "else OpenMP's; at most 4 per processor OpenMP sees)"),
                  nullptr, [](const Options&) -> int64_t { return max_cpu_threads(); }, "int in [0, 4 × processors]",
                  " (0: the default; at most 4 threads per processor OpenMP sees)"),
      flag<Field<&O::cpu_right_looking>>(
          "cpu_right_looking", "cpu_right_looking",
          "CPU backend runs the GPU's right-looking level updates instead of the left-looking gather"),
  };
}

// The shortest decimal that reads back as v, exponent without '+' or leading zeros (1e300,
// 1.4901161193847656e-8).
std::string number_text(double v) {
  char buf[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  const size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string exponent = s.substr(e + 1);
  const bool negative = exponent[0] == '-';
  if (exponent[0] == '-' || exponent[0] == '+') exponent.erase(0, 1);
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return s.substr(0, e + 1) + (negative ? "-" : "") + exponent;
}

std::string integer_text(double v) { return std::to_string(static_cast<int64_t>(v)); }

}  // namespace

int64_t OptionRow::upper(const Options& o) const {
  if (hi_of) return hi_of(o);
  return std::isinf(hi) ? type_max : static_cast<int64_t>(hi);
}

const std::vector<OptionRow>& option_table() {
  static const std::vector<OptionRow> table = build_table();
  return table;
}

const OptionRow* option_row(const std::string& field) {
  for (const OptionRow& r : option_table())
    if (field == r.field) return &r;
  return nullptr;
}

std::string range_text(const OptionRow& r) {
  switch (r.kind) {
    case OptionKind::flag: return "bool";
    case OptionKind::choice: {
      std::string s;
      for (std::size_t i = 0; i < r.num_choices; ++i) s += (i ? ", `" : "`") + std::string(r.choices[i]) + "`";
      return s;
    }
    case OptionKind::integer:
      if (r.range_words[0] != '\0') return r.range_words;
      if (std::isinf(r.hi)) return "int ≥ " + integer_text(r.lo);
      return "int in [" + integer_text(r.lo) + ", " + integer_text(r.hi) + "]";
    case OptionKind::real:
      if (std::isinf(r.hi)) return "real ≥ " + number_text(r.lo);
      return std::string("real in ") + (r.lo_open ? "(" : "[") + number_text(r.lo) + ", " + number_text(r.hi) + "]";
  }
  return "?";
}

std::string value_text(const OptionRow& r, const Options& o) {
  switch (r.kind) {
    case OptionKind::flag: return r.get_int(o) ? "true" : "false";
    case OptionKind::integer: return std::to_string(r.get_int(o));
    case OptionKind::real: return number_text(r.get_real(o));
    case OptionKind::choice: {
      const int64_t i = r.get_int(o);
      return i >= 0 && static_cast<std::size_t>(i) < r.num_choices ? r.choices[i] : "?";
    }
  }
  return "?";
}

bool in_range(const OptionRow& r, const Options& o) {
  switch (r.kind) {
    case OptionKind::flag:
    case OptionKind::choice: return true;
    case OptionKind::integer: {
      const int64_t v = r.get_int(o);
      return v >= r.lower(o) && v <= r.upper(o) && (!r.rule || r.rule(v));
    }
    case OptionKind::real: {
      const double v = r.get_real(o);
      return std::isfinite(v) && (r.lo_open ? v > r.lo : v >= r.lo) && v <= r.hi;
    }
  }
  return false;
}

void require_in_range(const OptionRow& r, const Options& o) {
  if (in_range(r, o)) return;
  std::string message = std::string("option ") + r.field + " = " + value_text(r, o) + " is outside its range " +
                        range_text(r);
  if (r.lo_of || r.hi_of)
    message += " (here [" + std::to_string(r.lower(o)) + ", " + std::to_string(r.upper(o)) + "])";
  throw Error(Status::invalid_input, message + r.why);
}

}  // namespace gpuglu
