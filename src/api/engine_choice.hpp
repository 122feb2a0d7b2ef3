#pragma once
// What both facades (SparseLU, SparseLDLT) do around their engine: choose the backend,
// build the engine of that backend (falling back to the CPU where the GPU cannot hold the
// factor and the options allow it), and read an engine's result as FactorStats. Templates
// on the scalar (double, std::complex<double>; instantiated in engine_choice.cpp).
#include <atomic>
#include <future>
#include <limits>
#include <memory>
#include <string>

#include "core/numeric_engine.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/lu.hpp"

namespace gpuglu::api {

// Before the analysis: a request that cannot be met fails at once: lu_engine supernodal with
// complex scalars, backend cuda without CUDA (Error(unsupported) naming the alternative).
template <class Scalar>
void check_backend_request(const Options& o);

// Before an LU's (ILU's) analysis: the options it receives, with the automatic choices made
// for this process (core/automatic_options.hpp, the one rule): LuEngine::automatic and
// modes.total_warps == 0. The engines' rule reads the scalar only; the device the factor
// would run on (Options::device) is queried only where its fact decides something, the
// column LU's level schedule (modes.total_warps: with_device_warps). The supernodal
// engines' analyses read none, so the CUDA start-up that a first query costs overlaps their
// analysis (DeviceWarmUp) instead of preceding it.
// query false: no device query (the caller knows the factor stays on the CPU: stays_on_cpu).
template <class Scalar>
Options analysis_options(const Options& o, bool query = true);

// o with modes.total_warps from the device the factor would run on, where it is 0 and a GPU
// may factor: for an analysis that builds a column schedule after all (a recovery's column
// or KLU-ordered schedule of a factor first analyzed for a supernodal engine).
Options with_device_warps(const Options& o);

// The LDL^T's (ICC's): the same, the device queried only for the column LDL^T's level
// schedule (a complex LDL^T's column LU engine choice decides nothing here).
template <class Scalar>
Options ldlt_analysis_options(const Options& o);

// Whether the factor stays on the CPU whatever the device: backend cpu, a build without CUDA,
// or backend automatic with nnz(L+U), known to be at most nnz_factor_at_most (-1: unknown),
// below Options::auto_gpu_min_factor_nnz times the node's ranks per GPU (ranks that share a
// GPU each get a share of it but a core of their own; docs/performance.md, dd_defaults).
// device_count: the GPUs the ranks share; -1: the driver's count, read only where the size
// alone does not decide. An ILU(0), whose factor has A's pattern, asks before its analysis
// with devices_counted_before_cuda(), and then starts no CUDA at all.
// An incomplete factor (ILU(k), ICC(k)) needs kIncompleteGpuFactor times the rule: its GPU
// solves gain less over the CPU's (ILU(0)-GMRES on one rank: 0.97x PETSc's at nnz(A) 223k,
// 1.27x at 760k) and it pays the same CUDA start-up; bjacobi ILU(0) on 4 ranks sharing one
// GPU with subdomains of 710k nonzeros lost 0.66x on the GPU (docs/performance.md, dd_defaults).
bool stays_on_cpu(const Options& o, int64_t nnz_factor_at_most, int32_t device_count = -1);
// A device count under which no rank shares a GPU (ranks_per_device 1, unless the environment
// says otherwise): the size rule's least bound, read without a CUDA call.
inline constexpr int32_t kCountNoSharing = std::numeric_limits<int32_t>::max();
inline constexpr int64_t kIncompleteGpuFactor = 5;
// Node-local ranks per GPU (1 when the ranks are no more than the GPUs, or unknown), or
// GPUGLU_RANKS_PER_DEVICE where scripts/gpuglu_rank_gpu.sh narrowed the visible GPUs.
int64_t ranks_per_device(int32_t device_count, int32_t local_size);
// The GPUs counted without a CUDA call (even the device count costs a driver start-up,
// measured at ~0.4 s on 4 ranks at once): CUDA_VISIBLE_DEVICES's entries, or one per node
// when it is unset - so ranks may be counted as sharing a GPU they do not, which keeps a
// factor near the crossover on the CPU, where both backends are about even.
int32_t devices_counted_before_cuda() noexcept;

// Whether automatic keeps a factor of factor_flops on the CPU because this process has not
// started CUDA (cuda_running false) and the factor's CPU factorization would take less than
// CUDA's start-up (the module's and the driver's load, the context, the libraries' handles),
// which a run of a few factorizations does not win back: under kColdStartFlopsPerThread
// times the CPU threads (Options::num_threads; 0: OpenMP's default), set between ex14's 24^3
// and 32^3 LU on 16 cores (docs/performance.md, "Small problems"). factor_flops <= 0:
// unknown, no rule.
inline constexpr double kColdStartFlopsPerThread = 134217728.0;  // 2^27
bool cold_start_keeps_cpu(const Options& o, double factor_flops, bool cuda_running);
// An incomplete factor's flops do not measure its solves, where its GPU gains; in a process
// without CUDA running it needs kColdStartIncompleteFactor times its size rule (nnz_factor:
// at least its entries), set between ex14's 40^3 and 64^3 ILU(0) on one rank
// (docs/performance.md, "Small problems").
inline constexpr int64_t kColdStartIncompleteFactor = 2;
bool cold_start_keeps_incomplete_on_cpu(const Options& o, int64_t nnz_factor, bool cuda_running);

// After the analysis (nnz_factor: its nnz(L+U); an ILU(0)'s is known before it): cuda needs
// a usable device; automatic takes the GPU only where the factor is large enough for it to win
// (stays_on_cpu) and, with factor_flops known (where no DeviceWarmUp started CUDA beside the
// analysis), where a process without CUDA running has a factor worth starting it for
// (cold_start_keeps_cpu), and never for complex scalars. Fills device, and claim with the factor's
// claim on it (DeviceClaim: the process's least-claimed device unless Options::device names
// one); claim is released first, and stays empty for the CPU.
template <class Scalar>
// why (may be null): under automatic, set to why the factor stays on the CPU (-ksp_view's
// "GPU not used").
Backend choose_backend(const Options& o, int64_t nnz_factor, DeviceInfo& device, DeviceClaim& claim,
                       double factor_flops = -1.0, std::string* why = nullptr);
// The note of a factor (nnz_factor entries, or at least that many) that auto's size rule keeps
// on the CPU.
std::string size_rule_note(int64_t nnz_factor);

// Whether the engine of s on backend reads F entry by entry, which a supernodal schedule
// leaves out until spell_out_factor: the GPU supernodal engine's solves through F
// (cuda.supernodal_panel_solve off). Every other engine factors and solves in its own
// storage, and a host copy of F (factor_values()) spells it out when asked.
bool engine_reads_factor_entries(const Schedule& s, const Options& o, Backend backend);

// Which engine's kernels DeviceWarmUp loads as well: CUDA loads each kernel (ours, cuBLAS's,
// cuSOLVER's) at its first launch, so a fresh process's first factorization and solve pay for
// loading every kernel they use, and that is much of a large factor's first numeric phase
// (docs/performance.md, "The first factorization in a process"). A small factorization and
// refined solve on another thread, beside the analysis, load most of them instead
// (Options::cuda.kernel_warm_up).
enum class WarmUpKernels : uint8_t { none, lu, ldlt };

// The kernels to load for a factor of A (input_nnz entries) under o, of facade kind (lu or
// ldlt): none unless Options::cuda.kernel_warm_up is set, the factor is complete, goes to the
// GPU whatever its fill (backend cuda, or automatic with A alone above the GPU's size rule),
// and A has at least kWarmUpKernelsMinNnz entries, whose analysis hides the small
// factorization.
constexpr int64_t kWarmUpKernelsMinNnz = int64_t{1} << 19;
WarmUpKernels warm_up_kernels(const Options& o, int64_t input_nnz, WarmUpKernels kind);

// Whether a complete factor of A (input_nnz entries) starts DeviceWarmUp beside its analysis:
// where the GPU may factor it and, under automatic, A alone passes the size rule, so that its
// factor surely does (nnz(L+U) >= nnz(A)); a smaller A's may wait for the ordering's count
// (warm_up_waits_for_count). The overlap is worth at most the analysis's time,
// which is long only for a large A; a smaller A whose fill then takes its factor to the GPU
// meets the device after its analysis (choose_backend), and one that stays on the CPU starts
// no CUDA at all, whose start-up (the module's load, the driver's) would cost it more than
// its own work.
bool warm_up_context(const Options& o, int64_t input_nnz);

// Whether a DeviceWarmUp that warm_up_context wants waits for the ordering's AMD count
// (DeviceWarmUp::counted) before it starts: under automatic, in a process where CUDA has not
// started, for an A of fewer than kWarmUpCountBelowNnz entries. A's entries cannot tell a
// factor below the cold start's bound (a 2-D block of 1.3 GFlop: SNES ex19 128^2's fieldsplit)
// from one far above it (GAMG's coarse 3-D factor), the count can; a warm-up started beside
// such a factor's CPU factorizations slows them several times (docs/design.md, "The warm-up
// waits for AMD's count"). From 2^20 entries even a 2-D Laplacian's factor passes the bound on
// 16 threads, and AMD's count, computed before METIS, would only delay the warm-up.
inline constexpr int64_t kWarmUpCountBelowNnz = int64_t{1} << 20;
bool warm_up_waits_for_count(const Options& o, int64_t input_nnz);
// A waiting warm-up starts where AMD's count reaches kWarmUpCountMargin times the cold start's
// bound (cold_start_keeps_cpu): AMD's factor of a 2-D or 3-D Laplacian does 1.4-2.6 times the
// flops of the nested dissection the analysis goes on to compute.
inline constexpr double kWarmUpCountMargin = 2.0;

// The CUDA context of the device a factor may go to (the device query included), created on
// another thread while the CPU analysis runs, so that the first engine does not wait for it;
// with kernels, that thread goes on to a small factorization and solve by that engine on the
// device, once per process, device and engine (its own SparseLU or SparseLDLT, which start no
// warm-up and claim no device: DeviceClaim). wait() returns once the context is there; the
// kernels load on beside what the caller does next (its engine's construction, its first
// factorization), and the destructor joins the thread. Nothing for the CPU backend, nor with
// skip set (the callers' complex column engines, which leave the context to their first
// factorization, and factors that warm_up_context leaves out). Best effort: a failure here
// is met again, and reported, by the engine.
// With wait_for_count (warm_up_waits_for_count), the thread starts only when counted() is
// told a count past the bound, or no count (-1).
class DeviceWarmUp {
 public:
  DeviceWarmUp(const Options& o, bool skip, WarmUpKernels kernels = WarmUpKernels::none, bool wait_for_count = false);
  ~DeviceWarmUp() {
    if (done_.valid()) done_.wait();
  }
  DeviceWarmUp(const DeviceWarmUp&) = delete;
  DeviceWarmUp& operator=(const DeviceWarmUp&) = delete;
  void wait() {
    if (context_ready_.valid()) context_ready_.wait();
  }
  // After the analysis (nnz_factor: its nnz(L+U)): waits for the context where the factor may
  // go to the GPU; where automatic keeps it on the CPU by its size (stays_on_cpu), the thread
  // creates no context after its query, and nothing waits for it here.
  void settle(const Options& o, int64_t nnz_factor);
  // Whether a thread was started (beside the analysis).
  bool started() const noexcept { return done_.valid(); }
  // The analysis's AMD count of the factor's flops (-1: none made; analysis::AmdCounted), in
  // the factor's own measure: starts a waiting warm-up where it is unknown or reaches
  // kWarmUpCountMargin times the cold start's bound. Only the first call decides.
  void counted(double factor_flops);

