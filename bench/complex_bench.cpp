// gpuglu_complex_bench (issue 15): complex LU and LDL^T. Per matrix and kind, gpuglu's
// SparseLUComplex (kind lu) or SparseLDLTComplex (kinds helmholtz, hermitian) on the CPU
// backend (1 thread and --threads) and on the CUDA backend, and in the same run, on the same
// values: KLU and UMFPACK (complex LU on the CPU) and, in CUDA builds with cuDSS, cuDSS
// (CUDA_C_64F: general, symmetric or Hermitian). MUMPS is left out: its complex version
// comes only with a complex PETSc, which the rest of the benchmarks cannot use.
//
// Every solver is timed the same way: analysis (median of --analysis-repeat after --warmup;
// the peers': their analysis + first factorization), refactorizations alternating A and a
// second value set with new phases (complex_problem.hpp) and ending on A, solves of A x = b
// (gpuglu's bare triangular solves, the work a peer's solve does; its refined solve is a
// field), medians of --repeat after --warmup. Every solve's residual and componentwise
// backward error against A are recorded, a bad one included (marked "!" in the table).
//
// Records: one JSON line per (benchmark, matrix, gpuglu variant, peer), benchmarks
// zlu_analysis, zlu_refactor, zlu_solve (kind lu) and zldlt_analysis, zldlt_refactor,
// zldlt_solve (helmholtz, hermitian); matrix "<spec>/<kind>"; ours gpuglu-cpu-1t,
// gpuglu-cpu-<N>t, gpuglu-cuda (the defaults: for the LDL^T the supernodal engine in real
// form, api/real_form_ldlt.hpp) and, for the symmetric kinds, gpuglu-cuda-column (the column
// LDL^T in complex arithmetic); a variant that failed has ours_ms null and ours_note.
//
//   gpuglu_complex_bench [--matrix SPEC|FILE.mtx]... [--matrix-dir DIR] [--kind lu|helmholtz|hermitian[,...]]
//                        [--repeat N] [--warmup N] [--analysis-repeat N] [--threads N]
//                        [--backend cpu|cuda|all] [--no-klu] [--no-umfpack] [--no-cudss]
//                        [--out FILE|-] [--device NAME] [--smoke]
//
// --smoke: tiny matrices (every kind unless --kind says), one repeat, no warm-up; exit status 1
// when a solver that ran failed or solved with a backward error above 1e-8. Parts that cannot
// run (no GPU, no cuDSS in the build, --backend cpu) are printed as skipped. Otherwise the exit
// status is 1 only when a matrix could not be loaded or its run threw.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench_matrices.hpp"
#include "cli.hpp"
#include "complex_problem.hpp"
#include "peer_outcome.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "results_jsonl.hpp"
#include "timing.hpp"
#ifdef GPUGLU_BENCH_HAVE_CUDSS
#include "peer_cudss.hpp"
#endif

namespace gb = gpuglu::bench;
using gb::PeerOutcome;
using gb::run_peer;
using gb::Cplx;

