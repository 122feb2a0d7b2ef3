#include "api/engine_choice.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "analysis/ordering.hpp"
#include "api/cuda_module.hpp"
#include "core/automatic_options.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"

namespace gpuglu::api {

template <class Scalar>
void check_backend_request(const Options& o) {
  if constexpr (is_complex_v<Scalar>) {
    // The supernodal LU is real only (docs/user_guide.md); the column LU, ILU and LDL^T
    // engines take complex scalars, and the supernodal LDL^T takes them in real form
    // (api/real_form_ldlt.hpp), on the CPU and on the GPU.
    if (o.lu_engine == LuEngine::supernodal)
      throw Error(Status::unsupported,
                  "complex scalars: the supernodal LU engine factors real matrices only; use lu_engine column "
                  "(PETSc: -mat_gpuglu_lu_engine column)");
  }
  if (o.backend == Backend::cuda && !built_with_cuda())
    throw Error(Status::unsupported, "the CUDA numeric backend is not in this build; use backend cpu or auto");
}

namespace {

// Set on the kernel warm-up's thread (DeviceWarmUp): its own solver starts no warm-up and
// claims no device.
thread_local bool t_warming_up = false;

bool gpu_may_factor(const Options& o) {
  return built_with_cuda() &&
         (o.backend == Backend::cuda || (o.backend == Backend::automatic && o.auto_gpu_min_factor_nnz >= 0));
}

}  // namespace

int64_t ranks_per_device(int32_t device_count, int32_t local_size) {
  // scripts/gpuglu_rank_gpu.sh shows each rank its own share of the GPUs and says how many
  // ranks share each of them.
  const int32_t told = ranks_per_device_from_environment();
  if (told > 0) return told;
  if (device_count <= 0 || local_size <= device_count) return 1;
  return (local_size + device_count - 1) / device_count;
}

namespace {

// The size rule's entries for one rank per GPU: auto_gpu_min_factor_nnz, kIncompleteGpuFactor
// times that for an incomplete factor.
int64_t size_rule_entries(const Options& o) {
  return o.auto_gpu_min_factor_nnz * (o.ilu_levels >= 0 ? kIncompleteGpuFactor : 1);
}

}  // namespace

bool stays_on_cpu(const Options& o, int64_t nnz_factor_at_most, int32_t device_count) {
  if (o.backend == Backend::cpu || !built_with_cuda()) return true;
  if (o.backend != Backend::automatic || nnz_factor_at_most < 0) return false;
  if (o.auto_gpu_min_factor_nnz < 0) return true;
  const int64_t least = size_rule_entries(o);
  if (nnz_factor_at_most < least) return true;
  // Only now the count, if the caller has none: cudaGetDeviceCount starts the driver (no
  // context), which a factor that the size alone keeps on the CPU need not pay.
  if (device_count < 0) device_count = query_device().device_count;
  return nnz_factor_at_most < least * ranks_per_device(device_count, local_size_from_environment());
}

int32_t devices_counted_before_cuda() noexcept {
  const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!v || !*v) return 1;
  int32_t count = 1;
  for (const char* c = v; *c; ++c) count += *c == ',';
  return count;
}

namespace {

// The engines' rule reads the scalar only; the device's warps are read by a column engine's
// level schedule alone, so only the engine of the factor analyzed (`engine`) decides a query.
template <class Scalar>
Options resolved_for(const Options& o, LuEngine Options::*engine, bool query) {
  AutomaticFacts facts;
  facts.complex = is_complex_v<Scalar>;
  const Options resolved = resolve_automatic(o, facts);
  return query && resolved.*engine == LuEngine::column ? with_device_warps(resolved) : resolved;
}

}  // namespace

template <class Scalar>
Options analysis_options(const Options& o, bool query) {
  return resolved_for<Scalar>(o, &Options::lu_engine, query);
}

Options with_device_warps(const Options& o) {
  if (o.modes.total_warps != 0 || !gpu_may_factor(o)) return o;
  const DeviceInfo device = query_device(next_device(o.device), local_rank_from_environment());
  AutomaticFacts facts;
  facts.device_usable = device.usable;
  facts.device_warps = device.total_warps();
  return resolve_automatic(o, facts);
}