 private:
  void start();

  const Options options_;
  const WarmUpKernels kernels_;
  bool waiting_ = false;
  std::atomic<bool> wanted_{true};
  std::promise<void> context_;
  std::future<void> context_ready_;
  std::future<void> done_;
};

// The flops that choose_backend's cold-start rule weighs: s's where no DeviceWarmUp started
// CUDA beside the analysis (a factor that reaches the GPU by its fill alone, or one whose AMD
// count kept a waiting warm-up from starting), else none (-1): there the start-up overlapped
// the analysis of a factor whose A alone passes the size rule.
inline double cold_start_flops(const DeviceWarmUp& w, const Schedule& s) {
  return w.started() ? -1.0 : s.factor_flops;
}

// Whether a factor analyzed beside w runs on the CPU if AMD's small order of it is kept
// (Options::ordering_for_cpu): under backend cpu, and under automatic where no CUDA runs and no
// warm-up started it, whose cold start keeps a factor of AMD's kept size on the CPU.
bool ordering_for_cpu(const Options& o, const DeviceWarmUp& w);

// The engine of *backend for s. A GPU that cannot hold the factor leaves the work to the
// CPU under automatic, and under cuda when asked to (Options::cpu_fallback): *backend
// becomes cpu and fallback_reason says why. hermitian: complex LDL^H (make_cpu_engine).
template <class Scalar>
std::unique_ptr<BasicNumericEngine<Scalar>> make_engine(const Schedule& s, PatternRef pattern, const Options& o,
                                                        const DeviceInfo& device, Backend* backend,
                                                        std::string* fallback_reason, bool hermitian = false);

// An engine's factorization result in FactorStats terms (A's numbering for the failing
// column; NaN/Inf input named by the column of the bad value). colind: A's column indices
// in the order of a_values. Returns the first perturbed column (NumericStats::first_perturbed).
template <class Scalar>
int32_t read_factor_result(const EngineFactorResult& r, const Schedule& s, const int32_t* colind,
                           const Scalar* a_values, FactorStats& fs);

}  // namespace gpuglu::api
