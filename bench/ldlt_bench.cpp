// gpuglu_ldlt_bench (issue 13): per symmetric matrix, gpuglu's LDL^T (analysis, first
// factorization, refactorization, solve, fill, perturbed pivots, LU fallback, inertia) and
// in the same run, on the same matrix and values: gpuglu's column LDL^T (when the measured
// engine is another), gpuglu's LU, UMFPACK, CHOLMOD (SPD only; one BLAS thread and all
// cores), MUMPS's LDL^T through PETSc and, in CUDA builds with cuDSS, cuDSS's Cholesky /
// LDL^T at its defaults (cudss_ldlt) and, on indefinite matrices, with its Bunch-Kaufman
// pivoting and 2 refinement steps (cudss_ldlt_bk). Medians after warm-ups; two JSON lines
// per (matrix, peer): benchmark ldlt_numeric (ours_ms and peer_ms the refactorizations) and
// ldlt_solve (the solves: gpuglu's bare, the peer's solve phase); the other phases, device
// bytes and every solver's residual and backward error are fields of both.
//
//   gpuglu_ldlt_bench [--matrix SPEC|FILE.mtx|FILE.mtx.xz]... [--matrix-dir DIR] [--spd NAME[,NAME]]
//                     [--repeat N] [--warmup N] [--analysis-repeat N] [--budget-ms MS]
//                     [--threads N] [--backend cpu|cuda|auto] [--ordering auto|amd|metis]
//                     [--cholmod-threads LIST] [--max-umfpack-factor-nnz N] [--max-cpu-flops F]
//                     [--max-lu-flops F] [--deadline-s S] [--no-lu] [--no-umfpack] [--no-cholmod]
//                     [--no-mumps] [--no-cudss] [--no-column] [--ldlt-engine column|supernodal|auto]
//                     [--out FILE|-] [--device NAME] [--analyze-only]
//
// SPD: generated Laplacians and elasticity (lap*, elast3d), files in a folder named spd,
// and the names given to --spd; gpuglu then skips its scaling (PETSc's MAT_SPD), CHOLMOD
// runs, MUMPS and cuDSS take their SPD modes. Everything else is taken as indefinite.
// Guards, from gpuglu's analysis of the matrix: UMFPACK is skipped above
// --max-umfpack-factor-nnz (of 2 nnz(L+D) - n, gpuglu's fill as an LU); UMFPACK, CHOLMOD on
// one thread and MUMPS above --max-cpu-flops (gpuglu's LDL^T flop count; their time follows
// it); gpuglu's LU above --max-lu-flops. A solver whose first factorization is slow repeats
// less (--budget-ms). After --deadline-s seconds no matrix or peer is started (the rest is
// printed as skipped, the peers of a started matrix recorded so). Skipped peers and failures
// (a singular matrix, one CHOLMOD finds indefinite) are records with peer_ms null and a
// peer_note; gpuglu's own failure is ours_ms null with ours_note. Exit status 1 only when
// a matrix could not be loaded or its run threw.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_matrices.hpp"
#include "blas_threads.hpp"
#include "cli.hpp"
#include "gpuglu/device.hpp"
#include "ldlt_gpuglu.hpp"
#include "ldlt_peers.hpp"
#include "peer_outcome.hpp"
#include "results_jsonl.hpp"
#ifdef GPUGLU_BENCH_HAVE_CUDA
#include "gpuglu/ldlt.hpp"
#include "supernodal_profile.hpp"
#endif
#ifdef GPUGLU_BENCH_HAVE_CUDSS
#include "peer_cudss.hpp"
#endif
#ifdef GPUGLU_BENCH_HAVE_PETSC
#include <petscsys.h>
#endif

namespace gb = gpuglu::bench;
using gb::PeerOutcome;
using gb::run_peer;
using gb::skipped;

