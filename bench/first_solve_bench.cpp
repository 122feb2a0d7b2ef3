// gpuglu_first_solve_bench: issue 27's first solve (first_solve.hpp) - one linear system
// through PETSc from the assembled matrix to its solution, per matrix and solver, on the
// ranks it is started on: gpuglu on one rank, MUMPS under mpiexec -n N with the matrix
// distributed as MPIAIJ (rank 0 reads a file and sends each rank its rows; a generator spec
// is built on every rank), cuDSS (builds with cuDSS) from host data on one rank.
//
//   gpuglu_first_solve_bench --matrix SPEC|FILE.mtx[.xz]... [--matrix-dir DIR]
//       [--solver gpuglu,mumps,klu,petsc,superlu_dist,cudss,...] [--backend cpu|cuda|auto]
//       [--threads N] [--petsc-options "STRING"] [--max-backward-error X] [--out FILE]
//       [--device NAME]
//
// --solver takes MatSolverTypes (default gpuglu) and cudss. Each solver's first solve is the
// first in its process only for the first matrix and solver: scripts/first_solve.py starts
// one process per matrix and solver, so that every one is.
//
// Output: per matrix and solver a line with the times, fill, flops and accuracy, and with
// --out a JSON line (appended by rank 0; benchmark "first_solve_run", ours = the solver,
// ours_ms = setup + solve, no peer): scripts/first_solve.py pairs gpuglu's line with each
// peer's into the "first_solve" records. A solve whose backward error is not below
// --max-backward-error (1e-6) counts as failed, its numbers kept. Exit status 1 when a matrix
// cannot be loaded, a solve fails or a line cannot be written.
#include <petscgpuglu.h>
#include <petscsys.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_matrices.hpp"
#include "cli.hpp"
#include "factor_view.hpp"
#include "first_solve.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/options.hpp"
#include "petsc_error_capture.hpp"
#include "results_jsonl.hpp"
#include "row_block.hpp"
#include "timing.hpp"
#ifdef GPUGLU_BENCH_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace gb = gpuglu::bench;

namespace {

struct Args {
  std::vector<std::string> matrices, solvers;
  std::string backend = "auto", out, device, petsc_options;
  int threads = 0;
  double max_backward_error = 1e-6;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "gpuglu_first_solve_bench: %s\nusage: gpuglu_first_solve_bench --matrix SPEC|FILE.mtx[.xz]... "
               "[--matrix-dir DIR] [--solver gpuglu,mumps,klu,petsc,cudss,...] [--backend cpu|cuda|auto] "
               "[--threads N] [--petsc-options \"STRING\"] [--max-backward-error X] [--out FILE] [--device NAME]\n",
               why.c_str());
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  gb::ArgReader r(argc, argv, usage);
  while (r.next()) {
    const std::string k = r.key();
    if (r.matrix_option(a.matrices)) continue;
    if (k == "--solver") r.append_list(a.solvers);
    else if (k == "--threads") a.threads = r.integer(1);
    else if (k == "--out") a.out = r.value();
    else if (k == "--device") a.device = r.value();
    else if (k == "--petsc-options") a.petsc_options = r.value();
    else if (k == "--max-backward-error") a.max_backward_error = r.positive();
    else if (k == "--backend") {
      a.backend = r.value();
      if (!gpuglu::parse_backend(a.backend)) usage("unknown backend " + a.backend);
    } else usage("unknown argument " + k);
  }
  if (a.matrices.empty()) usage("no matrix given");
  if (a.solvers.empty()) a.solvers = {"gpuglu"};
  return a;
}

// The CUDA context is made before a GPU solver's clock starts: it is the process's cost,
// paid once by whatever touches the GPU first, not the solver's. -1: not made here.
double make_cuda_context(const std::string& solver, const Args& args, int rank) {
#ifdef GPUGLU_BENCH_HAVE_CUDA
  const bool gpu = solver == "cudss" || (solver == "gpuglu" && args.backend != "cpu");
  if (!gpu || rank != 0 || !gpuglu::query_device().usable) return -1;
  const double t0 = gb::now_ms();
  const cudaError_t e = cudaFree(nullptr);
  if (e != cudaSuccess) {
    std::fprintf(stderr, "gpuglu_first_solve_bench: cudaFree(0) (making the CUDA context): %s\n",
                 cudaGetErrorString(e));
    return -1;
  }
  return gb::now_ms() - t0;
#else
  (void)solver, (void)args, (void)rank;
  return -1;
#endif
}

gb::FirstSolveResult run_one(const gb::RowBlock& m, const std::string& solver) {
  if (solver != "cudss") return gb::run_first_solve(m, solver, PETSC_COMM_WORLD);
  gb::FirstSolveResult r;
  r.solver = solver;
#ifdef GPUGLU_BENCH_HAVE_CUDSS
  // A cuDSS build on a machine without a usable GPU skips the peer, as a CPU build does.
  const gpuglu::DeviceInfo device = gpuglu::query_device();
  if (device.usable) return gb::run_first_solve_cudss(m, PETSC_COMM_WORLD);
  r.failure = "skipped: no usable CUDA device (" + device.reason + ")";
#else
  r.failure = "skipped: built without cuDSS (GPUGLU_CUDSS_ROOT)";
#endif
  return r;
}

std::string label(const std::string& solver, const Args& args) {
  return solver == "gpuglu" ? "gpuglu-" + args.backend : solver;
}

