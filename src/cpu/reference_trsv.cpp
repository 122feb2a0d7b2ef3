// Row-oriented forward / backward substitution (Li, Sec. 3.1), one row at a time.
#include "cpu/reference_trsv.hpp"

#include "gpuglu/status.hpp"

namespace gpuglu::trsv::reference {

void solve(const TriangleView& t, const double* b, double* x) {
  if (t.nnz() > 0 && !t.values) throw Error(Status::invalid_input, "reference triangular solve: the triangle has no values");
  const bool lower = t.fill == Fill::lower;
  for (int32_t s = 0; s < t.n; ++s) {
    const int32_t i = lower ? s : t.n - 1 - s;
    double sum = b[i];  // read before x[i] is written: b and x may alias
    for (int64_t k = t.offdiag_begin(i); k < t.offdiag_end(i); ++k) sum -= t.values[k] * x[t.colind[k]];
    x[i] = t.diag == Diag::unit ? sum : sum / t.values[t.diag_position(i)];
  }
}

void solve_many(const TriangleView& t, int32_t nrhs, const double* b, int64_t ldb, double* x, int64_t ldx) {
  if (nrhs < 0 || ldb < t.n || ldx < t.n)
    throw Error(Status::invalid_input, "reference triangular solve: nrhs < 0 or a leading dimension below n");
  for (int32_t r = 0; r < nrhs; ++r) solve(t, b + r * ldb, x + r * ldx);
}

}  // namespace gpuglu::trsv::reference
