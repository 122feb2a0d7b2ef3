// KLU (SuiteSparse): the reference CPU solver for circuit matrices, and the peer the
// issue's targets name (klu_refactor, klu_analyze + klu_factor). KLU takes CSC: A is
// converted once, outside the timings.
#include <klu.h>

#include <stdexcept>
#include <string>

#include "gpuglu/matrix_ops.hpp"
#include "peers.hpp"
#include "timing.hpp"

namespace gpuglu::bench {

PeerTimes run_klu(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r) {
  const CscMatrix<int32_t, double> c = csr_to_csc(a.view());
  const int n = c.ncols;
  auto* ap = const_cast<int*>(c.colptr.data());
  auto* ai = const_cast<int*>(c.rowind.data());
  auto* ax = const_cast<double*>(c.values.data());
  klu_common common;
  klu_defaults(&common);
  PeerTimes t;
  klu_symbolic* sym = nullptr;
  klu_numeric* num = nullptr;
  auto fail = [&](const char* what) {
    if (num) klu_free_numeric(&num, &common);
    if (sym) klu_free_symbolic(&sym, &common);
    throw std::runtime_error(std::string("KLU ") + what + " failed, status " + std::to_string(common.status));
  };
  // Analysis and first factorization are timed once each after a warm-up pair.
  for (int w = 0; w <= r.warmup; ++w) {
    if (num) klu_free_numeric(&num, &common);
    if (sym) klu_free_symbolic(&sym, &common);
    double t0 = now_ms();
    sym = klu_analyze(n, ap, ai, &common);
    if (!sym) fail("analyze");
    t.analyze_ms = now_ms() - t0;
    t0 = now_ms();
    num = klu_factor(ap, ai, ax, sym, &common);
    if (!num) fail("factor");
    t.factor_ms = now_ms() - t0;
  }
  t.nnz_factor = static_cast<int64_t>(num->lnz) + num->unz - n + num->nzoff;  // lnz, unz count the diagonal
  t.refactor_ms = median_ms(r.warmup, r.repeat, [&] {
    if (!klu_refactor(ap, ai, ax, sym, num, &common)) fail("refactor");
  });
  std::vector<double> x;
  t.solve_ms = median_ms(r.warmup, r.repeat, [&] {
    x = b;
    if (!klu_solve(sym, num, n, 1, x.data(), &common)) fail("solve");
  });
  t.residual = relative_residual(a.view(), x.data(), b.data());
  klu_free_numeric(&num, &common);
  klu_free_symbolic(&sym, &common);
  return t;
}

}  // namespace gpuglu::bench
