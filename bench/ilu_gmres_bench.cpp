// gpuglu_ilu_gmres_bench: ILU(0)-preconditioned GMRES through PETSc (issue 4): gpuglu's ILU
// against PETSc's own ILU, bjacobi/ILU on all ranks, hypre's Euclid ILU(0) and cuSPARSE's
// csrilu02 + SpSV, on the same problem in the same run (variants: ilu_gmres_variants.hpp;
// what is timed: ilu_gmres_run.hpp).
//
//   gpuglu_ilu_gmres_bench [--matrix SPEC|FILE.mtx]... [--matrix-dir DIR] [--variants LIST]
//       [--backend cpu|cuda|auto] [--threads N] [--warmup K] [--repeat N] [--restart M]
//       [--rtol X] [--max-it N] [--residual-tol X] [--petsc-options "STRING"] [--out FILE]
//       [--device NAME] [--ours-from FILE] [--require-all] [--match-iterations VARIANT[:TOL]]
//
// --petsc-options go into each variant's options under its prefix (-ksp_view, -ksp_monitor,
// -mat_gpuglu_trsv slfr, ...); PETSc-wide options such as -log_view go in PETSC_OPTIONS.
//
// Run it plainly for the one-rank variants (default gpuglu,petsc_ilu,hypre_ilu and, in a
// CUDA build, cusparse_ilu0) and under mpiexec -n N for petsc_bjacobi_ilu_N and
// hypre_ilu_N (the default there).
//
// Records (--out, appended by rank 0; scripts/perf_table.py reads them): benchmark
// "ilu_gmres", one per peer variant and matrix, ours "gpuglu-<backend>", ours_ms/peer_ms =
// median of (setup + solve) per round; extras ours_/peer_ iterations, setup_ms, solve_ms,
// first_setup_ms, rel_residual, options; ranks (the peer's), ours_ranks, restart, rtol,
// max_it, warmup, repeat, cpu. A failed peer has peer_ms null and peer_note saying why.
// Without gpuglu in this run (the multi-rank run) the ours_* fields, nnz_factor, the gpuglu
// view fields and the device come from the newest record of the same matrix and ours in
// --ours-from FILE (the one-rank run of the same session), and ours_source says so: the
// multi-rank peers then sit in the same table row as the one-rank ones. Without either,
// nothing is recorded. A failed gpuglu writes no records (there is no ratio to give).
//
// Exit status 1 when a matrix cannot be loaded, gpuglu fails, records cannot be written or
// --ours-from has no match; with --require-all also when any variant fails, and with
// --match-iterations V[:TOL] (default TOL 1) unless gpuglu's and V's iteration counts
// differ by at most TOL (the CTest smoke test's check that gpuglu's ILU(0) is PETSc's).
#include <petscgpuglu.h>
#include <petscsys.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_matrices.hpp"
#include "cli.hpp"
#include "factor_view.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/options.hpp"
#include "ilu_gmres_problem.hpp"
#include "ilu_gmres_run.hpp"
#include "ilu_gmres_variants.hpp"
#include "jsonl_read.hpp"
#include "results_jsonl.hpp"

namespace gb = gpuglu::bench;

namespace {

#ifdef GPUGLU_BENCH_HAVE_CUDA
constexpr bool kCudaBuild = true;
#else
constexpr bool kCudaBuild = false;
#endif

struct Args {
  std::vector<std::string> matrices, variants;
  std::string backend = "auto", out, device, petsc_options, ours_from, match_variant;
  int threads = 0, match_tol = 1;
  bool require_all = false;
  gb::GmresSettings gmres;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "gpuglu_ilu_gmres_bench: %s\nusage: gpuglu_ilu_gmres_bench [--matrix SPEC|FILE.mtx]... [--matrix-dir DIR] "
               "[--variants gpuglu,petsc_ilu,petsc_bjacobi_ilu,hypre_ilu,cusparse_ilu0] [--backend cpu|cuda|auto] "
               "[--threads N] [--warmup K] [--repeat N] [--restart M] [--rtol X] [--max-it N] [--residual-tol X] "
               "[--petsc-options \"STRING\"] [--out FILE] [--device NAME] [--ours-from FILE] [--require-all] "
               "[--match-iterations VARIANT[:TOL]]\n",
               why.c_str());
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  gb::ArgReader r(argc, argv, usage);
  while (r.next()) {
    const std::string k = r.key();
    if (r.matrix_option(a.matrices)) continue;
    if (k == "--variants") r.append_list(a.variants);
    else if (k == "--backend") {
      a.backend = r.value();
      if (!gpuglu::parse_backend(a.backend)) usage("unknown backend " + a.backend);
    } else if (k == "--threads") a.threads = r.integer(1);
    else if (k == "--warmup") a.gmres.warmup = r.integer(0);
    else if (k == "--repeat") a.gmres.repeat = r.integer(1);
    else if (k == "--restart") a.gmres.restart = r.integer(1);
    else if (k == "--max-it") a.gmres.max_it = r.integer(1);
    else if (k == "--rtol") a.gmres.rtol = r.positive();
    else if (k == "--residual-tol") a.gmres.max_rel_residual = r.positive();
    else if (k == "--petsc-options") a.gmres.extra_options = a.petsc_options = r.value();
    else if (k == "--out") a.out = r.value();
    else if (k == "--device") a.device = r.value();
    else if (k == "--ours-from") a.ours_from = r.value();
    else if (k == "--require-all") a.require_all = true;
    else if (k == "--match-iterations") {
      a.match_variant = r.value();
      if (const auto colon = a.match_variant.find(':'); colon != std::string::npos) {
        char* end = nullptr;
        const std::string t = a.match_variant.substr(colon + 1);
        a.match_tol = static_cast<int>(std::strtol(t.c_str(), &end, 10));
        if (t.empty() || *end || a.match_tol < 0) usage("--match-iterations VARIANT[:TOL] needs TOL >= 0");
        a.match_variant.resize(colon);
      }
    } else usage("unknown argument " + k);
  }
  if (a.matrices.empty()) usage("no matrix given");
  return a;
}