namespace {

struct Args {
  std::vector<std::string> matrices, spd_names, cholmod_threads{"1", "all"};
  int repeat = 5, warmup = 1, analysis_repeat = 3, threads = 1;
  double budget_ms = 4000;  // per solver and matrix, for the repeated refactorizations and solves
  double max_umfpack_factor_nnz = 3e7;  // of 2 nnz(L+D) - n
  double max_cpu_flops = -1, max_lu_flops = -1, deadline_s = -1;  // < 0: no limit
  gpuglu::Backend backend = gpuglu::Backend::cpu;
  gpuglu::Ordering ordering = gpuglu::Ordering::automatic;
  std::string out = "docs/performance/results.jsonl";
  std::string device;
  bool column = true, lu = true, umfpack = true, cholmod = true, mumps = true, cudss = true, analyze_only = false;
  bool profile = false;  // the CUDA supernodal LDL^T's device time by part and level (CUDA builds)
  gpuglu::LuEngine ldlt_engine = gpuglu::LuEngine::automatic;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "gpuglu_ldlt_bench: %s\nusage: gpuglu_ldlt_bench [--matrix SPEC|FILE.mtx|FILE.mtx.xz]... "
               "[--matrix-dir DIR] [--spd NAME[,NAME]] [--repeat N] [--warmup N] [--analysis-repeat N] "
               "[--budget-ms MS] [--threads N] [--backend cpu|cuda|auto] [--ordering auto|amd|metis] "
               "[--cholmod-threads 1,all] [--max-umfpack-factor-nnz N] [--max-cpu-flops F] [--max-lu-flops F] "
               "[--deadline-s S] [--no-lu] "
               "[--no-umfpack] [--no-cholmod] [--no-mumps] [--no-cudss] [--no-column] [--ldlt-engine E] [--out FILE|-] [--device NAME] "
               "[--analyze-only] [--profile]\n",
               why.c_str());
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  gb::ArgReader r(argc, argv, usage);
  while (r.next()) {
    const std::string k = r.key();
    if (r.matrix_option(a.matrices)) continue;
    if (k == "--spd") r.append_list(a.spd_names);
    else if (k == "--repeat") a.repeat = r.integer(1);
    else if (k == "--warmup") a.warmup = r.integer(0);
    else if (k == "--analysis-repeat") a.analysis_repeat = r.integer(1);
    else if (k == "--budget-ms") a.budget_ms = r.positive();
    else if (k == "--threads") a.threads = r.integer(1);
    else if (k == "--max-umfpack-factor-nnz") a.max_umfpack_factor_nnz = r.positive();
    else if (k == "--max-cpu-flops") a.max_cpu_flops = r.positive();
    else if (k == "--max-lu-flops") a.max_lu_flops = r.positive();
    else if (k == "--deadline-s") a.deadline_s = r.positive();
    else if (k == "--cholmod-threads") {
      a.cholmod_threads.clear();
      r.append_list(a.cholmod_threads);
      for (const std::string& t : a.cholmod_threads)
        if (t != "all" && std::atoi(t.c_str()) < 1) usage("--cholmod-threads takes counts >= 1 and 'all'");
    }
    else if (k == "--out") a.out = r.value();
    else if (k == "--device") a.device = r.value();
    else if (k == "--no-lu") a.lu = false;
    else if (k == "--no-umfpack") a.umfpack = false;
    else if (k == "--no-cholmod") a.cholmod = false;
    else if (k == "--no-mumps") a.mumps = false;
    else if (k == "--no-column") a.column = false;
    else if (k == "--ldlt-engine") {
      const auto e = gpuglu::parse_lu_engine(r.value());
      if (!e) usage("--ldlt-engine takes column, supernodal or auto");
      a.ldlt_engine = *e;
    }
    else if (k == "--no-cudss") a.cudss = false;
    else if (k == "--analyze-only") a.analyze_only = true;
    else if (k == "--profile") a.profile = true;
    else if (k == "--backend") {
      const auto b = gpuglu::parse_backend(r.value());
      if (!b) usage("unknown backend");
      a.backend = *b;
    } else if (k == "--ordering") {
      const auto o = gpuglu::parse_ordering(r.value());
      if (!o || *o == gpuglu::Ordering::given) usage("unknown ordering");
      a.ordering = *o;
    } else usage("unknown argument " + k);
  }
  if (a.matrices.empty()) usage("no matrix given");
  return a;
}

