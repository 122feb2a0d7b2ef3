// gpuglu_lu_bench: per matrix, gpuglu's analysis (split by stage), numeric
// refactorization and solve, and in the same run KLU, UMFPACK and PETSc's own LU on the
// same matrix. Medians of repeated runs after warm-ups; results as JSON lines.
//
// --no-graph and --staging set Options::cuda (the level loop launched level by level; how
// A's values, b and x cross to the device); results do not depend on them.
//
//   gpuglu_lu_bench [--matrix SPEC|FILE.mtx]... [--matrix-dir DIR] [--repeat N] [--warmup N]
//                   [--analysis-repeat N] [--threads N] [--backend cpu|cuda|auto]
//                   [--out FILE|-] [--device NAME] [--no-petsc] [--no-umfpack]
//                   [--no-graph] [--staging auto|pinned|direct] [--lu-engine column|supernodal|auto]
//                   (default auto: Options::lu_engine) [--skip PEER,...] (klu, cusolverrf, cudss)
//                   [--panel-solve|--f-solve]  (the supernodal engine's solves on its panels, the
//                   default, or through F: CudaTuning) [--stepped-max-nodes N] (its stepped
//                   panel factorization's level limit, 0: off; CudaTuning) [--no-resident] (its
//                   panels staged 16 columns at a time instead of resident whole; CudaTuning)
//                   [--dense-min-cols N] (its supernodes factored by cuSOLVER; 0: none; CudaTuning)
//                   [--streams N] (its blocked and GEMM supernodes on N streams; CudaTuning)
//                   [--level-solve] (its panel solves a launch per level, not self-scheduled)
//                   [--solve-threads N] (the self-scheduled sweeps' block; CudaTuning)
//                   [--ordering NAME] (Options::ordering; the records' variant names a given one)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "bench_matrices.hpp"
#include "cli.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "peers.hpp"
#ifdef GPUGLU_BENCH_HAVE_CUDA
#include <cuda_runtime.h>

#include <stdexcept>

#include "gpu_floors.hpp"
#include "level_profile.hpp"
#include "supernodal_profile.hpp"
#include "peer_cusolverrf.hpp"
#endif
#ifdef GPUGLU_BENCH_HAVE_CUDSS
#include "peer_cudss.hpp"
#endif
#include "results_jsonl.hpp"
#include "timing.hpp"
#ifdef GPUGLU_BENCH_HAVE_PETSC
#include <petscsys.h>
#endif

namespace gb = gpuglu::bench;

namespace {

struct Args {
  std::vector<std::string> matrices;
  int repeat = 5, warmup = 1, analysis_repeat = 3, threads = 1;
  gpuglu::Backend backend = gpuglu::Backend::cpu;
  std::string out = "docs/performance/results.jsonl";
  std::string device;
  bool petsc = true, umfpack = true;
  // --skip klu,cusolverrf: peers left out (KLU and cusolverRf take minutes on G3_circuit's
  // factor; cuDSS is the peer there).
  std::vector<std::string> skip;
  gpuglu::CudaTuning cuda;  // --no-graph, --staging
  gpuglu::LuEngine lu_engine = gpuglu::LuEngine::automatic;
  gpuglu::Ordering ordering = gpuglu::Ordering::automatic;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "gpuglu_lu_bench: %s\nusage: gpuglu_lu_bench [--matrix SPEC|FILE.mtx]... [--matrix-dir DIR] "
               "[--repeat N] [--warmup N] [--analysis-repeat N] [--threads N] [--backend cpu|cuda|auto] "
               "[--out FILE|-] [--device NAME] [--no-petsc] [--no-umfpack] [--no-graph] "
               "[--staging auto|pinned|direct] [--lu-engine column|supernodal|auto] [--skip PEER,...] "
               "[--panel-solve|--f-solve] [--stepped-max-nodes N] [--no-resident] [--dense-min-cols N] [--streams N] "
               "[--level-solve] [--solve-threads N] [--ordering auto|amd|metis|colamd|natural]\n",
               why.c_str());
  std::exit(2);
}

