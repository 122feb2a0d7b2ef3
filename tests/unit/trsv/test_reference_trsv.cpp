// The CPU reference triangular solves against a dense solve of the same triangle, in every
// fill / diagonal combination, in place, and with many right-hand sides; triangle_part.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpuglu/status.hpp"
#include "cpu/reference_trsv.hpp"
#include "analysis/trsv_analysis.hpp"
#include "trsv_test_support.hpp"

namespace gpuglu::test {
namespace {

using trsv::Diag;
using trsv::Fill;

std::vector<double> dense_of(const trsv::Triangle& t) {
  const size_t n = static_cast<size_t>(t.n);
  std::vector<double> d(n * n, 0.0);
  for (int32_t i = 0; i < t.n; ++i) {
    if (t.diag == Diag::unit) d[i * n + i] = 1.0;
    for (int64_t k = t.rowptr[i]; k < t.rowptr[i + 1]; ++k) d[i * n + t.colind[k]] = t.values[k];
  }
  return d;
}

// Dense substitution on the full n x n array, by columns (a different order of operations
// from the reference's row sweep).
std::vector<double> dense_solve(const trsv::Triangle& t, const std::vector<double>& b) {
  const int32_t n = t.n;
  const std::vector<double> d = dense_of(t);
  std::vector<double> x = b;
  if (t.fill == Fill::lower) {
    for (int32_t j = 0; j < n; ++j) {
      x[j] /= d[static_cast<size_t>(j) * n + j];
      for (int32_t i = j + 1; i < n; ++i) x[i] -= d[static_cast<size_t>(i) * n + j] * x[j];
    }
  } else {
    for (int32_t j = n - 1; j >= 0; --j) {
      x[j] /= d[static_cast<size_t>(j) * n + j];
      for (int32_t i = 0; i < j; ++i) x[i] -= d[static_cast<size_t>(i) * n + j] * x[j];
    }
  }
  return x;
}

struct Combo {
  Fill fill;
  Diag diag;
};
const Combo kCombos[] = {{Fill::lower, Diag::stored}, {Fill::lower, Diag::unit}, {Fill::upper, Diag::stored},
                         {Fill::upper, Diag::unit}};

TEST(ReferenceTrsv, matches_dense_solve_on_random_triangles) {
  uint64_t seed = 11;
  for (const Combo& c : kCombos)
    for (int32_t per_row : {1, 3, 8}) {
      SCOPED_TRACE(std::string(trsv::to_string(c.fill)) + " " + trsv::to_string(c.diag) + " per_row " +
                   std::to_string(per_row));
      const trsv::Triangle t = random_triangle(60, per_row, c.fill, c.diag, ++seed);
      trsv::analyze(t.view());  // the reference assumes the storage rules
      const std::vector<double> b = random_vector(t.n, ++seed);
      std::vector<double> x(t.n);
      trsv::reference::solve(t.view(), b.data(), x.data());
      EXPECT_LT(relative_error(x, dense_solve(t, b)), 1e-13);
    }
}

TEST(ReferenceTrsv, matches_dense_solve_on_laplacian_parts) {
  for (const Combo& c : kCombos)
    for (const char* spec : {"lap2d5:6x5", "lap2d9:5x4", "lap3d7:3x4x3", "lap3d27:3x3x3"}) {
      SCOPED_TRACE(std::string(spec) + " " + trsv::to_string(c.fill) + " " + trsv::to_string(c.diag));
      const trsv::Triangle t = spec_triangle(spec, c.fill, c.diag);
      trsv::analyze(t.view());
      const std::vector<double> b = random_vector(t.n, 5);
      std::vector<double> x(t.n);
      trsv::reference::solve(t.view(), b.data(), x.data());
      EXPECT_LT(relative_error(x, dense_solve(t, b)), 1e-13);
    }
}

TEST(ReferenceTrsv, residual_is_at_rounding_level_on_a_chain) {
  const trsv::Triangle t = chain_triangle(2000, Fill::upper, Diag::stored);
  const std::vector<double> b = random_vector(t.n, 3);
  std::vector<double> x(t.n);
  trsv::reference::solve(t.view(), b.data(), x.data());
  double worst = 0;
  for (int32_t i = 0; i < t.n; ++i) {
    double r = -b[i];
    for (int64_t k = t.rowptr[i]; k < t.rowptr[i + 1]; ++k) r += t.values[k] * x[t.colind[k]];
    worst = std::max(worst, std::abs(r));
  }
  EXPECT_LT(worst, 1e-14);
}

TEST(ReferenceTrsv, in_place_equals_out_of_place) {
  for (const Combo& c : kCombos) {
    const trsv::Triangle t = random_triangle(80, 4, c.fill, c.diag, 21);
    const std::vector<double> b = random_vector(t.n, 22);
    std::vector<double> x(t.n), y = b;
    trsv::reference::solve(t.view(), b.data(), x.data());
    trsv::reference::solve(t.view(), y.data(), y.data());
    EXPECT_EQ(x, y);
  }
}

TEST(ReferenceTrsv, many_right_hand_sides_equal_one_at_a_time) {
  const trsv::Triangle t = random_triangle(70, 5, Fill::upper, Diag::stored, 31);
  const int32_t nrhs = 4;
  const int64_t ld = t.n + 3;
  const std::vector<double> b = random_vector(ld * nrhs, 32);
  std::vector<double> x(static_cast<size_t>(ld * nrhs), -7.0);
  trsv::reference::solve_many(t.view(), nrhs, b.data(), ld, x.data(), ld);
  for (int32_t r = 0; r < nrhs; ++r) {
    std::vector<double> one(t.n);
    trsv::reference::solve(t.view(), b.data() + r * ld, one.data());
    EXPECT_TRUE(std::equal(one.begin(), one.end(), x.begin() + r * ld));
    EXPECT_EQ(x[r * ld + t.n], -7.0) << "padding written";
  }
  EXPECT_THROW(trsv::reference::solve_many(t.view(), 1, b.data(), t.n - 1, x.data(), ld), Error);
}

TEST(TrianglePart, keeps_one_side_and_the_diagonal_as_asked) {
  const CsrMatrix<int32_t, double> a = gen::from_spec("lap2d5:4x3");
  const int64_t nnz = a.nnz(), n = a.nrows, off = (nnz - n) / 2;  // symmetric pattern
  const trsv::Triangle ls = trsv::triangle_part(a.view(), Fill::lower, Diag::stored);
  const trsv::Triangle lu = trsv::triangle_part(a.view(), Fill::lower, Diag::unit);
  const trsv::Triangle us = trsv::triangle_part(a.view(), Fill::upper, Diag::stored);
  EXPECT_EQ(ls.view().nnz(), off + n);
  EXPECT_EQ(lu.view().nnz(), off);
  EXPECT_EQ(us.view().nnz(), off + n);
  for (const trsv::Triangle* t : {&ls, &lu, &us}) EXPECT_NO_THROW(trsv::analyze(t->view()));
  EXPECT_THROW(trsv::triangle_part(CsrMatrix<int32_t, double>{2, 3, {0, 0, 0}, {}, {}}.view(), Fill::lower, Diag::unit),
               Error);
}

}  // namespace
}  // namespace gpuglu::test