gb::Record record_of(const gb::RowBlock& m, const gb::FirstSolveResult& r, const Args& args) {
  gb::Record rec;
  rec.benchmark = "first_solve_run";
  rec.matrix = m.name;
  rec.kind = m.kind;
  rec.n = m.n;
  rec.nnz = m.nnz;
  rec.nnz_factor = r.nnz_factor > 0 ? r.nnz_factor : 0;
  rec.ours = label(r.solver, args);
  rec.ours_ms = r.failure.empty() ? r.total_ms() : std::nan("");
  rec.extra = r.extra;
  rec.extra["solver"] = r.solver;
  rec.extra["ranks"] = static_cast<double>(r.ranks);
  auto put = [&](const char* key, double v) {
    if (v >= 0 || v != v) rec.extra[key] = v;
  };
  put("setup_ms", r.setup_ms);
  put("solve_ms", r.solve_ms);
  put("ordering_ms", r.ordering_ms);
  put("symbolic_ms", r.symbolic_ms);
  put("numeric_ms", r.numeric_ms);
  put("mat_solve_ms", r.mat_solve_ms);
  put("factor_flops", r.factor_flops);
  put("residual", r.residual);
  put("backward_error", r.backward_error);
  put("error_inf", r.error_inf);
  if (!r.flops_source.empty()) rec.extra["flops_source"] = r.flops_source;
  if (!r.ordering.empty()) rec.extra["ordering"] = r.ordering;
  if (!r.failure.empty()) rec.extra["failure"] = r.failure;
  if (!r.view.empty()) gb::add_gpuglu_view_extras(r.view, rec);
  const char* omp = std::getenv("OMP_NUM_THREADS");
  rec.extra["omp_num_threads"] = omp ? std::string(omp) : std::string("unset");
  if (!args.petsc_options.empty()) rec.extra["petsc_options"] = args.petsc_options;
  return rec;
}

void print(const gb::RowBlock& m, const std::string& who, const gb::FirstSolveResult& r) {
  if (r.setup_ms < 0) {
    std::printf("%-24s %-12s %3d rank(s) failed: %s\n", m.name.c_str(), who.c_str(), r.ranks, r.failure.c_str());
  } else if (r.solve_ms < 0) {
    std::printf("%-24s %-12s %3d rank(s) failed after a setup of %.3f ms: %s\n", m.name.c_str(), who.c_str(), r.ranks,
                r.setup_ms, r.failure.c_str());
  } else {
    std::printf("%-24s %-12s %3d rank(s) total %10.3f ms = setup %10.3f (symbolic %9.3f numeric %9.3f) + solve %8.3f"
                " | nnz(L+U) %11lld flops %9.3g | residual %.1e backward error %.1e%s%s\n",
                m.name.c_str(), who.c_str(), r.ranks, r.total_ms(), r.setup_ms, r.symbolic_ms, r.numeric_ms,
                r.solve_ms, static_cast<long long>(r.nnz_factor), r.factor_flops, r.residual, r.backward_error,
                r.failure.empty() ? "" : " FAILED: ", r.failure.c_str());
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  if (PetscInitializeNoArguments()) return 1;
  // The log events give the setup's split (symbolic, numeric) and the flops solvers log.
  if (PetscLogDefaultBegin() || PetscGPUGLURegister() ||
      PetscOptionsSetValue(nullptr, "-mat_gpuglu_backend", args.backend.c_str()) ||
      (args.threads > 0 &&
       PetscOptionsSetValue(nullptr, "-mat_gpuglu_threads", std::to_string(args.threads).c_str())) ||
      (!args.petsc_options.empty() && PetscOptionsInsertString(nullptr, args.petsc_options.c_str()))) {
    std::fprintf(stderr, "gpuglu_first_solve_bench: PETSc logging, PetscGPUGLURegister or the options failed\n");
    PetscFinalize();
    return 1;
  }
  int rank = 0;
  if (MPI_Comm_rank(PETSC_COMM_WORLD, &rank) != MPI_SUCCESS) {
    PetscFinalize();
    return 1;
  }
  std::string device = args.device;
  if (device.empty()) {
    const gpuglu::DeviceInfo d = gpuglu::query_device();
    device = args.backend != "cpu" && d.usable ? d.name : gb::cpu_model();
  }
  const std::string date = gb::today_utc();
  int failures = 0;
  for (const std::string& spec : args.matrices) {
    gb::RowBlock m;
    try {
      m = gb::load_row_block(spec, PETSC_COMM_WORLD);
    } catch (const std::exception& e) {
      if (rank == 0) std::fprintf(stderr, "gpuglu_first_solve_bench: %s: %s\n", spec.c_str(), e.what());
      ++failures;
      continue;
    }
    for (const std::string& solver : args.solvers) {
      const double context_ms = make_cuda_context(solver, args, rank);
      gb::FirstSolveResult r = run_one(m, solver);
      if (r.failure.empty() && !(r.backward_error < args.max_backward_error))
        r.failure = "backward error " + gb::sci(r.backward_error) + " not below " + gb::sci(args.max_backward_error);
      if (context_ms >= 0) r.extra["cuda_context_ms"] = context_ms;
      if (rank != 0) continue;
      print(m, label(solver, args), r);
      if (!r.failure.empty() && r.failure.rfind("skipped", 0) != 0) ++failures;
      if (args.out.empty()) continue;
      try {
        gb::append_record(args.out, record_of(m, r, args), date, device);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuglu_first_solve_bench: %s\n", e.what());
        ++failures;
      }
    }
  }
  // Rank 0 alone knows the count; every rank exits with it.
  if (MPI_Bcast(&failures, 1, MPI_INT, 0, PETSC_COMM_WORLD) != MPI_SUCCESS) failures = 1;
  PetscFinalize();
  return failures ? 1 : 0;
}
