// The CPU peers of gpuglu_complex_bench: KLU (klu_z_*) and UMFPACK (umfpack_zl_*) on complex
// values in SuiteSparse's packed layout (re, im interleaved: std::complex<double>'s, so the
// arrays are passed as they are, with Az = Xz = Bz = nullptr). Both take CSC: A's two value
// sets are converted once, outside the timings. KLU's refactorization keeps the pivot order
// of its first factorization (klu_z_refactor); UMFPACK's is umfpack_zl_numeric on the kept
// symbolic object, with its own pivoting.
#include <klu.h>
#include <umfpack.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "complex_problem.hpp"

namespace gpuglu::bench {

namespace {

// A's CSC for both value sets (the pattern is the same), as the libraries' double arrays.
struct ComplexCsc {
  CscMatrix<int32_t, Cplx> c[2];
  explicit ComplexCsc(const ComplexProblem& p) : c{csr_to_csc(p.view(0)), csr_to_csc(p.view(1))} {}
  double* values(int set) { return reinterpret_cast<double*>(c[set].values.data()); }
};

}  // namespace

SymPeerTimes run_klu_complex(const ComplexProblem& p, const PeerRun& r) {
  ComplexCsc csc(p);
  const int n = p.a.nrows;
  int* ap = csc.c[0].colptr.data();
  int* ai = csc.c[0].rowind.data();
  klu_common common;
  klu_defaults(&common);
  klu_symbolic* sym = nullptr;
  klu_numeric* num = nullptr;
  auto release = [&] {
    if (num) klu_z_free_numeric(&num, &common);
    if (sym) klu_free_symbolic(&sym, &common);
  };
  auto fail = [&](const char* what) {
    const int status = common.status;
    release();
    throw std::runtime_error(std::string("KLU ") + what + " failed, status " + std::to_string(status));
  };
  SymPeerTimes t;
  run_first_pass(r, 0, [&] {
    release();
    double t0 = now_ms();
    sym = klu_analyze(n, ap, ai, &common);  // KLU's analysis reads the pattern only: no z variant
    if (!sym) fail("analyze");
    t.analyze_ms = now_ms() - t0;
    t0 = now_ms();
    num = klu_z_factor(ap, ai, csc.values(0), sym, &common);
    if (!num) fail("factor");
    t.factor_ms = now_ms() - t0;
  });
  t.nnz_factor = static_cast<int64_t>(num->lnz) + num->unz - n + num->nzoff;  // lnz, unz count the diagonal
  t.repeat = r.repeat;
  t.refactor_ms = time_refactor(r, nullptr, [&](int set) {
    if (!klu_z_refactor(ap, ai, csc.values(set), sym, num, &common)) fail("refactor");
  });
  std::vector<Cplx> x;
  t.solve_ms = median_ms(r.warmup, r.repeat, [&] {
    x = p.b;
    if (!klu_z_solve(sym, num, n, 1, reinterpret_cast<double*>(x.data()), &common)) fail("solve");
  });
  release();
  const Accuracy acc = accuracy(p, x.data());
  t.residual = acc.residual;
  t.backward_error = acc.backward_error;
  return t;
}

SymPeerTimes run_umfpack_complex(const ComplexProblem& p, const PeerRun& r) {
  ComplexCsc csc(p);
  // umfpack_zl_* index with SuiteSparse_long: the pattern is widened once.
  const std::vector<SuiteSparse_long> ap(csc.c[0].colptr.begin(), csc.c[0].colptr.end());
  const std::vector<SuiteSparse_long> ai(csc.c[0].rowind.begin(), csc.c[0].rowind.end());
  const SuiteSparse_long n = p.a.nrows;
  double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
  umfpack_zl_defaults(control);
  void* sym = nullptr;
  void* num = nullptr;
  auto release = [&] {
    if (num) umfpack_zl_free_numeric(&num);
    if (sym) umfpack_zl_free_symbolic(&sym);
  };
  auto check = [&](SuiteSparse_long status, const char* what) {
    if (status != UMFPACK_OK) {
      release();
      throw std::runtime_error(std::string("UMFPACK ") + what + " failed, status " + std::to_string(status));
    }
  };
  SymPeerTimes t;
  run_first_pass(r, 0, [&] {
    release();
    double t0 = now_ms();
    check(umfpack_zl_symbolic(n, n, ap.data(), ai.data(), csc.values(0), nullptr, &sym, control, info), "symbolic");
    t.analyze_ms = now_ms() - t0;
    t0 = now_ms();
    check(umfpack_zl_numeric(ap.data(), ai.data(), csc.values(0), nullptr, sym, &num, control, info), "numeric");
    t.factor_ms = now_ms() - t0;
  });
  t.nnz_factor = static_cast<int64_t>(info[UMFPACK_LNZ] + info[UMFPACK_UNZ]);
  t.repeat = r.repeat;
  t.refactor_ms = time_refactor(r, nullptr, [&](int set) {
    umfpack_zl_free_numeric(&num);
    check(umfpack_zl_numeric(ap.data(), ai.data(), csc.values(set), nullptr, sym, &num, control, info), "numeric");
  });
  std::vector<Cplx> x(p.b.size());
  t.solve_ms = median_ms(r.warmup, r.repeat, [&] {
    check(umfpack_zl_solve(UMFPACK_A, ap.data(), ai.data(), csc.values(0), nullptr, reinterpret_cast<double*>(x.data()),
                           nullptr, reinterpret_cast<const double*>(p.b.data()), nullptr, num, control, info),
          "solve");
  });
  release();
  const Accuracy acc = accuracy(p, x.data());
  t.residual = acc.residual;
  t.backward_error = acc.backward_error;
  return t;
}

}  // namespace gpuglu::bench
