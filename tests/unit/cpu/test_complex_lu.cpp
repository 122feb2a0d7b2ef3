// SparseLUComplex (BasicSparseLU<std::complex<double>>) on the CPU backend: solves of
// rotated generated matrices (each entry given its own phase) checked by the componentwise
// backward error and against the known solution, a real-valued complex matrix giving the
// real factor, refactorization, KLU's complex partial pivoting after a failed static pivot,
// ILU(0)'s defining property, and the refusals (CUDA, supernodal).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "complex_test_support.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::test {
namespace {

// Factor and solve A x = b and A^T x = b for a known x; both must be solutions.
void expect_solves(const CsrZ& a, const Options& o, double forward_tol) {
  SparseLUComplex lu(o);
  lu.analyze(a.view());
  const FactorStats& fs = lu.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  // The static pivots did the work: no recovery (which would hide a wrong factor behind
  // KLU's) and no perturbation.
  EXPECT_EQ(fs.recovery, RecoveryReason::none);
  EXPECT_FALSE(fs.repivoted);
  EXPECT_EQ(fs.perturbed_pivots, 0);
  const std::vector<Cplx> x_true = complex_vector(a.nrows, 7);
  std::vector<Cplx> b(x_true.size()), x(x_true.size());
  for (bool transpose : {false, true}) {
    if (transpose)
      spmv_transpose(a.view(), x_true.data(), b.data());
    else
      spmv(a.view(), x_true.data(), b.data());
    const SolveStats& st = transpose ? lu.solve_transpose(b.data(), x.data()) : lu.solve(b.data(), x.data());
    ASSERT_EQ(st.status, Status::ok);
    EXPECT_FALSE(st.recovered);
    const CsrView<int32_t, Cplx> at_view = a.view();
    const CsrZ at = transpose ? gpuglu::transpose(at_view) : a;
    EXPECT_LE(backward_error(at.view(), x.data(), b.data()), 1e-14) << (transpose ? "A^T x = b" : "A x = b");
    EXPECT_LE(relative_error(x, x_true), forward_tol) << (transpose ? "A^T x = b" : "A x = b");
  }
}

TEST(ComplexLU, solves_rotated_generated_matrices) {
  for (const char* spec : {"randdd:800:6:11", "circuit:3000:40:7", "convdiff3d:8x7x6:5", "powergrid:1200:12:3"}) {
    SCOPED_TRACE(spec);
    expect_solves(rotated(gen::from_spec(spec), 3), cpu_options(), 1e-9);
  }
}

TEST(ComplexLU, solves_shifted_helmholtz_with_both_executors) {
  const CsrZ a = shifted(gen::from_spec("lap2d5:30x25"), 1.7, 0.05);
  Options o = cpu_options();
  expect_solves(a, o, 1e-8);
  o.cpu_right_looking = true;
  expect_solves(a, o, 1e-8);
}

// Complex arithmetic on values with zero imaginary parts is real arithmetic (to the last
// bit but for complex division's own rounding): the factors agree to rounding.
TEST(ComplexLU, real_valued_complex_matrix_gives_the_real_factor) {
  const CsrMatrixD a = gen::from_spec("circuit:3000:40:7");
  const CsrZ z{a.nrows, a.ncols, a.rowptr, a.colind, std::vector<Cplx>(a.values.begin(), a.values.end())};
  Options column = cpu_options();
  column.lu_engine = LuEngine::column;  // the complex LU's engine, on the real matrix
  SparseLU real(column);
  real.analyze(a.view());
  ASSERT_EQ(real.factor(a.view()).status, Status::ok);
  SparseLUComplex cplx(cpu_options());
  cplx.analyze(z.view());
  ASSERT_EQ(cplx.factor(z.view()).status, Status::ok);
  ASSERT_EQ(real.schedule().f_rowind, cplx.schedule().f_rowind);
  const std::vector<double>& fr = real.factor_values();
  const std::vector<Cplx>& fz = cplx.factor_values();
  double big = 0.0, diff = 0.0, imag = 0.0;
  for (size_t i = 0; i < fr.size(); ++i) {
    big = std::max(big, std::fabs(fr[i]));
    diff = std::max(diff, std::abs(fz[i] - fr[i]));
    imag = std::max(imag, std::fabs(fz[i].imag()));
  }
  EXPECT_LE(diff, 1e-13 * big);
  EXPECT_EQ(imag, 0.0);
}

TEST(ComplexLU, refactor_reuses_the_analysis) {
  const CsrMatrixD base = gen::from_spec("randdd:800:6:11");
  const CsrZ a1 = rotated(base, 1), a2 = rotated(base, 2);
  SparseLUComplex lu(cpu_options());
  lu.analyze(a1.view());
  ASSERT_EQ(lu.factor(a1.view()).status, Status::ok);
  ASSERT_EQ(lu.refactor(a2.values.data()).status, Status::ok);
  EXPECT_EQ(lu.analysis_count(), 1);
  const std::vector<Cplx> x_true = complex_vector(a2.nrows, 5);
  std::vector<Cplx> b(x_true.size()), x(x_true.size());
  spmv(a2.view(), x_true.data(), b.data());
  ASSERT_EQ(lu.solve(b.data(), x.data()).status, Status::ok);
  EXPECT_LE(backward_error(a2.view(), x.data(), b.data()), 1e-14);
  EXPECT_LE(relative_error(x, x_true), 1e-10);
}

// Rows of a diagonally dominant complex B moved down by one: A's diagonal holds explicit
// zeros, so without matching every static pivot fails and the repivot policy must hand A
// to KLU's complex factorization (klu_z_factor), whose order then solves A.
TEST(ComplexLU, repivot_uses_klu_on_the_complex_values) {
  const CsrZ b = rotated(gen::from_spec("randdd:300:5:4"), 9);
  const int32_t n = b.nrows;
  std::vector<Triplet<int32_t, Cplx>> e;
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t p = b.rowptr[i]; p < b.rowptr[i + 1]; ++p) e.push_back({(i + 1) % n, b.colind[p], b.values[p]});
    e.push_back({i, i, Cplx(0.0, 0.0)});
  }
  const CsrZ a = csr_from_triplets<int32_t, Cplx>(n, n, e);
  Options o = cpu_options();
  o.matching = false;
  o.scaling = false;
  o.pivot_policy = PivotPolicy::repivot;
  SparseLUComplex lu(o);
  lu.analyze(a.view());
  const FactorStats& fs = lu.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_TRUE(fs.repivoted);
  EXPECT_TRUE(lu.schedule().repivoted);
  const std::vector<Cplx> x_true = complex_vector(n, 3);
  std::vector<Cplx> rhs(x_true.size()), x(x_true.size());
  spmv(a.view(), x_true.data(), rhs.data());
  ASSERT_EQ(lu.solve(rhs.data(), x.data()).status, Status::ok);
  EXPECT_LE(backward_error(a.view(), x.data(), rhs.data()), 1e-14);
}

