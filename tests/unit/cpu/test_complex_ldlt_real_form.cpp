// The complex supernodal LDL^T's real form (api/real_form.hpp, api/real_form_ldlt.hpp): K's
// product is A's (both forms), its entries map back to A's, an ordering of A expands with its
// pairs together; through SparseLDLTComplex on the supernodal engine, the matrices that need
// Bunch-Kaufman's 2 x 2 pivots in K (purely imaginary diagonals, indefinite Hermitian ones),
// a real-valued complex symmetric A's inertia, and a failing pivot and a NaN named by A's column.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "api/real_form.hpp"
#include "complex_test_support.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::test {
namespace {

Options supernodal_options() {
  Options o = cpu_options();
  o.ldlt_engine = LuEngine::supernodal;
  return o;
}

// K x2 for K's CSR.
std::vector<double> times(const CsrView<int32_t, double>& k, const std::vector<double>& x) {
  std::vector<double> y(static_cast<size_t>(k.nrows), 0.0);
  for (int32_t i = 0; i < k.nrows; ++i)
    for (int32_t p = k.rowptr[i]; p < k.rowptr[i + 1]; ++p) y[i] += k.values[p] * x[k.colind[p]];
  return y;
}

TEST(RealForm, k_solves_what_a_solves_in_either_form) {
  const CsrZ herm = hermitian_of(gen::from_spec("lap2d5:5x4"), 0.7, 3);
  const CsrZ sym = shifted(gen::from_spec("lap2d5:5x4"), 1.3, 0.4);
  for (const CsrZ* a : {&herm, &sym}) {
    const bool hermitian = a == &herm;
    SCOPED_TRACE(hermitian ? "hermitian" : "symmetric");
    api::RealForm form(a->nrows, a->rowptr.data(), a->colind.data());
    form.expand_values(a->values.data(), hermitian);
    const CsrView<int32_t, double> k = form.matrix();
    ASSERT_EQ(k.nrows, 2 * a->nrows);
    // K is symmetric, entry by entry.
    for (int32_t i = 0; i < k.nrows; ++i)
      for (int32_t p = k.rowptr[i]; p < k.rowptr[i + 1]; ++p) {
        const int32_t j = k.colind[p];
        bool found = false;
        for (int32_t q = k.rowptr[j]; q < k.rowptr[j + 1]; ++q) {
          if (k.colind[q] != i) continue;
          found = true;
          EXPECT_EQ(k.values[q], k.values[p]);
        }
        EXPECT_TRUE(found);
      }
    // If x solves A x = b, K's solution contracts to x: K (x as K's) = (b as K's).
    const std::vector<Cplx> x = complex_vector(a->nrows, 5);
    std::vector<Cplx> b(x.size());
    spmv(a->view(), x.data(), b.data());
    std::vector<double> x2(2 * x.size()), b2(x2.size());
    for (size_t i = 0; i < x.size(); ++i) x2[2 * i] = x[i].real(), x2[2 * i + 1] = hermitian ? x[i].imag() : -x[i].imag();
    form.expand_vector(b.data(), b2.data());
    const std::vector<double> kx = times(k, x2);
    for (size_t r = 0; r < kx.size(); ++r) EXPECT_NEAR(kx[r], b2[r], 1e-12) << r;
    std::vector<Cplx> back(x.size());
    form.contract_vector(x2.data(), back.data());
    EXPECT_LE(relative_error(back, x), 0.0);
    // Every entry of K knows the entry of A its block came from.
    for (int32_t i2 = 0; i2 < k.nrows; ++i2)
      for (int32_t p = k.rowptr[i2]; p < k.rowptr[i2 + 1]; ++p) {
        const int64_t e = form.complex_entry(p);
        ASSERT_GE(e, a->rowptr[i2 / 2]);
        ASSERT_LT(e, a->rowptr[i2 / 2 + 1]);
        EXPECT_EQ(a->colind[e], k.colind[p] / 2);
      }
  }
}

TEST(RealForm, an_ordering_expands_with_its_pairs_together) {
  const int32_t p[] = {2, 0, 1};
  const std::vector<int32_t> p2 = api::RealForm::expand_permutation(p, 3);
  EXPECT_EQ(p2, (std::vector<int32_t>{4, 5, 0, 1, 2, 3}));
}

// A's solution to the tolerance through the supernodal engine; its factor stats.
FactorStats expect_supernodal_solve(const CsrZ& a, Symmetry sym, SparseLDLTComplex& ldlt) {
  ldlt.analyze(a.view(), StoredTriangle::full, nullptr, true, false, sym);
  EXPECT_EQ(ldlt.schedule().kind, FactorKind::supernodal_ldlt);
  const FactorStats fs = ldlt.factor(a.view());
  EXPECT_EQ(fs.status, Status::ok);
  EXPECT_FALSE(ldlt.uses_lu());
  const std::vector<Cplx> x_true = complex_vector(a.nrows, 3);
  std::vector<Cplx> b(x_true.size()), x(x_true.size());
  spmv(a.view(), x_true.data(), b.data());
  EXPECT_EQ(ldlt.solve(b.data(), x.data()).status, Status::ok);
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14);
  EXPECT_LE(relative_error(x, x_true), 1e-8);
  return fs;
}