namespace {

// Above this a solve is reported as inaccurate (and fails --smoke): the direct solvers here
// reach about 1e-15 after gpuglu's refinement, KLU's and UMFPACK's solves without it.
constexpr double kBackwardErrorLimit = 1e-8;

struct Args {
  std::vector<std::string> matrices, kinds;
  int repeat = 5, warmup = 1, analysis_repeat = 3;
  int threads = static_cast<int>(std::thread::hardware_concurrency());
  bool cpu = true, cuda = true;  // --backend
  bool klu = true, umfpack = true, cudss = true, smoke = false;
  std::string out = "docs/performance/results.jsonl";
  std::string device;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "gpuglu_complex_bench: %s\nusage: gpuglu_complex_bench [--matrix SPEC|FILE.mtx]... [--matrix-dir DIR] "
               "[--kind lu|helmholtz|hermitian[,...]] [--repeat N] [--warmup N] [--analysis-repeat N] [--threads N] "
               "[--backend cpu|cuda|all] [--no-klu] [--no-umfpack] [--no-cudss] [--out FILE|-] [--device NAME] "
               "[--smoke]\n",
               why.c_str());
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  if (a.threads < 1) a.threads = 1;
  bool repeat_given = false, warmup_given = false, analysis_given = false;
  gb::ArgReader r(argc, argv, usage);
  while (r.next()) {
    const std::string k = r.key();
    if (r.matrix_option(a.matrices)) continue;
    if (k == "--kind") r.append_list(a.kinds);
    else if (k == "--repeat") {
      a.repeat = r.integer(1);
      repeat_given = true;
    } else if (k == "--warmup") {
      a.warmup = r.integer(0);
      warmup_given = true;
    } else if (k == "--analysis-repeat") {
      a.analysis_repeat = r.integer(1);
      analysis_given = true;
    }
    else if (k == "--threads") a.threads = r.integer(1);
    else if (k == "--out") a.out = r.value();
    else if (k == "--device") a.device = r.value();
    else if (k == "--no-klu") a.klu = false;
    else if (k == "--no-umfpack") a.umfpack = false;
    else if (k == "--no-cudss") a.cudss = false;
    else if (k == "--smoke") a.smoke = true;
    else if (k == "--backend") {
      const std::string b = r.value();
      if (b != "cpu" && b != "cuda" && b != "all") usage("unknown backend '" + b + "' (cpu, cuda, all)");
      a.cpu = b != "cuda";
      a.cuda = b != "cpu";
    } else usage("unknown argument " + k);
  }
  for (const std::string& k : a.kinds)
    if (!gb::parse_complex_kind(k)) usage("unknown kind '" + k + "' (lu, helmholtz, hermitian)");
  if (a.smoke) {
    if (!repeat_given) a.repeat = 1;
    if (!warmup_given) a.warmup = 0;
    if (!analysis_given) a.analysis_repeat = 1;
    if (a.kinds.empty()) a.kinds = {"lu", "helmholtz", "hermitian"};
  }
  if (a.kinds.empty()) a.kinds = {"lu"};
  if (a.matrices.empty() && !a.smoke) usage("no matrix given");
  return a;
}

// (matrix, kind) pairs: every matrix in every kind; --smoke without --matrix: a small circuit
// for LU and a small Laplacian for the symmetric kinds (the sizes of the complex tests).
std::vector<std::pair<std::string, gb::ComplexKind>> jobs(const Args& args) {
  std::vector<std::pair<std::string, gb::ComplexKind>> out;
  for (const std::string& ks : args.kinds) {
    const gb::ComplexKind k = *gb::parse_complex_kind(ks);
    if (args.matrices.empty())
      out.emplace_back(k == gb::ComplexKind::lu ? "circuit:3000:40:7" : "lap2d5:30x25", k);
    for (const std::string& m : args.matrices) out.emplace_back(m, k);
  }
  return out;
}

// One configuration of gpuglu: its record name, options and the device it runs on.
struct Variant {
  std::string name, device;
  gpuglu::Options o;
  bool symmetric_only = false;  // an LDL^T engine choice: not run for kind lu
};

struct OursZ {
  std::string variant, device;
  std::string failure;  // empty when every phase succeeded; else the phase and why
  double analysis_ms = 0, first_factor_ms = 0, refactor_ms = 0;
  double solve_ms = 0;          // bare triangular solves (refinement off)
  double solve_refined_ms = 0;  // the default solve (backward error checked, refined where needed)
  double backward_error = -1;   // of the default solve
  int64_t nnz_factor = 0;       // nnz(L+U), or nnz(L+D) for the LDL^T
  gb::Extras extra;
};

