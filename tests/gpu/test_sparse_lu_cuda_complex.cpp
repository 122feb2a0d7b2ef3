// Complex scalars on the CUDA engines (issue 15): SparseLUComplex (column LU and ILU) and
// SparseLDLTComplex (complex symmetric L D L^T and Hermitian L D L^H: the column engine, and
// the supernodal one in real form) on the GPU against the same factorizations on the CPU
// reference engine, which the unit tests check against dense
// LAPACK. The factors agree to rounding (complex products and quotients are not the CPU's
// libgcc routines bit for bit: common/device_scalar.cuh), every kernel mode and launch shape
// (warp, block, graph, plain launches, the persistent kernel) gives one factor bit for bit,
// solutions reach the backward-error tolerance, and device-resident data gives the host
// path's answers. Skipped without a usable GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "complex_test_support.hpp"
#include "device_array.hpp"
#include "gpu_test_support.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::test {
namespace {

// max |x - y| / max |y| over two factors (or vectors) of the same pattern.
double factor_difference(const std::vector<Cplx>& x, const std::vector<Cplx>& y) {
  if (x.size() != y.size()) return 1.0;
  return relative_error(x, y);
}

Options gpu(Options o = Options{}) {
  o.backend = Backend::cuda;
  return o;
}

Options cpu(Options o = Options{}) {
  o.backend = Backend::cpu;
  o.num_threads = 3;
  return o;
}

// A solved to the tolerance with a known x; returns x.
std::vector<Cplx> solve_known(SparseLUComplex& lu, const CsrZ& a, bool transpose = false) {
  const std::vector<Cplx> x_true = complex_vector(a.nrows, 7);
  std::vector<Cplx> b(x_true.size()), x(x_true.size());
  if (transpose) {
    const CsrZ at = gpuglu::transpose(a.view());
    spmv(at.view(), x_true.data(), b.data());
    EXPECT_EQ(lu.solve_transpose(b.data(), x.data()).status, Status::ok);
    EXPECT_LE(backward_error(at.view(), x.data(), b.data()), 1e-14);
  } else {
    spmv(a.view(), x_true.data(), b.data());
    EXPECT_EQ(lu.solve(b.data(), x.data()).status, Status::ok);
    EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14);
  }
  return x;
}

class ComplexCudaLU : public ::testing::TestWithParam<const char*> {};

TEST_P(ComplexCudaLU, factor_refactor_and_solves_match_the_cpu_engine) {
  GPUGLU_REQUIRE_GPU();
  const CsrZ a = rotated(gen::from_spec(GetParam()), 5);
  SparseLUComplex dev(gpu()), ref(cpu());
  dev.analyze(a.view());
  ref.analyze(a.view());
  ASSERT_EQ(dev.active_backend(), Backend::cuda);
  ASSERT_EQ(dev.factor(a.view()).status, Status::ok);
  ASSERT_EQ(ref.factor(a.view()).status, Status::ok);
  EXPECT_LE(factor_difference(dev.factor_values(), ref.factor_values()), 1e-12);
  const std::vector<Cplx> x = solve_known(dev, a);
  EXPECT_LE(relative_error(x, solve_known(ref, a)), 1e-9);
  solve_known(dev, a, true);
  // New values, same pattern: values-only refactorization.
  const CsrZ a2 = rotated(gen::from_spec(GetParam()), 9);
  ASSERT_EQ(dev.factor(a2.view()).status, Status::ok);
  ASSERT_EQ(ref.factor(a2.view()).status, Status::ok);
  EXPECT_LE(factor_difference(dev.factor_values(), ref.factor_values()), 1e-12);
  solve_known(dev, a2);
}

INSTANTIATE_TEST_SUITE_P(Matrices, ComplexCudaLU,
                         ::testing::Values("circuit:20000:200:3", "lap2d5:60x50", "lap3d7:14x12x10", "randdd:3000:6:4",
                                           "powergrid:6000:40"));

// Every launch shape computes the same complex factor: stream, small- and large-block
// levels, graph or plain launches, and the persistent kernel.
TEST(ComplexCudaLU, every_kernel_mode_gives_the_same_factor_bitwise) {
  GPUGLU_REQUIRE_GPU();
  const CsrZ a = rotated(gen::from_spec("circuit:50000:500:7"), 3);
  Options base = gpu();
  SparseLUComplex first(base);
  first.analyze(a.view());
  ASSERT_EQ(first.factor(a.view()).status, Status::ok);
  const std::vector<Cplx> f0 = first.factor_values();
  auto variant = [&](Options o, const char* what) {
    SparseLUComplex lu(o);
    lu.analyze(a.view());
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok) << what;
    EXPECT_TRUE(lu.factor_values() == f0) << what;
  };
  Options o = base;
  o.modes.persistent_kernel = true;
  variant(o, "persistent kernel");
  o = base;
  o.cuda.level_graph = false;
  o.modes.programmatic_launch = false;
  variant(o, "plain launches");
  o = base;
  o.modes.stream_max_columns = 0;
  o.modes.max_warps = 4;
  variant(o, "warp updates");
  o = base;
  o.modes.max_block_threads = 1024;
  variant(o, "1024-thread blocks");
}

