// gpuglu_trsv_bench: sparse triangular solves on the GPU (issue 4; R. Li's benchmark).
// Per matrix A: L = strictly lower part of A with unit diagonal, U = upper part with A's
// diagonal (the ILU(0) pattern), and the solve x = U^{-1} L^{-1} b (Li's Eq. 3) with each
// kernel (levr, levc, slfr, slfc), with cuSPARSE SpSV and with what `auto` picks, all in the
// same run on the same stream. Reported per kernel: the median of the device time of the
// lower-then-upper pair (cudaEvents, after warm-ups), GFLOPS = 2 nnz(A) / t (Li's Eq. 4),
// the setup time (construction: upload, graph capture or cuSPARSE's analysis), our analysis
// of L and U two ways (trsv_analysis_timing.hpp: all on the CPU, analysis_ms, and with the
// levels from the GPU by Kahn's algorithm, analysis_gpu_ms; the level part alone of each,
// cpu_levels_ms and gpu_levels_ms), and the number of solves after which our setup pays
// off against cuSPARSE's (Li's Table 7) with either analysis: payoff_solves counts our
// setup as analysis_ms + auto's construction, payoff_solves_gpu_analysis as
// analysis_gpu_ms + the same construction, cuSPARSE's as its construction (its analysis
// runs there). Every kernel's x is checked against the CPU reference, and the GPU's levels
// against the CPU's; a difference fails the run (exit 1). JSON lines: benchmark "sptrsv",
// ours "gpuglu-<auto's kernel>", peer "cusparse_spsv", extras per kernel.
// --analysis-only: the analyses alone (no solves, no JSON lines), one table line a matrix.
// Launch-shape knobs (Options::cuda; results do not depend on them): --no-graph (LEVR/LEVC
// launched level by level), --trsv-no-pdl, --trsv-run-passes N (0..64), and for the GPU level
// analysis --kahn-narrow-rows N (0..1024) and --kahn-blocks-per-sm N (0..64).
//
//   gpuglu_trsv_bench [--matrix SPEC|FILE.mtx]... [--matrix-dir DIR] [--model-problems]
//                     [--repeat N] [--warmup N] [--out FILE|-] [--device NAME] [--kernels K,K,...]
//                     [--analysis-only] [--no-graph] [--trsv-no-pdl] [--trsv-run-passes N]
//                     [--kahn-narrow-rows N] [--kahn-blocks-per-sm N]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_matrices.hpp"
#include "cli.hpp"
#include "cuda/trsv/cuda_trsv.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/trsv_kernel.hpp"
#include "results_jsonl.hpp"
#include "timing.hpp"
#include "trsv_analysis_timing.hpp"
#include "analysis/kernel_choice.hpp"
#include "cpu/reference_trsv.hpp"
#include "analysis/triangle.hpp"
#include "analysis/trsv_analysis.hpp"

namespace gb = gpuglu::bench;
namespace trsv = gpuglu::trsv;
using gpuglu::TrsvKernel;

