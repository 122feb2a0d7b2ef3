// cuda::ComplexTriangularSolver (BasicTriangularSolver<std::complex<double>>, src/cuda/trsv)
// against a CPU complex forward / back substitution: every kernel (levr, levc, slfr, slfc,
// cusparse, auto) on lower / upper, unit / stored-diagonal triangles of 2-D and 3-D Laplacian
// patterns, random sparse patterns (1 to 40 entries a row, so every lane-group size) and a
// long chain (SLFR's wait chain on both parts of every value), with complex values built on
// the real triangle's (same magnitudes, so as well conditioned). Also: many right-hand sides
// (host and device), in-place solves, LEVR's launch plans, the three ways values arrive
// (constructor, update_values, device_values() + update_values_device, as the engines' gather
// does through make_pattern_solver<std::complex<double>>) and the host checks. Relative error
// below 1e-12. A solve that does not finish within a deadline aborts the process (a GPU
// kernel cannot be cancelled). Skips without a usable GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "cuda/trsv/cuda_trsv.hpp"
#include "cuda/trsv/pattern_solver.hpp"
#include "gpuglu/status.hpp"
#include "gpuglu/trsv_kernel.hpp"
#include "analysis/trsv_analysis.hpp"
#include "trsv_test_support.hpp"

namespace gpuglu::test {
namespace {

using trsv::Diag;
using trsv::Fill;
using Complex = std::complex<double>;
using CVector = std::vector<Complex>;

constexpr double kTolerance = 1e-12;
const TrsvKernel kAllKernels[] = {TrsvKernel::levr, TrsvKernel::levc, TrsvKernel::slfr,
                                  TrsvKernel::slfc, TrsvKernel::cusparse, TrsvKernel::automatic};

// Complex values on t's pattern: each real value v becomes v (1 + i u), u in [-0.25, 0.25]
// (the real triangle's conditioning, up to 3 %); a different rotation per entry, so that the
// imaginary parts take part in every product.
CVector complex_values(const trsv::Triangle& t, uint64_t seed) {
  Lcg r(seed);
  CVector v(t.values.size());
  for (size_t k = 0; k < v.size(); ++k) v[k] = t.values[k] * Complex(1.0, r.uniform(-0.25, 0.25));
  return v;
}

CVector random_complex_vector(int64_t n, uint64_t seed) {
  Lcg r(seed);
  CVector v(static_cast<size_t>(n));
  for (Complex& x : v) x = Complex(r.uniform(-1.0, 1.0), r.uniform(-1.0, 1.0));
  return v;
}

// ||x - ref||_2 / ||ref||_2 (0 when both are 0).
double relative_error(const CVector& x, const CVector& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    num += std::norm(x[i] - ref[i]);
    den += std::norm(ref[i]);
  }
  if (den == 0) return std::sqrt(num);
  return std::sqrt(num / den);
}

// x = T^{-1} b by forward (lower) or back (upper) substitution on t's pattern with values v.
CVector reference_solve(const trsv::Triangle& t, const CVector& v, const CVector& b) {
  const trsv::TriangleView p = t.view();
  CVector x(b);
  auto row = [&](int32_t i) {
    Complex s = b[i];
    for (int64_t k = p.offdiag_begin(i); k < p.offdiag_end(i); ++k) s -= v[k] * x[p.colind[k]];
    x[i] = t.diag == Diag::unit ? s : s / v[p.diag_position(i)];
  };
  if (t.fill == Fill::lower)
    for (int32_t i = 0; i < t.n; ++i) row(i);
  else
    for (int32_t i = t.n - 1; i >= 0; --i) row(i);
  return x;
}

// The pattern alone (a complex solver takes no real values from the view).
trsv::TriangleView pattern_of(const trsv::Triangle& t) {
  trsv::TriangleView p = t.view();
  p.values = nullptr;
  return p;
}

// Waits for the solver's stream; a solve still running after `seconds` can only be a
// deadlock (the largest test solve takes milliseconds), which no test can recover from.
void wait_or_abort(cuda::ComplexTriangularSolver& s, double seconds, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  auto stream = static_cast<cudaStream_t>(s.stream());
  while (true) {
    const cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaSuccess) return;
    if (e != cudaErrorNotReady) FAIL() << what << ": " << cudaGetErrorString(e);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) {
      std::fprintf(stderr, "FATAL: %s did not finish in %.0f s: deadlock suspected; aborting\n", what.c_str(), seconds);
      std::abort();
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// A device array of Complex (cudaMalloc: 16-byte aligned, as the solver requires).
struct DeviceArray {
  Complex* p = nullptr;
  explicit DeviceArray(size_t count) {
    EXPECT_EQ(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(Complex)), cudaSuccess);
  }
  ~DeviceArray() { cudaFree(p); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

// Device round trip through solve_device, with the deadline; x poisoned first so that every
// unknown must be written.
CVector device_solve(cuda::ComplexTriangularSolver& s, const CVector& b, bool in_place, const std::string& what) {
  const size_t bytes = b.size() * sizeof(Complex);
  DeviceArray db(b.size()), dx(b.size());
  EXPECT_EQ(cudaMemcpy(db.p, b.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemset(dx.p, 0x5A, std::max<size_t>(bytes, sizeof(Complex))), cudaSuccess);
  // The solver's stream is non-blocking: it does not wait for the legacy stream, whose
  // pageable upload may still be in flight when cudaMemcpy returns (and the memset surely is).
  EXPECT_EQ(cudaStreamSynchronize(cudaStreamLegacy), cudaSuccess);
  Complex* out = in_place ? db.p : dx.p;
  s.solve_device(db.p, out);
  wait_or_abort(s, 60.0, what);
  CVector x(b.size());
  EXPECT_EQ(cudaMemcpy(x.data(), out, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  return x;
}

std::string label(const std::string& name, TrsvKernel k) { return name + " / " + std::string(to_string(k)); }

// Every kernel on t's pattern with complex values, against the reference: out of place and
// in place (device API), and through the host convenience.
void check_all_kernels(const std::string& name, const trsv::Triangle& t, uint64_t seed = 1) {
  const trsv::TriangleView p = pattern_of(t);
  const trsv::TrsvAnalysis a = trsv::analyze(p);
  const CVector v = complex_values(t, seed);
  const CVector b = random_complex_vector(t.n, seed + 1);
  const CVector ref = reference_solve(t, v, b);
  for (TrsvKernel k : kAllKernels) {
    const std::string what = label(name, k);
    SCOPED_TRACE(what);
    cuda::ComplexTriangularSolver s(p, a, k, -1, {}, v.data());
    EXPECT_NE(s.kernel(), TrsvKernel::automatic);
    if (k != TrsvKernel::automatic) EXPECT_EQ(s.kernel(), k);
    EXPECT_LT(relative_error(device_solve(s, b, false, what), ref), kTolerance);
    EXPECT_LT(relative_error(device_solve(s, b, true, what + " in place"), ref), kTolerance);
    CVector x(t.n);
    s.solve(b.data(), x.data());
    EXPECT_LT(relative_error(x, ref), kTolerance);
  }
}

TEST(CudaTrsvComplex, every_kernel_matches_reference_on_laplacian_triangles) {
  GPUGLU_REQUIRE_GPU();
  for (const char* spec : {"lap2d5:48x40", "lap3d7:12x10x8", "lap3d27:8x9x7"})
    for (Fill f : {Fill::lower, Fill::upper})
      for (Diag d : {Diag::stored, Diag::unit})
        check_all_kernels(std::string(spec) + " " + trsv::to_string(f) + " " + trsv::to_string(d),
                          spec_triangle(spec, f, d));
}

TEST(CudaTrsvComplex, every_kernel_matches_reference_on_random_triangles) {
  GPUGLU_REQUIRE_GPU();
  uint64_t seed = 200;
  for (Fill f : {Fill::lower, Fill::upper})
    for (Diag d : {Diag::stored, Diag::unit})
      for (int32_t per_row : {1, 5, 40}) {
        const std::string name = std::string("random ") + trsv::to_string(f) + " " + trsv::to_string(d) + " " +
                                 std::to_string(per_row) + "/row";
        check_all_kernels(name, random_triangle(4000, per_row, f, d, ++seed), seed);
      }
}

TEST(CudaTrsvComplex, every_kernel_matches_reference_on_a_long_chain) {
  GPUGLU_REQUIRE_GPU();
  // 20000 levels of one row: a 20000-hop wait chain for SLFR / SLFC, each hop on a complex value.
  check_all_kernels("chain lower", chain_triangle(20000, Fill::lower, Diag::stored));
  check_all_kernels("chain upper unit", chain_triangle(20000, Fill::upper, Diag::unit));
  check_all_kernels("diagonal", diagonal_triangle(5000, Diag::stored));
}

TEST(CudaTrsvComplex, many_right_hand_sides_match_reference) {
  GPUGLU_REQUIRE_GPU();
  const trsv::Triangle t = spec_triangle("lap3d7:12x10x8", Fill::upper, Diag::stored);
  const trsv::TriangleView p = pattern_of(t);
  const trsv::TrsvAnalysis a = trsv::analyze(p);
  const CVector v = complex_values(t, 11);
  const int32_t nrhs = 5;
  const int64_t ld = t.n + 7;
  const CVector b = random_complex_vector(ld * nrhs, 12);
  CVector ref(b.size());
  for (int32_t r = 0; r < nrhs; ++r) {
    const CVector br(b.begin() + r * ld, b.begin() + r * ld + t.n);
    const CVector xr = reference_solve(t, v, br);
    std::copy(xr.begin(), xr.end(), ref.begin() + r * ld);
  }
  auto check_columns = [&](const CVector& x, const std::string& what) {
    for (int32_t r = 0; r < nrhs; ++r) {
      const CVector xr(x.begin() + r * ld, x.begin() + r * ld + t.n);
      const CVector rr(ref.begin() + r * ld, ref.begin() + r * ld + t.n);
      EXPECT_LT(relative_error(xr, rr), kTolerance) << what << ", column " << r;
    }
  };
  for (TrsvKernel k : kAllKernels) {
    SCOPED_TRACE(to_string(k));
    cuda::ComplexTriangularSolver s(p, a, k, -1, {}, v.data());
    CVector x(b.size());
    s.solve_many(nrhs, b.data(), ld, x.data(), ld);
    check_columns(x, "host");
    // The device version, in place (b and x alias column by column).
    DeviceArray d(b.size());
    ASSERT_EQ(cudaMemcpy(d.p, b.data(), b.size() * sizeof(Complex), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(cudaStreamLegacy), cudaSuccess);  // see device_solve
    s.solve_many_device(nrhs, d.p, ld, d.p, ld);
    wait_or_abort(s, 60.0, "solve_many_device / " + std::string(to_string(k)));
    ASSERT_EQ(cudaMemcpy(x.data(), d.p, b.size() * sizeof(Complex), cudaMemcpyDeviceToHost), cudaSuccess);
    check_columns(x, "device");
  }
}

// LEVR's launch plans (single-block runs, one launch a level) with and without programmatic
// dependent launch, and LEVC's, on complex values.
TEST(CudaTrsvComplex, levr_and_levc_launch_plans_match_reference) {
  GPUGLU_REQUIRE_GPU();
  const trsv::Triangle tris[] = {spec_triangle("lap2d5:120x90", Fill::lower, Diag::unit),
                                 spec_triangle("lap3d27:10x8x9", Fill::upper, Diag::stored),
                                 random_triangle(6000, 40, Fill::upper, Diag::unit, 42)};
  for (const trsv::Triangle& t : tris) {
    const trsv::TriangleView p = pattern_of(t);
    const trsv::TrsvAnalysis a = trsv::analyze(p);
    const CVector v = complex_values(t, 3);
    const CVector b = random_complex_vector(t.n, 4);
    const CVector ref = reference_solve(t, v, b);
    for (const int32_t passes : {0, 1, 64})
      for (const bool pdl : {true, false}) {
        cuda::TrsvTuning tuning;
        tuning.run_passes = passes;
        tuning.programmatic_launch = pdl;
        for (TrsvKernel k : {TrsvKernel::levr, TrsvKernel::levc}) {
          const std::string what =
              label("n " + std::to_string(t.n) + " passes " + std::to_string(passes) + " pdl " + (pdl ? "1" : "0"), k);
          SCOPED_TRACE(what);
          cuda::ComplexTriangularSolver s(p, a, k, -1, tuning, v.data());
          for (int rep = 0; rep < 2; ++rep)
            EXPECT_LT(relative_error(device_solve(s, b, rep == 1, what), ref), kTolerance) << "solve " << rep;
        }
      }
  }
}

// The values arrive three ways besides the constructor: update_values (host, checked),
// update_values_device from another device array, and written into device_values() then
// update_values_device(device_values()) (the engines' gather), here on a solver from
// make_pattern_solver<std::complex<double>> as the engines build theirs.
TEST(CudaTrsvComplex, values_through_update_and_device_values_match_reference) {
  GPUGLU_REQUIRE_GPU();
  for (Diag d : {Diag::stored, Diag::unit}) {
    const trsv::Triangle t = random_triangle(5000, 6, Fill::lower, d, 51);
    const trsv::TriangleView p = pattern_of(t);
    const CVector v1 = complex_values(t, 52);
    CVector v2 = v1;  // same pattern, other values (a refactorization)
    Lcg r(53);
    for (Complex& x : v2) x *= Complex(r.uniform(0.5, 1.5), r.uniform(-0.3, 0.3));
    const CVector b = random_complex_vector(t.n, 54);
    const CVector ref1 = reference_solve(t, v1, b);
    const CVector ref2 = reference_solve(t, v2, b);
    ASSERT_GT(relative_error(ref1, ref2), 1e-3);  // the new values give a different answer
    cuda::SolverChoices choices;
    for (TrsvKernel k : kAllKernels) {
      const std::string what = label(std::string("values ") + trsv::to_string(d), k);
      SCOPED_TRACE(what);
      choices.kernel = k;
      std::unique_ptr<cuda::ComplexTriangularSolver> s =
          cuda::make_pattern_solver<Complex>(p, choices, -1, nullptr);
      s->update_values(v1.data());
      EXPECT_LT(relative_error(device_solve(*s, b, false, what), ref1), kTolerance);
      DeviceArray dv(v2.size());
      ASSERT_EQ(cudaMemcpy(dv.p, v2.data(), v2.size() * sizeof(Complex), cudaMemcpyHostToDevice), cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(cudaStreamLegacy), cudaSuccess);  // see device_solve
      s->update_values_device(dv.p);
      EXPECT_LT(relative_error(device_solve(*s, b, false, what + " after device update"), ref2), kTolerance);
      ASSERT_EQ(cudaMemcpy(s->device_values(), v1.data(), v1.size() * sizeof(Complex), cudaMemcpyHostToDevice),
                cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(cudaStreamLegacy), cudaSuccess);
      s->update_values_device(s->device_values());
      EXPECT_LT(relative_error(device_solve(*s, b, false, what + " after device_values"), ref1), kTolerance);
    }
  }
}

TEST(CudaTrsvComplex, host_values_are_checked) {
  GPUGLU_REQUIRE_GPU();
  const trsv::Triangle t = chain_triangle(100, Fill::upper, Diag::stored);
  const trsv::TriangleView p = pattern_of(t);
  const trsv::TrsvAnalysis a = trsv::analyze(p);
  const CVector v = complex_values(t, 61);
  cuda::ComplexTriangularSolver s(p, a, TrsvKernel::slfr, -1, {}, v.data());
  auto expect_status = [&](const CVector& bad, Status status, const char* what) {
    try {
      s.update_values(bad.data());
      ADD_FAILURE() << what << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), status) << what;
    }
  };
  CVector bad = v;
  bad[t.view().diag_position(50)] = Complex(0.0, 0.0);
  expect_status(bad, Status::numerically_singular, "zero diagonal");
  bad = v;
  bad[3] = Complex(bad[3].real(), std::numeric_limits<double>::quiet_NaN());
  expect_status(bad, Status::nan_or_inf, "NaN imaginary part");
  bad = v;
  bad[4] = Complex(std::numeric_limits<double>::infinity(), 0.0);
  expect_status(bad, Status::nan_or_inf, "Inf real part");
  // A diagonal entry with only an imaginary part is not zero.
  bad = v;
  bad[t.view().diag_position(50)] = Complex(0.0, 2.0);
  EXPECT_NO_THROW(s.update_values(bad.data()));
  // The constructor checks its values like update_values.
  bad = v;
  bad[t.view().diag_position(7)] = Complex(0.0, 0.0);
  EXPECT_THROW(cuda::ComplexTriangularSolver(p, a, TrsvKernel::slfr, -1, {}, bad.data()), Error);
  // Real values in the view are refused: the complex values come separately.
  try {
    cuda::ComplexTriangularSolver real_view(t.view(), a, TrsvKernel::slfr);
    ADD_FAILURE() << "real values in the view accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_input);
  }
}

}  // namespace
}  // namespace gpuglu::test
