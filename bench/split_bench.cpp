// gpuglu_split_bench (issue 30): one LU factorization over two GPUs (SplitLU: the top
// separator's halves on devices 0 and 1, the dense root on device 0) against the same
// solver on one GPU (SparseLU) and cuDSS on one GPU and in its multi-GPU mode, same run, same
// machine, same values; with --ldlt the LDL^T split (SplitFactorization::ldlt) against
// SparseLDLT on one GPU and cuDSS's symmetric factorization (--spd: its Cholesky) on one GPU
// and in its multi-GPU mode, on symmetric matrices (the second value set kept symmetric). Per matrix: the analysis, the first factorization, the median
// refactorization and solve after a warm-up, the relative residual and backward error of
// every solve; records two_gpu (peer one_gpu), two_gpu (peer cudss_mg) and cudss_mg (peer
// cudss) to --out. Host arrays on every side but cuDSS's (its data on device 0; its uploads
// are outside the timed phases, as in gpuglu_lu_bench).
//
//   gpuglu_split_bench --matrix SPEC|FILE [--matrix ...] [--warmup 1] [--repeat 5]
//                      [--out docs/performance/results.jsonl] [--no-cudss] [--refine-steps N]
//                      [--ldlt [--spd]] [--set FIELD=VALUE ...]
// --set: a field of both of ours' Options (option_text.hpp), e.g.
// cuda.supernodal_self_scheduled_solve=false; the records carry the settings as "settings".
// --refine-steps: Options::refine_steps of both of ours (default -1: up to 3 while the
// backward error exceeds the tolerance; 0: one solve, no refinement).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench_matrices.hpp"
#include "cli.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/split_lu.hpp"
#include "option_text.hpp"
#include "results_jsonl.hpp"
#include "timing.hpp"
#ifdef GPUGLU_BENCH_HAVE_CUDSS
#include "peer_cudss.hpp"
#endif

namespace gb = gpuglu::bench;

namespace {

struct Args {
  std::vector<std::string> matrices;
  int warmup = 1, repeat = 5;
  std::string out;
  bool cudss = true;
  int refine_steps = -1;
  bool ldlt = false, spd = false;
  std::vector<std::string> settings;  // --set FIELD=VALUE, in order
};

[[noreturn]] void usage(const std::string& why) {
  if (!why.empty()) std::cerr << "gpuglu_split_bench: " << why << "\n";
  std::cerr << "usage: gpuglu_split_bench --matrix SPEC|FILE [--matrix ...] [--warmup N] [--repeat N] [--out FILE]"
                " [--no-cudss] [--refine-steps N] [--ldlt [--spd]] [--set FIELD=VALUE]\n";
  std::exit(why.empty() ? 0 : 2);
}

// A's lower triangle with the diagonal (cuDSS's CUDSS_MVIEW_LOWER input).
gpuglu::CsrMatrix<int32_t, double> lower_triangle(const gpuglu::CsrMatrix<int32_t, double>& a) {
  gpuglu::CsrMatrix<int32_t, double> l;
  l.nrows = l.ncols = a.nrows;
  l.rowptr.assign(static_cast<size_t>(a.nrows) + 1, 0);
  for (int32_t i = 0; i < a.nrows; ++i) {
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] <= i) {
        l.colind.push_back(a.colind[p]);
        l.values.push_back(a.values[p]);
      }
    l.rowptr[i + 1] = static_cast<int32_t>(l.colind.size());
  }
  return l;
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Side {
  std::string name;
  double analyze_ms = 0, factor_ms = 0, refactor_ms = -1, solve_ms = -1, residual = -1, backward = -1;
  std::string note;
};

