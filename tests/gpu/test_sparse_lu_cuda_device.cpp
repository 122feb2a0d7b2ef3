// SparseLU with device-resident data (factor_device / solve_device, issue 15): A's values,
// b and x in device memory give the factor and the solutions of the host path, bit for bit
// on the CUDA column engine (the same scatter, kernels and refinement: only the copies
// differ); the pivot policies' recoveries work from device values; engines of host arrays
// (CPU backend, supernodal LU) take device data through copies. Skipped without a GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "device_array.hpp"
#include "gpu_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "recovery_checks.hpp"

namespace gpuglu::test {
namespace {

using DeviceVector = DeviceArray<double>;

std::vector<double> ramp(int32_t n, int seed) {
  std::vector<double> b(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) b[i] = 1.0 + 0.25 * ((i * (seed + 3)) % 11) - 0.5 * ((i + seed) % 3);
  return b;
}

double max_relative_difference(const std::vector<double>& x, const std::vector<double>& y) {
  double diff = 0.0, size = 0.0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    diff = std::max(diff, std::fabs(x[i] - y[i]));
    size = std::max(size, std::fabs(y[i]));
  }
  return x.size() == y.size() ? (size > 0.0 ? diff / size : diff) : 1.0;
}

// The device path against the host path on the same options: the same factor and solutions
// (bitwise; to rounding with `rounding`, for the supernodal engine, whose Schur complements
// and forward sweeps reach shared targets through atomics in a varying order).
void expect_device_path_equals_host_path(const CsrMatrix<int32_t, double>& a, const Options& o,
                                         bool rounding = false) {
  SparseLU host(o), dev(o);
  host.analyze(a.view());
  dev.analyze(a.view());
  ASSERT_EQ(host.factor(a.view()).status, Status::ok);
  DeviceVector values(a.values);
  ASSERT_EQ(dev.factor_device(values.get()).status, Status::ok);
  if (rounding)
    EXPECT_LE(max_relative_difference(dev.factor_values(), host.factor_values()), 1e-12);
  else
    EXPECT_EQ(dev.factor_values(), host.factor_values());
  const std::vector<double> b = ramp(a.nrows, 1);
  std::vector<double> x_host(b.size());
  DeviceVector d_b(b), d_x(b.size());
  for (bool transpose : {false, true}) {
    SCOPED_TRACE(transpose ? "transposed" : "plain");
    const SolveStats hs = transpose ? host.solve_transpose(b.data(), x_host.data()) : host.solve(b.data(), x_host.data());
    const SolveStats ds = transpose ? dev.solve_transpose_device(d_b.get(), d_x.get()) : dev.solve_device(d_b.get(), d_x.get());
    ASSERT_EQ(ds.status, Status::ok);
    if (rounding) {
      EXPECT_LE(ds.backward_error, 1e-14);
      EXPECT_LE(max_relative_difference(d_x.host(), x_host), 1e-10);
    } else {
      EXPECT_EQ(ds.refine_steps, hs.refine_steps);
      EXPECT_EQ(ds.backward_error, hs.backward_error);
      EXPECT_EQ(d_x.host(), x_host);
    }
  }
  EXPECT_EQ(d_b.host(), b);  // b is only read
}

TEST(SparseLUCudaDevice, lu_on_device_data_equals_the_host_path) {
  GPUGLU_REQUIRE_GPU();
  for (const char* spec : {"lap3d7:9x8x7", "circuit:3000:30", "powergrid:1200:20", "convdiff3d:7x6x5"}) {
    SCOPED_TRACE(spec);
    const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
    SparseLU probe(cuda_options());
    probe.analyze(a.view());
    EXPECT_TRUE(probe.device_data_direct());
    expect_device_path_equals_host_path(a, cuda_options());
  }
}

TEST(SparseLUCudaDevice, ilu_on_device_data_equals_the_host_path) {
  GPUGLU_REQUIRE_GPU();
  for (const char* spec : {"convdiff3d:10x9x8", "lap2d5:40x30"}) {
    for (int32_t k : {0, 1}) {
      SCOPED_TRACE(std::string(spec) + " ILU(" + std::to_string(k) + ")");
      Options o = cuda_options();
      o.ordering = Ordering::natural;
      o.ilu_levels = k;
      expect_device_path_equals_host_path(gen::from_spec(spec), o);
    }
  }
}

// A tiny static pivot under factor_device: the recovery reads A's values from the engine's
// device copy and re-pivots; the solves on device vectors then meet the tolerance.
TEST(SparseLUCudaDevice, a_zero_static_pivot_recovers_from_device_values) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = swapped_pairs_matrix(2000, 7);
  const Options o = static_diagonal(cuda_options());
  SparseLU lu(o);
  lu.analyze(a.view());
  DeviceVector values(a.values);
  const FactorStats& st = lu.factor_device(values.get());
  ASSERT_EQ(st.status, Status::ok);
  EXPECT_TRUE(st.repivoted);
  EXPECT_EQ(lu.active_backend(), Backend::cuda);
  const std::vector<double> b = rhs_for_known_solution(a, 3);
  DeviceVector d_b(b), d_x(b.size());
  const SolveStats& ss = lu.solve_device(d_b.get(), d_x.get());
  ASSERT_EQ(ss.status, Status::ok);
  const std::vector<double> x = d_x.host();
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), o.backward_error_tolerance);
  // A refactorization of the same values from the device keeps KLU's order.
  ASSERT_EQ(lu.factor_device(values.get()).status, Status::ok);
  EXPECT_EQ(lu.analysis_count(), 2);
}