// ILU(0): (L U)(i, j) = C(i, j) on C's pattern, C = A(q, q) (ILU applies no matching or
// scaling), checked densely on a small rotated convection-diffusion matrix.
TEST(ComplexLU, ilu0_reproduces_a_on_its_pattern) {
  const CsrZ a = rotated(gen::from_spec("convdiff3d:6x5x4:5"), 4);
  // The column engine, and the row ILU (PETSc's rule: no relative threshold).
  for (double threshold : {Options{}.pivot_threshold, 0.0}) {
    Options o = cpu_options();
    o.ilu_levels = 0;
    o.pivot_threshold = threshold;
    SparseLUComplex ilu(o);
    ilu.analyze(a.view());
    ASSERT_EQ(ilu.schedule().kind, threshold == 0.0 ? FactorKind::row_ilu : FactorKind::column_lu);
    ASSERT_EQ(ilu.factor(a.view()).status, Status::ok);
    const Schedule& s = ilu.schedule();
    const std::vector<Cplx>& f = ilu.factor_values();
    const int32_t n = s.n;
    std::vector<Cplx> l(static_cast<size_t>(n) * n), u(static_cast<size_t>(n) * n);
    for (int32_t j = 0; j < n; ++j)
      for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p) {
        const int32_t i = s.f_rowind[p];
        (i <= j ? u : l)[static_cast<size_t>(i) * n + j] = f[p];
      }
    for (int32_t i = 0; i < n; ++i) l[static_cast<size_t>(i) * n + i] = 1.0;
    double worst = 0.0;
    for (int32_t r = 0; r < a.nrows; ++r)
      for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
        const int32_t i = s.row_perm_inv[r], j = s.col_perm_inv[a.colind[p]];
        Cplx lu_ij = 0.0;
        for (int32_t k = 0; k <= std::min(i, j); ++k)
          lu_ij += l[static_cast<size_t>(i) * n + k] * u[static_cast<size_t>(k) * n + j];
        worst = std::max(worst, std::abs(lu_ij - a.values[p]) / std::abs(a.values[p]));
      }
    EXPECT_LE(worst, 1e-13);
  }
}

TEST(ComplexLU, nan_in_an_imaginary_part_is_reported) {
  CsrZ a = rotated(gen::from_spec("randdd:200:4:2"), 1);
  SparseLUComplex lu(cpu_options());
  lu.analyze(a.view());
  a.values[17] = Cplx(1.0, std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(lu.factor(a.view()).status, Status::nan_or_inf);
}

TEST(ComplexLU, supernodal_engine_is_refused_and_cuda_needs_a_cuda_build) {
  const CsrZ a = rotated(gen::from_spec("randdd:200:4:2"), 1);
  Options o = cpu_options();
  o.lu_engine = LuEngine::supernodal;
  SparseLUComplex supernodal(o);
  try {
    supernodal.analyze(a.view());
    FAIL() << "the supernodal engine accepted a complex matrix";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
    EXPECT_NE(std::string(e.what()).find("lu_engine column"), std::string::npos) << e.what();
  }
  // The column engines take complex scalars on the GPU too (tests/gpu); a build without
  // CUDA refuses backend cuda as it does for real matrices, and automatic stays on the CPU.
  if (built_with_cuda()) return;
  o = cpu_options();
  o.backend = Backend::cuda;
  SparseLUComplex on_gpu(o);
  try {
    on_gpu.analyze(a.view());
    FAIL() << "backend cuda accepted in a build without CUDA";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
    EXPECT_NE(std::string(e.what()).find("backend cpu"), std::string::npos) << e.what();
  }
  o = cpu_options();
  o.backend = Backend::automatic;
  o.auto_gpu_min_factor_nnz = 0;
  SparseLUComplex automatic(o);
  automatic.analyze(a.view());
  EXPECT_EQ(automatic.active_backend(), Backend::cpu);
}

}  // namespace
}  // namespace gpuglu::test
