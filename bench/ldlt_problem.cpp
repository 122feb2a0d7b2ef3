#include "ldlt_problem.hpp"

#include <utility>

#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::bench {

SymProblem make_sym_problem(std::string name, std::string kind, CsrMatrix<int32_t, double> a, bool spd) {
  SymProblem p;
  p.name = std::move(name);
  p.kind = std::move(kind);
  p.a = std::move(a);
  p.spd = spd;
  const auto n = static_cast<size_t>(p.a.nrows);
  auto s = [](int64_t i) { return 1.0 + 1e-3 * static_cast<double>(i % 7); };
  p.scaled.resize(p.a.values.size());
  for (int32_t i = 0; i < p.a.nrows; ++i)
    for (int32_t e = p.a.rowptr[i]; e < p.a.rowptr[i + 1]; ++e) p.scaled[e] = s(i) * p.a.values[e] * s(p.a.colind[e]);
  p.xtrue.resize(n);
  for (size_t i = 0; i < n; ++i) p.xtrue[i] = 1.0 + static_cast<double>(i % 7) / 7.0;
  p.b.resize(n);
  spmv(p.a.view(), p.xtrue.data(), p.b.data());
  return p;
}

namespace {

Triangle triangle(const CsrMatrix<int32_t, double>& a, bool lower) {
  Triangle t;
  t.m.nrows = a.nrows;
  t.m.ncols = a.ncols;
  t.m.rowptr.assign(static_cast<size_t>(a.nrows) + 1, 0);
  for (int32_t i = 0; i < a.nrows; ++i) {
    for (int32_t e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      const int32_t j = a.colind[e];
      if (lower ? j > i : j < i) continue;
      t.m.colind.push_back(j);
      t.m.values.push_back(a.values[e]);
      t.pos.push_back(e);
    }
    t.m.rowptr[i + 1] = static_cast<int32_t>(t.m.colind.size());
  }
  return t;
}

}  // namespace

std::vector<double> Triangle::values(const SymProblem& p, int set) const {
  const std::vector<double>& v = p.values(set);
  std::vector<double> out(pos.size());
  for (size_t k = 0; k < pos.size(); ++k) out[k] = v[static_cast<size_t>(pos[k])];
  return out;
}

Triangle lower_triangle(const CsrMatrix<int32_t, double>& a) { return triangle(a, true); }
Triangle upper_triangle(const CsrMatrix<int32_t, double>& a) { return triangle(a, false); }

Accuracy accuracy(const SymProblem& p, const double* x) {
  Accuracy acc;
  acc.residual = relative_residual(p.a.view(), x, p.b.data());
  acc.backward_error = backward_error(p.a.view(), x, p.b.data());
  return acc;
}

}  // namespace gpuglu::bench