TEST(ComplexCudaLU, perturbed_pivots_keep_their_phase_like_the_cpu) {
  GPUGLU_REQUIRE_GPU();
  // Zero diagonal entries that the static pivot order keeps (no matching): perturbed.
  CsrZ a = rotated(gen::from_spec("lap2d5:40x40"), 2);
  for (int32_t i = 0; i < a.nrows; i += 97)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] == i) a.values[p] = Cplx(0.0, 0.0);
  Options o;
  o.matching = false;
  o.scaling = false;
  o.pivot_policy = PivotPolicy::perturb;
  SparseLUComplex dev(gpu(o)), ref(cpu(o));
  dev.analyze(a.view());
  ref.analyze(a.view());
  const FactorStats ds = dev.factor(a.view());
  const FactorStats rs = ref.factor(a.view());
  ASSERT_EQ(ds.status, Status::ok);
  ASSERT_EQ(rs.status, Status::ok);
  EXPECT_GT(ds.perturbed_pivots, 0);
  EXPECT_EQ(ds.perturbed_pivots, rs.perturbed_pivots);
  EXPECT_LE(factor_difference(dev.factor_values(), ref.factor_values()), 1e-12);
}

TEST(ComplexCudaLU, nan_in_an_imaginary_part_names_its_column) {
  GPUGLU_REQUIRE_GPU();
  CsrZ a = rotated(gen::from_spec("randdd:2000:5:2"), 1);
  SparseLUComplex lu(gpu());
  lu.analyze(a.view());
  a.values[1234] = Cplx(1.0, std::numeric_limits<double>::quiet_NaN());
  const FactorStats st = lu.factor(a.view());
  EXPECT_EQ(st.status, Status::nan_or_inf);
  EXPECT_EQ(st.pivot_column_original, a.colind[1234]);
}

TEST(ComplexCudaLU, ilu0_matches_the_cpu_ilu0) {
  GPUGLU_REQUIRE_GPU();
  const CsrZ a = shifted(gen::from_spec("lap2d5:80x70"), -0.5, 0.3);
  Options o;
  o.ilu_levels = 0;
  SparseLUComplex dev(gpu(o)), ref(cpu(o));
  dev.analyze(a.view());
  ref.analyze(a.view());
  ASSERT_TRUE(dev.schedule().incomplete);
  ASSERT_EQ(dev.factor(a.view()).status, Status::ok);
  ASSERT_EQ(ref.factor(a.view()).status, Status::ok);
  EXPECT_LE(factor_difference(dev.factor_values(), ref.factor_values()), 1e-12);
  const std::vector<Cplx> b = complex_vector(a.nrows, 3);
  std::vector<Cplx> xd(b.size()), xr(b.size());
  dev.solve(b.data(), xd.data());
  ref.solve(b.data(), xr.data());
  EXPECT_LE(relative_error(xd, xr), 1e-11);  // M^{-1} b: the preconditioner's application
}

using DeviceZ = DeviceArray<Cplx>;

TEST(ComplexCudaLU, device_resident_data_gives_the_host_paths_answers_bitwise) {
  GPUGLU_REQUIRE_GPU();
  const CsrZ a = rotated(gen::from_spec("circuit:20000:200:3"), 4);
  SparseLUComplex host(gpu()), dev(gpu());
  host.analyze(a.view());
  dev.analyze(a.view());
  ASSERT_EQ(host.factor(a.view()).status, Status::ok);
  DeviceZ values(a.values);
  ASSERT_EQ(dev.factor_device(values.get()).status, Status::ok);
  EXPECT_TRUE(dev.factor_values() == host.factor_values());
  const std::vector<Cplx> b = complex_vector(a.nrows, 5);
  for (bool transpose : {false, true}) {
    std::vector<Cplx> x(b.size());
    if (transpose)
      host.solve_transpose(b.data(), x.data());
    else
      host.solve(b.data(), x.data());
    DeviceZ d_b(b), d_x(std::vector<Cplx>(b.size()));
    const SolveStats ss = transpose ? dev.solve_transpose_device(d_b.get(), d_x.get())
                                    : dev.solve_device(d_b.get(), d_x.get());
    EXPECT_EQ(ss.status, Status::ok);
    EXPECT_TRUE(d_x.host() == x) << (transpose ? "A^T x = b" : "A x = b");
  }
}

