// SparseLDLTComplex (BasicSparseLDLT<std::complex<double>>) on the CPU backend, on the column
// LDL^T (complex arithmetic) and the supernodal one (the real form, api/real_form_ldlt.hpp): a
// complex symmetric shifted Helmholtz operator (L D L^T) and a Hermitian "magnetic" Laplacian
// (L D L^H), solved to the backward-error tolerance in every storage; the Hermitian inertia
// against LAPACK's dense eigenvalues (zheev); the symmetry checks and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <utility>
#include <vector>

#include "complex_test_support.hpp"
#include "ldlt_test_support.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/matrix_ops.hpp"

extern "C" void zheev_(const char* jobz, const char* uplo, const int* n, std::complex<double>* a, const int* lda,
                       double* w, std::complex<double>* work, const int* lwork, double* rwork, int* info);

namespace gpuglu::test {
namespace {

// The CPU options with the LDL^T engine under test.
class ComplexLDLT : public testing::TestWithParam<LuEngine> {
 protected:
  static Options options() {
    Options o = cpu_options();
    o.ldlt_engine = GetParam();
    return o;
  }
};

INSTANTIATE_TEST_SUITE_P(Engines, ComplexLDLT, testing::Values(LuEngine::column, LuEngine::supernodal),
                         [](const testing::TestParamInfo<LuEngine>& i) {
                           return std::string(i.param == LuEngine::column ? "column" : "supernodal");
                         });

// Solves A x = b for a known x from `stored` (a's full matrix, or one triangle of it).
std::vector<Cplx> expect_solves(const Options& o, const CsrZ& full, StoredTriangle stored, Symmetry sym,
                                double forward_tol, SparseLDLTComplex* keep = nullptr) {
  const CsrZ a = stored == StoredTriangle::full ? full : triangle_of(full, stored);
  SparseLDLTComplex own(o);
  SparseLDLTComplex& ldlt = keep ? *keep : own;
  ldlt.analyze(a.view(), stored, nullptr, true, false, sym);
  EXPECT_EQ(ldlt.schedule().kind, o.ldlt_engine == LuEngine::column ? FactorKind::column_ldlt : FactorKind::supernodal_ldlt);
  EXPECT_EQ(ldlt.factor(a.view()).status, Status::ok);
  EXPECT_FALSE(ldlt.uses_lu());
  const std::vector<Cplx> x_true = complex_vector(full.nrows, 11);
  std::vector<Cplx> b(x_true.size()), x(x_true.size());
  spmv(full.view(), x_true.data(), b.data());
  EXPECT_EQ(ldlt.solve(b.data(), x.data()).status, Status::ok);
  EXPECT_LE(backward_error(full.view(), x.data(), b.data()), 1e-14);
  EXPECT_LE(relative_error(x, x_true), forward_tol);
  return x;
}

TEST_P(ComplexLDLT, complex_symmetric_helmholtz_solves_in_every_storage) {
  const CsrZ a = shifted(gen::from_spec("lap2d5:30x25"), 1.7, 0.05);
  const std::vector<Cplx> full = expect_solves(options(), a, StoredTriangle::full, Symmetry::symmetric, 1e-8);
  const std::vector<Cplx> upper = expect_solves(options(), a, StoredTriangle::upper, Symmetry::symmetric, 1e-8);
  const std::vector<Cplx> lower = expect_solves(options(), a, StoredTriangle::lower, Symmetry::symmetric, 1e-8);
  EXPECT_LE(relative_error(upper, full), 1e-12);
  EXPECT_LE(relative_error(lower, full), 1e-12);
}

TEST_P(ComplexLDLT, complex_symmetric_has_no_inertia) {
  const CsrZ a = shifted(gen::from_spec("lap3d27:6x6x6"), 4.0, 0.5);
  SparseLDLTComplex ldlt(options());
  expect_solves(options(), a, StoredTriangle::full, Symmetry::symmetric, 1e-8, &ldlt);
  try {
    ldlt.inertia();
    FAIL() << "inertia of a complex symmetric matrix";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
  }
}

// Eigenvalue signs of a small Hermitian A (dense, LAPACK zheev).
Inertia dense_inertia(const CsrZ& a) {
  const int n = a.nrows;
  std::vector<Cplx> d(static_cast<size_t>(n) * n, 0.0);
  for (int32_t i = 0; i < n; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) d[static_cast<size_t>(a.colind[p]) * n + i] = a.values[p];
  std::vector<double> w(static_cast<size_t>(n)), rwork(static_cast<size_t>(3 * n));
  int lwork = -1, info = 0;
  Cplx query;
  zheev_("N", "L", &n, d.data(), &n, w.data(), &query, &lwork, rwork.data(), &info);
  lwork = static_cast<int>(query.real());
  std::vector<Cplx> work(static_cast<size_t>(lwork));
  zheev_("N", "L", &n, d.data(), &n, w.data(), work.data(), &lwork, rwork.data(), &info);
  EXPECT_EQ(info, 0);
  double big = 0.0;
  for (double v : w) big = std::max(big, std::fabs(v));
  Inertia in;
  for (double v : w) {
    if (std::fabs(v) <= 1e-10 * big)
      ++in.zero;
    else if (v < 0)
      ++in.negative;
    else
      ++in.positive;
  }
  return in;
}

TEST_P(ComplexLDLT, hermitian_solves_and_its_inertia_matches_the_spectrum) {
  for (double shift : {-0.5, 2.3, 5.1}) {
    SCOPED_TRACE(shift);
    const CsrZ a = hermitian_of(gen::from_spec("lap2d5:14x11"), shift, 6);
    SparseLDLTComplex ldlt(options());
    const std::vector<Cplx> full = expect_solves(options(), a, StoredTriangle::full, Symmetry::hermitian, 1e-9, &ldlt);
    ASSERT_EQ(ldlt.factor_stats().perturbed_pivots, 0);
    const Inertia got = ldlt.inertia(), want = dense_inertia(a);
    EXPECT_EQ(got.negative, want.negative);
    EXPECT_EQ(got.zero, want.zero);
    EXPECT_EQ(got.positive, want.positive);
    // PETSc's SBAIJ stores the upper triangle: its mirror is the conjugate.
    const std::vector<Cplx> upper = expect_solves(options(), a, StoredTriangle::upper, Symmetry::hermitian, 1e-9);
    EXPECT_LE(relative_error(upper, full), 1e-12);
  }
}

TEST_P(ComplexLDLT, hermitian_refactor_with_new_phases) {
  const CsrMatrixD base = gen::from_spec("lap3d27:6x6x6");
  const CsrZ a1 = hermitian_of(base, 3.0, 1), a2 = hermitian_of(base, 3.0, 2);
  SparseLDLTComplex ldlt(options());
  ldlt.analyze(a1.view(), StoredTriangle::full, nullptr, true, false, Symmetry::hermitian);
  ASSERT_EQ(ldlt.factor(a1.view()).status, Status::ok);
  ASSERT_EQ(ldlt.factor(a2.view()).status, Status::ok);
  EXPECT_EQ(ldlt.analysis_count(), 1);
  const std::vector<Cplx> x_true = complex_vector(a2.nrows, 2);
  std::vector<Cplx> b(x_true.size()), x(x_true.size());
  spmv(a2.view(), x_true.data(), b.data());
  ASSERT_EQ(ldlt.solve(b.data(), x.data()).status, Status::ok);
  EXPECT_LE(backward_error(a2.view(), x.data(), b.data()), 1e-14);
}

// solve_transpose (PETSc's MatSolveTranspose) with the one factor: A^T = A for a complex
// symmetric A, and A^T = conj(A) for a Hermitian one (x = conj(A^{-1} conj(b))).
TEST_P(ComplexLDLT, transposed_solves_of_symmetric_and_hermitian_matrices) {
  const CsrZ sym = shifted(gen::from_spec("lap2d5:12x10"), 1.7, 0.05);
  const CsrZ herm = hermitian_of(gen::from_spec("lap2d5:12x10"), 2.3, 5);
  for (const auto& [a, symmetry] : {std::pair{sym, Symmetry::symmetric}, std::pair{herm, Symmetry::hermitian}}) {
    SCOPED_TRACE(symmetry == Symmetry::hermitian ? "hermitian" : "symmetric");
    SparseLDLTComplex ldlt(options());
    ldlt.analyze(a.view(), StoredTriangle::full, nullptr, true, false, symmetry);
    ASSERT_EQ(ldlt.factor(a.view()).status, Status::ok);
    const std::vector<Cplx> x_true = complex_vector(a.nrows, 7);
    std::vector<Cplx> b(x_true.size()), x(x_true.size());
    spmv_transpose(a.view(), x_true.data(), b.data());
    EXPECT_EQ(ldlt.solve_transpose(b.data(), x.data()).status, Status::ok);
    EXPECT_LE(relative_error(x, x_true), 1e-9);
    ldlt.solve_transpose(b.data(), b.data());  // b and x may alias, as in solve()
    EXPECT_LE(relative_error(b, x), 1e-14);
  }
}

TEST_P(ComplexLDLT, the_symmetry_checks_compare_the_complex_values) {
  const CsrZ sym = shifted(gen::from_spec("lap2d5:8x7"), 1.0, 0.5);  // A^T = A, complex diagonal
  const CsrZ herm = hermitian_of(gen::from_spec("lap2d5:8x7"), 1.0, 3);
  auto rejects = [](const CsrZ& a, Symmetry s) {
    SparseLDLTComplex ldlt(options());
    try {
      ldlt.analyze(a.view(), StoredTriangle::full, nullptr, true, false, s);
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::invalid_input);
      return true;
    }
    return false;
  };
  EXPECT_TRUE(rejects(sym, Symmetry::hermitian));   // its diagonal is not real
  EXPECT_TRUE(rejects(herm, Symmetry::symmetric));  // A^H = A but A^T != A
  EXPECT_FALSE(rejects(sym, Symmetry::symmetric));
  EXPECT_FALSE(rejects(herm, Symmetry::hermitian));
}

// ICC(0) of a Hermitian A: (L D L^H)(i, j) = A(i, j) wherever L has an entry (natural
// ordering, no scaling: C = A), with D real.
TEST(ComplexICC, hermitian_icc0_reproduces_a_on_its_pattern) {
  const CsrZ a = hermitian_of(gen::from_spec("lap2d5:9x8"), -0.5, 4);
  Options o = cpu_options();
  o.ilu_levels = 0;
  o.ordering = Ordering::natural;
  SparseLDLTComplex f(o);
  f.analyze(a.view(), StoredTriangle::full, nullptr, true, false, Symmetry::hermitian);
  const Schedule& s = f.schedule();
  ASSERT_TRUE(s.incomplete);
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  const std::vector<Cplx>& fv = f.factor_values();
  const int32_t n = s.n;
  std::vector<Cplx> l(static_cast<size_t>(n) * n, 0.0), d(static_cast<size_t>(n));
  for (int32_t j = 0; j < n; ++j) {
    d[j] = fv[s.f_diag[j]];
    EXPECT_EQ(d[j].imag(), 0.0);
    l[static_cast<size_t>(j) * n + j] = 1.0;
    for (int64_t p = s.f_diag[j] + 1; p < s.f_colptr[j + 1]; ++p) l[static_cast<size_t>(s.f_rowind[p]) * n + j] = fv[p];
  }
  double worst = 0.0;
  for (int32_t j = 0; j < n; ++j)
    for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p) {
      const int32_t i = s.f_rowind[p];
      Cplx ldl = 0.0;
      for (int32_t k = 0; k <= j; ++k)
        ldl += l[static_cast<size_t>(i) * n + k] * d[k] * std::conj(l[static_cast<size_t>(j) * n + k]);
      Cplx aij = 0.0;
      for (int32_t q = a.rowptr[i]; q < a.rowptr[i + 1]; ++q)
        if (a.colind[q] == j) aij = a.values[q];
      worst = std::max(worst, std::abs(ldl - aij));
    }
  EXPECT_LE(worst, 1e-13);
}