bool known_spd(const gb::BenchMatrix& m, const Args& args) {
  for (const std::string& s : args.spd_names)
    if (s == m.name) return true;
  if (m.kind == "spd") return true;
  if (m.kind != "generated") return false;
  for (const char* prefix : {"lap2d5:", "lap2d9:", "lap3d7:", "lap3d27:", "elast3d:"})
    if (m.name.rfind(prefix, 0) == 0) return true;
  return false;
}



// Where the device time of one factorization goes (supernodal_profile.hpp), printed and kept
// in gpuglu's records (ms_panel: the narrow supernodes' diagonal blocks and L21, ms_blocked:
// the wide supernodes, ms_direct: the tiled complements, ms_gemm: the DGEMM ones).
void profile(const gb::SymProblem& p, const gpuglu::Options& o, gb::OursLdlt& ours) {
#ifdef GPUGLU_BENCH_HAVE_CUDA
  if (o.backend == gpuglu::Backend::cpu || !ours.failure.empty()) return;
  gpuglu::SparseLDLT ldlt(o);
  ldlt.analyze(p.a.view(), gpuglu::StoredTriangle::full, nullptr, true, p.spd);
  const gpuglu::Schedule& s = ldlt.schedule();
  if (s.kind != gpuglu::FactorKind::supernodal_ldlt) return;
  const gb::SupernodalProfile prof = gb::profile_supernodal(s, p.a.values.data(), o, 3);
  std::printf("%s: %s", p.name.c_str(), gb::describe_supernodal(s, prof).c_str());
  const char* part_names[4] = {"panel", "blocked", "direct", "gemm"};
  for (int part = 0; part < 4; ++part) ours.extra[std::string("ms_") + part_names[part]] = prof.ms[part];
  ours.extra["profiled_loop_ms"] = prof.total_ms();
#else
  (void)p, (void)o, (void)ours;
  std::printf("--profile: a CUDA build's\n");
#endif
}

// The table on stdout: a line per matrix (gpuglu's LDL^T), a line per peer under it, times in
// ms; the ratios are gpuglu's refactorization and solve times over the peer's (below 1:
// gpuglu is faster); nnz is each solver's own factor size, berr its solve's backward error.
void print_header() {
  std::printf("%-26s %8s %9s %10s %5s | %9s %9s %9s %7s %8s %7s %11s %8s\n", "matrix / peer", "n", "nnz", "nnz(L+D)",
              "", "analysis", "first", "refactor", "ratio", "solve", "ratio", "nnz", "berr");
}

void print_matrix_line(const gb::SymProblem& p, const gb::OursLdlt& ours) {
  std::printf("%-26s %8d %9d %10lld %5s | ", p.name.c_str(), p.a.nrows, p.a.nnz(),
              static_cast<long long>(ours.nnz_factor), p.spd ? "spd" : "indef");
  const auto berr = ours.extra.find("backward_error");
  if (ours.failure.empty())
    std::printf("%9.3f %9.3f %9.3f %7s %8.3f %7s %11lld %8.1e  gpuglu LDL^T\n", ours.analysis_ms, ours.first_factor_ms,
                ours.refactor_ms, "", ours.solve_ms, "", static_cast<long long>(ours.nnz_factor),
                berr != ours.extra.end() ? std::get<double>(berr->second) : -1.0);
  else
    std::printf("gpuglu LDL^T failed: %s\n", ours.failure.c_str());
}

