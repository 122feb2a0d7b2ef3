// gpuglu_first_factor_bench: a fresh process's first factorization on the GPU against its
// refactorizations, with or without the kernel warm-up beside the analysis
// (Options::cuda.kernel_warm_up; api/engine_choice.hpp's DeviceWarmUp). One matrix, one
// process: what is measured is what a process pays once, so scripts/first_factor.py runs this
// program in turn per side and round and writes the records (median of the rounds).
//
//   gpuglu_first_factor_bench --matrix SPEC|FILE [--ldlt] [--no-kernel-warm-up] [--refactors 3]
//
// Prints one line `first_factor: {json}`: analyze_ms, first_factor_ms (wall) and
// first_factor_device_ms (CUDA events), refactor_ms (median of --refactors), first and second
// solve (ms), the relative residual and backward error of the last solve, n, nnz, nnz(L+U).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "bench_matrices.hpp"
#include "cli.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gb = gpuglu::bench;

namespace {

struct Args {
  std::vector<std::string> matrices;
  bool ldlt = false, warm_up = true;
  int refactors = 3;
};

[[noreturn]] void usage(const std::string& why) {
  if (!why.empty()) std::cerr << "gpuglu_first_factor_bench: " << why << "\n";
  std::cerr << "usage: gpuglu_first_factor_bench --matrix SPEC|FILE [--ldlt] [--no-kernel-warm-up] [--refactors N]\n";
  std::exit(why.empty() ? 0 : 2);
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

template <class Solver>
int run(Solver& s, const gb::BenchMatrix& m, const Args& args) {
  const auto& a = m.a;
  std::vector<double> xtrue(static_cast<size_t>(a.nrows)), b(xtrue.size()), x(xtrue.size());
  for (size_t i = 0; i < xtrue.size(); ++i) xtrue[i] = 1.0 + static_cast<double>(i % 7) / 7.0;
  gpuglu::spmv(a.view(), xtrue.data(), b.data());
  auto t0 = std::chrono::steady_clock::now();
  s.analyze(a.view());
  const double analyze_ms = since(t0);
  t0 = std::chrono::steady_clock::now();
  const gpuglu::FactorStats first = s.factor(a.view());
  const double first_ms = since(t0);
  if (first.status != gpuglu::Status::ok) {
    std::cerr << "gpuglu_first_factor_bench: " << m.name << ": the first factorization failed\n";
    return 1;
  }
  std::vector<double> refactor(static_cast<size_t>(args.refactors));
  for (double& r : refactor) {
    t0 = std::chrono::steady_clock::now();
    s.refactor(a.values.data());
    r = since(t0);
  }
  std::sort(refactor.begin(), refactor.end());
  double solve_ms[2];
  for (double& t : solve_ms) {
    t0 = std::chrono::steady_clock::now();
    s.solve(b.data(), x.data());
    t = since(t0);
  }
  std::printf(
      "first_factor: {\"matrix\": \"%s\", \"n\": %d, \"nnz\": %lld, \"nnz_factor\": %lld, \"factorization\": \"%s\", "
      "\"kernel_warm_up\": %s, \"backend\": \"%s\", \"analyze_ms\": %.3f, \"first_factor_ms\": %.3f, "
      "\"first_factor_device_ms\": %.3f, \"refactor_ms\": %.3f, \"first_solve_ms\": %.3f, \"second_solve_ms\": %.3f, "
      "\"residual\": %.3g, \"backward_error\": %.3g}\n",
      m.name.c_str(), a.nrows, static_cast<long long>(a.nnz()), static_cast<long long>(s.schedule().nnz_factor()),
      args.ldlt ? "ldlt" : "lu", args.warm_up ? "true" : "false", s.active_backend() == gpuglu::Backend::cuda ? "cuda" : "cpu",
      analyze_ms, first_ms, first.device_ms, refactor[refactor.size() / 2], solve_ms[0], solve_ms[1],
      gpuglu::relative_residual(a.view(), x.data(), b.data()), gpuglu::backward_error(a.view(), x.data(), b.data()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  gb::ArgReader in(argc, argv, usage);
  while (in.next()) {
    if (in.matrix_option(args.matrices)) continue;
    if (in.key() == "--ldlt") args.ldlt = true;
    else if (in.key() == "--no-kernel-warm-up") args.warm_up = false;
    else if (in.key() == "--refactors") args.refactors = in.integer(1, 100);
    else usage("unknown argument " + in.key());
  }
  if (args.matrices.size() != 1) usage("one --matrix: what a fresh process pays is measured once per process");
  try {
    const gb::BenchMatrix m = gb::load_bench_matrix(args.matrices[0]);
    gpuglu::Options o;
    o.backend = gpuglu::Backend::cuda;
    o.cuda.kernel_warm_up = args.warm_up;
    if (args.ldlt) {
      gpuglu::SparseLDLT s(o);
      return run(s, m, args);
    }
    gpuglu::SparseLU s(o);
    return run(s, m, args);
  } catch (const std::exception& e) {
    std::cerr << "gpuglu_first_factor_bench: " << e.what() << "\n";
    return 1;
  }
}