// The same timing for both of ours: analyze, factor, then refactorizations alternating the two
// value sets (ending on A's) and solves, medians after warm-ups.
template <class Solver>
Side time_solver(const std::string& name, Solver& s, const gpuglu::CsrMatrix<int32_t, double>& a,
                 const gpuglu::CsrMatrix<int32_t, double>& a2, const std::vector<double>& b, const Args& args) {
  Side r;
  r.name = name;
  double t0 = now_ms();
  s.analyze(a.view());
  r.analyze_ms = now_ms() - t0;
  t0 = now_ms();
  if (s.factor(a.view()).status != gpuglu::Status::ok) throw std::runtime_error(name + ": the factorization failed");
  r.factor_ms = now_ms() - t0;
  int set = 0;
  r.refactor_ms = gb::median_ms(args.warmup, args.repeat, [&] {
    set ^= 1;
    if (s.factor((set ? a2 : a).view()).status != gpuglu::Status::ok)
      throw std::runtime_error(name + ": a refactorization failed");
  });
  if (set) s.factor(a.view());
  std::vector<double> x(b.size());
  r.solve_ms = gb::median_ms(args.warmup, args.repeat, [&] { s.solve(b.data(), x.data()); });
  r.residual = gpuglu::relative_residual(a.view(), x.data(), b.data());
  r.backward = gpuglu::backward_error(a.view(), x.data(), b.data());
  return r;
}

