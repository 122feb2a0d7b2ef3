// CHOLMOD (SuiteSparse): supernodal LL^T, the CPU reference for SPD matrices (peers
// `cholmod_numeric_<threads>t` of gpuglu_ldlt_bench). cholmod_analyze with CHOLMOD's default
// ordering choice (AMD, METIS where AMD's fill is poor), cholmod_factorize for the first and
// every later numeric factorization (values copied into A beforehand, untimed),
// cholmod_solve2 with its workspace kept. Its parallelism is the BLAS's (dense supernodal
// updates), so the BLAS threads are set per run and recorded; the analysis, which no thread
// count changes, is done once for all of them.
#include <cholmod.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "blas_threads.hpp"
#include "ldlt_peers.hpp"

namespace gpuglu::bench {

namespace {

const char* ordering_name(int o) {
  switch (o) {
    case CHOLMOD_NATURAL: return "natural";
    case CHOLMOD_GIVEN: return "given";
    case CHOLMOD_AMD: return "amd";
    case CHOLMOD_METIS: return "metis";
    case CHOLMOD_NESDIS: return "nesdis";
    case CHOLMOD_COLAMD: return "colamd";
    case CHOLMOD_POSTORDERED: return "postordered";
    default: return "unknown";
  }
}

}  // namespace

std::vector<SymPeerTimes> run_cholmod(const SymProblem& p, const PeerRun& r0, double budget_ms,
                                      const std::vector<int>& threads) {
  if (!p.spd) throw std::runtime_error("skipped: not known to be SPD (CHOLMOD's LL^T needs SPD)");
  for (const int th : threads)
    if (th > 1 && !set_blas_threads(th))
      throw std::runtime_error("skipped: the BLAS (" + blas_info().library + ") cannot be set to " + std::to_string(th) +
                               " threads");
  // The upper triangle's CSR is the lower triangle's CSC: CHOLMOD's stype -1 (lower, packed, sorted).
  const Triangle upper = upper_triangle(p.a);
  const std::vector<double> values[2] = {upper.values(p, 0), upper.values(p, 1)};
  const auto n = static_cast<size_t>(p.a.nrows);
  cholmod_common c;
  cholmod_start(&c);
  c.print = 0;  // a matrix that is not positive definite is reported below, not printed
  c.supernodal = CHOLMOD_SUPERNODAL;
  cholmod_sparse* a = nullptr;
  cholmod_factor* l = nullptr;
  cholmod_dense *b = nullptr, *x = nullptr, *y = nullptr, *e = nullptr;
  auto release = [&] {
    cholmod_free_dense(&b, &c);
    cholmod_free_dense(&x, &c);
    cholmod_free_dense(&y, &c);
    cholmod_free_dense(&e, &c);
    cholmod_free_factor(&l, &c);
    cholmod_free_sparse(&a, &c);
    cholmod_finish(&c);
  };
  auto fail = [&](const std::string& what) {
    release();
    throw std::runtime_error("CHOLMOD " + what);
  };
  a = cholmod_allocate_sparse(n, n, upper.pos.size(), 1, 1, -1, CHOLMOD_REAL, &c);
  if (!a) fail("allocate_sparse failed, status " + std::to_string(c.status));
  std::memcpy(a->p, upper.m.rowptr.data(), (n + 1) * sizeof(int));
  std::memcpy(a->i, upper.m.colind.data(), upper.pos.size() * sizeof(int));
  auto set_values = [&](int set) { std::memcpy(a->x, values[set].data(), values[set].size() * sizeof(double)); };
  auto factorize = [&](int) {
    if (!cholmod_factorize(a, l, &c)) fail("factorize failed, status " + std::to_string(c.status));
    if (c.status == CHOLMOD_NOT_POSDEF)
      fail("reports the matrix not positive definite (leading minor " + std::to_string(l->minor) + ")");
  };
  b = cholmod_allocate_dense(n, 1, n, CHOLMOD_REAL, &c);
  if (!b) fail("allocate_dense failed");
  std::memcpy(b->x, p.b.data(), n * sizeof(double));
  // One analysis (it runs on one thread whatever the BLAS's count), then per thread count the
  // first factorization, the refactorizations and the solves.
  set_blas_threads(threads.empty() ? 1 : threads[0]);
  double analyze_ms = 0;
  run_first_pass(r0, budget_ms, [&] {
    cholmod_free_factor(&l, &c);
    const double t0 = now_ms();
    l = cholmod_analyze(a, &c);
    if (!l) fail("analyze failed, status " + std::to_string(c.status));
    analyze_ms = now_ms() - t0;
  });
  std::vector<SymPeerTimes> out;
  for (const int th : threads) {
    set_blas_threads(th);
    SymPeerTimes t;
    t.analyze_ms = analyze_ms;
    set_values(0);
    run_first_pass(r0, budget_ms, [&] {
      const double t0 = now_ms();
      factorize(0);
      t.factor_ms = now_ms() - t0;
    });
    t.nnz_factor = static_cast<int64_t>(c.lnz);  // L's entries, the diagonal included (CHOLMOD's statistic)
    t.extra["peer_flops"] = c.fl;
    t.extra["peer_ordering"] = std::string(ordering_name(c.method[c.selected].ordering));
    t.extra["peer_supernodal_entries"] = static_cast<double>(l->xsize);
    const PeerRun r = fit_to_budget(r0, t.factor_ms, budget_ms);
    t.repeat = r.repeat;
    t.refactor_ms = time_refactor(r, set_values, factorize);
    t.solve_ms = median_ms(r.warmup, r.repeat, [&] {
      if (!cholmod_solve2(CHOLMOD_A, l, b, nullptr, &x, nullptr, &y, &e, &c)) fail("solve2 failed");
    });
    const Accuracy acc = accuracy(p, static_cast<const double*>(x->x));
    t.residual = acc.residual;
    t.backward_error = acc.backward_error;
    t.extra["peer_threads"] = static_cast<double>(blas_threads());
    out.push_back(std::move(t));
  }
  set_blas_threads(1);
  release();
  return out;
}

}  // namespace gpuglu::bench