// The supernodal engine's variant in the records' names: its solves (panel-sched[N]: the
// self-scheduled sweeps on blocks of N threads, panel-: a launch per level; none: through F)
// and its factorization's kernels.
std::string supernodal_label(const gpuglu::CudaTuning& c) {
  std::string l = "supernodal-";
  if (c.supernodal_panel_solve) {
    l += "panel-";
    if (c.supernodal_self_scheduled_solve)
      l += "sched" + (c.supernodal_solve_threads > 0 ? std::to_string(c.supernodal_solve_threads) : "") + "-";
  }
  if (c.supernodal_resident_panels) l += "resident-";
  if (c.supernodal_dense_min_cols > 0) l += "dense" + std::to_string(c.supernodal_dense_min_cols) + "-";
  if (c.supernodal_stepped_max_nodes > 0) l += "stepped-";
  if (c.supernodal_streams != gpuglu::CudaTuning{}.supernodal_streams)
    l += "streams" + std::to_string(c.supernodal_streams) + "-";
  return l;
}

Args parse(int argc, char** argv) {
  Args a;
  gb::ArgReader r(argc, argv, usage);
  while (r.next()) {
    const std::string k = r.key();
    if (r.matrix_option(a.matrices)) continue;
    if (k == "--repeat") a.repeat = r.integer(1);
    else if (k == "--warmup") a.warmup = r.integer(0);
    else if (k == "--analysis-repeat") a.analysis_repeat = r.integer(1);
    else if (k == "--threads") a.threads = r.integer(1);
    else if (k == "--out") a.out = r.value();
    else if (k == "--device") a.device = r.value();
    else if (k == "--no-petsc") a.petsc = false;
    else if (k == "--no-umfpack") a.umfpack = false;
    else if (k == "--skip") r.append_list(a.skip);
    else if (k == "--no-graph") a.cuda.level_graph = false;
    else if (k == "--panel-solve") a.cuda.supernodal_panel_solve = true;
    else if (k == "--f-solve") a.cuda.supernodal_panel_solve = false;
    else if (k == "--stepped-max-nodes") a.cuda.supernodal_stepped_max_nodes = r.integer(0);
    else if (k == "--no-resident") a.cuda.supernodal_resident_panels = false;
    else if (k == "--dense-min-cols") a.cuda.supernodal_dense_min_cols = r.integer(0);
    else if (k == "--streams") a.cuda.supernodal_streams = r.integer(1);
    else if (k == "--level-solve") a.cuda.supernodal_self_scheduled_solve = false;
    else if (k == "--solve-threads") a.cuda.supernodal_solve_threads = r.integer(32);
    else if (k == "--staging") {
      const auto st = gpuglu::value_in(gpuglu::kStagingNames, r.value());
      if (!st) usage("unknown staging (auto, pinned, direct)");
      a.cuda.staging = *st;
    }
    else if (k == "--lu-engine") {
      const auto e = gpuglu::parse_lu_engine(r.value());
      if (!e) usage("unknown LU engine");
      a.lu_engine = *e;
    } else if (k == "--ordering") {
      const auto o = gpuglu::parse_ordering(r.value());
      if (!o) usage("unknown ordering");
      a.ordering = *o;
    } else if (k == "--backend") {
      const auto b = gpuglu::parse_backend(r.value());
      if (!b) usage("unknown backend");
      a.backend = *b;
    } else usage("unknown argument " + k);
  }
  if (a.matrices.empty()) usage("no matrix given");
  return a;
}

struct Ours {
  double analysis_ms = 0, first_factor_ms = 0, refactor_ms = 0, solve_ms = 0, solve_refined_ms = 0, residual = -1;
  int refine_steps = 0;
  int64_t pivoted_supernodes = 0;  // FactorStats' (the first factorization's)
  int64_t device_bytes = 0;
  double device_ms = 0;  // GPU time of the last refactorization (scatter + level loop)
  // With device-resident data (SparseLU::factor_device / solve_device: A's values, b and x
  // already in device memory, as cuDSS's timings take them): -1 where not measured.
  double refactor_device_ms = -1, solve_device_ms = -1;
  gpuglu::Schedule schedule;
  std::vector<double> factor;  // F of the first factorization (cusolverRf starts from it)
  std::string variant;
};

