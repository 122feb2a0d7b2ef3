// SplitLU on the CUDA backend (include/gpuglu/split_lu.hpp): the halves on two devices (the
// first and the last visible: two distinct GPUs where there are two, the same one otherwise),
// their Schur blocks handed device to device (peer to peer across GPUs) to the root's
// cuSOLVER LU, against the CPU backend's SplitLU (the oracle) and A: solves and transposed
// solves, a refactorization with new values, a matrix that pivots. Skipped without a usable GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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

void expect_like_the_cpu(const Csr& a, const std::string& name) {
  SCOPED_TRACE(name);
  Options gpu = default_cuda_options(), cpu;
  cpu.backend = Backend::cpu;
  SplitLU g(gpu, two_devices()), c(cpu);
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

}  // namespace
}  // namespace gpuglu::test