using Extras = std::map<std::string, std::variant<double, std::string>>;

// gpuglu's side of a record, measured in this run or read from --ours-from.
struct Ours {
  bool valid = false;
  double total_ms = 0;
  int iterations = -1;
  int64_t nnz_factor = 0;
  std::string device;  // empty: this run's
  Extras extra;
};

Ours ours_from_run(const gb::VariantResult& r) {
  Ours o;
  o.valid = r.failure.empty();
  o.total_ms = r.total_ms;
  o.iterations = r.iterations;
  o.nnz_factor = r.nnz_factor > 0 ? r.nnz_factor : 0;
  o.extra["ours_iterations"] = static_cast<double>(r.iterations);
  o.extra["ours_setup_ms"] = r.setup_ms;
  o.extra["ours_solve_ms"] = r.solve_ms;
  o.extra["ours_first_setup_ms"] = r.first_setup_ms;
  o.extra["ours_rel_residual"] = r.rel_residual;
  o.extra["ours_ranks"] = 1.0;
  o.extra["ours_options"] = r.options;
  o.extra["ours_source"] = std::string("same run");
  gb::Record view;
  gb::add_gpuglu_view_extras(r.view, view);
  for (auto& [k, v] : view.extra) o.extra[k] = v;
  return o;
}

// The newest record of benchmark ilu_gmres for (matrix, ours) in path.
Ours ours_from_file(const std::string& path, const std::string& matrix, const std::string& ours_name) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("--ours-from: cannot read " + path);
  gb::JsonObject found;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    gb::JsonObject r;
    try {
      r = gb::parse_flat_json_object(line);
    } catch (const std::exception& e) {
      throw std::runtime_error(path + ":" + std::to_string(number) + ": " + e.what());
    }
    auto text = [&](const char* key) {
      const auto it = r.find(key);
      return it != r.end() && std::holds_alternative<std::string>(it->second) ? std::get<std::string>(it->second)
                                                                             : std::string();
    };
    const auto ms = r.find("ours_ms");
    if (text("benchmark") == "ilu_gmres" && text("matrix") == matrix && text("ours") == ours_name &&
        ms != r.end() && std::holds_alternative<double>(ms->second))
      found = std::move(r);
  }
  if (found.empty())
    throw std::runtime_error("--ours-from: no ilu_gmres record of " + ours_name + " on " + matrix + " in " + path);
  Ours o;
  o.valid = true;
  o.total_ms = std::get<double>(found["ours_ms"]);
  for (const auto& [k, v] : found) {
    const bool ours_field = k.rfind("ours_", 0) == 0 && k != "ours_ms";
    const bool view_field = k == "levels" || k == "analyses" || k.rfind("gpuglu_", 0) == 0;
    if (!ours_field && !view_field) continue;
    if (const double* d = std::get_if<double>(&v)) o.extra[k] = *d;
    else if (const std::string* s = std::get_if<std::string>(&v)) o.extra[k] = *s;
  }
  if (const double* it = std::get_if<double>(&found["ours_iterations"])) o.iterations = static_cast<int>(*it);
  if (const double* nf = std::get_if<double>(&found["nnz_factor"])) o.nnz_factor = static_cast<int64_t>(*nf);
  if (const std::string* d = std::get_if<std::string>(&found["device"])) o.device = *d;
  const std::string* date = std::get_if<std::string>(&found["date"]);
  o.extra["ours_source"] = "--ours-from " + path + (date ? " (" + *date + ")" : std::string());
  return o;
}