template <class Scalar>
Options ldlt_analysis_options(const Options& o) {
  return resolved_for<Scalar>(o, &Options::ldlt_engine, /*query=*/true);
}

namespace {

// The flops below which cold_start_keeps_cpu keeps a factor on o's CPU threads.
double cold_start_flops_bound(const Options& o) { return kColdStartFlopsPerThread * threads_of(o.num_threads); }

}  // namespace

bool cold_start_keeps_cpu(const Options& o, double factor_flops, bool cuda_running) {
  if (o.backend != Backend::automatic || cuda_running || !(factor_flops > 0.0)) return false;
  return factor_flops < cold_start_flops_bound(o);
}

std::string size_rule_note(int64_t nnz_factor) {
  return "the factor's " + std::to_string(nnz_factor) +
         " entries are below auto's size rule (-mat_gpuglu_auto_gpu_nnz, times the ranks per GPU, five times "
         "that for an incomplete factor)";
}

bool cold_start_keeps_incomplete_on_cpu(const Options& o, int64_t nnz_factor, bool cuda_running) {
  if (o.backend != Backend::automatic || cuda_running || o.ilu_levels < 0 || o.auto_gpu_min_factor_nnz < 0)
    return false;
  return nnz_factor < kColdStartIncompleteFactor * size_rule_entries(o);
}

template <class Scalar>
Backend choose_backend(const Options& o, int64_t nnz_factor, DeviceInfo& device, DeviceClaim& claim,
                       double factor_flops, std::string* why) {
  claim.release();
  auto cpu = [&](std::string note) {
    if (why && o.backend == Backend::automatic) *why = std::move(note);
    return Backend::cpu;
  };
  if (o.backend == Backend::cpu || !built_with_cuda()) return Backend::cpu;
  const bool automatic = o.backend == Backend::automatic;
  // The size rule as if no rank shared a GPU needs no device count. Whether CUDA runs is read
  // next, once, and before the size rule's device count below, which loads the module and
  // starts the driver (libcuda mapped whether or not this factor goes to the GPU); the cold
  // start is decided before that count too, so a factor it keeps on the CPU loads no CUDA
  // library.
  if (automatic && stays_on_cpu(o, nnz_factor, kCountNoSharing)) return cpu(size_rule_note(nnz_factor));
  const bool running = automatic && cuda_running();
  if (cold_start_keeps_cpu(o, factor_flops, running)) {
    char note[200];
    std::snprintf(note, sizeof(note),
                  "CUDA has not started in this process, and the factor's %.3g GFlop are below auto's cold-start "
                  "rule (%.3g GFlop: 2^27 per CPU thread)",
                  factor_flops * 1e-9, cold_start_flops_bound(o) * 1e-9);
    return cpu(note);
  }
  if (cold_start_keeps_incomplete_on_cpu(o, nnz_factor, running))
    return cpu("CUDA has not started in this process, and the incomplete factor's " + std::to_string(nnz_factor) +
               " entries are below auto's cold-start rule for one (twice its size rule)");
  if (automatic && stays_on_cpu(o, nnz_factor)) return cpu(size_rule_note(nnz_factor));  // ranks sharing a GPU
  DeviceClaim mine = t_warming_up ? DeviceClaim() : DeviceClaim(o.device);
  device = query_device(t_warming_up ? o.device : mine.ordinal(), local_rank_from_environment());
  if (device.usable) {
    claim = std::move(mine);
    return Backend::cuda;
  }
  if (o.backend == Backend::cuda) throw Error(Status::no_device, "backend cuda: " + device.reason);
  return cpu(device.reason);
}