// i B for an SPD B: each 2 x 2 diagonal block of K is [0 b; b 0], no 1 x 1 pivot at all.
TEST(ComplexSupernodalLDLT, a_purely_imaginary_matrix_takes_two_by_two_pivots) {
  const CsrMatrixD base = gen::from_spec("lap3d7:7x6x5");
  CsrZ a{base.nrows, base.ncols, base.rowptr, base.colind, std::vector<Cplx>(base.values.size())};
  for (size_t p = 0; p < a.values.size(); ++p) a.values[p] = Cplx(0.0, base.values[p]);
  SparseLDLTComplex ldlt(supernodal_options());
  const FactorStats fs = expect_supernodal_solve(a, Symmetry::symmetric, ldlt);
  EXPECT_EQ(fs.perturbed_pivots, 0);
}

TEST(ComplexSupernodalLDLT, indefinite_hermitian_matrices_solve_with_their_inertia) {
  for (double shift : {-1.5, 2.3, 4.9}) {
    SCOPED_TRACE(shift);
    const CsrZ a = hermitian_of(gen::from_spec("lap3d7:6x5x5"), shift, 9);
    SparseLDLTComplex ldlt(supernodal_options());
    const FactorStats fs = expect_supernodal_solve(a, Symmetry::hermitian, ldlt);
    ASSERT_EQ(fs.perturbed_pivots, 0);
    const Inertia in = ldlt.inertia();
    EXPECT_EQ(in.negative + in.zero + in.positive, a.nrows);
    // The column LDL^H (complex arithmetic, no pivoting) counts the same signs.
    Options o = cpu_options();
    o.ldlt_engine = LuEngine::column;
    SparseLDLTComplex column(o);
    column.analyze(a.view(), StoredTriangle::full, nullptr, true, false, Symmetry::hermitian);
    ASSERT_EQ(column.factor(a.view()).status, Status::ok);
    if (column.factor_stats().perturbed_pivots == 0 && !column.uses_lu()) {
      EXPECT_EQ(column.inertia().negative, in.negative);
      EXPECT_EQ(column.inertia().positive, in.positive);
    }
  }
}

// A complex symmetric A whose values are all real is Hermitian too: its inertia is defined.
TEST(ComplexSupernodalLDLT, real_values_give_a_complex_symmetric_matrix_its_inertia) {
  const CsrZ a = shifted(gen::from_spec("lap2d5:9x8"), 1.1, 0.0);
  SparseLDLTComplex ldlt(supernodal_options());
  expect_supernodal_solve(a, Symmetry::symmetric, ldlt);
  SparseLDLT real(supernodal_options());
  const CsrMatrixD ar{a.nrows, a.ncols, a.rowptr, a.colind, [&] {
                        std::vector<double> v(a.values.size());
                        for (size_t p = 0; p < v.size(); ++p) v[p] = a.values[p].real();
                        return v;
                      }()};
  real.analyze(ar.view());
  ASSERT_EQ(real.factor(ar.view()).status, Status::ok);
  const Inertia want = real.inertia(), got = ldlt.inertia();
  EXPECT_EQ(got.negative, want.negative);
  EXPECT_EQ(got.zero, want.zero);
  EXPECT_EQ(got.positive, want.positive);
}

// Under the report policy a singular A fails at one of its own columns; a NaN in the values
// is named by its column.
TEST(ComplexSupernodalLDLT, failures_name_a_column_of_a) {
  CsrZ a = hermitian_of(gen::from_spec("lap2d5:8x8"), 2.0, 4);
  Options o = supernodal_options();
  o.pivot_policy = PivotPolicy::report;
  {
    CsrZ singular = a;
    // Row and column 13 zero but the diagonal: then the diagonal zero too.
    for (int32_t i = 0; i < singular.nrows; ++i)
      for (int32_t p = singular.rowptr[i]; p < singular.rowptr[i + 1]; ++p)
        if (i == 13 || singular.colind[p] == 13) singular.values[p] = 0.0;
    SparseLDLTComplex ldlt(o);
    ldlt.analyze(singular.view(), StoredTriangle::full, nullptr, true, false, Symmetry::hermitian);
    const FactorStats& fs = ldlt.factor(singular.view());
    EXPECT_EQ(fs.status, Status::numerically_singular);
    EXPECT_EQ(fs.pivot_column_original, 13);
  }
  SparseLDLTComplex ldlt(o);
  ldlt.analyze(a.view(), StoredTriangle::full, nullptr, true, false, Symmetry::hermitian);
  for (int32_t p = a.rowptr[20]; p < a.rowptr[21]; ++p)
    if (a.colind[p] == 20) a.values[p] = std::numeric_limits<double>::quiet_NaN();
  const FactorStats& fs = ldlt.factor(a.view());
  EXPECT_EQ(fs.status, Status::nan_or_inf);
  EXPECT_EQ(fs.pivot_column_original, 20);
}

}  // namespace
}  // namespace gpuglu::test