namespace {

// Li's Table 2: 2-D grids of aspect ratio 1..256 and 3-D grids of ratio 1..64, same n.
const char* const kModelGrids2d[] = {"1024x1024", "512x2048", "256x4096", "128x8192", "64x16384"};
const char* const kModelGrids3d[] = {"128x128x128", "64x128x256", "64x64x512", "32x64x1024", "32x32x2048"};

struct Args {
  std::vector<std::string> matrices;
  int repeat = 20, warmup = 3;
  std::string out = "docs/performance/results.jsonl";
  std::string device;
  std::vector<TrsvKernel> only;  // --kernels: run just these (cusparse and auto always run)
  bool analysis_only = false;
  gpuglu::CudaTuning cuda;       // the launch-shape knobs
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "gpuglu_trsv_bench: %s\nusage: gpuglu_trsv_bench [--matrix SPEC|FILE.mtx]... [--matrix-dir DIR] "
               "[--model-problems] [--repeat N] [--warmup N] [--out FILE|-] [--device NAME] [--kernels K,K,...] "
               "[--analysis-only] [--no-graph] [--trsv-no-pdl] [--trsv-run-passes N] [--kahn-narrow-rows N] "
               "[--kahn-blocks-per-sm N]\n",
               why.c_str());
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  gb::ArgReader r(argc, argv, usage);
  while (r.next()) {
    const std::string k = r.key();
    if (r.matrix_option(a.matrices)) continue;
    if (k == "--model-problems") {
      for (const char* g : kModelGrids2d) for (const char* s : {"lap2d5:", "lap2d9:"}) a.matrices.push_back(s + std::string(g));
      for (const char* g : kModelGrids3d) for (const char* s : {"lap3d7:", "lap3d27:"}) a.matrices.push_back(s + std::string(g));
    } else if (k == "--repeat") a.repeat = r.integer(1);
    else if (k == "--warmup") a.warmup = r.integer(0);
    else if (k == "--out") a.out = r.value();
    else if (k == "--device") a.device = r.value();
    else if (k == "--analysis-only") a.analysis_only = true;
    else if (k == "--no-graph") a.cuda.level_graph = false;
    else if (k == "--trsv-no-pdl") a.cuda.trsv_programmatic_launch = false;
    else if (k == "--trsv-run-passes") a.cuda.trsv_run_passes = r.integer(0, 64);
    else if (k == "--kahn-narrow-rows") a.cuda.kahn_narrow_rows = r.integer(0, 1024);
    else if (k == "--kahn-blocks-per-sm") a.cuda.kahn_blocks_per_sm = r.integer(0, 64);
    else if (k == "--kernels") {
      const std::string v = r.value();
      size_t start = 0;
      while (start <= v.size()) {
        const size_t comma = std::min(v.find(',', start), v.size());
        const auto kern = gpuglu::parse_trsv_kernel(v.substr(start, comma - start));
        if (!kern) usage("unknown kernel in --kernels " + v);
        a.only.push_back(*kern);
        start = comma + 1;
      }
    }
    else usage("unknown argument " + k);
  }
  if (a.matrices.empty()) usage("no matrix given");
  return a;
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct DeviceVector {
  double* p = nullptr;
  explicit DeviceVector(size_t n) { check(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(double)), "cudaMalloc"); }
  ~DeviceVector() { cudaFree(p); }
  DeviceVector(const DeviceVector&) = delete;
  DeviceVector& operator=(const DeviceVector&) = delete;
};

struct KernelResult {
  std::string kernel_l, kernel_u;  // what ran (auto resolves per triangle)
  double solve_ms = -1;            // median device time of L then U
  double setup_ms = 0;             // both constructions (wall clock)
  double rel_error = -1;
  std::string failure;
};