namespace {

// True the first time for (device, kernels) in this process.
bool first_warm_up(int32_t ordinal, WarmUpKernels kernels) {
  static std::mutex mutex;
  static std::set<std::pair<int32_t, int>> done;
  std::lock_guard<std::mutex> lock(mutex);
  return done.insert({ordinal, static_cast<int>(kernels)}).second;
}

// The warm-up's problem: a 3-D Laplacian whose top separators are wide enough to take the
// blocked, dense (cuSOLVER) and GEMM paths a large factor's top takes, and small enough that
// its analysis and factorization take a fraction of a kWarmUpKernelsMinNnz analysis.
constexpr int32_t kWarmUpGrid = 24;

// A factorization and a refined solve with o's engine choices on the device.
void load_engine_kernels(Options o, int32_t ordinal, WarmUpKernels kernels) {
  o.backend = Backend::cuda;
  o.device = ordinal;
  o.num_threads = 1;  // beside the caller's analysis
  if (o.ordering == Ordering::given) o.ordering = Ordering::automatic;
  const CsrMatrix<int32_t, double> a = gen::laplacian_3d(kWarmUpGrid, kWarmUpGrid, kWarmUpGrid);
  std::vector<double> b(static_cast<size_t>(a.nrows), 1.0), x(b.size());
  auto run = [&](auto& solver) {
    solver.analyze(a.view());
    if (solver.factor(a.view()).status == Status::ok) solver.solve(b.data(), x.data());
  };
  if (kernels == WarmUpKernels::lu) {
    SparseLU lu(o);
    run(lu);
  } else {
    SparseLDLT ldlt(o);
    run(ldlt);
  }
}

}  // namespace

WarmUpKernels warm_up_kernels(const Options& o, int64_t input_nnz, WarmUpKernels kind) {
  if (kind == WarmUpKernels::none || !o.cuda.kernel_warm_up || o.ilu_levels >= 0 ||
      input_nnz < kWarmUpKernelsMinNnz || !gpu_may_factor(o))
    return WarmUpKernels::none;
  // nnz(L+U) >= nnz(A): where A alone passes the size rule, the factor does.
  if (o.backend == Backend::automatic && stays_on_cpu(o, input_nnz, devices_counted_before_cuda()))
    return WarmUpKernels::none;
  return kind;
}

// On one CPU thread the cold start keeps any factor of AMD's kept size.
static_assert(analysis::kAmdKeepFlops <= kColdStartFlopsPerThread);

bool ordering_for_cpu(const Options& o, const DeviceWarmUp& w) {
  if (o.backend == Backend::cpu || !built_with_cuda()) return true;
  return o.backend == Backend::automatic && !w.started() && !cuda_running();
}

bool warm_up_context(const Options& o, int64_t input_nnz) {
  if (!gpu_may_factor(o)) return false;
  return o.backend == Backend::cuda || !stays_on_cpu(o, input_nnz, devices_counted_before_cuda());
}

void DeviceWarmUp::settle(const Options& o, int64_t nnz_factor) {
  if (o.backend == Backend::automatic && stays_on_cpu(o, nnz_factor, devices_counted_before_cuda())) {
    wanted_.store(false, std::memory_order_release);
    return;
  }
  wait();
}

bool warm_up_waits_for_count(const Options& o, int64_t input_nnz) {
  return o.backend == Backend::automatic && input_nnz < kWarmUpCountBelowNnz && !cuda_running();
}

DeviceWarmUp::DeviceWarmUp(const Options& o, bool skip, WarmUpKernels kernels, bool wait_for_count)
    : options_(o), kernels_(kernels) {
  if (skip || t_warming_up || !gpu_may_factor(o)) return;
  if (wait_for_count) {
    waiting_ = true;
    return;
  }
  start();
}

void DeviceWarmUp::counted(double factor_flops) {
  if (!waiting_) return;
  waiting_ = false;
  if (factor_flops < 0.0 || factor_flops >= kWarmUpCountMargin * cold_start_flops_bound(options_)) start();
}