// --- LDL^T ---

std::vector<Cplx> ldlt_solve_known(SparseLDLTComplex& f, const CsrZ& a) {
  const std::vector<Cplx> x_true = complex_vector(a.nrows, 11);
  std::vector<Cplx> b(x_true.size()), x(x_true.size());
  spmv(a.view(), x_true.data(), b.data());
  EXPECT_EQ(f.solve(b.data(), x.data()).status, Status::ok);
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14);
  return x;
}

// The column LDL^T (complex arithmetic; the supernodal one is below): its factor too.
void expect_ldlt_matches_cpu(const CsrZ& a, Symmetry sym, Options o = Options{}) {
  o.ldlt_engine = LuEngine::column;
  SparseLDLTComplex dev(gpu(o)), ref(cpu(o));
  dev.analyze(a.view(), StoredTriangle::full, nullptr, true, false, sym);
  ref.analyze(a.view(), StoredTriangle::full, nullptr, true, false, sym);
  ASSERT_EQ(dev.active_backend(), Backend::cuda);
  ASSERT_EQ(dev.factor(a.view()).status, Status::ok);
  ASSERT_EQ(ref.factor(a.view()).status, Status::ok);
  ASSERT_FALSE(dev.uses_lu());
  EXPECT_LE(factor_difference(dev.factor_values(), ref.factor_values()), 1e-12);
  const std::vector<Cplx> x = ldlt_solve_known(dev, a);
  EXPECT_LE(relative_error(x, ldlt_solve_known(ref, a)), 1e-9);
  if (sym == Symmetry::hermitian) {
    const Inertia di = dev.inertia(), ri = ref.inertia();
    EXPECT_EQ(di.positive, ri.positive);
    EXPECT_EQ(di.negative, ri.negative);
    EXPECT_EQ(di.zero, ri.zero);
  }
}

TEST(ComplexCudaLDLT, complex_symmetric_helmholtz_matches_the_cpu) {
  GPUGLU_REQUIRE_GPU();
  expect_ldlt_matches_cpu(shifted(gen::from_spec("lap2d5:70x60"), 1.7, 0.05), Symmetry::symmetric);
  expect_ldlt_matches_cpu(shifted(gen::from_spec("lap3d7:16x14x12"), 0.9, 0.1), Symmetry::symmetric);
}

TEST(ComplexCudaLDLT, hermitian_matches_the_cpu_with_its_inertia) {
  GPUGLU_REQUIRE_GPU();
  expect_ldlt_matches_cpu(hermitian_of(gen::from_spec("lap3d27:12x12x12"), 2.0, 3), Symmetry::hermitian);
  expect_ldlt_matches_cpu(hermitian_of(gen::from_spec("lap2d9:60x60"), 0.5, 8), Symmetry::hermitian);
  Options o;
  o.modes.persistent_kernel = true;
  expect_ldlt_matches_cpu(hermitian_of(gen::from_spec("lap2d5:50x40"), 1.0, 5), Symmetry::hermitian, o);
}

TEST(ComplexCudaLDLT, hermitian_icc0_matches_the_cpu) {
  GPUGLU_REQUIRE_GPU();
  const CsrZ a = hermitian_of(gen::from_spec("lap2d5:60x60"), -0.2, 6);  // positive definite
  Options o;
  o.ilu_levels = 0;
  SparseLDLTComplex dev(gpu(o)), ref(cpu(o));
  dev.analyze(a.view(), StoredTriangle::full, nullptr, true, true, Symmetry::hermitian);
  ref.analyze(a.view(), StoredTriangle::full, nullptr, true, true, Symmetry::hermitian);
  ASSERT_EQ(dev.factor(a.view()).status, Status::ok);
  ASSERT_EQ(ref.factor(a.view()).status, Status::ok);
  EXPECT_LE(factor_difference(dev.factor_values(), ref.factor_values()), 1e-12);
}

// --- the supernodal LDL^T in real form (api/real_form_ldlt.hpp) ---