gpuglu::Options ours_options(const Args& args) {
  gpuglu::Options o;
  o.backend = args.backend;
  o.num_threads = args.threads;
  o.ordering_cache = false;  // each analysis repeat pays its ordering, as a first analysis does
  o.cuda = args.cuda;
  o.lu_engine = args.lu_engine;
  o.ordering = args.ordering;
  return o;
}

// Refactorization and bare solve with A's values, b and x already in device memory: what the
// cuDSS peer times (its values and vectors live on the device), and what a CUDA PETSc's
// device-resident Mat and Vec give gpuglu. Leaves r's fields at -1 without a GPU engine.
void time_device_resident(gpuglu::SparseLU& lu, const std::vector<double>& values, const std::vector<double>& b,
                          const Args& args, Ours& r) {
#ifdef GPUGLU_BENCH_HAVE_CUDA
  if (lu.active_backend() != gpuglu::Backend::cuda || !lu.device_data_direct()) return;
  double *d_values = nullptr, *d_b = nullptr, *d_x = nullptr;
  auto upload = [](double*& d, const std::vector<double>& h) {
    if (cudaMalloc(&d, std::max<size_t>(h.size(), 1) * sizeof(double)) != cudaSuccess ||
        cudaMemcpy(d, h.data(), h.size() * sizeof(double), cudaMemcpyHostToDevice) != cudaSuccess)
      throw std::runtime_error("device-resident timing: cudaMalloc/cudaMemcpy failed");
  };
  try {
    upload(d_values, values);
    upload(d_b, b);
    upload(d_x, b);
    if (cudaDeviceSynchronize() != cudaSuccess) throw std::runtime_error("device-resident timing: synchronize failed");
    r.refactor_device_ms = gb::median_ms(args.warmup, args.repeat, [&] { lu.factor_device(d_values); });
    const gpuglu::Options o = ours_options(args);
    lu.set_refinement(0, o.refine_tolerance);  // the bare solves, as cuDSS's SOLVE phase
    r.solve_device_ms = gb::median_ms(args.warmup, args.repeat, [&] { lu.solve_device(d_b, d_x); });
    lu.set_refinement(o.refine_steps, o.refine_tolerance);
  } catch (...) {
    cudaFree(d_values);
    cudaFree(d_b);
    cudaFree(d_x);
    throw;
  }
  cudaFree(d_values);
  cudaFree(d_b);
  cudaFree(d_x);
#else
  (void)lu, (void)values, (void)b, (void)args, (void)r;
#endif
}

Ours run_ours(const gb::BenchMatrix& m, const std::vector<double>& b, const Args& args) {
  const gpuglu::Options o = ours_options(args);
  Ours r;
  gpuglu::SparseLU lu(o);
  std::vector<double> analysis;
  for (int i = 0; i < args.warmup + args.analysis_repeat; ++i) {
    const double t0 = gb::now_ms();
    lu.analyze(m.a.view());
    if (i >= args.warmup) analysis.push_back(gb::now_ms() - t0);
  }
  r.analysis_ms = gb::median(analysis);
  double t0 = gb::now_ms();
  const gpuglu::FactorStats& st = lu.factor(m.a.view());
  r.first_factor_ms = gb::now_ms() - t0;
  if (st.status != gpuglu::Status::ok)
    throw gpuglu::Error(st.status, std::string("factorization failed: ") + gpuglu::to_string(st.status));
  r.pivoted_supernodes = st.pivoted_supernodes;
  try {
    r.factor = lu.factor_values();
  } catch (const gpuglu::Error& e) {
    // Supernodes that pivot inside their blocks leave no F (cuSOLVER-rf, which starts from it,
    // is then skipped).
    if (e.status() != gpuglu::Status::unsupported) throw;
  }
  r.schedule = lu.schedule();  // after factor_values(), which spells a supernodal F out for the peers
  r.refactor_ms = gb::median_ms(args.warmup, args.repeat, [&] { lu.refactor(m.a.values.data()); });
  r.device_bytes = lu.device_bytes();
  r.device_ms = lu.factor_stats().device_ms;
  time_device_resident(lu, m.a.values, b, args, r);
  std::vector<double> x(b.size());
  // Default solve: automatic refinement (at least one residual for the backward error).
  r.solve_refined_ms = gb::median_ms(args.warmup, args.repeat, [&] { lu.solve(b.data(), x.data()); });
  r.refine_steps = lu.solve_stats().refine_steps;
  r.residual = gpuglu::relative_residual(m.a.view(), x.data(), b.data());
  // The bare triangular solves, the work klu_solve does.
  lu.set_refinement(0, o.refine_tolerance);
  r.solve_ms = gb::median_ms(args.warmup, args.repeat, [&] { lu.solve(b.data(), x.data()); });
  const bool supernodal = lu.lu_engine() == gpuglu::LuEngine::supernodal;
  const std::string ordering =
      args.ordering == gpuglu::Ordering::automatic ? "" : std::string(gpuglu::to_string(args.ordering)) + "-";
  r.variant = std::string("gpuglu-") + (supernodal ? supernodal_label(args.cuda) : "") + ordering +
              std::string(gpuglu::to_string(lu.active_backend())) + "-" + std::to_string(args.threads) + "t";
  return r;
}

