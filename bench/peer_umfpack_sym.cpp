// UMFPACK on a symmetric problem: the general-purpose multifrontal LU a user without an
// LDL^T would take (the peer `umfpack_numeric` of gpuglu_ldlt_bench). A = A^T, so A's CSR
// arrays are its CSC arrays and both value sets pass as they are.
#include <umfpack.h>

#include <stdexcept>
#include <string>

#include "blas_threads.hpp"
#include "ldlt_peers.hpp"

namespace gpuglu::bench {

SymPeerTimes run_umfpack_sym(const SymProblem& p, const PeerRun& r0, double budget_ms) {
  const int n = p.a.nrows;
  const int* ap = p.a.rowptr.data();
  const int* ai = p.a.colind.data();
  double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
  umfpack_di_defaults(control);
  set_blas_threads(1);
  void* sym = nullptr;
  void* num = nullptr;
  auto release = [&] {
    if (num) umfpack_di_free_numeric(&num);
    if (sym) umfpack_di_free_symbolic(&sym);
  };
  auto check = [&](int status, const char* what) {
    if (status == UMFPACK_OK) return;
    release();
    throw std::runtime_error(std::string("UMFPACK ") + what +
                             (status == UMFPACK_WARNING_singular_matrix ? ": singular matrix"
                                                                        : " failed, status " + std::to_string(status)));
  };
  auto numeric = [&](int set) {
    if (num) umfpack_di_free_numeric(&num);
    check(umfpack_di_numeric(ap, ai, p.values(set).data(), sym, &num, control, info), "numeric");
  };
  SymPeerTimes t;
  run_first_pass(r0, budget_ms, [&] {
    release();
    double t0 = now_ms();
    check(umfpack_di_symbolic(n, n, ap, ai, p.a.values.data(), &sym, control, info), "symbolic");
    t.analyze_ms = now_ms() - t0;
    t0 = now_ms();
    numeric(0);
    t.factor_ms = now_ms() - t0;
  });
  t.nnz_factor = static_cast<int64_t>(info[UMFPACK_LNZ] + info[UMFPACK_UNZ]) - n;  // both count the diagonal
  const PeerRun r = fit_to_budget(r0, t.factor_ms, budget_ms);
  t.repeat = r.repeat;
  t.refactor_ms = time_refactor(r, nullptr, numeric);
  std::vector<double> x(static_cast<size_t>(n));
  t.solve_ms = median_ms(r.warmup, r.repeat, [&] {
    check(umfpack_di_solve(UMFPACK_A, ap, ai, p.a.values.data(), x.data(), p.b.data(), num, control, info), "solve");
  });
  const Accuracy acc = accuracy(p, x.data());
  t.residual = acc.residual;
  t.backward_error = acc.backward_error;
  t.extra["peer_threads"] = 1.0;
  t.extra["peer_refine_steps"] = info[UMFPACK_IR_TAKEN];
  release();
  return t;
}

}  // namespace gpuglu::bench