// A solve on device vectors above the tolerance re-pivots within the solve (the recovery
// solves again from the device right-hand side).
TEST(SparseLUCudaDevice, a_solve_above_the_tolerance_recovers_on_device_vectors) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = unstable_static_matrix();
  Options o = static_diagonal(cuda_options());
  o.check_growth = 1e300;
  SparseLU lu(o);
  lu.analyze(a.view());
  DeviceVector values(a.values);
  ASSERT_EQ(lu.factor_device(values.get()).status, Status::ok);
  const std::vector<double> b = rhs_for_known_solution(a, 3);
  DeviceVector d_b(b), d_x(b.size());
  const SolveStats& ss = lu.solve_device(d_b.get(), d_x.get());
  ASSERT_EQ(ss.status, Status::ok);
  EXPECT_TRUE(ss.recovered);
  EXPECT_TRUE(lu.factor_stats().repivoted);
  const std::vector<double> x = d_x.host();
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14);
  EXPECT_THROW(lu.solve_device(d_b.get(), d_b.get()), Error);  // b and x must not overlap
}

// NaN among the device values fails that factorization only (and names the entry's value).
TEST(SparseLUCudaDevice, nan_in_device_values_fails_only_its_factorization) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = gen::from_spec("lap2d5:20x20");
  SparseLU lu(cuda_options());
  lu.analyze(a.view());
  std::vector<double> bad = a.values;
  bad[17] = std::numeric_limits<double>::quiet_NaN();
  DeviceVector d_bad(bad), d_good(a.values);
  const FactorStats& st = lu.factor_device(d_bad.get());
  EXPECT_EQ(st.status, Status::nan_or_inf);
  EXPECT_TRUE(std::isnan(st.pivot_value));
  EXPECT_FALSE(lu.factored());
  EXPECT_EQ(lu.factor_device(d_good.get()).status, Status::ok);
  const std::vector<double> b = ramp(a.nrows, 2);
  DeviceVector d_b(b), d_x(b.size());
  ASSERT_EQ(lu.solve_device(d_b.get(), d_x.get()).status, Status::ok);
  const std::vector<double> x = d_x.host();
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14);
}

// The CPU backend takes device data through copies, the supernodal LU directly (its
// factor_device / solve_device); both give the host path's answers.
TEST(SparseLUCudaDevice, the_cpu_backend_and_the_supernodal_lu_take_device_data) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = gen::from_spec("circuit:3000:30");
  Options cpu;
  cpu.backend = Backend::cpu;
  cpu.lu_engine = LuEngine::column;  // atomic-free: two factorizations agree to the bit
  Options supernodal = cuda_options();
  supernodal.lu_engine = LuEngine::supernodal;
  for (const Options& o : {cpu, supernodal}) {
    SCOPED_TRACE(o.backend == Backend::cpu ? "cpu" : "supernodal");
    SparseLU probe(o);
    probe.analyze(a.view());
    EXPECT_EQ(probe.device_data_direct(), o.lu_engine == LuEngine::supernodal);
    expect_device_path_equals_host_path(a, o, o.lu_engine == LuEngine::supernodal);
  }
}

}  // namespace
}  // namespace gpuglu::test