struct PeerResult {
  std::string name;
  gb::PeerTimes t;
  std::string failure;
};

PeerResult run_peer(const std::string& name, const std::function<gb::PeerTimes()>& f) {
  PeerResult p{name, {}, {}};
  try {
    p.t = f();
  } catch (const std::exception& e) {
    p.failure = e.what();
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
#ifdef GPUGLU_BENCH_HAVE_PETSC
  if (args.petsc && PetscInitializeNoArguments()) return 1;
#endif
  std::string device = args.device;
  if (device.empty()) {
    const gpuglu::DeviceInfo d = gpuglu::query_device();
    device = args.backend != gpuglu::Backend::cpu && d.usable ? d.name : gb::cpu_model();
  }
  const std::string date = gb::today_utc();
#ifdef GPUGLU_BENCH_HAVE_CUDA
  gb::GpuFloors floors;
  if (args.backend == gpuglu::Backend::cuda) {
    floors = gb::measure_gpu_floors();
    std::printf("GPU floors: empty launch %.2f us, graph node %.2f us, copy %.0f GB/s (read + write)\n",
                floors.launch_us, floors.graph_node_us, floors.copy_gb_per_s);
  }
#endif
  int failures = 0;
  std::printf("%-28s %9s %10s %11s | %9s %9s %9s | %9s %9s %9s | %8s %8s\n", "matrix", "n", "nnz", "nnz(L+U)",
              "analyze", "klu_a+f", "ratio", "refactor", "klu_ref", "ratio", "solve", "klu_sol");
  for (const std::string& spec : args.matrices) {
    gb::BenchMatrix m;
    try {
      m = gb::load_bench_matrix(spec);
      std::vector<double> xtrue(static_cast<size_t>(m.a.nrows));
      for (size_t i = 0; i < xtrue.size(); ++i) xtrue[i] = 1.0 + static_cast<double>(i % 7) / 7.0;
      std::vector<double> b(xtrue.size());
      gpuglu::spmv(m.a.view(), xtrue.data(), b.data());
      const Ours ours = run_ours(m, b, args);
      const gb::PeerRun pr{args.warmup, args.repeat};
      std::vector<PeerResult> peers;
      auto wanted = [&](const char* peer) {
        return std::find(args.skip.begin(), args.skip.end(), peer) == args.skip.end();
      };
      if (wanted("klu")) peers.push_back(run_peer("klu", [&] { return gb::run_klu(m.a, b, pr); }));
      if (args.umfpack) peers.push_back(run_peer("umfpack", [&] { return gb::run_umfpack(m.a, b, pr); }));
#ifdef GPUGLU_BENCH_HAVE_PETSC
      if (args.petsc) peers.push_back(run_peer("petsc", [&] { return gb::run_petsc_lu(m.a, b, pr); }));
#endif
#ifdef GPUGLU_BENCH_HAVE_CUDA
      if (args.backend == gpuglu::Backend::cuda && wanted("cusolverrf"))
        peers.push_back(run_peer("cusolverrf", [&] {
          if (ours.factor.empty() && ours.schedule.nnz_factor() > 0)
            throw std::runtime_error("no F to start from: supernodes of gpuglu's LU pivot inside their blocks");
          return gb::run_cusolverrf(m.a, b, pr, ours.schedule, ours.factor);
        }));
#endif
#ifdef GPUGLU_BENCH_HAVE_CUDSS
      if (args.backend == gpuglu::Backend::cuda && wanted("cudss"))
        peers.push_back(run_peer("cudss", [&] { return gb::run_cudss(m.a, b, pr); }));
#endif
      const gpuglu::Schedule& s = ours.schedule;
      // Multiply-subtract updates of one factorization (the level loop's work).
      double updates = 0;
      for (size_t t = 0; t + 1 < s.target_src_ptr.size(); ++t)
        for (int64_t e = s.target_src_ptr[t]; e < s.target_src_ptr[t + 1]; ++e) {
          const int32_t j = s.f_rowind[s.target_src[e]];
          updates += static_cast<double>(s.f_colptr[j + 1] - s.f_diag[j] - 1);
        }
      gb::Record base;
      base.matrix = m.name;
      base.kind = m.kind;
      base.n = m.a.nrows;
      base.nnz = m.a.nnz();
      base.nnz_factor = s.nnz_factor();
      base.ours = ours.variant;
      base.extra["levels"] = static_cast<double>(s.supernodal() ? s.supernodes.num_levels() : s.num_levels());
      if (s.supernodal()) {
        base.extra["supernodes"] = static_cast<double>(s.supernodes.count);
        base.extra["explicit_zeros"] = static_cast<double>(s.supernodes.explicit_zeros);
      }
      base.extra["updates"] = updates;
      base.extra["levels_small_block"] = static_cast<double>(s.levels_in_mode(gpuglu::KernelMode::small_block));
      base.extra["levels_large_block"] = static_cast<double>(s.levels_in_mode(gpuglu::KernelMode::large_block));
      base.extra["levels_stream"] = static_cast<double>(s.levels_in_mode(gpuglu::KernelMode::stream));
      base.extra["residual"] = ours.residual;
      base.extra["solve_refined_ms"] = ours.solve_refined_ms;
      if (ours.device_bytes > 0) {
        base.extra["device_ms"] = ours.device_ms;
#ifdef GPUGLU_BENCH_HAVE_CUDA
        // Latency: two launches (pivot, update) per level. Bandwidth: every update
        // F(i, k) -= L(i, j) U(j, k) reads L(i, j) and reads and writes F(i, k), 24 bytes,
        // even if all index arithmetic were free.
        base.extra["latency_floor_ms"] = 2.0 * s.num_levels() * floors.graph_node_us / 1000.0;
        base.extra["bandwidth_floor_ms"] = 24.0 * updates / (floors.copy_gb_per_s * 1e6);
        if (args.backend == gpuglu::Backend::cuda && s.supernodal()) {
          const gb::SupernodalProfile prof = gb::profile_supernodal(s, m.a.values.data(), ours_options(args), 3);
          std::printf("%s: %s", m.name.c_str(), gb::describe_supernodal(s, prof).c_str());
          const char* part_names[4] = {"panel", "blocked", "direct", "gemm"};
          for (int part = 0; part < 4; ++part) base.extra[std::string("ms_") + part_names[part]] = prof.ms[part];
          base.extra["profiled_loop_ms"] = prof.total_ms();
        }
        if (args.backend == gpuglu::Backend::cuda && !s.supernodal()) {
          const gpuglu::Options po = ours_options(args);
          const gb::ModeProfile prof = gb::profile_level_modes(s, m.a.values.data(), po, 3);
          std::printf("%s: %s", m.name.c_str(), gb::describe(s, prof).c_str());
          const char* mode_names[3] = {"small_block", "large_block", "stream"};
          for (int md = 0; md < 3; ++md) base.extra[std::string("ms_") + mode_names[md]] = prof.ms[md];
          base.extra["profiled_loop_ms"] = prof.total_ms();
          if (const char* sweep = std::getenv("GPUGLU_BENCH_SWEEP"))
            std::printf("%s: launch shapes\n%s", m.name.c_str(),
                        gb::sweep_launch_shapes(s, m.a.values.data(), po, sweep, args.repeat).c_str());
          if (const char* dir = std::getenv("GPUGLU_BENCH_LEVEL_CSV")) {
            std::string file = m.name;
            for (char& c : file)
              if (c == ':') c = '_';
            gb::write_level_csv(std::string(dir) + "/levels_" + file + ".csv", s, prof);
          }
        }
#endif
        base.extra["device_bytes"] = static_cast<double>(ours.device_bytes);
        base.extra["device_bytes_per_factor_byte"] =
            static_cast<double>(ours.device_bytes) / (12.0 * static_cast<double>(s.nnz_factor()) + 16.0 * s.n);
      }
      base.extra["refine_steps"] = static_cast<double>(ours.refine_steps);
      base.extra["pivoted_supernodes"] = static_cast<double>(ours.pivoted_supernodes);
      if (ours.refactor_device_ms >= 0) base.extra["refactor_device_ms"] = ours.refactor_device_ms;
      if (ours.solve_device_ms >= 0) base.extra["solve_device_ms"] = ours.solve_device_ms;
      base.extra["repeat"] = static_cast<double>(args.repeat);
      for (const PeerResult& p : peers) {
        const bool ok = p.failure.empty();
        auto emit = [&](const char* bench, double ours_ms, const std::string& peer, double peer_ms) {
          gb::Record r = base;
          r.benchmark = bench;
          r.ours_ms = ours_ms;
          r.peer = peer;
          r.peer_ms = ok ? peer_ms : -1;
          r.peer_note = p.failure;
          if (ok) r.extra["peer_nnz_factor"] = static_cast<double>(p.t.nnz_factor);
          if (ok) r.extra["peer_residual"] = p.t.residual;
          if (std::string(bench) == "lu_analysis") {
            r.extra["matching_ms"] = s.times.matching_ms;
            r.extra["ordering_ms"] = s.times.ordering_ms;
            r.extra["symbolic_ms"] = s.times.symbolic_ms;
            r.extra["levels_ms"] = s.times.levels_ms;
            if (s.supernodal()) {  // symbolic_ms's split (CHOLMOD's time holds its ordering, if it chose one)
              r.extra["sn_input_ms"] = s.times.sn_input_ms;
              r.extra["sn_cholmod_ms"] = s.times.sn_cholmod_ms;
              r.extra["sn_panels_ms"] = s.times.sn_panels_ms;
              r.extra["sn_factor_ms"] = s.times.sn_factor_ms;
              r.extra["sn_value_map_ms"] = s.times.sn_value_map_ms;
            }
            r.extra["first_factor_ms"] = ours.first_factor_ms;
          }
          if (args.out != "-") gb::append_record(args.out, r, date, device);
        };
        const std::string analysis_peer = p.name == "klu" ? "klu_analyze+factor" : p.name + "_symbolic+numeric";
        emit("lu_analysis", ours.analysis_ms, analysis_peer, p.t.analyze_ms + p.t.factor_ms);
        const std::string refactor_peer =
            p.name == "klu"          ? "klu_refactor"
            : p.name == "cusolverrf" ? "cusolverrf"
            : p.name == "cudss"      ? "cudss_refactor"
                                     : p.name + "_numeric";
        emit("lu_refactor", ours.refactor_ms, refactor_peer,
             p.t.refactor_ms);
        emit("lu_solve", ours.solve_ms, p.name + "_solve", p.t.solve_ms);
        if (!ok) std::printf("  (%s failed on %s: %s)\n", p.name.c_str(), m.name.c_str(), p.failure.c_str());
      }
      const gb::PeerTimes k = peers.empty() ? gb::PeerTimes{} : peers[0].t;  // KLU's unless skipped
      const double kaf = k.analyze_ms + k.factor_ms;
      std::printf("%-28s %9lld %10lld %11lld | %9.3f %9.3f %9.2f | %9.3f %9.3f %9.2f | %8.3f %8.3f\n",
                  m.name.c_str(), static_cast<long long>(base.n), static_cast<long long>(base.nnz),
                  static_cast<long long>(base.nnz_factor), ours.analysis_ms, kaf, ours.analysis_ms / kaf,
                  ours.refactor_ms, k.refactor_ms, ours.refactor_ms / k.refactor_ms, ours.solve_ms, k.solve_ms);
      std::fflush(stdout);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpuglu_lu_bench: %s: %s\n", spec.c_str(), e.what());
      ++failures;
    }
  }
#ifdef GPUGLU_BENCH_HAVE_PETSC
  if (args.petsc) PetscFinalize();
#endif
  return failures ? 1 : 0;
}