// gpuglu's solver (SparseLUComplex or SparseLDLTComplex) on p under variant v; analyze(s) is
// its analysis of p. Failures (an exception, a factorization or solve status) end in failure.
template <class Solver, class Analyze>
OursZ run_ours(const gb::ComplexProblem& p, const Variant& v, const Args& args, const Analyze& analyze) {
  OursZ out;
  out.variant = v.name;
  out.device = v.device;
  gb::Extras& x = out.extra;
  const char* phase = "analysis";
  try {
    Solver s(v.o);
    out.analysis_ms = gb::median_ms(args.warmup, args.analysis_repeat, [&] { analyze(s); });
    const gpuglu::Schedule& sch = s.schedule();
    out.nnz_factor = sch.nnz_factor();
    x["levels"] = static_cast<double>(sch.num_levels());
    x["flops"] = sch.factor_flops;
    x["ordering"] = std::string(gpuglu::to_string(sch.ordering));
    x["engine"] = std::string(sch.kind == gpuglu::FactorKind::supernodal_ldlt ? "supernodal" : "column");
    x["backend"] = std::string(gpuglu::to_string(s.active_backend()));
    if (!s.backend_note().empty()) x["backend_note"] = s.backend_note();
    phase = "factorization";
    double t0 = gb::now_ms();
    const gpuglu::FactorStats first = s.factor(p.a.view());
    out.first_factor_ms = gb::now_ms() - t0;
    if (first.status != gpuglu::Status::ok)
      throw std::runtime_error(std::string("status ") + gpuglu::to_string(first.status));
    phase = "refactorization";
    bool ok = true;
    out.refactor_ms = gb::time_refactor(gb::PeerRun{args.warmup, args.repeat}, nullptr, [&](int set) {
      ok = s.refactor(p.values(set).data()).status == gpuglu::Status::ok && ok;
    });
    const gpuglu::FactorStats& st = s.factor_stats();
    if (!ok) throw std::runtime_error(std::string("status ") + gpuglu::to_string(st.status));
    x["perturbed_pivots"] = static_cast<double>(st.perturbed_pivots);
    x["recovery"] = std::string(gpuglu::to_string(st.recovery));
    x["lu_fallback"] = st.lu_fallback ? 1.0 : 0.0;
    if (s.device_bytes() > 0) {
      x["device_ms"] = st.device_ms;
      x["device_bytes"] = static_cast<double>(s.device_bytes());
    }
    phase = "solve";
    std::vector<Cplx> xs(p.b.size());
    out.solve_refined_ms = gb::median_ms(args.warmup, args.repeat, [&] { s.solve(p.b.data(), xs.data()); });
    if (s.solve_stats().status != gpuglu::Status::ok)
      throw std::runtime_error(std::string("status ") + gpuglu::to_string(s.solve_stats().status));
    x["refine_steps"] = static_cast<double>(s.solve_stats().refine_steps);
    gb::Accuracy acc = gb::accuracy(p, xs.data());
    out.backward_error = acc.backward_error;
    x["residual"] = acc.residual;
    x["backward_error"] = acc.backward_error;
    s.set_refinement(0, v.o.refine_tolerance);
    out.solve_ms = gb::median_ms(args.warmup, args.repeat, [&] { s.solve(p.b.data(), xs.data()); });
    acc = gb::accuracy(p, xs.data());
    x["bare_residual"] = acc.residual;
    x["bare_backward_error"] = acc.backward_error;
  } catch (const std::exception& e) {
    out.failure = std::string(phase) + ": " + e.what();
  }
  return out;
}

OursZ run_ours(const gb::ComplexProblem& p, const Variant& v, const Args& args) {
  if (!p.symmetric())
    return run_ours<gpuglu::SparseLUComplex>(p, v, args, [&](gpuglu::SparseLUComplex& s) { s.analyze(p.a.view()); });
  const gpuglu::Symmetry sym =
      p.values_kind == gb::ComplexKind::hermitian ? gpuglu::Symmetry::hermitian : gpuglu::Symmetry::symmetric;
  return run_ours<gpuglu::SparseLDLTComplex>(p, v, args, [&](gpuglu::SparseLDLTComplex& s) {
    s.analyze(p.a.view(), gpuglu::StoredTriangle::full, nullptr, true, false, sym);
  });
}


// Why the GPU parts do not run (empty: they do). gpu: the device query of this run.
std::string gpu_skip_reason(const Args& args, const gpuglu::DeviceInfo& gpu) {
  if (!args.cuda) return "--backend cpu";
  if (!gpu.usable) return "no usable CUDA device: " + gpu.reason;
  return {};
}

std::string cudss_skip_reason(const Args& args, const gpuglu::DeviceInfo& gpu) {
#ifdef GPUGLU_BENCH_HAVE_CUDSS
  if (!args.cudss) return "--no-cudss";
  return gpu_skip_reason(args, gpu);
#else
  (void)args;
  (void)gpu;
  return "not in this build: it needs a CUDA build with -DGPUGLU_CUDSS_ROOT";
#endif
}

