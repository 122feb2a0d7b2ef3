// SplitLU on the CUDA backend (include/gpuglu/split_lu.hpp): the halves on two devices (the
// first and the last visible: two distinct GPUs where there are two, the same one otherwise),
// their Schur blocks handed device to device (peer to peer across GPUs) to the root's
// cuSOLVER LU, against the CPU backend's SplitLU (the oracle) and A: solves and transposed
// solves, a refactorization with new values, a matrix that pivots; and the GPU root alone
// against LAPACK's (the host root): unpivoted where S passes the static-pivot test, partial
// pivoting where it does not. Skipped without a usable GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "api/dense_root.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/split_lu.hpp"

namespace gpuglu::test {
namespace {

using Csr = CsrMatrix<int32_t, double>;

std::vector<int32_t> two_devices() {
  const int32_t count = query_device().device_count;
  return {0, std::max(0, count - 1)};
}

void expect_like_the_cpu(const Csr& a, const std::string& name,
                         SplitFactorization factorization = SplitFactorization::lu) {
  SCOPED_TRACE(name);
  Options gpu = default_cuda_options(), cpu;
  cpu.backend = Backend::cpu;
  SplitLU g(gpu, two_devices(), factorization), c(cpu, {0, 1}, factorization);
  g.analyze(a.view());
  c.analyze(a.view());
  ASSERT_EQ(g.separator_size(), c.separator_size());
  ASSERT_EQ(g.factor(a.view()).status, Status::ok) << g.failure();
  ASSERT_EQ(c.factor(a.view()).status, Status::ok) << c.failure();
  std::vector<double> b(static_cast<size_t>(a.nrows)), xg(b.size()), xc(b.size());
  for (size_t i = 0; i < b.size(); ++i) b[i] = 1.0 + std::sin(0.3 * static_cast<double>(i));
  for (bool transpose : {false, true}) {
    if (transpose) {
      g.solve_transpose(b.data(), xg.data());
      c.solve_transpose(b.data(), xc.data());
    } else {
      g.solve(b.data(), xg.data());
      c.solve(b.data(), xc.data());
      EXPECT_LT(backward_error(a.view(), xg.data(), b.data()), 1e-14);
    }
    // The device path measures the backward error on the device, as the host path does.
    EXPECT_GE(g.solve_stats().backward_error, 0.0);
    EXPECT_LT(g.solve_stats().backward_error, 1e-14);
    EXPECT_EQ(g.solve_stats().status, Status::ok);
    EXPECT_LT(relative_difference_inf(xg, xc), 1e-10) << "transpose " << transpose;
  }
}

TEST(SplitFactor, two_devices_solve_as_the_cpu_split_does) {
  GPUGLU_REQUIRE_GPU();
  expect_like_the_cpu(gen::from_spec("lap3d7:24x24x24"), "lap3d7:24^3");
  expect_like_the_cpu(gen::from_spec("convdiff3d:20x20x20:50"), "convdiff3d:20^3");
  gen::CircuitParams circuit;
  circuit.nodes = 30000;
  circuit.voltage_sources = 40;
  expect_like_the_cpu(gen::circuit_mna(circuit), "circuit:30000");
}

// The LDL^T split: SparseLDLT halves in Schur mode on the GPUs, the symmetric S's root by
// Cholesky where S is positive definite (the SPD grid), by LU otherwise (the shifted one).
TEST(SplitFactor, an_ldlt_split_solves_as_the_cpu_split_does) {
  GPUGLU_REQUIRE_GPU();
  expect_like_the_cpu(gen::from_spec("lap3d7:24x24x24"), "lap3d7:24^3", SplitFactorization::ldlt);
  expect_like_the_cpu(gen::from_spec("shiftlap3d:20x20x20:0.8"), "shiftlap3d:20^3", SplitFactorization::ldlt);
  SplitLU g(default_cuda_options(), two_devices(), SplitFactorization::ldlt);
  const Csr a = gen::from_spec("lap3d7:16x16x16");
  g.analyze(a.view());
  ASSERT_EQ(g.half(0)->active_backend(), Backend::cuda);
  ASSERT_EQ(g.factor(a.view()).status, Status::ok);
  EXPECT_EQ(g.root_factorization(), RootFactorization::cholesky);
}

TEST(SplitFactor, a_refactorization_takes_the_new_values) {
  GPUGLU_REQUIRE_GPU();
  Csr a = gen::from_spec("lap3d7:20x20x20");
  SplitLU g(default_cuda_options(), two_devices());
  g.analyze(a.view());
  ASSERT_EQ(g.factor(a.view()).status, Status::ok);
  for (size_t p = 0; p < a.values.size(); ++p) a.values[p] *= 1.0 + 0.1 * static_cast<double>(p % 3);
  ASSERT_EQ(g.factor(a.view()).status, Status::ok);
  std::vector<double> b(static_cast<size_t>(a.nrows), 1.0), x(b.size());
  g.solve(b.data(), x.data());
  EXPECT_LT(backward_error(a.view(), x.data(), b.data()), 1e-14);
}

// x may alias b; without refinement no backward error is measured, and the answer still
// holds (the devices' solve alone).
TEST(SplitFactor, a_solve_in_place_and_one_without_refinement) {
  GPUGLU_REQUIRE_GPU();
  const Csr a = gen::from_spec("convdiff3d:16x16x16:20");
  Options o = default_cuda_options();
  SplitLU g(o, two_devices());
  g.analyze(a.view());
  ASSERT_EQ(g.factor(a.view()).status, Status::ok);
  std::vector<double> b(static_cast<size_t>(a.nrows));
  for (size_t i = 0; i < b.size(); ++i) b[i] = std::cos(0.2 * static_cast<double>(i));
  for (bool transpose : {false, true}) {
    std::vector<double> x = b;
    if (transpose)
      g.solve_transpose(x.data(), x.data());
    else
      g.solve(x.data(), x.data());
    const Csr op = transpose ? gpuglu::transpose(a.view()) : a;
    EXPECT_LT(backward_error(op.view(), x.data(), b.data()), 1e-14) << "transpose " << transpose;
  }
  o.refine_steps = 0;
  SplitLU bare(o, two_devices());
  bare.analyze(a.view());
  ASSERT_EQ(bare.factor(a.view()).status, Status::ok);
  std::vector<double> x(b.size());
  bare.solve(b.data(), x.data());
  EXPECT_EQ(bare.solve_stats().backward_error, -1.0);
  EXPECT_EQ(bare.solve_stats().refine_steps, 0);
  EXPECT_LT(relative_residual(a.view(), x.data(), b.data()), 1e-12);
}

// S (k x k, column-major): a dense, diagonally dominant matrix, then `edit` applied.
template <class Edit>
std::vector<double> root_matrix(int64_t k, Edit edit) {
  std::vector<double> s(static_cast<size_t>(k * k));
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i)
      s[static_cast<size_t>(i + j * k)] = std::sin(0.7 * static_cast<double>(i) + 1.3 * static_cast<double>(j)) +
                                          (i == j ? 2.0 * static_cast<double>(k) : 0.0);
  edit(s);
  return s;
}

// The GPU root's solves (host and device right-hand sides, both transposes) against LAPACK's
// root on the same S, and whether it pivoted.
void expect_root_like_lapack(const std::vector<double>& s, int64_t k, RootFactorization how, const std::string& name,
                             bool symmetric = false) {
  SCOPED_TRACE(name);
  const PivotRule rule = PivotRule::from(Options());
  std::unique_ptr<api::DenseRoot> gpu = api::make_cuda_dense_root(0, rule, symmetric),
                                  cpu = api::make_lapack_dense_root();
  ASSERT_EQ(cpu->factor(s.data(), k), -1);
  ASSERT_EQ(gpu->factor(s.data(), k), -1);
  EXPECT_EQ(gpu->factorization(), how);
  EXPECT_EQ(cpu->factorization(), RootFactorization::lu_pivoted);
  std::vector<double> rhs(static_cast<size_t>(k));
  for (int64_t i = 0; i < k; ++i) rhs[static_cast<size_t>(i)] = std::cos(0.4 * static_cast<double>(i));
  for (bool transpose : {false, true}) {
    std::vector<double> xc = rhs, xg = rhs;
    cpu->solve(xc.data(), transpose);
    gpu->solve(xg.data(), transpose);
    EXPECT_LT(relative_difference_inf(xg, xc), 1e-12) << "transpose " << transpose;
  }
  // The device right-hand sides: rhs split into two summands, as the halves hand them over.
  std::vector<double> half(rhs.size()), rest(rhs.size());
  for (size_t i = 0; i < rhs.size(); ++i) {
    half[i] = 0.25 * rhs[i];
    rest[i] = rhs[i] - half[i];
  }
  std::vector<double> xc = rhs;
  cpu->solve(xc.data(), false);
  // The blocks' buffers are the root's own (device_block), so the matrix is placed again.
  double* block0 = gpu->device_block(0, k);
  double* block1 = gpu->device_block(1, k);
  const size_t bytes = s.size() * sizeof(double);
  ASSERT_EQ(cudaMemcpy(block0, s.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(block1, 0, bytes), cudaSuccess);
  // The root's stream does not wait for the legacy stream's memset (asynchronous), so the
  // blocks are complete before it reads them, as the halves' copies are.
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(gpu->factor_device_blocks(), -1);
  EXPECT_EQ(gpu->factorization(), how);
  ASSERT_EQ(cudaMemcpy(gpu->device_rhs(0), half.data(), rhs.size() * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(gpu->device_rhs(1), rest.data(), rhs.size() * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  gpu->solve_device_rhs(false);
  std::vector<double> xg(rhs.size());
  ASSERT_EQ(cudaMemcpy(xg.data(), gpu->device_rhs(0), rhs.size() * sizeof(double), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_LT(relative_difference_inf(xg, xc), 1e-12);
}

TEST(SplitRoot, unpivoted_where_the_test_passes_partial_pivoting_where_not) {
  GPUGLU_REQUIRE_GPU();
  const int64_t k = 300;
  expect_root_like_lapack(root_matrix(k, [](std::vector<double>&) {}), k, RootFactorization::lu_unpivoted,
                          "diagonally dominant");
  // An exactly zero first pivot (getrf's info), and a tiny one (the test: 1e-15 of its column).
  expect_root_like_lapack(root_matrix(k, [](std::vector<double>& s) { s[0] = 0.0; }), k,
                          RootFactorization::lu_pivoted, "zero pivot");
  expect_root_like_lapack(root_matrix(k, [&](std::vector<double>& s) {
                            for (int64_t i = 0; i < k; ++i) s[static_cast<size_t>(i)] *= 1e-15 / std::fabs(s[0]);
                            s[1] = 1.0;
                          }),
                          k, RootFactorization::lu_pivoted, "tiny pivot");
  // Symmetric: Cholesky where S is positive definite; an indefinite S (a negative diagonal
  // block) falls to the LU, unpivoted where that passes.
  auto symmetric = [&](double sign) {
    return root_matrix(k, [&](std::vector<double>& s) {
      for (int64_t j = 0; j < k; ++j)
        for (int64_t i = 0; i < k; ++i)
          if (i != j) s[static_cast<size_t>(i + j * k)] = 0.5 * std::cos(0.3 * static_cast<double>(i + j));
      for (int64_t i = 0; i < k / 3; ++i) s[static_cast<size_t>(i + i * k)] *= sign;
    });
  };
  expect_root_like_lapack(symmetric(1.0), k, RootFactorization::cholesky, "symmetric positive definite", true);
  expect_root_like_lapack(symmetric(-1.0), k, RootFactorization::lu_unpivoted, "symmetric indefinite", true);
  // A zero column: no pivot order helps; both roots name it.
  const int64_t zero = 17;
  const std::vector<double> singular = root_matrix(k, [&](std::vector<double>& s) {
    std::fill(s.begin() + zero * k, s.begin() + (zero + 1) * k, 0.0);
  });
  std::unique_ptr<api::DenseRoot> gpu = api::make_cuda_dense_root(0, PivotRule::from(Options()));
  EXPECT_EQ(gpu->factor(singular.data(), k), zero);
  EXPECT_EQ(api::make_lapack_dense_root()->factor(singular.data(), k), zero);
  EXPECT_THROW(gpu->solve_device_rhs(false), Error);
}

}  // namespace
}  // namespace gpuglu::test