void print_peer_line(const gb::OursLdlt& ours, const PeerOutcome& p) {
  std::printf("%-62s | ", ("  " + p.name).c_str());
  if (!p.ok()) {
    std::printf("%s\n", p.note.c_str());
    return;
  }
  const bool mine = ours.failure.empty();
  std::printf("%9.3f %9.3f %9.3f %7.2f %8.3f %7.2f %11lld %8.1e\n", p.t.analyze_ms, p.t.factor_ms, p.t.refactor_ms,
              mine ? ours.refactor_ms / p.t.refactor_ms : NAN, p.t.solve_ms, mine ? ours.solve_ms / p.t.solve_ms : NAN,
              static_cast<long long>(p.t.nnz_factor), p.t.backward_error);
}

std::string too_big(double value, double limit, const char* what, const char* option) {
  if (limit <= 0 || value <= limit) return {};
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %.3g > %s", what, value, option);
  return buf;
}

// Every peer of one matrix, in a fixed order, each guarded (skipped with the reason) by the
// fill and flops gpuglu's analysis found and by the deadline; printed as they finish.
std::vector<PeerOutcome> run_peers(const gb::SymProblem& p, const gb::OursLdlt& ours, const Args& args,
                                   const gpuglu::Options& o, double started_ms) {
  const gb::PeerRun run{args.warmup, args.repeat};
  const auto fill = static_cast<double>(ours.nnz_factor);
  std::vector<PeerOutcome> peers;
  // guard: why not to run it (empty: run it).
  auto add = [&](const std::string& name, std::string guard, const std::function<gb::SymPeerTimes()>& f) {
    if (fill <= 0) guard = "gpuglu's analysis failed";
    if (guard.empty() && args.deadline_s > 0 && gb::now_ms() - started_ms > 1000 * args.deadline_s)
      guard = "past --deadline-s";
    peers.push_back(guard.empty() ? run_peer(name, f) : skipped(name, guard));
    print_peer_line(ours, peers.back());
    std::fflush(stdout);
  };
  const std::string cpu_guard = too_big(ours.flops, args.max_cpu_flops, "flops", "--max-cpu-flops");
  if (args.column)
    add("gpuglu_ldlt_column", too_big(ours.flops, args.max_lu_flops, "flops", "--max-lu-flops"),
        [&] { return gb::run_gpuglu_ldlt_column(p, run, args.budget_ms, o); });
  if (args.lu)
    add("gpuglu_lu", too_big(ours.flops, args.max_lu_flops, "flops", "--max-lu-flops"),
        [&] { return gb::run_gpuglu_lu(p, run, args.budget_ms, o); });
  if (args.umfpack) {
    std::string guard = too_big(2 * fill - p.a.nrows, args.max_umfpack_factor_nnz, "LU fill about",
                                "--max-umfpack-factor-nnz");
    add("umfpack_numeric", guard.empty() ? cpu_guard : guard,
        [&] { return gb::run_umfpack_sym(p, run, args.budget_ms); });
  }
  if (args.cholmod) {
    // One CHOLMOD analysis for every thread count (run_cholmod), each count its own peer.
    std::vector<int> counts;
    for (const std::string& ts : args.cholmod_threads) {
      const int threads = ts == "all" ? gb::cpu_cores() : std::atoi(ts.c_str());
      if (std::find(counts.begin(), counts.end(), threads) == counts.end()) counts.push_back(threads);  // "all" = 1
    }
    std::vector<int> run_counts;
    for (const int threads : counts)
      if (threads == 1 && !cpu_guard.empty())
        add("cholmod_numeric_1t", cpu_guard, nullptr);
      else
        run_counts.push_back(threads);
    std::vector<gb::SymPeerTimes> results;
    std::string failure;
    bool ran = false;
    for (size_t k = 0; k < run_counts.size(); ++k)
      add("cholmod_numeric_" + std::to_string(run_counts[k]) + "t", {}, [&, k]() -> gb::SymPeerTimes {
        if (!ran) {
          ran = true;
          try {
            results = gb::run_cholmod(p, run, args.budget_ms, run_counts);
          } catch (const std::exception& e) {
            failure = e.what();
          }
        }
        if (!failure.empty()) throw std::runtime_error(failure);
        return results[k];
      });
  }
#ifdef GPUGLU_BENCH_HAVE_PETSC
  if (args.mumps) add("mumps_ldlt", cpu_guard, [&] { return gb::run_mumps_ldlt(p, run, args.budget_ms); });
#endif
#ifdef GPUGLU_BENCH_HAVE_CUDSS
  // cuDSS at its defaults, and (indefinite only) with its Bunch-Kaufman pivoting and refinement.
  auto cudss = [&](bool bunch_kaufman) {
    return [&, bunch_kaufman] {
      const gb::Triangle lower = gb::lower_triangle(p.a);
      gb::SymPeerTimes t;
      std::vector<double> x;
      static_cast<gb::PeerTimes&>(t) = gb::run_cudss_symmetric(lower.m, lower.values(p, 1), p.spd, p.b, run,
                                                               args.budget_ms, x, t.extra, bunch_kaufman);
      const gb::Accuracy acc = gb::accuracy(p, x.data());
      t.residual = acc.residual;
      t.backward_error = acc.backward_error;
      return t;
    };
  };
  if (args.cudss && args.backend == gpuglu::Backend::cuda) {
    add("cudss_ldlt", {}, cudss(false));
    if (!p.spd) add("cudss_ldlt_bk", {}, cudss(true));
  }
#endif
  return peers;
}

