// trsv::transpose (the A^T solves) and trsv::factor_triangles (the LU engine's L and U for
// the triangular-solve module): storage rules kept, source maps exact, solves right.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "analysis/factor_triangles.hpp"
#include "cpu/reference_trsv.hpp"
#include "analysis/transpose.hpp"
#include "analysis/trsv_analysis.hpp"

namespace gpuglu::trsv {
namespace {

// The dense matrix of a triangle (unit diagonal added where it is implied).
std::vector<double> dense(const TriangleView& t) {
  std::vector<double> d(static_cast<size_t>(t.n) * t.n, 0.0);
  for (int32_t i = 0; i < t.n; ++i) {
    if (t.diag == Diag::unit) d[static_cast<size_t>(i) * t.n + i] = 1.0;
    for (int64_t k = t.rowptr[i]; k < t.rowptr[i + 1]; ++k) d[static_cast<size_t>(i) * t.n + t.colind[k]] = t.values[k];
  }
  return d;
}

TEST(TrsvTranspose, every_fill_and_diagonal_keeps_the_storage_rules) {
  const CsrMatrix<int32_t, double> a = gen::from_spec("convdiff3d:5x4x3");
  for (Fill fill : {Fill::lower, Fill::upper})
    for (Diag diag : {Diag::unit, Diag::stored}) {
      SCOPED_TRACE(std::string(to_string(fill)) + " " + to_string(diag));
      const Triangle t = triangle_part(a.view(), fill, diag);
      const TransposedTriangle tt = transpose(t.view());
      EXPECT_EQ(tt.t.fill, fill == Fill::lower ? Fill::upper : Fill::lower);
      EXPECT_EQ(tt.t.diag, diag);
      EXPECT_NO_THROW(analyze(tt.t.view()));  // sorted rows, diagonal first / last
      // The transpose's dense matrix is the input's transposed, and source names each entry.
      const std::vector<double> d = dense(t.view()), dt = dense(tt.t.view());
      const int32_t n = t.n;
      for (int32_t i = 0; i < n; ++i)
        for (int32_t j = 0; j < n; ++j) ASSERT_EQ(dt[static_cast<size_t>(i) * n + j], d[static_cast<size_t>(j) * n + i]);
      for (size_t e = 0; e < tt.source.size(); ++e) ASSERT_EQ(tt.t.values[e], t.values[static_cast<size_t>(tt.source[e])]);
      // Twice is the identity.
      const TransposedTriangle back = transpose(tt.t.view());
      EXPECT_EQ(back.t.rowptr, t.rowptr);
      EXPECT_EQ(back.t.colind, t.colind);
      EXPECT_EQ(back.t.values, t.values);
    }
}

TEST(TrsvTranspose, pattern_only_and_empty) {
  Triangle empty;
  const TransposedTriangle e = transpose(empty.view());
  EXPECT_EQ(e.t.n, 0);
  EXPECT_EQ(e.t.rowptr, std::vector<int64_t>{0});
  const CsrMatrix<int32_t, double> a = gen::from_spec("lap2d5:4x3");
  Triangle t = triangle_part(a.view(), Fill::lower, Diag::stored);
  t.values.clear();
  const TransposedTriangle p = transpose(t.view());
  EXPECT_TRUE(p.t.values.empty());
  EXPECT_EQ(static_cast<int64_t>(p.t.colind.size()), t.view().nnz());
}

TEST(TrsvFactorTriangles, the_triangles_hold_the_factor_and_solve_with_it) {
  const CsrMatrix<int32_t, double> a = gen::from_spec("circuit:400:20:3");
  Options o;
  o.backend = Backend::cpu;
  SparseLU lu(o);
  lu.analyze(a.view());
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  const Schedule& s = lu.schedule();
  const std::vector<double>& f = lu.factor_values();
  FactorTriangles t = factor_triangles(s);
  ASSERT_EQ(static_cast<int64_t>(t.l.colind.size()), s.nnz_l);
  ASSERT_EQ(static_cast<int64_t>(t.u.colind.size()), s.nnz_u);
  for (int64_t p : t.l_pos) t.l.values.push_back(f[static_cast<size_t>(p)]);
  for (int64_t p : t.u_pos) t.u.values.push_back(f[static_cast<size_t>(p)]);
  ASSERT_NO_THROW(analyze(t.l.view()));
  ASSERT_NO_THROW(analyze(t.u.view()));
  // Every entry sits where F has it: row i, column j of L / U in C's numbering.
  for (int32_t j = 0; j < s.n; ++j)
    for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p) {
      const int32_t i = s.f_rowind[p];
      const Triangle& tri = i > j ? t.l : t.u;
      const std::vector<int64_t>& pos = i > j ? t.l_pos : t.u_pos;
      bool found = false;
      for (int64_t k = tri.rowptr[i]; k < tri.rowptr[i + 1]; ++k)
        if (tri.colind[k] == j) found = pos[static_cast<size_t>(k)] == p;
      ASSERT_TRUE(found) << "F(" << i << ", " << j << ")";
    }
  // L U y = c through the triangles, checked against C = L U applied to y.
  std::vector<double> c(static_cast<size_t>(s.n)), y(c.size()), z(c.size());
  for (int32_t i = 0; i < s.n; ++i) c[i] = std::sin(0.3 * i) + 1.0;
  reference::solve(t.l.view(), c.data(), z.data());
  reference::solve(t.u.view(), z.data(), y.data());
  // (L U y)_i = sum_k L(i,k) (U y)_k
  std::vector<double> uy(c.size(), 0.0), luy(c.size(), 0.0);
  for (int32_t i = 0; i < s.n; ++i)
    for (int64_t k = t.u.rowptr[i]; k < t.u.rowptr[i + 1]; ++k) uy[i] += t.u.values[k] * y[t.u.colind[k]];
  for (int32_t i = 0; i < s.n; ++i) {
    luy[i] = uy[i];
    for (int64_t k = t.l.rowptr[i]; k < t.l.rowptr[i + 1]; ++k) luy[i] += t.l.values[k] * uy[t.l.colind[k]];
  }
  double worst = 0.0;
  for (int32_t i = 0; i < s.n; ++i) worst = std::max(worst, std::fabs(luy[i] - c[i]) / (1.0 + std::fabs(c[i])));
  EXPECT_LT(worst, 1e-10);
}

}  // namespace
}  // namespace gpuglu::trsv
