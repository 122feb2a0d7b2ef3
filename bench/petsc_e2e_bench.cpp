// gpuglu_petsc_e2e_bench: gpuglu against PETSc's other sparse LU packages (KLU, MUMPS,
// SuperLU), all driven the same way through PETSc (petsc_e2e.hpp): per repeat new values,
// MatLUFactorNumeric with the same pattern, then MatSolve. Same run, same machine.
//
//   gpuglu_petsc_e2e_bench [--matrix SPEC|FILE.mtx]... [--matrix-dir DIR] [--warmup K] [--repeat N]
//                          [--backend cpu|cuda|auto] [--threads N] [--solver-peer NAME]...
//                          [--petsc-options "STRING"] [--residual-tol X] [--out FILE] [--device NAME]
//
// --solver-peer takes any MatSolverType (klu, mumps, superlu, umfpack, petsc; repeated or
// comma-separated; default klu,mumps,superlu). A peer missing from the PETSc build or
// failing is recorded as failed with the reason. Records: benchmark
// "petsc_lu_refactor_solve", ours_ms/peer_ms = median(MatLUFactorNumeric + MatSolve).
#include <petscgpuglu.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_matrices.hpp"
#include "cli.hpp"
#include "factor_view.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/options.hpp"
#include "petsc_e2e.hpp"
#include "results_jsonl.hpp"

namespace gb = gpuglu::bench;

namespace {

struct Args {
  std::vector<std::string> matrices, peers;
  int warmup = 1, repeat = 5, threads = 0;
  double residual_tol = 1e-10;
  std::string backend = "auto", out, device, petsc_options;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "gpuglu_petsc_e2e_bench: %s\nusage: gpuglu_petsc_e2e_bench [--matrix SPEC|FILE.mtx]... "
               "[--matrix-dir DIR] [--warmup K] [--repeat N] [--backend cpu|cuda|auto] [--threads N] "
               "[--solver-peer klu|mumps|superlu|umfpack|petsc]... [--petsc-options \"STRING\"] [--residual-tol X] "
               "[--out FILE] [--device NAME]\n",
               why.c_str());
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  gb::ArgReader r(argc, argv, usage);
  while (r.next()) {
    const std::string k = r.key();
    if (r.matrix_option(a.matrices)) continue;
    if (k == "--warmup") a.warmup = r.integer(0);
    else if (k == "--repeat") a.repeat = r.integer(1);
    else if (k == "--threads") a.threads = r.integer(1);
    else if (k == "--out") a.out = r.value();
    else if (k == "--device") a.device = r.value();
    else if (k == "--petsc-options") a.petsc_options = r.value();
    else if (k == "--residual-tol") a.residual_tol = r.positive();
    else if (k == "--solver-peer") r.append_list(a.peers);
    else if (k == "--backend") {
      a.backend = r.value();
      if (!gpuglu::parse_backend(a.backend)) usage("unknown backend " + a.backend);
    } else usage("unknown argument " + k);
  }
  if (a.matrices.empty()) usage("no matrix given");
  if (a.peers.empty()) a.peers = {"klu", "mumps", "superlu"};
  return a;
}

void add_times(const gb::E2eTimes& t, const std::string& prefix, gb::Record& r) {
  r.extra[prefix + "first_factor_ms"] = t.first_factor_ms;
  r.extra[prefix + "symbolic_ms"] = t.symbolic_ms;
  r.extra[prefix + "first_solve_ms"] = t.first_solve_ms;
  if (t.total_ms > 0) {
    r.extra[prefix + "numeric_ms"] = t.numeric_ms;
    r.extra[prefix + "solve_ms"] = t.solve_ms;
  }
  if (t.residual >= 0 || t.residual != t.residual) r.extra[prefix + "residual"] = t.residual;
  if (!t.ordering.empty()) r.extra[prefix + "ordering"] = t.ordering;
}