// Under PETSc's pivot rule (report, no relative threshold) a Hermitian ICC(k) on the CPU is
// the row ILU of the full matrix, U = D L^H: it preconditions as the column ICC does.
TEST(ComplexICC, hermitian_icc_by_rows_preconditions_as_the_column_icc) {
  const CsrZ a = hermitian_of(gen::from_spec("lap2d5:11x9"), -0.5, 4);
  const std::vector<Cplx> b = complex_vector(a.nrows, 7);
  for (int32_t levels : {0, 1}) {
    SCOPED_TRACE(levels);
    std::vector<std::vector<Cplx>> x;
    for (bool by_rows : {true, false}) {
      Options o = cpu_options();
      o.ilu_levels = levels;
      o.ordering = Ordering::natural;
      if (by_rows) {
        o.pivot_policy = PivotPolicy::report;
        o.pivot_threshold = 0.0;
      }
      SparseLDLTComplex f(o);
      f.analyze(a.view(), StoredTriangle::full, nullptr, true, false, Symmetry::hermitian);
      EXPECT_EQ(f.schedule().kind == FactorKind::row_ilu, by_rows);
      ASSERT_EQ(f.factor(a.view()).status, Status::ok);
      x.emplace_back(b.size());
      ASSERT_EQ(f.solve(b.data(), x.back().data()).status, Status::ok);
    }
    EXPECT_LE(relative_error(x[0], x[1]), 1e-12);
  }
}

// PETSc's positive-definite shift on a Hermitian indefinite ICC(0): every pivot of the
// factor kept is positive (real parts; D is real).
TEST(ComplexICC, hermitian_icc_positive_definite_shift) {
  const CsrZ a = hermitian_of(gen::from_spec("lap2d5:10x10"), 1.5, 8);
  Options o = cpu_options();
  o.ilu_levels = 0;
  o.ordering = Ordering::natural;
  o.shift_type = ShiftType::positive_definite;
  SparseLDLTComplex f(o);
  f.analyze(a.view(), StoredTriangle::full, nullptr, true, false, Symmetry::hermitian);
  const FactorStats& fs = f.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_GT(fs.shift_tries, 0);
  for (int32_t j = 0; j < f.schedule().n; ++j) EXPECT_GT(f.factor_values()[f.schedule().f_diag[j]].real(), 0.0);
}

}  // namespace
}  // namespace gpuglu::test
