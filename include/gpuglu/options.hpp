#pragma once
// Every parameter of gpuglu, with its documented default. One row per field
// (gpuglu/option_table.hpp) gives its range, its PETSc option -mat_gpuglu_<name> and its
// -help text: validate(), the PETSc adapter and docs/options.md (a test compares) read it.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpuglu/enum_names.hpp"
#include "gpuglu/trsv_kernel.hpp"

namespace gpuglu {

// Which numeric backend executes the schedule.
enum class Backend {
  automatic,  // the GPU where one is usable and the analysis predicts it wins, else the CPU
  cpu,        // the reference backend (OpenMP over the columns of a level)
  cuda,       // the CUDA backend (needs a CUDA build and a GPU)
};
inline constexpr std::array<EnumName<Backend>, 3> kBackendNames{
    {{Backend::automatic, "auto"}, {Backend::cpu, "cpu"}, {Backend::cuda, "cuda"}}};

// Fill-reducing ordering applied symmetrically to the matched matrix.
enum class Ordering {
  amd,      // AMD on B + B^T (SuiteSparse), default
  colamd,   // COLAMD on B (SuiteSparse), applied symmetrically
  metis,    // METIS nested dissection on B + B^T
  natural,  // identity
  given,    // the permutation the caller passes to analyze(): PETSc's ordering through the adapter, hence its name
  // By the matrix and the engine: AMD for the column LU; for LDL^T and the supernodal LU AMD
  // below kMetisFromRows unknowns and METIS's nested dissection from there on
  // (docs/performance.md has the measured switch), but AMD where its factor is small and the
  // CPU runs it (Options::ordering_for_cpu).
  automatic,
};
inline constexpr std::array<EnumName<Ordering>, 6> kOrderingNames{{{Ordering::amd, "amd"},
                                                                   {Ordering::colamd, "colamd"},
                                                                   {Ordering::metis, "metis"},
                                                                   {Ordering::natural, "natural"},
                                                                   {Ordering::given, "petsc"},
                                                                   {Ordering::automatic, "auto"}}};

// The LU's numeric engine (both run on either backend).
enum class LuEngine {
  // GLU3.0's hybrid right-looking column LU by levels of the relaxed dependency graph, on
  // the exact static-pivot pattern (docs/design.md).
  column,
  // Supernodes on the pattern of C + C^T: dense panels factored and updated by dense
  // kernels, levels of the supernodal tree (include/gpuglu/supernodes.hpp; issue 14).
  supernodal,
  // The default: supernodal where the GPU factors a real matrix (there it passes cuDSS;
  // docs/performance.md), column on the CPU backend, for complex scalars and for ILU (the
  // column engine is the faster of the two on one CPU core for the small factors the
  // automatic backend leaves there). Resolved before each analysis by
  // resolve_automatic (src/core/automatic_options.hpp); SparseLU::lu_engine() says which ran.
  automatic,
};
inline constexpr std::array<EnumName<LuEngine>, 3> kLuEngineNames{
    {{LuEngine::column, "column"}, {LuEngine::supernodal, "supernodal"}, {LuEngine::automatic, "auto"}}};

// What the factorization does when static pivoting fails: a pivot tiny relative to its
// column, an Inf/NaN produced by the elimination, or a solve whose backward error stays
// above Options::backward_error_tolerance after refinement (docs/user_guide.md).
enum class PivotPolicy {
  report,   // stop and report numerically_singular (PETSc: MAT_FACTOR_NUMERIC_ZEROPIVOT)
  perturb,  // replace it by sign * perturbation * column max and refine in the solve
  // Analyze A again with KLU's partial pivoting (BTF + AMD, threshold 0.001, row scaling) and
  // factor the same values with that pivot order on the same backend; later factorizations
  // reuse it. At most one re-analysis per factorization: a tiny pivot under KLU's order (or
  // KLU finding A singular) is then reported as under `report` (docs/design.md, "Re-pivoting").
  repivot,
  // The default: static pivots (the fast path) while they work; when they fail in a
  // factorization or a solve, first a fresh static analysis of the current values (unless the
  // schedule already is one), then KLU's partial pivoting, and only when both fail a reported
  // failure. A factor with suspicious growth is checked by a solve before it is accepted.
  // Never a success with a backward error above the tolerance (docs/design.md, "Recovery").
  automatic,
};
// The default first: PETSc's -help lists them in this order.
inline constexpr std::array<EnumName<PivotPolicy>, 4> kPivotPolicyNames{{{PivotPolicy::automatic, "auto"},
                                                                         {PivotPolicy::report, "report"},
                                                                         {PivotPolicy::perturb, "perturb"},
                                                                         {PivotPolicy::repivot, "repivot"}}};

// How a symmetric matrix reaches the LDL^T analysis (SparseLDLT): both triangles, or one
// (PETSc's SeqSBAIJ stores the upper one).
enum class StoredTriangle { full, lower, upper };

// How an incomplete factorization (Options::ilu_levels >= 0) answers a small pivot: PETSc's
// -pc_factor_shift_type, with PETSc's semantics (MatLUFactorNumeric_SeqAIJ's shift loop), so
// that a PETSc user's ILU behaves as it did with PETSc's own. Row i of the factor fails when
// |U(i,i)| <= zero_pivot * r_i (nonzero) or U(i,i) <= zero_pivot * r_i (positive_definite),
// r_i = sum |L(i,:)| + sum |U(i, >i)|; the whole factorization then starts again on A + s I.
enum class ShiftType {
  none,               // no shift: |U(i,i)| <= zero_pivot (absolute) is a zero pivot, reported
  nonzero,            // s = shift_amount at the first failure, doubled at each further one
  positive_definite,  // Manteuffel: s = f * t, t = 1.1 max_i (sum_j |a_ij| - |a_ii| - a_ii), f bisected in [0, 1], 5 steps
};
inline constexpr std::array<EnumName<ShiftType>, 3> kShiftTypeNames{{{ShiftType::none, "none"},
                                                                     {ShiftType::nonzero, "nonzero"},
                                                                     {ShiftType::positive_definite, "positive_definite"}}};

// Where the level analysis of the GPU triangular solves runs. Both give the same levels
// (tested), so the solves are identical; gpu is Kahn's algorithm in one cooperative launch
// (src/cuda/trsv/trsv_levels.hpp), which pays where levels are wide and few (3-D problems) and
// loses on long chains and small triangles, where each level is too little work for the whole
// GPU (docs/performance.md has the measurements). The dependency counts and the
// column copy stay on the CPU either way.
enum class TrsvAnalysisSite { cpu, gpu };
inline constexpr std::array<EnumName<TrsvAnalysisSite>, 2> kTrsvAnalysisSiteNames{
    {{TrsvAnalysisSite::cpu, "cpu"}, {TrsvAnalysisSite::gpu, "gpu"}}};

// How the caller's host arrays reach the GPU (A's values per factorization, b and x per
// solve): copied into a pinned buffer and sent by one DMA, or sent from pageable memory,
// which the driver stages in pipelined chunks; automatic sends arrays of 1 MiB or more
// directly (the measured crossover: docs/performance.md, ILU-GMRES).
enum class Staging { automatic, pinned, direct };
inline constexpr std::array<EnumName<Staging>, 3> kStagingNames{
    {{Staging::automatic, "auto"}, {Staging::pinned, "pinned"}, {Staging::direct, "direct"}}};

// Equivalent ways of running the same arithmetic on the GPU: results do not depend on them
// (the tests compare them bitwise), only the speed does. Measurement and diagnosis knobs
// (docs/options.md); -1 means the engine's measured default.
struct CudaTuning {
  bool level_graph = true;  // replay the level loops (factorization, triangular solves) as CUDA graphs (false: level by level)
  Staging staging = Staging::automatic;
  // A large complete factor bound for the GPU: beside its analysis, a small factorization and
  // solve by its engine load the kernels its first factorization would load (api/engine_choice.hpp's
  // DeviceWarmUp; once per process, device and engine). false: they load at their first use.
  bool kernel_warm_up = true;
  bool trsv_programmatic_launch = true;  // LEVR/LEVC levels overlap the previous level's drain
  int32_t trsv_run_passes = -1;          // LEVR single-block runs per level segment (-1: 1 up to 8192 rows, else 0), at most 64
  int32_t kahn_blocks_per_sm = -1;       // the GPU level analysis's grid (src/cuda/trsv/kahn_shape.hpp)
  int32_t kahn_narrow_rows = -1;         // its frontiers of at most this many rows run in one block
  // Supernodal LU engine: the triangular solves on the panels, by the supernodal tree (false:
  // through F, by the column LU's level-scheduled solves). The panels' dense blocks solve in
  // tens of tree levels where F's column levels number thousands (docs/performance.md).
  bool supernodal_panel_solve = true;
  // Supernodal LU engine, solves on the panels: each sweep one self-scheduled launch, a block per
  // 32-column tile of a supernode (a warp per small supernode), starting once the tiles it
  // depends on are done (false: a launch per level of the supernodal tree, a block per
  // supernode). Results agree to rounding (the forward sweeps' atomics).
  bool supernodal_self_scheduled_solve = true;
  // Threads per block of the self-scheduled sweeps (-1: the engine's measured default), a
  // multiple of 32 from 32 to 512.
  int32_t supernodal_solve_threads = -1;
  // Supernodal LU engine: factor panels 16 columns at a time through shared memory where they
  // fit (false: column by column in global memory, as panels too large for shared memory
  // always are). Both give bitwise the same factor; false is for the tests of that path.
  bool supernodal_staged_panels = true;
  // Supernodal LU engine: a level whose panels all fit shared memory whole (L and U^T panels
  // together, 200 KiB) is factored there, two barriers per column, and blocked supernodes' steps
  // likewise where they fit (false: the staged and stepped kernels). Bitwise the same factor.
  bool supernodal_resident_panels = true;
  // Supernodal LU engine: a level whose panel-kernel supernodes are at most this many, and
  // whose first 16-column step leaves at least supernodal_stepped_min_entries entries of one
  // supernode to update, is factored in steps of 16 columns, the trailing updates of each step
  // by the whole GPU (supernodal_kernels.cu), instead of one thread block per supernode doing
  // all of it (which leaves the GPU idle on the levels near the root). Stepping pays where a
  // step's update is large enough to fill the GPU, and costs launches where it is not, hence
  // the entry threshold (docs/performance.md has the measurements). 0 nodes: never; bitwise
  // the same factor either way.
  int32_t supernodal_stepped_max_nodes = 64;
  int32_t supernodal_stepped_min_entries = 16384;
  // Supernodal LU engine: supernodes of at least this many columns (and 2^18 multiply-adds of
  // panel work, ns^2 nr) are factored by cuSOLVER's dense LU without pivoting, the static-pivot
  // test checked on the result; where it fails (or the result is not finite) the factorization
  // is redone with the panel kernels, which that engine then keeps to (their test perturbs or
  // reports as the CPU engine does). 0: never. Not bitwise the panel kernels' factor (cuSOLVER
  // sums in its own order, with FMAs): the same to rounding. The supernodal LDL^T sends its
  // narrow supernodes of this many columns (and 2^18 multiply-adds) to cuSOLVER's LU in their
  // unpivoted attempt (ldlt_unpivoted), as it does every wider one.
  int32_t supernodal_dense_min_cols = 64;
  // Supernodal LU engine: the blocked and GEMM supernodes of a level run on up to this many
  // streams side by side (each with its own cuBLAS/cuSOLVER handles and workspaces, which
  // device_bytes() counts); 1: one after another on the engine's stream. A level's supernodes
  // are independent and each one's dense calls are short, mostly launches and tails, which
  // overlap on several streams (docs/performance.md, "Supernodal LU, seventh step").
  int32_t supernodal_streams = 4;
};

// GLU3.0 kernel modes, chosen per level from its size (paper Sec. III-B2).
struct KernelModeThresholds {
  // Levels with at most this many columns run in stream mode (paper: 16).
  int32_t stream_max_columns = 16;
  // Warps the device can hold at once; Eq. 7 gives W = total_warps / level size. 0: the
  // resident warps of the device the factor runs on (DeviceInfo::total_warps()), resolved with
  // the other automatic choices before the analysis (src/core/automatic_options.hpp). With no
  // device (the CPU backend, or analyze() called directly) it stays 0: W = 0 tags every level
  // above stream size small-block, which no CPU engine reads (they run levels, not warps).
  int32_t total_warps = 0;
  // Small-block mode uses W rounded down to a power of two in [min_warps, max_warps);
  // W >= max_warps is large-block mode (32 warps per column, a warp per subcolumn).
  int32_t min_warps = 2;
  int32_t max_warps = 32;
  // Launch shape of the block-per-target updates (large-block and stream levels): about
  // rows_per_thread rows of the longest source column per thread, at most max_block_threads
  // threads. Small blocks with several rows per thread keep every target of a level resident
  // at once, where 1024-thread blocks ran the level in waves, each paying the full chain of
  // dependent loads (docs/performance.md).
  int32_t max_block_threads = 128;
  int32_t rows_per_thread = 4;
  // Launch each level's kernels with programmatic dependent launch (Hopper and newer): a
  // kernel starts while the previous one drains, reads its part of the schedule, and only
  // then waits for the previous level's values.
  bool programmatic_launch = true;
  // Run the whole level loop as one persistent, self-scheduled kernel (dependency counters
  // per column and level instead of a launch per level; GLU-style tasks handed out in
  // level order, so it cannot deadlock). Off by default: docs/performance.md compares it
  // with the graph.
  bool persistent_kernel = false;
};

struct Options {
  Backend backend = Backend::automatic;
  // backend automatic: the GPU factors only where nnz(L+U) reaches this (below it one CPU
  // core refactors faster than a GPU's level loop can launch; docs/performance.md has the
  // measured crossover). -1: never the GPU.
  int64_t auto_gpu_min_factor_nnz = 100000;
  // When the GPU cannot hold the factor (out of device memory): true, the CPU backend takes
  // over (backend_note() says why; always so under backend automatic); false, backend cuda
  // fails with Error(out_of_memory) naming the bytes asked.
  bool cpu_fallback = false;
  // >= 0: an incomplete factorization ILU(k) with k = ilu_levels levels of fill (PETSc's
  // -pc_factor_levels) on C = A(q, q), q from `ordering` (PETSc's ILU orders naturally);
  // matching, scaling and refinement are off (the factor is a preconditioner, not A's).
  // -1: the complete LU.
  int32_t ilu_levels = -1;
  // Incomplete factorizations only (the complete LU answers tiny pivots by pivot_policy).
  ShiftType shift_type = ShiftType::none;
  double shift_amount = 2.220446049250313e-14;  // PETSc's default, 100 machine epsilon
  // CUDA device ordinal; -1: the process's local MPI rank (or 0) modulo the device count.
  int32_t device = -1;
  // automatic: AMD for LU; for LDL^T AMD below analysis::kMetisFromRows unknowns and
  // METIS's nested dissection from there on (analysis/ordering.hpp).
  Ordering ordering = Ordering::automatic;
  // MC64-style maximum product transversal (src/analysis/max_product_matching). Off: the diagonal is
  // used as is; a zero diagonal entry that fill does not cure is then reported as a
  // zero pivot by the numeric factorization. Structural singularity is detected either way.
  bool matching = true;
  // MC64's row/column scaling (only with matching).
  bool scaling = true;
  // LDL^T with scaling: a variable whose scaled diagonal is small is ordered after a
  // matched partner, whose elimination fills its pivot (analysis/symmetric_pairs.hpp).
  // Off: fewer fill, more perturbed pivots on KKT-like matrices (and no inertia there).
  bool symmetric_pairs = true;
  // The complete LU's numeric engine (ILU(k) always runs the column engine).
  LuEngine lu_engine = LuEngine::automatic;
  // The complete LDL^T's (Cholesky's) numeric engine, by the same rule (ICC(k) and complex
  // scalars run the column engine): supernodal is the supernodal LDL^T with Bunch-Kaufman
  // pivots inside supernodes (FactorKind::supernodal_ldlt).
  LuEngine ldlt_engine = LuEngine::automatic;
  // Supernodal LDL^T: each supernode is first factored without pivots (on the GPU in shared
  // memory, or by cuSOLVER's dense LU where wide), the result kept where its pivots are all
  // positive or its multipliers all pass the threshold test (|l| <= 1 / u, u = 0.01, as MA57's
  // and SSIDS's); a supernode that fails takes Bunch-Kaufman inside pivot blocks from then on
  // (the factorization redone; core/bunch_kaufman.hpp). Off: Bunch-Kaufman everywhere.
  bool ldlt_unpivoted = true;
  // Supernodal LU: a supernode whose static pivot fails (pivot_policy report or automatic) is
  // factored again with partial pivoting inside its diagonal block, for this factorization
  // and the factor's later values; the supernodes around it stand (core/supernode_pivoting.hpp).
  // Off: the failure goes straight to pivot_policy.
  bool lu_supernode_pivoting = true;
  PivotPolicy pivot_policy = PivotPolicy::automatic;
  // A pivot p of column j is tiny when |p| <= pivot_threshold * max_i |F(i,j)|,
  // or |p| <= zero_pivot (absolute; PETSc's MatFactorInfo.zeropivot).
  double pivot_threshold = 1e-13;
  double zero_pivot = 0.0;
  // perturb policy: a tiny pivot becomes sign(p) * perturbation * (max_i |F(i,j)|, or 1 for
  // an all-zero column); the solve then refines (see refine_steps).
  double perturbation = 1.4901161193847656e-08;  // sqrt(double epsilon)
  // Iterative refinement steps in solve(): -1 = automatic (the backward error is measured
  // after a solve - every solve until one needs no step, then every refine_check_interval-th -
  // and up to 3 steps refine while it exceeds refine_tolerance: static pivots need it on badly
  // scaled matrices); 0 = never; k > 0 = up to k steps, every solve checked.
  int32_t refine_steps = -1;
  // Under automatic refinement, once a solve of a factorization met refine_tolerance with no
  // correction step (and no pivot was perturbed), only every refine_check_interval-th later
  // solve of that factorization measures its backward error (plain and transposed solves
  // counted apart); one that then misses the target turns the check back on for every solve.
  // Whether a factor's solves are backward stable is a property of the factor (its pivots,
  // its growth), which the first solve has shown; a preconditioner applied once per Krylov
  // iteration otherwise pays a residual per application (a third of a small factor's solve).
  // 1: every solve.
  int32_t refine_check_interval = 16;
  // Refinement stops once the componentwise backward error is below this. About 45 eps: a
  // plain solve of a well-behaved factor lands at 5-20 eps (its sums run over tens to
  // hundreds of terms), where a correction step would double the solve's cost; the matrices
  // static pivots fail (lns_131: 5e-12) are far above it.
  double refine_tolerance = 1e-14;
  // A solve whose componentwise backward error stays above this after refinement is no
  // solution: pivot policies automatic and repivot recover (a new pivot order), report and
  // repivot then report the factor failed; perturb only flags it (SolveStats::inaccurate),
  // since a perturbed factor is meant to precondition. Checked whenever refine_steps != 0.
  double backward_error_tolerance = 1e-12;
  // PivotPolicy::automatic: a factor whose growth (max |F| / max |C|) exceeds this is checked
  // by a solve with a known solution before it is accepted, so that a factor too inaccurate
  // for refinement fails in the factorization (where PETSc reports it) rather than in a
  // solve. The default, 1/sqrt(eps), is where half the digits of the factor's largest
  // entries may be lost; 1e300 turns the check off (solves are still checked).
  double check_growth = 6.7108864e7;
  KernelModeThresholds modes;
  // The kernel of the GPU triangular solves (LU, ILU and their transposes): R. Li's LEVR /
  // LEVC / SLFR / SLFC, or cuSPARSE SpSV; automatic picks from each triangle's analysis
  // (src/analysis/kernel_choice.hpp has the rule and its measurements).
  TrsvKernel trsv_kernel = TrsvKernel::automatic;
  TrsvAnalysisSite trsv_analysis = TrsvAnalysisSite::cpu;
  CudaTuning cuda;
  // Threads of the analysis (graph, value maps, F) and of the CPU backend; 0 = the default:
  // OpenMP's, or under PETSc the rank's share of its node (rank_share_of_threads below; the
  // adapter resolves it). The schedule is the same for every thread count.
  int32_t num_threads = 0;
  // Orderings computed in this process are found again by a fingerprint of the pattern they
  // ordered (analysis/ordering_cache.hpp): an equal pattern is ordered once. false: every
  // analysis orders (benchmarks timing the ordering).
  bool ordering_cache = true;
  // Set by SparseLU and SparseLDLT, not by users: the factor will run on the CPU (backend cpu,
  // or auto in a process where no CUDA runs and no warm-up started it, where the cold start
  // keeps a small factor on the CPU). Then an automatic ordering that would be METIS's keeps
  // AMD where AMD's own factor is small (analysis::kAmdKeepFlops): METIS takes longer there
  // than the CPU factorizations it shortens (docs/performance.md, "Where we lose").
  bool ordering_for_cpu = false;
  // The CPU backend runs each level left-looking (every column gathers its updates:
  // KLU's work, src/cpu/level_gather.hpp). true: it runs the GPU's right-looking,
  // target-grouped updates instead (src/cpu/level_numeric.hpp), e.g. to check them.
  bool cpu_right_looking = false;
};

inline std::string_view to_string(Backend b) noexcept { return name_in(kBackendNames, b); }
inline std::string_view to_string(Ordering o) noexcept { return name_in(kOrderingNames, o); }
inline std::string_view to_string(LuEngine e) noexcept { return name_in(kLuEngineNames, e); }
inline std::string_view to_string(PivotPolicy p) noexcept { return name_in(kPivotPolicyNames, p); }
inline std::string_view to_string(ShiftType t) noexcept { return name_in(kShiftTypeNames, t); }
inline std::string_view to_string(TrsvAnalysisSite s) noexcept { return name_in(kTrsvAnalysisSiteNames, s); }
inline std::string_view to_string(Staging s) noexcept { return name_in(kStagingNames, s); }
inline std::optional<Backend> parse_backend(std::string_view s) noexcept { return value_in(kBackendNames, s); }
inline std::optional<Ordering> parse_ordering(std::string_view s) noexcept { return value_in(kOrderingNames, s); }
inline std::optional<LuEngine> parse_lu_engine(std::string_view s) noexcept { return value_in(kLuEngineNames, s); }
inline std::optional<PivotPolicy> parse_pivot_policy(std::string_view s) noexcept {
  return value_in(kPivotPolicyNames, s);
}

// Most CPU threads an Options::num_threads may ask for: four per processor OpenMP sees (more
// only oversubscribe the cores, and tens of thousands abort the OpenMP runtime).
int32_t max_cpu_threads() noexcept;

// The CPU threads an Options::num_threads stands for: itself where positive, OpenMP's default
// (omp_get_max_threads) for 0.
int32_t threads_of(int32_t num_threads) noexcept;

// The threads that Options::num_threads == 0 stands for in one of ranks_on_node processes
// sharing a node (the PETSc adapter's default under MPI): its share of the node's
// node_processors, at most the process_processors it may run on, at least 1. OpenMP's
// default would take every processor in every rank: 16 ranks x 16 threads on 16 cores. A
// count that is not known (<= 0) does not limit. Without MPI, 0 keeps meaning OpenMP's default.
int32_t rank_share_of_threads(int32_t process_processors, int32_t node_processors, int32_t ranks_on_node) noexcept;

// The threads of a gathered factor's root (the PETSc adapter's default for it): while it
// analyzes, factors or solves, the `waiting` other ranks of its group on its node wait for it
// in MPI, each busy on one processor, so the root takes its own rank_share and the rest of
// theirs, at most its free_processors: those it may run on less one for each waiting rank
// that may run on them too (unbound ranks all do; ranks bound to a socket, those of its
// socket). A free_processors <= 0 is unknown and does not limit.
int32_t root_share_of_threads(int32_t rank_share, int32_t waiting, int32_t free_processors) noexcept;

// Throws Error(invalid_input) naming the first field outside its documented range
// (thresholds finite and non-negative, counts within their bounds). SparseLU checks its
// options with it, so a bad value fails before any work, never in the middle of it.
void validate(const Options& o);

}  // namespace gpuglu
