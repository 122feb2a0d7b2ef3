// A program outside the gpuglu tree: solves a small generated system through the
// installed headers and library.
#include <gpuglu/gpuglu.hpp>

#include <cstdio>
#include <vector>

int main() {
  const auto a = gpuglu::gen::laplacian_2d(30, 30, 5);
  std::vector<double> x_true(a.nrows, 1.0), b(a.nrows), x(a.nrows);
  gpuglu::spmv(a.view(), x_true.data(), b.data());
  gpuglu::SparseLU lu;
  lu.analyze(a.view());
  if (lu.factor(a.view()).status != gpuglu::Status::ok) return 1;
  lu.solve(b.data(), x.data());
  const double res = gpuglu::relative_residual(a.view(), x.data(), b.data());
  std::printf("consumer: residual %s (%.2e)\n", res < 1e-12 ? "ok" : "BAD", res);
  return res < 1e-12 ? 0 : 1;
}