struct Row {
  std::string matrix, variant, failure;
  int iterations;
  double setup_ms, solve_ms, total_ms, rel_residual;
};

void print_result(const std::string& matrix, const std::string& variant, const gb::VariantResult& r) {
  if (!r.failure.empty())
    std::printf("%-24s %-22s failed: %s\n", matrix.c_str(), variant.c_str(), r.failure.c_str());
  else
    std::printf("%-24s %-22s setup %9.3f  solve %10.3f  total %10.3f ms | %5d iterations | rel residual %.2e | "
                "first setup %9.3f ms\n",
                matrix.c_str(), variant.c_str(), r.setup_ms, r.solve_ms, r.total_ms, r.iterations, r.rel_residual,
                r.first_setup_ms);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  if (PetscInitializeNoArguments()) return 1;
  PetscMPIInt rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const bool root = rank == 0;
  // Linked, registered once, as gpuglu_petsc_e2e_bench does (no -dll_append needed).
  if (PetscGPUGLURegister()) {
    std::fprintf(stderr, "gpuglu_ilu_gmres_bench: PetscGPUGLURegister failed\n");
    PetscFinalize();
    return 1;
  }
  std::vector<gb::Variant> variants;
  try {
    for (const std::string& name : args.variants.empty() ? gb::default_variant_names(size, kCudaBuild) : args.variants)
      variants.push_back(gb::make_variant(name, size, kCudaBuild, args.backend, args.threads));
  } catch (const std::invalid_argument& e) {
    if (root) std::fprintf(stderr, "gpuglu_ilu_gmres_bench: %s\n", e.what());
    PetscFinalize();
    return 2;
  }
  bool have_gpuglu = false, have_match = args.match_variant.empty();
  for (const gb::Variant& v : variants) {
    have_gpuglu = have_gpuglu || v.name == "gpuglu";
    have_match = have_match || v.name == args.match_variant;
  }
  if (!have_match || (!args.match_variant.empty() && !have_gpuglu)) {
    if (root) std::fprintf(stderr, "gpuglu_ilu_gmres_bench: --match-iterations needs gpuglu and %s among the variants\n",
                           args.match_variant.c_str());
    PetscFinalize();
    return 2;
  }

  const std::string ours_name = "gpuglu-" + args.backend, date = gb::today_utc(), cpu = gb::cpu_model();
  std::string run_device = args.device;
  if (run_device.empty()) {
    const gpuglu::DeviceInfo d = gpuglu::query_device(-1, gpuglu::local_rank_from_environment());
    run_device = have_gpuglu && args.backend != "cpu" && d.usable ? d.name : cpu;
  }
  const char* omp = std::getenv("OMP_NUM_THREADS");
  if (root)
    std::printf("gpuglu_ilu_gmres_bench: %d rank%s, GMRES(%d) right-preconditioned, rtol %g on the true residual, "
                "%d warm-up + %d timed rounds, device %s\n",
                size, size > 1 ? "s" : "", args.gmres.restart, args.gmres.rtol, args.gmres.warmup,
                args.gmres.repeat, run_device.c_str());
  std::vector<Row> rows;
  std::map<std::string, double> ours_ms_of;  // gpuglu's median total per matrix, this run's or --ours-from's
  int failures = 0;

  for (const std::string& spec : args.matrices) {
    gb::IluProblem p;
    try {
      const gb::BenchMatrix m = gb::load_bench_matrix(spec);  // the whole CSR, freed at the end of this block
      if (p.create(m)) throw std::runtime_error("setting up the PETSc objects failed (PETSc's message above)");
    } catch (const std::exception& e) {
      if (root) std::fprintf(stderr, "gpuglu_ilu_gmres_bench: %s: %s\n", spec.c_str(), e.what());
      ++failures;
      continue;
    }
    if (root) {
      std::printf("\n%s: n %lld, nnz %lld\n", p.name.c_str(), static_cast<long long>(p.n),
                  static_cast<long long>(p.nnz));
      std::fflush(stdout);
    }
    std::vector<std::pair<gb::Variant, gb::VariantResult>> results;
    for (const gb::Variant& v : variants) {
      gb::VariantResult r = gb::run_variant(p, v, args.gmres);
      const std::string shown = v.name == "gpuglu" ? ours_name : v.name;
      if (root) print_result(p.name, shown, r);
      rows.push_back({p.name, shown, r.failure, r.iterations, r.setup_ms, r.solve_ms, r.total_ms, r.rel_residual});
      if (!r.failure.empty() && (v.name == "gpuglu" || args.require_all)) ++failures;
      results.emplace_back(v, std::move(r));
    }
    if (!root) continue;

    Ours ours;
    for (const auto& [v, r] : results)
      if (v.name == "gpuglu") ours = ours_from_run(r);
    if (!have_gpuglu && !args.ours_from.empty()) {
      try {
        ours = ours_from_file(args.ours_from, p.name, ours_name);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuglu_ilu_gmres_bench: %s\n", e.what());
        ++failures;
      }
    }
    if (ours.valid) ours_ms_of[p.name] = ours.total_ms;
    if (!args.match_variant.empty()) {
      for (const auto& [v, r] : results) {
        if (v.name != args.match_variant) continue;
        const bool ok = ours.valid && r.failure.empty() && std::abs(ours.iterations - r.iterations) <= args.match_tol;
        std::printf("%-24s iterations: gpuglu %d, %s %d (allowed difference %d): %s\n", p.name.c_str(),
                    ours.iterations, v.name.c_str(), r.iterations, args.match_tol, ok ? "match" : "MISMATCH");
        if (!ok) ++failures;
      }
    }
    if (args.out.empty()) continue;
    if (!ours.valid) {
      std::printf("%-24s no records: no gpuglu result to compare with%s\n", p.name.c_str(),
                  have_gpuglu ? "" : " (run gpuglu in this run or give --ours-from)");
      continue;
    }
    for (const auto& [v, r] : results) {
      if (v.name == "gpuglu") continue;
      gb::Record rec;
      rec.benchmark = "ilu_gmres";
      rec.matrix = p.name;
      rec.kind = p.kind;
      rec.n = p.n;
      rec.nnz = p.nnz;
      rec.nnz_factor = ours.nnz_factor;
      rec.ours = ours_name;
      rec.ours_ms = ours.total_ms;
      rec.peer = v.name;
      rec.peer_ms = r.failure.empty() ? r.total_ms : -1;
      rec.peer_note = r.failure;
      rec.extra = ours.extra;
      if (r.iterations >= 0) rec.extra["peer_iterations"] = static_cast<double>(r.iterations);
      if (r.failure.empty()) {
        rec.extra["peer_setup_ms"] = r.setup_ms;
        rec.extra["peer_solve_ms"] = r.solve_ms;
        rec.extra["peer_first_setup_ms"] = r.first_setup_ms;
      }
      if (!std::isnan(r.rel_residual)) rec.extra["peer_rel_residual"] = r.rel_residual;
      if (r.nnz_factor > 0) rec.extra["peer_nnz_factor"] = static_cast<double>(r.nnz_factor);
      rec.extra["peer_options"] = r.options;
      rec.extra["ranks"] = static_cast<double>(size);
      rec.extra["restart"] = static_cast<double>(args.gmres.restart);
      rec.extra["rtol"] = args.gmres.rtol;
      rec.extra["max_it"] = static_cast<double>(args.gmres.max_it);
      rec.extra["warmup"] = static_cast<double>(args.gmres.warmup);
      rec.extra["repeat"] = static_cast<double>(args.gmres.repeat);
      rec.extra["cpu"] = cpu;
      rec.extra["omp_num_threads"] = omp ? std::string(omp) : std::string("unset");
      if (!args.petsc_options.empty()) rec.extra["petsc_options"] = args.petsc_options;
      try {
        gb::append_record(args.out, rec, date, ours.device.empty() ? run_device : ours.device);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuglu_ilu_gmres_bench: %s\n", e.what());
        ++failures;
      }
    }
  }

  if (root) {
    std::printf("\nms = median of %d rounds of (setup + solve); setup = KSPSetUp after new values (numeric "
                "factorization), solve = KSPSolve to rtol %g; ratio = %s / variant (below 1: gpuglu faster)\n",
                args.gmres.repeat, args.gmres.rtol, ours_name.c_str());
    std::printf("%-24s %-22s %6s %10s %11s %11s %9s %7s\n", "matrix", "variant", "its", "setup ms", "solve ms",
                "total ms", "rel res", "ratio");
    for (const Row& w : rows) {
      if (!w.failure.empty()) {
        std::printf("%-24s %-22s failed\n", w.matrix.c_str(), w.variant.c_str());
        continue;
      }
      const auto ours = ours_ms_of.find(w.matrix);
      const double ours_ms = ours == ours_ms_of.end() ? -1 : ours->second;
      char ratio[16] = "-";
      if (ours_ms > 0 && w.total_ms > 0) std::snprintf(ratio, sizeof ratio, "%.2f", ours_ms / w.total_ms);
      std::printf("%-24s %-22s %6d %10.3f %11.3f %11.3f %9.2e %7s\n", w.matrix.c_str(), w.variant.c_str(),
                  w.iterations, w.setup_ms, w.solve_ms, w.total_ms, w.rel_residual, ratio);
    }
  }
  // Every rank returns the same status: rank 0 decides.
  MPI_Bcast(&failures, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  PetscFinalize();
  return failures ? 1 : 0;
}
