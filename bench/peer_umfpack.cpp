// UMFPACK (SuiteSparse): multifrontal LU with partial pivoting, the general-purpose
// CPU peer. Its "refactorization" is umfpack_di_numeric on the kept symbolic object.
#include <umfpack.h>

#include <stdexcept>
#include <string>

#include "gpuglu/matrix_ops.hpp"
#include "peers.hpp"
#include "timing.hpp"

namespace gpuglu::bench {

PeerTimes run_umfpack(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r) {
  const CscMatrix<int32_t, double> c = csr_to_csc(a.view());
  const int n = c.ncols;
  const int* ap = c.colptr.data();
  const int* ai = c.rowind.data();
  const double* ax = c.values.data();
  double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
  umfpack_di_defaults(control);
  void* sym = nullptr;
  void* num = nullptr;
  auto check = [&](int status, const char* what) {
    if (status != UMFPACK_OK) {
      if (num) umfpack_di_free_numeric(&num);
      if (sym) umfpack_di_free_symbolic(&sym);
      throw std::runtime_error(std::string("UMFPACK ") + what + " failed, status " + std::to_string(status));
    }
  };
  PeerTimes t;
  for (int w = 0; w <= r.warmup; ++w) {
    if (num) umfpack_di_free_numeric(&num);
    if (sym) umfpack_di_free_symbolic(&sym);
    double t0 = now_ms();
    check(umfpack_di_symbolic(n, n, ap, ai, ax, &sym, control, info), "symbolic");
    t.analyze_ms = now_ms() - t0;
    t0 = now_ms();
    check(umfpack_di_numeric(ap, ai, ax, sym, &num, control, info), "numeric");
    t.factor_ms = now_ms() - t0;
  }
  t.nnz_factor = static_cast<int64_t>(info[UMFPACK_LNZ] + info[UMFPACK_UNZ]);
  t.refactor_ms = median_ms(r.warmup, r.repeat, [&] {
    umfpack_di_free_numeric(&num);
    check(umfpack_di_numeric(ap, ai, ax, sym, &num, control, info), "numeric");
  });
  std::vector<double> x(b.size());
  t.solve_ms = median_ms(r.warmup, r.repeat, [&] {
    check(umfpack_di_solve(UMFPACK_A, ap, ai, ax, x.data(), b.data(), num, control, info), "solve");
  });
  t.residual = relative_residual(a.view(), x.data(), b.data());
  umfpack_di_free_numeric(&num);
  umfpack_di_free_symbolic(&sym);
  return t;
}

}  // namespace gpuglu::bench