void DeviceWarmUp::start() {
  context_ready_ = context_.get_future();
  // The query too: the first one starts the CUDA runtime, which is most of the cost.
  const int32_t rank = local_rank_from_environment();
  done_ = std::async(std::launch::async, [this, o = options_, kernels = kernels_, rank] {
    bool told = false;
    auto tell = [&] {
      if (!told) context_.set_value();
      told = true;
    };
    try {
      const DeviceInfo device = query_device(next_device(o.device), rank);
      if (device.usable && wanted_.load(std::memory_order_acquire)) {
        prepare_device(device.ordinal);
        tell();
        if (kernels != WarmUpKernels::none && first_warm_up(device.ordinal, kernels)) {
          t_warming_up = true;
          load_engine_kernels(o, device.ordinal, kernels);
        }
      }
    } catch (...) {  // best effort (the class's comment)
    }
    tell();
  });
}

bool engine_reads_factor_entries(const Schedule& s, const Options& o, Backend backend) {
  return s.kind == FactorKind::supernodal_lu && backend == Backend::cuda && !o.cuda.supernodal_panel_solve;
}

template <class Scalar>
std::unique_ptr<BasicNumericEngine<Scalar>> make_engine(const Schedule& s, PatternRef pattern, const Options& o,
                                                        const DeviceInfo& device, Backend* backend,
                                                        std::string* fallback_reason, bool hermitian) {
  if (*backend == Backend::cuda) {
    try {
      return make_cuda_engine<Scalar>(s, pattern, o, device.ordinal, hermitian);
    } catch (const Error& e) {
      const bool fall_back = o.backend == Backend::automatic || o.cpu_fallback;
      if (!fall_back || e.status() != Status::out_of_memory) throw;
      *fallback_reason = e.what();
      *backend = Backend::cpu;
    }
  }
  return make_cpu_engine<Scalar>(s, pattern, o, hermitian);
}

template <class Scalar>
int32_t read_factor_result(const EngineFactorResult& r, const Schedule& s, const int32_t* colind,
                           const Scalar* a_values, FactorStats& fs) {
  fs.device_ms = r.device_ms;
  if (r.bad_entry >= 0) {
    // No pivot is involved: the column names where the bad input value sits.
    const int32_t col = colind[r.bad_entry];
    fs.status = Status::nan_or_inf;
    fs.pivot_column_original = col;
    fs.pivot_column = s.col_perm_inv[col];
    fs.pivot_value = reported_value(a_values[r.bad_entry]);
    return -1;
  }
  const NumericStats& ns = r.stats;
  fs.status = ns.status;
  fs.pivot_column = ns.pivot_column;
  fs.pivot_column_original = ns.pivot_column >= 0 ? s.col_perm[ns.pivot_column] : -1;
  fs.pivot_value = ns.pivot_value;
  fs.perturbed_pivots = ns.perturbed_pivots;
  fs.pivoted_supernodes = ns.pivoted_supernodes;
  fs.min_pivot_ratio = ns.min_pivot_ratio;
  fs.growth = r.max_abs_input > 0.0 ? ns.max_active / r.max_abs_input : 0.0;
  return ns.first_perturbed;
}

template void check_backend_request<double>(const Options&);
template Options analysis_options<double>(const Options&, bool);
template Options ldlt_analysis_options<double>(const Options&);
template Backend choose_backend<double>(const Options&, int64_t, DeviceInfo&, DeviceClaim&, double, std::string*);
template std::unique_ptr<BasicNumericEngine<double>> make_engine(const Schedule&, PatternRef, const Options&,
                                                              const DeviceInfo&, Backend*, std::string*, bool);
template int32_t read_factor_result(const EngineFactorResult&, const Schedule&, const int32_t*, const double*,
                                    FactorStats&);
template void check_backend_request<Complex>(const Options&);
template Options analysis_options<Complex>(const Options&, bool);
template Options ldlt_analysis_options<Complex>(const Options&);
template Backend choose_backend<Complex>(const Options&, int64_t, DeviceInfo&, DeviceClaim&, double, std::string*);
template std::unique_ptr<BasicNumericEngine<Complex>> make_engine(const Schedule&, PatternRef, const Options&,
                                                              const DeviceInfo&, Backend*, std::string*, bool);
template int32_t read_factor_result(const EngineFactorResult&, const Schedule&, const int32_t*, const Complex*,
                                    FactorStats&);

}  // namespace gpuglu::api