std::vector<PeerOutcome> run_peers(const gb::ComplexProblem& p, const Args& args, const gpuglu::DeviceInfo& gpu) {
  const gb::PeerRun run{args.warmup, args.repeat};
  std::vector<PeerOutcome> peers;
  if (args.klu) peers.push_back(run_peer("klu", [&] { return gb::run_klu_complex(p, run); }));
  if (args.umfpack) peers.push_back(run_peer("umfpack", [&] { return gb::run_umfpack_complex(p, run); }));
#ifdef GPUGLU_BENCH_HAVE_CUDSS
  if (cudss_skip_reason(args, gpu).empty())
    peers.push_back(run_peer(p.symmetric() ? "cudss_ldlt" : "cudss", [&] {
      gb::SymPeerTimes t;
      std::vector<Cplx> x;
      if (!p.symmetric()) {
        static_cast<gb::PeerTimes&>(t) =
            gb::run_cudss_complex(p.a, p.second, gb::CudssComplexType::general, p.b, run, x, t.extra);
      } else {
        const gb::ComplexLower lower = gb::lower_of(p);
        const gb::CudssComplexType type = p.values_kind == gb::ComplexKind::hermitian
                                              ? gb::CudssComplexType::hermitian
                                              : gb::CudssComplexType::symmetric;
        static_cast<gb::PeerTimes&>(t) = gb::run_cudss_complex(lower.m, lower.second, type, p.b, run, x, t.extra);
      }
      t.repeat = run.repeat;
      const gb::Accuracy acc = gb::accuracy(p, x.data());
      t.residual = acc.residual;
      t.backward_error = acc.backward_error;
      return t;
    }));
#else
  (void)gpu;
#endif
  return peers;
}

// The table: a line per solver, times in ms; berr is its solve's backward error against A
// ("!" above kBackwardErrorLimit), nnz its own factor's size.
void print_header() {
  std::printf("%-34s %-16s | %9s %9s %9s %8s %11s %8s\n", "matrix / solver", "", "analysis", "first", "refactor",
              "solve", "nnz(factor)", "berr");
}

const char* mark(double berr) { return berr < 0 || berr > kBackwardErrorLimit ? " !" : ""; }

void print_ours(const OursZ& o) {
  std::printf("  %-49s | ", o.variant.c_str());
  if (!o.failure.empty()) {
    std::printf("failed: %s\n", o.failure.c_str());
    return;
  }
  std::printf("%9.3f %9.3f %9.3f %8.3f %11lld %8.1e%s\n", o.analysis_ms, o.first_factor_ms, o.refactor_ms, o.solve_ms,
              static_cast<long long>(o.nnz_factor), o.backward_error, mark(o.backward_error));
}

void print_peer(const PeerOutcome& q) {
  std::printf("  %-49s | ", q.name.c_str());
  if (!q.ok()) {
    std::printf("failed: %s\n", q.note.c_str());
    return;
  }
  std::printf("%9.3f %9.3f %9.3f %8.3f %11lld %8.1e%s\n", q.t.analyze_ms, q.t.factor_ms, q.t.refactor_ms, q.t.solve_ms,
              static_cast<long long>(q.t.nnz_factor), q.t.backward_error, mark(q.t.backward_error));
}