// The GPU's solution and inertia against the CPU's (the same real-form algorithm; pivot
// choices at near ties may differ, so the solutions agree to the conditioning, not bitwise).
void expect_real_form_matches_cpu(const CsrZ& a, Symmetry sym, bool spd = false) {
  SparseLDLTComplex dev(gpu()), ref(cpu());
  dev.analyze(a.view(), StoredTriangle::full, nullptr, true, spd, sym);
  ref.analyze(a.view(), StoredTriangle::full, nullptr, true, spd, sym);
  ASSERT_EQ(dev.active_backend(), Backend::cuda);
  ASSERT_EQ(dev.schedule().kind, FactorKind::supernodal_ldlt);
  ASSERT_EQ(dev.factor(a.view()).status, Status::ok);
  ASSERT_EQ(ref.factor(a.view()).status, Status::ok);
  ASSERT_FALSE(dev.uses_lu());
  EXPECT_GT(dev.device_bytes(), 0);
  const std::vector<Cplx> x = ldlt_solve_known(dev, a);
  EXPECT_LE(relative_error(x, ldlt_solve_known(ref, a)), 1e-9);
  if (sym == Symmetry::hermitian && dev.factor_stats().perturbed_pivots == 0) {
    const Inertia di = dev.inertia(), ri = ref.inertia();
    EXPECT_EQ(di.positive, ri.positive);
    EXPECT_EQ(di.negative, ri.negative);
    EXPECT_EQ(di.zero, ri.zero);
    EXPECT_EQ(di.positive + di.negative + di.zero, a.nrows);
  }
  // A refactorization with new values keeps the analysis.
  CsrZ a2 = a;
  for (Cplx& v : a2.values) v *= 1.5;
  ASSERT_EQ(dev.factor(a2.view()).status, Status::ok);
  EXPECT_EQ(dev.analysis_count(), 1);
  ldlt_solve_known(dev, a2);
}

TEST(ComplexCudaSupernodalLDLT, complex_symmetric_helmholtz_matches_the_cpu) {
  GPUGLU_REQUIRE_GPU();
  expect_real_form_matches_cpu(shifted(gen::from_spec("lap2d5:70x60"), 1.7, 0.05), Symmetry::symmetric);
  expect_real_form_matches_cpu(shifted(gen::from_spec("lap3d7:22x20x18"), 0.9, 0.1), Symmetry::symmetric);
}

TEST(ComplexCudaSupernodalLDLT, hermitian_matches_the_cpu_with_its_inertia) {
  GPUGLU_REQUIRE_GPU();
  expect_real_form_matches_cpu(hermitian_of(gen::from_spec("lap3d27:12x12x12"), 2.0, 3), Symmetry::hermitian);
  expect_real_form_matches_cpu(hermitian_of(gen::from_spec("lap3d7:24x22x20"), 1.1, 8), Symmetry::hermitian);
  expect_real_form_matches_cpu(hermitian_of(gen::from_spec("lap3d7:20x20x20"), -0.3, 2), Symmetry::hermitian,
                               /*spd=*/true);
}

// i B: K's diagonal blocks are [0 b; b 0], every pivot a 2 x 2 one.
TEST(ComplexCudaSupernodalLDLT, a_purely_imaginary_matrix_matches_the_cpu) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrixD base = gen::from_spec("lap3d7:18x16x14");
  CsrZ a{base.nrows, base.ncols, base.rowptr, base.colind, std::vector<Cplx>(base.values.size())};
  for (size_t p = 0; p < a.values.size(); ++p) a.values[p] = Cplx(0.0, base.values[p]);
  expect_real_form_matches_cpu(a, Symmetry::symmetric);
}

// A CUDA PETSc's complex vectors: the real form takes them through the host.
TEST(ComplexCudaSupernodalLDLT, device_resident_data_gives_the_host_paths_answers) {
  GPUGLU_REQUIRE_GPU();
  const CsrZ a = hermitian_of(gen::from_spec("lap3d7:14x14x14"), 1.3, 4);
  SparseLDLTComplex dev(gpu());
  dev.analyze(a.view(), StoredTriangle::full, nullptr, true, false, Symmetry::hermitian);
  ASSERT_EQ(dev.factor(a.view()).status, Status::ok);
  const std::vector<Cplx> b = complex_vector(a.nrows, 6);
  std::vector<Cplx> x(b.size());
  ASSERT_EQ(dev.solve(b.data(), x.data()).status, Status::ok);
  DeviceArray<Cplx> d_values(a.values), d_b(b), d_x(std::vector<Cplx>(b.size()));
  ASSERT_EQ(dev.factor_device(d_values.get()).status, Status::ok);
  ASSERT_EQ(dev.solve_device(d_b.get(), d_x.get()).status, Status::ok);
  // The Schur complements' scatter may add in another order: equal to rounding.
  EXPECT_LE(relative_error(d_x.host(), x), 1e-12);
}

}  // namespace
}  // namespace gpuglu::test