struct Row {
  std::string matrix, peer;
  int64_t n, nnz;
  double ours_ms, peer_ms;  // < 0: failed
};

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  if (PetscInitializeNoArguments()) return 1;
  // Options go through PETSc's database, as a user's -mat_gpuglu_* would.
  if (PetscGPUGLURegister() || PetscOptionsSetValue(nullptr, "-mat_gpuglu_backend", args.backend.c_str()) ||
      (args.threads > 0 &&
       PetscOptionsSetValue(nullptr, "-mat_gpuglu_threads", std::to_string(args.threads).c_str())) ||
      (!args.petsc_options.empty() && PetscOptionsInsertString(nullptr, args.petsc_options.c_str()))) {
    std::fprintf(stderr, "gpuglu_petsc_e2e_bench: PetscGPUGLURegister or setting PETSc options failed\n");
    PetscFinalize();
    return 1;
  }
  std::string device = args.device;
  if (device.empty()) {
    const gpuglu::DeviceInfo d = gpuglu::query_device();
    device = args.backend != "cpu" && d.usable ? d.name : gb::cpu_model();
  }
  const std::string date = gb::today_utc(), ours_name = "gpuglu-" + args.backend;
  const char* omp = std::getenv("OMP_NUM_THREADS");
  const gb::E2eRun run{"", args.warmup, args.repeat, args.residual_tol};
  std::vector<Row> rows;
  int failures = 0;
  auto report = [](const std::string& matrix, const std::string& who, const gb::E2eTimes& t) {
    if (!t.failure.empty())
      std::printf("%-26s %-14s failed: %s\n", matrix.c_str(), who.c_str(), t.failure.c_str());
    else
      std::printf("%-26s %-14s numeric %9.3f  solve %8.3f  numeric+solve %9.3f ms | first factor %9.3f ms | "
                  "residual %.1e\n",
                  matrix.c_str(), who.c_str(), t.numeric_ms, t.solve_ms, t.total_ms, t.first_factor_ms, t.residual);
    std::fflush(stdout);
  };

  for (const std::string& spec : args.matrices) {
    gb::BenchMatrix m;
    try {
      m = gb::load_bench_matrix(spec);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpuglu_petsc_e2e_bench: %s: %s\n", spec.c_str(), e.what());
      ++failures;
      continue;
    }
    gb::E2eRun r = run;
    r.solver = MATSOLVERGPUGLU;
    const gb::E2eTimes ours = gb::run_petsc_e2e(m.a, r);
    report(m.name, ours_name, ours);
    if (!ours.failure.empty()) {
      ++failures;  // no comparison without our time; the peers are not run either
      rows.push_back({m.name, "", m.a.nrows, m.a.nnz(), -1, -1});
      continue;
    }
    for (const std::string& peer : args.peers) {
      r.solver = peer;
      const gb::E2eTimes p = gb::run_petsc_e2e(m.a, r);
      report(m.name, "petsc_" + peer, p);
      const bool ok = p.failure.empty();
      gb::Record rec;
      rec.benchmark = "petsc_lu_refactor_solve";
      rec.matrix = m.name;
      rec.kind = m.kind;
      rec.n = m.a.nrows;
      rec.nnz = m.a.nnz();
      rec.nnz_factor = ours.nnz_factor > 0 ? ours.nnz_factor : 0;
      rec.ours = ours_name;
      rec.ours_ms = ours.total_ms;
      rec.peer = "petsc_" + peer;
      rec.peer_ms = ok ? p.total_ms : -1;
      rec.peer_note = p.failure;
      add_times(ours, "", rec);
      add_times(p, "peer_", rec);
      if (p.nnz_factor > 0) rec.extra["peer_nnz_factor"] = static_cast<double>(p.nnz_factor);
      gb::add_gpuglu_view_extras(ours.view, rec);
      rec.extra["warmup"] = static_cast<double>(args.warmup);
      rec.extra["repeat"] = static_cast<double>(args.repeat);
      rec.extra["omp_num_threads"] = omp ? std::string(omp) : std::string("unset");
      if (!args.petsc_options.empty()) rec.extra["petsc_options"] = args.petsc_options;
      if (!args.out.empty()) {
        try {
          gb::append_record(args.out, rec, date, device);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "gpuglu_petsc_e2e_bench: %s\n", e.what());
          ++failures;
        }
      }
      rows.push_back({m.name, rec.peer, rec.n, rec.nnz, rec.ours_ms, rec.peer_ms});
    }
  }

  std::printf("\n%s on %s; ms = median of %d x (MatLUFactorNumeric + MatSolve); ratio = ours / peer "
              "(below 1: gpuglu faster)\n",
              ours_name.c_str(), device.c_str(), args.repeat);
  std::printf("%-26s %9s %10s %10s %-15s %10s %7s\n", "matrix", "n", "nnz", "ours ms", "peer", "peer ms", "ratio");
  for (const Row& w : rows) {
    if (w.ours_ms < 0)
      std::printf("%-26s %9lld %10lld %10s\n", w.matrix.c_str(), static_cast<long long>(w.n),
                  static_cast<long long>(w.nnz), "failed");
    else if (w.peer_ms < 0)
      std::printf("%-26s %9lld %10lld %10.3f %-15s %10s %7s\n", w.matrix.c_str(), static_cast<long long>(w.n),
                  static_cast<long long>(w.nnz), w.ours_ms, w.peer.c_str(), "failed", "-");
    else
      std::printf("%-26s %9lld %10lld %10.3f %-15s %10.3f %7.2f\n", w.matrix.c_str(), static_cast<long long>(w.n),
                  static_cast<long long>(w.nnz), w.ours_ms, w.peer.c_str(), w.peer_ms, w.ours_ms / w.peer_ms);
  }
  PetscFinalize();
  return failures ? 1 : 0;
}
