#pragma once
// One symmetric problem of gpuglu_ldlt_bench, the same for every solver: A (both triangles
// stored), a second set of values S A S (s_i = 1 + 1e-3 (i mod 7): same pattern, still
// symmetric, same inertia) for the refactorizations, a known solution and b = A x.
//
// Refactorizations alternate between the two value sets and end on A's own values, so that
// every solver's solve is checked against the same A and b (see time_refactor).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpuglu/matrix.hpp"
#include "peers.hpp"
#include "results_jsonl.hpp"
#include "timing.hpp"

namespace gpuglu::bench {

struct SymProblem {
  std::string name, kind;
  CsrMatrix<int32_t, double> a;  // full storage, sorted rows
  std::vector<double> scaled;    // S A S in a's CSR order
  bool spd = false;              // known SPD (generator or collection folder, or --spd)
  std::vector<double> xtrue, b;  // b = A xtrue

  // Value set 0 is A, 1 is S A S (in a's CSR order).
  const std::vector<double>& values(int set) const { return set == 0 ? a.values : scaled; }
};

// name and kind as BenchMatrix; a must be square with a symmetric pattern (not checked here:
// gpuglu's analysis checks it).
SymProblem make_sym_problem(std::string name, std::string kind, CsrMatrix<int32_t, double> a, bool spd);

// Positions (into a's CSR values) of the entries of one triangle, and that triangle as CSR
// (values of set 0). The upper triangle's CSR is the lower triangle's CSC of a symmetric A.
struct Triangle {
  CsrMatrix<int32_t, double> m;
  std::vector<int64_t> pos;
  // The triangle's values for value set `set` of p.
  std::vector<double> values(const SymProblem& p, int set) const;
};
Triangle lower_triangle(const CsrMatrix<int32_t, double>& a);
Triangle upper_triangle(const CsrMatrix<int32_t, double>& a);

// The accuracy every solver's solve is recorded with, against A and b.
struct Accuracy {
  double residual = -1;        // ||b - A x||_2 / ||b||_2
  double backward_error = -1;  // componentwise (Oettli-Prager)
};
Accuracy accuracy(const SymProblem& p, const double* x);

// The result of a symmetric peer: PeerTimes (residual filled from Accuracy) plus its own
// facts (threads, BLAS, inertia, ...) for the JSON record.
struct SymPeerTimes : PeerTimes {
  double backward_error = -1;
  int repeat = 0;  // timed refactorizations and solves (after the budget, see fit_to_budget)
  Extras extra;
};

// Fewer repetitions where one factorization is slow: with first_ms the time of the first
// factorization, the warm-ups and repeats are cut so that they take about budget_ms
// (warm-up 0 - the first factorization warmed up - and at least one timed run).
// budget_ms <= 0: unchanged.
inline PeerRun fit_to_budget(PeerRun r, double first_ms, double budget_ms) {
  if (budget_ms <= 0 || first_ms * (r.warmup + r.repeat) <= budget_ms) return r;
  r.warmup = 0;
  const int fit = static_cast<int>(budget_ms / (first_ms > 0 ? first_ms : 1));
  r.repeat = fit < 1 ? 1 : fit < r.repeat ? fit : r.repeat;
  return r;
}

// Median of r.repeat timed refactorizations after r.warmup untimed ones. Call i (0-based of
// warmup + repeat) factors value set (count - 1 - i) % 2, so the last one factors A (set 0)
// and consecutive ones differ. prepare(set) runs untimed before each (copying values where
// a solver keeps its own), factor(set) is timed.
inline double time_refactor(const PeerRun& r, const std::function<void(int)>& prepare,
                            const std::function<void(int)>& factor) {
  const int count = r.warmup + r.repeat;
  std::vector<double> t;
  for (int i = 0; i < count; ++i) {
    const int set = (count - 1 - i) % 2;
    if (prepare) prepare(set);
    const double t0 = now_ms();
    factor(set);
    if (i >= r.warmup) t.push_back(now_ms() - t0);
  }
  return median(t);
}

// Runs pass (an analysis with its first factorization, which a solver times itself) once,
// and r.warmup more times when that is cheap (all of them within a quarter of budget_ms):
// the last pass's timings stand, after warm caches where the budget allows them.
inline void run_first_pass(const PeerRun& r, double budget_ms, const std::function<void()>& pass) {
  const double t0 = now_ms();
  pass();
  const double once = now_ms() - t0;
  if (budget_ms > 0 && once * r.warmup > 0.25 * budget_ms) return;
  for (int w = 0; w < r.warmup; ++w) pass();
}

}  // namespace gpuglu::bench