// One JSON line per peer (benchmark ldlt_numeric), each with all of gpuglu's fields.
void write_records(const gb::SymProblem& p, const gb::OursLdlt& ours, std::vector<PeerOutcome> peers,
                   const std::string& out, const std::string& date, const std::string& device,
                   const gb::BlasInfo& blas) {
  gb::Record base;
  base.benchmark = "ldlt_numeric";
  base.matrix = p.name;
  base.kind = p.kind;
  base.n = p.a.nrows;
  base.nnz = p.a.nnz();
  base.nnz_factor = ours.nnz_factor;
  base.ours = ours.variant;
  base.ours_ms = ours.failure.empty() ? ours.refactor_ms : NAN;  // null in the record
  base.extra = ours.extra;
  if (!ours.failure.empty()) base.extra["ours_note"] = ours.failure;
  base.extra["analysis_ms"] = ours.analysis_ms;
  base.extra["first_factor_ms"] = ours.first_factor_ms;
  base.extra["solve_ms"] = ours.solve_ms;
  base.extra["solve_refined_ms"] = ours.solve_refined_ms;
  base.extra["repeat"] = static_cast<double>(ours.repeat);
  if (peers.empty()) peers.push_back(skipped("none", "every peer turned off"));
  for (const PeerOutcome& q : peers) {
    gb::Record r = base;
    r.peer = q.name;
    r.peer_note = q.note;
    if (q.ok()) {
      r.peer_ms = q.t.refactor_ms;
      r.extra["peer_analysis_ms"] = q.t.analyze_ms;
      r.extra["peer_first_factor_ms"] = q.t.factor_ms;
      r.extra["peer_solve_ms"] = q.t.solve_ms;
      r.extra["peer_nnz_factor"] = static_cast<double>(q.t.nnz_factor);
      r.extra["peer_residual"] = q.t.residual;
      r.extra["peer_backward_error"] = q.t.backward_error;
      if (q.t.repeat > 0) r.extra["peer_repeat"] = static_cast<double>(q.t.repeat);
      for (const auto& [key, value] : q.t.extra) r.extra[key] = value;
    }
    if (q.name.rfind("cholmod", 0) == 0 || q.name == "umfpack_numeric" || q.name == "mumps_ldlt") {
      r.extra["peer_blas"] = blas.config;
      r.extra["peer_blas_library"] = blas.library;
    }
    gb::append_record(out, r, date, device);
    // The same pair on the solve (bare triangular solves against the peer's solve phase).
    gb::Record sr = r;
    sr.benchmark = "ldlt_solve";
    sr.ours_ms = ours.failure.empty() ? ours.solve_ms : NAN;
    sr.peer_ms = q.ok() ? q.t.solve_ms : NAN;
    gb::append_record(out, sr, date, device);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
#ifdef GPUGLU_BENCH_HAVE_PETSC
  const bool petsc = args.mumps && !args.analyze_only;
  if (petsc && PetscInitializeNoArguments()) return 1;
#endif
  std::string device = args.device;
  if (device.empty()) {
    const gpuglu::DeviceInfo d = gpuglu::query_device();
    device = args.backend != gpuglu::Backend::cpu && d.usable ? d.name : gb::cpu_model();
  }
  const std::string date = gb::today_utc();
  const gb::BlasInfo blas = gb::blas_info();
  std::printf("BLAS: %s (%s); %d cores\n", blas.library.c_str(), blas.config.c_str(), gb::cpu_cores());
  if (!args.analyze_only) print_header();
  gpuglu::Options o;
  o.backend = args.backend;
  o.num_threads = args.threads;
  o.ordering = args.ordering;
  o.ldlt_engine = args.ldlt_engine;
  o.ordering_cache = false;  // each analysis (and each gpuglu peer's) pays its ordering, as a first analysis does
  const gb::PeerRun run{args.warmup, args.repeat};
  const double started_ms = gb::now_ms();
  int failures = 0;
  for (const std::string& spec : args.matrices) {
    if (args.deadline_s > 0 && gb::now_ms() - started_ms > 1000 * args.deadline_s) {
      std::printf("%-28s skipped: past --deadline-s %.0f\n", spec.c_str(), args.deadline_s);
      continue;
    }
    try {
      gb::BenchMatrix m = gb::load_bench_matrix(spec);
      const bool spd = known_spd(m, args);
      const gb::SymProblem p = gb::make_sym_problem(m.name, m.kind, std::move(m.a), spd);
      if (args.analyze_only) {
        const gb::Extras x = gb::analyze_only(p, o);
        std::printf("%-28s %9d %10d nnz(L+D) %11.0f levels %6.0f flops %.3g analysis %.1f ms (%s)\n", p.name.c_str(),
                    p.a.nrows, p.a.nnz(), std::get<double>(x.at("nnz_factor")), std::get<double>(x.at("levels")),
                    std::get<double>(x.at("flops")), std::get<double>(x.at("analysis_ms")),
                    std::get<std::string>(x.at("ordering")).c_str());
        std::fflush(stdout);
        continue;
      }
      gb::OursLdlt ours;
      try {
        ours = gb::run_ours_ldlt(p, run, args.budget_ms, args.analysis_repeat, o);
      } catch (const std::exception& e) {
        ours.failure = std::string("analysis: ") + e.what();
      }
      if (ours.variant.empty()) ours.variant = "gpuglu-ldlt-" + std::string(gpuglu::to_string(args.backend)) + "-" +
                                               std::to_string(args.threads) + "t";
      print_matrix_line(p, ours);
      if (args.profile) profile(p, o, ours);
      std::fflush(stdout);
      const std::vector<PeerOutcome> peers = run_peers(p, ours, args, o, started_ms);
      if (args.out != "-") write_records(p, ours, peers, args.out, date, device, blas);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpuglu_ldlt_bench: %s: %s\n", spec.c_str(), e.what());
      ++failures;
    }
  }
#ifdef GPUGLU_BENCH_HAVE_PETSC
  if (petsc) PetscFinalize();
#endif
  return failures ? 1 : 0;
}