double rel_error(const std::vector<double>& x, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    num += (x[i] - ref[i]) * (x[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

// Both solvers on one stream, timed with events around L then U.
KernelResult run_kernel(TrsvKernel k, const trsv::Triangle& l, const trsv::TrsvAnalysis& al, const trsv::Triangle& u,
                        const trsv::TrsvAnalysis& au, const std::vector<double>& b, const std::vector<double>& ref,
                        const Args& args, cudaStream_t stream) {
  KernelResult r;
  try {
    check(cudaDeviceSynchronize(), "sync");
    const double t0 = gb::now_ms();
    const gpuglu::cuda::TrsvTuning tuning = gpuglu::cuda::TrsvTuning::from(args.cuda);
    gpuglu::cuda::TriangularSolver sl(l.view(), al, k, -1, tuning);
    gpuglu::cuda::TriangularSolver su(u.view(), au, k, -1, tuning);
    r.setup_ms = gb::now_ms() - t0;
    r.kernel_l = std::string(gpuglu::to_string(sl.kernel()));
    r.kernel_u = std::string(gpuglu::to_string(su.kernel()));
    sl.use_stream(stream);
    su.use_stream(stream);
    const size_t n = b.size();
    DeviceVector db(n), dy(n), dx(n);
    check(cudaMemcpy(db.p, b.data(), n * sizeof(double), cudaMemcpyHostToDevice), "upload b");
    cudaEvent_t e0, e1;
    check(cudaEventCreate(&e0), "event");
    check(cudaEventCreate(&e1), "event");
    std::vector<double> times;
    for (int it = 0; it < args.warmup + args.repeat; ++it) {
      check(cudaEventRecord(e0, stream), "record");
      sl.solve_device(db.p, dy.p);
      su.solve_device(dy.p, dx.p);
      check(cudaEventRecord(e1, stream), "record");
      check(cudaEventSynchronize(e1), "solve");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
      if (it >= args.warmup) times.push_back(ms);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    r.solve_ms = gb::median(times);
    std::vector<double> x(n);
    check(cudaMemcpy(x.data(), dx.p, n * sizeof(double), cudaMemcpyDeviceToHost), "download x");
    r.rel_error = rel_error(x, ref);
  } catch (const std::exception& e) {
    r.failure = e.what();
  }
  return r;
}

// Smallest number of solves after which setup_a + n t_a < setup_b + n t_b; -1: never.
double payoff_solves(double setup_a, double t_a, double setup_b, double t_b) {
  if (setup_a < setup_b && t_a <= t_b) return 0;
  if (t_a >= t_b) return -1;
  return std::floor((setup_a - setup_b) / (t_b - t_a)) + 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  const gpuglu::DeviceInfo dev = gpuglu::query_device();
  if (!dev.usable) {
    std::fprintf(stderr, "gpuglu_trsv_bench: no usable CUDA device (%s)\n", dev.reason.c_str());
    return 2;
  }
  const std::string device = args.device.empty() ? dev.name : args.device;
  const std::string date = gb::today_utc();
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  const TrsvKernel kernels[] = {TrsvKernel::levr, TrsvKernel::levc, TrsvKernel::slfr, TrsvKernel::slfc,
                                TrsvKernel::cusparse, TrsvKernel::automatic};
  constexpr double kMaxError = 1e-10;
  int wrong = 0, slow = 0, measured = 0;
  double log_auto = 0, log_best = 0;
  std::printf("L = lower(A) unit, U = upper(A) with diagonal; x = U^-1 L^-1 b; ms = median device time of L+U\n");
  std::printf("analysis of L and U (ms): ana_cpu all on the CPU, ana_gpu with the levels by Kahn's algorithm on the "
              "GPU; payoff / payoffG: solves after which auto's setup with either beats cuSPARSE's (Li's Table 7)\n");
  if (args.analysis_only)
    std::printf("%-22s %8s %6s %6s | %8s %8s | %8s %8s %8s %8s | %7s %s\n", "matrix", "n", "levL", "levU", "ana_cpu",
                "lev_cpu", "ana_gpu", "lev_gpu", "kernels", "copies", "lev_x", "levels");
  else
    std::printf("%-22s %8s %5s %5s | %8s %8s %8s %8s %8s | %-9s %8s %7s %6s %7s | %8s %8s %7s %s\n", "matrix", "n",
                "levL", "levU", "levr", "levc", "slfr", "slfc", "cusparse", "auto", "auto_ms", "vs_cus", "GFLOPS",
                "payoff", "ana_cpu", "ana_gpu", "payoffG", "verdict");
  for (const std::string& spec : args.matrices) {
    gb::BenchMatrix m;
    trsv::Triangle l, u;
    trsv::TrsvAnalysis al, au;
    gb::TrsvAnalysisTiming at;
    try {
      m = gb::load_bench_matrix(spec);
      l = trsv::triangle_part(m.a.view(), trsv::Fill::lower, trsv::Diag::unit);
      u = trsv::triangle_part(m.a.view(), trsv::Fill::upper, trsv::Diag::stored);
      at = gb::time_trsv_analyses(l, u, al, au, 3, gpuglu::cuda::KahnTuning::from(args.cuda));
    } catch (const std::exception& e) {
      std::printf("%-22s skipped: %s\n", spec.c_str(), e.what());
      continue;
    }
    const double analysis_ms = at.analysis_ms;
    const bool levels_ok = at.gpu_equal;
    if (!levels_ok)
      std::printf("  %s GPU levels: %s\n", spec.c_str(),
                  at.gpu_failure.empty() ? "DIFFER FROM THE CPU'S" : at.gpu_failure.c_str());
    if (args.analysis_only) {
      if (!levels_ok) ++wrong;
      std::printf("%-22s %8d %6d %6d | %8.2f %8.2f | %8.2f %8.2f %8.2f %8.2f | %6.2fx %s\n", m.name.c_str(),
                  m.a.nrows, al.num_levels, au.num_levels, at.analysis_ms, at.cpu_levels_ms, at.analysis_gpu_ms,
                  at.gpu_levels_ms, at.gpu_kernel_ms, at.gpu_copy_ms,
                  at.gpu_levels_ms > 0 ? at.cpu_levels_ms / at.gpu_levels_ms : 0.0, levels_ok ? "equal" : "WRONG");
      std::fflush(stdout);
      continue;
    }
    const size_t n = static_cast<size_t>(m.a.nrows);
    std::vector<double> b(n), y(n), ref(n);
    for (size_t i = 0; i < n; ++i) b[i] = std::sin(0.37 * static_cast<double>(i) + 1.0);
    trsv::reference::solve(l.view(), b.data(), y.data());
    trsv::reference::solve(u.view(), y.data(), ref.data());

    std::map<TrsvKernel, KernelResult> res;
    for (TrsvKernel k : kernels) {
      const bool wanted = args.only.empty() || k == TrsvKernel::cusparse || k == TrsvKernel::automatic ||
                          std::find(args.only.begin(), args.only.end(), k) != args.only.end();
      if (wanted) res[k] = run_kernel(k, l, al, u, au, b, ref, args, stream);
      else res[k].rel_error = 0;  // not run: solve_ms stays -1
    }
    bool ok = levels_ok;
    for (auto& [k, r] : res)
      if (!r.failure.empty() || !(r.rel_error <= kMaxError)) {
        ok = false;
        std::printf("  %s %s: %s (relative error %.2e)\n", m.name.c_str(), std::string(gpuglu::to_string(k)).c_str(),
                    r.failure.empty() ? "WRONG RESULT" : r.failure.c_str(), r.rel_error);
      }
    const KernelResult& ra = res[TrsvKernel::automatic];
    const KernelResult& rc = res[TrsvKernel::cusparse];
    const double gflop = 2.0 * static_cast<double>(m.a.nnz()) * 1e-9;
    const std::string picked = ra.kernel_l == ra.kernel_u ? ra.kernel_l : ra.kernel_l + "+" + ra.kernel_u;
    double best_ms = -1;
    for (TrsvKernel k : {TrsvKernel::levr, TrsvKernel::levc, TrsvKernel::slfr, TrsvKernel::slfc})
      if (res[k].solve_ms > 0 && (best_ms < 0 || res[k].solve_ms < best_ms)) best_ms = res[k].solve_ms;
    const double ratio = ra.solve_ms > 0 && rc.solve_ms > 0 ? rc.solve_ms / ra.solve_ms : -1;
    const double payoff = payoff_solves(analysis_ms + ra.setup_ms, ra.solve_ms, rc.setup_ms, rc.solve_ms);
    const double payoff_gpu =
        at.analysis_gpu_ms < 0 ? -1
                               : payoff_solves(at.analysis_gpu_ms + ra.setup_ms, ra.solve_ms, rc.setup_ms, rc.solve_ms);
    std::string verdict = ok ? "ok" : "WRONG";
    if (ok && ratio > 0 && ratio < 0.9) {
      verdict = "SLOW(<0.9x cusparse)";
      ++slow;
    }
    if (!ok) ++wrong;
    if (ok && ratio > 0 && best_ms > 0) {
      log_auto += std::log(ratio);
      log_best += std::log(rc.solve_ms / best_ms);
      ++measured;
    }
    auto ms = [&](TrsvKernel k) { return res[k].solve_ms; };
    std::printf("%-22s %8zu %5d %5d | %8.3f %8.3f %8.3f %8.3f %8.3f | %-9s %8.3f %6.2fx %6.2f %7.0f | %8.2f %8.2f %7.0f "
                "%s\n",
                m.name.c_str(), n, al.num_levels, au.num_levels, ms(TrsvKernel::levr), ms(TrsvKernel::levc),
                ms(TrsvKernel::slfr), ms(TrsvKernel::slfc), ms(TrsvKernel::cusparse), picked.c_str(), ra.solve_ms,
                ratio, ra.solve_ms > 0 ? gflop / (ra.solve_ms * 1e-3) : 0.0, payoff, at.analysis_ms,
                at.analysis_gpu_ms, payoff_gpu, verdict.c_str());
    std::fflush(stdout);

    gb::Record r;
    r.benchmark = "sptrsv";
    r.matrix = m.name;
    r.kind = m.kind;
    r.n = m.a.nrows;
    r.nnz = m.a.nnz();
    r.nnz_factor = l.view().nnz() + u.view().nnz();
    r.ours = "gpuglu-" + picked;
    r.ours_ms = ra.solve_ms;
    r.peer = "cusparse_spsv";
    r.peer_ms = rc.failure.empty() ? rc.solve_ms : -1;
    r.peer_note = rc.failure;
    r.extra["levels_l"] = static_cast<double>(al.num_levels);
    r.extra["levels_u"] = static_cast<double>(au.num_levels);
    r.extra["group_l"] = static_cast<double>(trsv::group_size(al));
    r.extra["group_u"] = static_cast<double>(trsv::group_size(au));
    r.extra["analysis_ms"] = analysis_ms;
    r.extra["payoff_solves"] = payoff;
    r.extra["cpu_levels_ms"] = at.cpu_levels_ms;
    r.extra["analysis_gpu_ms"] = at.analysis_gpu_ms;
    r.extra["gpu_levels_ms"] = at.gpu_levels_ms;
    r.extra["gpu_levels_kernel_ms"] = at.gpu_kernel_ms;
    r.extra["gpu_levels_copy_ms"] = at.gpu_copy_ms;
    r.extra["gpu_levels_equal"] = levels_ok ? std::string("yes") : std::string("no");
    r.extra["payoff_solves_gpu_analysis"] = payoff_gpu;
    r.extra["correct"] = ok ? std::string("yes") : std::string("no");
    r.extra["repeat"] = static_cast<double>(args.repeat);
    for (auto& [k, kr] : res) {
      const std::string name = k == TrsvKernel::automatic ? "auto" : std::string(gpuglu::to_string(k));
      r.extra[name + "_ms"] = kr.solve_ms;
      r.extra[name + "_gflops"] = kr.solve_ms > 0 ? gflop / (kr.solve_ms * 1e-3) : 0.0;
      r.extra[name + "_setup_ms"] = kr.setup_ms;
      r.extra[name + "_rel_error"] = kr.rel_error;
    }
    if (args.out != "-") gb::append_record(args.out, r, date, device);
  }
  cudaStreamDestroy(stream);
  if (measured > 0)
    std::printf("geometric mean speedup vs cuSPARSE SpSV over %d matrices: auto %.2fx, best kernel %.2fx\n", measured,
                std::exp(log_auto / measured), std::exp(log_best / measured));
  if (args.analysis_only)
    std::printf("trsv bench: %s (%d matrices whose GPU levels are not the CPU's)\n", wrong ? "FAIL" : "PASS", wrong);
  else
    std::printf("trsv bench: %s (%d wrong, %d where auto < 0.9x cuSPARSE)\n", wrong ? "FAIL" : "PASS", wrong, slow);
  return wrong ? 1 : 0;
}