void record(const Args& args, const gb::BenchMatrix& m, const std::string& bench, const Side& ours,
            const Side& peer, double ours_ms, double peer_ms, gb::Extras extra, const std::string& device) {
  if (args.out.empty()) return;
  gb::Record r;
  r.benchmark = bench;
  r.matrix = m.name;
  r.kind = m.kind;
  r.n = m.a.nrows;
  r.nnz = m.a.nnz();
  r.ours = ours.name;
  r.ours_ms = ours_ms;
  r.peer = peer.name;
  r.peer_ms = peer_ms;
  r.peer_note = peer.note;
  extra["ours_residual"] = ours.residual;
  extra["ours_backward_error"] = ours.backward;
  extra["peer_residual"] = peer.residual;
  extra["peer_backward_error"] = peer.backward;
  extra["data"] = std::string("host arrays (cuDSS: device 0's)");
  if (!args.settings.empty()) {
    std::string joined;
    for (const std::string& setting : args.settings) joined += (joined.empty() ? "" : " ") + setting;
    extra["settings"] = joined;
  }
  r.extra = std::move(extra);
  gb::append_record(args.out, r, gb::today_utc(), device);
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  gb::ArgReader in(argc, argv, usage);
  while (in.next()) {
    if (in.matrix_option(args.matrices)) continue;
    if (in.key() == "--warmup") args.warmup = in.integer(0, 100);
    else if (in.key() == "--repeat") args.repeat = in.integer(1, 1000);
    else if (in.key() == "--out") args.out = in.value();
    else if (in.key() == "--no-cudss") args.cudss = false;
    else if (in.key() == "--refine-steps") args.refine_steps = in.integer(-1, 10);
    else if (in.key() == "--ldlt") args.ldlt = true;
    else if (in.key() == "--spd") args.spd = true;
    else if (in.key() == "--set") args.settings.push_back(in.value());
    else usage("unknown argument " + in.key());
  }
  if (args.matrices.empty()) usage("no --matrix");
  try {
    gpuglu::Options check;
    for (const std::string& setting : args.settings) gb::set_option_text(check, setting);
  } catch (const std::exception& e) {
    usage(e.what());
  }
  const gpuglu::DeviceInfo d0 = gpuglu::query_device(0);
  if (!d0.usable || d0.device_count < 2) {
    std::cerr << "gpuglu_split_bench: needs two GPUs (" << (d0.usable ? "one visible" : d0.reason) << ")\n";
    return 77;
  }
  const std::string device = std::to_string(d0.device_count) + "x " + d0.name;
  int failures = 0;
  for (const std::string& spec : args.matrices) {
    try {
      const gb::BenchMatrix m = gb::load_bench_matrix(spec);
      // The second value set: a few per cent off A's (by position; symmetric for --ldlt, from the
      // entry's row and column).
      gpuglu::CsrMatrix<int32_t, double> a2 = m.a;
      for (int32_t i = 0; i < a2.nrows; ++i)
        for (int32_t p = a2.rowptr[i]; p < a2.rowptr[i + 1]; ++p) {
          const int64_t key = args.ldlt ? static_cast<int64_t>(i) + a2.colind[p] : p;
          a2.values[p] *= 1.0 + 0.01 * static_cast<double>(key % 5) / 5.0;
        }
      std::vector<double> xtrue(static_cast<size_t>(m.a.nrows)), b(xtrue.size());
      for (size_t i = 0; i < xtrue.size(); ++i) xtrue[i] = 1.0 + static_cast<double>(i % 7) / 7.0;
      gpuglu::spmv(m.a.view(), xtrue.data(), b.data());
      gpuglu::Options o;
      o.backend = gpuglu::Backend::cuda;
      o.refine_steps = args.refine_steps;
      for (const std::string& setting : args.settings) gb::set_option_text(o, setting);
      gpuglu::Options o0 = o;
      o0.device = 0;
      gpuglu::SparseLU one_lu(o0);
      gpuglu::SparseLDLT one_ldlt(o0);
      gpuglu::BasicSparseSolver<double>& one_solver = args.ldlt ? static_cast<gpuglu::BasicSparseSolver<double>&>(one_ldlt)
                                                                : one_lu;
      const Side one = args.ldlt ? time_solver("one_gpu", one_ldlt, m.a, a2, b, args)
                                 : time_solver("one_gpu", one_lu, m.a, a2, b, args);
      gb::Extras ex_one;
      ex_one["nnz_factor_one_gpu"] = static_cast<double>(one_solver.schedule().nnz_factor());
      ex_one["factorization"] = std::string(args.ldlt ? "ldlt" : "lu");
      Side two;
      gpuglu::SplitLU split(o, {0, 1}, args.ldlt ? gpuglu::SplitFactorization::ldlt : gpuglu::SplitFactorization::lu);
      try {
        two = time_solver("two_gpu", split, m.a, a2, b, args);
      } catch (const std::exception& e) {
        two.name = "two_gpu";
        two.note = e.what();
      }
      gb::Extras ex = ex_one;
      if (two.note.empty()) {  // the last refactorization's parts: each half's, and the whole
        ex["half0_factor_ms"] = split.half_factor_stats(0).factor_ms;
        ex["half1_factor_ms"] = split.half_factor_stats(1).factor_ms;
        ex["split_factor_ms"] = split.factor_stats().factor_ms;
        ex["split_refine_steps"] = static_cast<double>(split.solve_stats().refine_steps);
        ex["refine_steps_option"] = static_cast<double>(args.refine_steps);
        const gpuglu::SplitLU::FactorTimes& ft = split.factor_times();
        ex["split_check_ms"] = ft.check_ms;
        ex["split_load_ms"] = ft.load_ms;
        ex["split_halves_ms"] = ft.halves_ms;
        ex["split_root_ms"] = ft.root_ms;
        ex["split_root"] = std::string(gpuglu::to_string(split.root_factorization()));
        std::printf("  last two_gpu factorization's parts: check %.2f (with the load %.2f), halves %.2f, root %.2f ms "
                    "(root: %s)\n",
                    ft.check_ms, ft.load_ms, ft.halves_ms, ft.root_ms, gpuglu::to_string(split.root_factorization()));
        const gpuglu::SplitLU::SolveTimes st = split.solve_times();
        ex["split_solve_passes"] = static_cast<double>(st.passes);
        ex["split_solve_move_ms"] = st.move_ms;
        ex["split_solve_condense_ms"] = st.condense_ms;
        ex["split_solve_root_ms"] = st.root_ms;
        ex["split_solve_expand_ms"] = st.expand_ms;
        std::printf("  last two_gpu solve's %d passes: move %.2f, condense %.2f, root %.2f, expand %.2f ms\n",
                    st.passes, st.move_ms, st.condense_ms, st.root_ms, st.expand_ms);
        ex["one_gpu_refine_steps"] = static_cast<double>(one_solver.solve_stats().refine_steps);
        std::printf("  last two_gpu factorization: half 0 %.2f ms, half 1 %.2f ms, whole %.2f ms; refinement steps "
                    "of a solve: two_gpu %d, one_gpu %d\n",
                    split.half_factor_stats(0).factor_ms, split.half_factor_stats(1).factor_ms,
                    split.factor_stats().factor_ms, split.solve_stats().refine_steps,
                    one_solver.solve_stats().refine_steps);
      }
      ex["separator"] = static_cast<double>(split.separator_size());
      ex["part0"] = static_cast<double>(split.part_size(0));
      ex["part1"] = static_cast<double>(split.part_size(1));
      Side cudss1, cudss2;
      cudss1.name = "cudss";
      cudss2.name = "cudss_mg";
#ifdef GPUGLU_BENCH_HAVE_CUDSS
      if (args.cudss) {
        const gb::PeerRun pr{args.warmup, args.repeat};
        for (Side* c : {&cudss1, &cudss2}) {
          try {
            const int devices = c == &cudss2 ? 2 : 1;
            gb::PeerTimes t;
            if (args.ldlt) {
              const gpuglu::CsrMatrix<int32_t, double> lower = lower_triangle(m.a), lower2 = lower_triangle(a2);
              std::vector<double> x;
              gb::Extras peer_extra;
              t = gb::run_cudss_symmetric(lower, lower2.values, args.spd, b, pr, /*budget_ms=*/0.0, x, peer_extra,
                                          /*bunch_kaufman=*/false, devices);
            } else {
              t = gb::run_cudss(m.a, b, pr, devices);
            }
            c->analyze_ms = t.analyze_ms;
            c->factor_ms = t.factor_ms;
            c->refactor_ms = t.refactor_ms;
            c->solve_ms = t.solve_ms;
            c->residual = t.residual;
          } catch (const std::exception& e) {
            c->note = e.what();
          }
        }
      }
#endif
      std::printf("%s n %d nnz %lld separator %d (parts %d, %d)\n", m.name.c_str(), m.a.nrows,
                  static_cast<long long>(m.a.nnz()), split.separator_size(), split.part_size(0), split.part_size(1));
      for (const Side* s : std::vector<const Side*>{&one, &two, &cudss1, &cudss2})
        std::printf("  %-9s analyze %9.1f  factor %9.1f  refactor %8.2f  solve %8.2f ms  residual %.1e  berr %.1e  %s\n",
                    s->name.c_str(), s->analyze_ms, s->factor_ms, s->refactor_ms, s->solve_ms, s->residual,
                    s->backward, s->note.c_str());
      if (two.note.empty()) {
        std::printf("  two_gpu / one_gpu: refactor %.2fx, solve %.2fx; against cuDSS MG: refactor %.2fx\n",
                    one.refactor_ms / two.refactor_ms, one.solve_ms / two.solve_ms,
                    cudss2.refactor_ms > 0 ? cudss2.refactor_ms / two.refactor_ms : 0.0);
        record(args, m, "split_refactor", two, one, two.refactor_ms, one.refactor_ms, ex, device);
        record(args, m, "split_solve", two, one, two.solve_ms, one.solve_ms, ex, device);
        record(args, m, "split_analysis", two, one, two.analyze_ms, one.analyze_ms, ex, device);
        if (cudss2.refactor_ms > 0) {
          record(args, m, "split_refactor", two, cudss2, two.refactor_ms, cudss2.refactor_ms, ex, device);
          record(args, m, "split_solve", two, cudss2, two.solve_ms, cudss2.solve_ms, ex, device);
        }
      } else {
        ++failures;
      }
      if (cudss2.refactor_ms > 0 && cudss1.refactor_ms > 0)
        record(args, m, "split_refactor", cudss2, cudss1, cudss2.refactor_ms, cudss1.refactor_ms, ex, device);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", spec.c_str(), e.what());
      ++failures;
    }
  }
  return failures ? 1 : 0;
}