// The records of one problem: per gpuglu variant and peer, the three benchmarks.
void write_records(const gb::ComplexProblem& p, const std::vector<OursZ>& ours, std::vector<PeerOutcome> peers,
                   const Args& args, const std::string& date, const std::string& device) {
  if (args.out == "-") return;
  const std::string prefix = p.symmetric() ? "zldlt_" : "zlu_";
  if (peers.empty()) {
    PeerOutcome none;
    none.name = "none";
    none.note = "every peer turned off";
    peers.push_back(none);
  }
  for (const OursZ& o : ours) {
    gb::Record base;
    base.matrix = p.name;
    base.kind = p.kind;
    base.n = p.a.nrows;
    base.nnz = p.a.nnz();
    base.nnz_factor = o.nnz_factor;
    base.ours = o.variant;
    base.extra = o.extra;
    base.extra["values"] = std::string(gb::to_string(p.values_kind));
    base.extra["scalar"] = std::string("complex128");
    base.extra["ours_device"] = o.device;
    base.extra["analysis_ms"] = o.analysis_ms;
    base.extra["first_factor_ms"] = o.first_factor_ms;
    base.extra["refactor_ms"] = o.refactor_ms;
    base.extra["solve_ms"] = o.solve_ms;
    base.extra["solve_refined_ms"] = o.solve_refined_ms;
    base.extra["repeat"] = static_cast<double>(args.repeat);
    if (!o.failure.empty()) base.extra["ours_note"] = o.failure;
    for (const PeerOutcome& q : peers) {
      auto emit = [&](const char* bench, double ours_ms, const std::string& peer, double peer_ms) {
        gb::Record r = base;
        r.benchmark = prefix + bench;
        r.ours_ms = o.failure.empty() ? ours_ms : NAN;  // null in the record
        r.peer = peer;
        r.peer_note = q.note;
        r.peer_ms = q.ok() ? peer_ms : -1;
        if (q.ok()) {
          r.extra["peer_analysis_ms"] = q.t.analyze_ms;
          r.extra["peer_first_factor_ms"] = q.t.factor_ms;
          r.extra["peer_refactor_ms"] = q.t.refactor_ms;
          r.extra["peer_solve_ms"] = q.t.solve_ms;
          r.extra["peer_nnz_factor"] = static_cast<double>(q.t.nnz_factor);
          r.extra["peer_residual"] = q.t.residual;
          r.extra["peer_backward_error"] = q.t.backward_error;
          for (const auto& [key, value] : q.t.extra) r.extra[key] = value;
        }
        gb::append_record(args.out, r, date, device);
      };
      // Peer names as gpuglu_lu_bench writes them.
      const bool klu = q.name == "klu", cudss = q.name.rfind("cudss", 0) == 0;
      emit("analysis", o.analysis_ms, klu ? "klu_analyze+factor" : q.name + "_symbolic+numeric",
           q.t.analyze_ms + q.t.factor_ms);
      emit("refactor", o.refactor_ms, klu || cudss ? q.name + "_refactor" : q.name + "_numeric", q.t.refactor_ms);
      emit("solve", o.solve_ms, q.name + "_solve", q.t.solve_ms);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  const gpuglu::DeviceInfo gpu = gpuglu::query_device();
  const std::string cpu = gb::cpu_model();
  const std::string gpu_skip = gpu_skip_reason(args, gpu), cudss_skip = cudss_skip_reason(args, gpu);
  std::string device = args.device;
  if (device.empty()) device = gpu_skip.empty() ? gpu.name : cpu;
  const std::string date = gb::today_utc();

  std::vector<Variant> variants;
  if (args.cpu)
    for (int t : {1, args.threads}) {
      if (t == 1 && !variants.empty()) break;  // --threads 1: one CPU variant
      Variant v{"gpuglu-cpu-" + std::to_string(t) + "t", cpu, {}};
      v.o.backend = gpuglu::Backend::cpu;
      v.o.num_threads = t;
      variants.push_back(v);
    }
  if (gpu_skip.empty()) {
    Variant v{"gpuglu-cuda", gpu.name, {}};
    v.o.backend = gpuglu::Backend::cuda;
    variants.push_back(v);
    v.name = "gpuglu-cuda-column";
    v.o.ldlt_engine = gpuglu::LuEngine::column;
    v.symmetric_only = true;
    variants.push_back(v);
  }
  std::printf("complex benchmark on %s; gpuglu-cuda: %s; cuDSS: %s\n", device.c_str(),
              gpu_skip.empty() ? "runs" : ("skipped, " + gpu_skip).c_str(),
              cudss_skip.empty() ? "runs" : ("skipped, " + cudss_skip).c_str());
  print_header();
  int failures = 0, inaccurate = 0;
  for (const auto& [spec, kind] : jobs(args)) {
    try {
      const gb::ComplexProblem p = gb::make_complex_problem(gb::load_bench_matrix(spec), kind);
      std::printf("%-34s n %d nnz %d\n", p.name.c_str(), p.a.nrows, p.a.nnz());
      std::fflush(stdout);
      std::vector<OursZ> ours;
      for (const Variant& v : variants) {
        if (v.symmetric_only && !p.symmetric()) continue;
        ours.push_back(run_ours(p, v, args));
        print_ours(ours.back());
        std::fflush(stdout);
        if (!ours.back().failure.empty() || ours.back().backward_error > kBackwardErrorLimit) ++inaccurate;
      }
      const std::vector<PeerOutcome> peers = run_peers(p, args, gpu);
      for (const PeerOutcome& q : peers) {
        print_peer(q);
        if (!q.ok() || q.t.backward_error > kBackwardErrorLimit) ++inaccurate;
      }
      std::fflush(stdout);
      write_records(p, ours, peers, args, date, device);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpuglu_complex_bench: %s (%s): %s\n", spec.c_str(), gb::to_string(kind), e.what());
      ++failures;
    }
  }
  if (!gpu_skip.empty()) std::printf("skipped: gpuglu-cuda (%s)\n", gpu_skip.c_str());
  if (!cudss_skip.empty()) std::printf("skipped: cuDSS (%s)\n", cudss_skip.c_str());
  if (args.smoke && inaccurate > 0)
    std::printf("smoke: %d solver run(s) failed or had a backward error above %.0e\n", inaccurate, kBackwardErrorLimit);
  return failures > 0 || (args.smoke && inaccurate > 0) ? 1 : 0;
}
