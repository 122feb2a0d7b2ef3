// cuda::TriangularSolver (src/cuda/cuda_trsv) against the CPU reference (src/analysis/
// reference_trsv): every kernel (levr, levc, slfr, slfc, cusparse, auto) on L and U parts of
// 2-D 5- and 9-point and 3-D 7-point Laplacians, random triangles, a long chain, a diagonal,
// unit and stored diagonals, many right-hand sides, new values without a new analysis,
// aliasing b and x, and 1M-row triangles for the self-scheduled kernels' no-deadlock
// guarantee (far more warps than the GPU holds at once). Relative error below 1e-12.
// A solve that does not finish within a deadline is reported as a suspected deadlock and
// the process aborts (a GPU kernel cannot be cancelled). Skips without a usable GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "cuda/trsv/cuda_trsv.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/status.hpp"
#include "gpuglu/trsv_kernel.hpp"
#include "analysis/kernel_choice.hpp"
#include "cpu/reference_trsv.hpp"
#include "analysis/trsv_analysis.hpp"
#include "trsv_test_support.hpp"

namespace gpuglu::test {
namespace {

using trsv::Diag;
using trsv::Fill;

constexpr double kTolerance = 1e-12;
const TrsvKernel kAllKernels[] = {TrsvKernel::levr, TrsvKernel::levc, TrsvKernel::slfr,
                                  TrsvKernel::slfc, TrsvKernel::cusparse, TrsvKernel::automatic};

// Waits for the solver's stream; a solve still running after `seconds` can only be a
// deadlock (the largest test solve takes milliseconds), which no test can recover from.
void wait_or_abort(cuda::TriangularSolver& s, double seconds, const std::string& what) {
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

// Device round trip through solve_device (the API the ILU path uses), with the deadline.
std::vector<double> device_solve(cuda::TriangularSolver& s, const std::vector<double>& b, bool in_place,
                                 const std::string& what) {
  const size_t bytes = b.size() * sizeof(double);
  double* db = nullptr;
  double* dx = nullptr;
  EXPECT_EQ(cudaMalloc(&db, std::max<size_t>(bytes, 8)), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&dx, std::max<size_t>(bytes, 8)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemset(dx, 0x5A, std::max<size_t>(bytes, 8)), cudaSuccess);  // poison: every x must be written
  // The solver's stream is non-blocking: it does not wait for the legacy stream, whose
  // pageable upload may still be in flight when cudaMemcpy returns (and the memset surely is).
  EXPECT_EQ(cudaStreamSynchronize(cudaStreamLegacy), cudaSuccess);
  double* out = in_place ? db : dx;
  s.solve_device(db, out);
  wait_or_abort(s, 60.0, what);
  std::vector<double> x(b.size());
  EXPECT_EQ(cudaMemcpy(x.data(), out, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(db);
  cudaFree(dx);
  return x;
}

std::string label(const std::string& name, TrsvKernel k) { return name + " / " + std::string(to_string(k)); }

// Every kernel on t against the reference, out of place (device API), in place (device API)
// and through the host convenience.
void check_all_kernels(const std::string& name, const trsv::Triangle& t, uint64_t seed = 1) {
  const trsv::TrsvAnalysis a = trsv::analyze(t.view());
  const std::vector<double> b = random_vector(t.n, seed);
  std::vector<double> ref(t.n);
  trsv::reference::solve(t.view(), b.data(), ref.data());
  for (TrsvKernel k : kAllKernels) {
    const std::string what = label(name, k);
    SCOPED_TRACE(what);
    cuda::TriangularSolver s(t.view(), a, k);
    EXPECT_NE(s.kernel(), TrsvKernel::automatic);
    if (k != TrsvKernel::automatic) EXPECT_EQ(s.kernel(), k);
    EXPECT_LT(relative_error(device_solve(s, b, false, what), ref), kTolerance);
    EXPECT_LT(relative_error(device_solve(s, b, true, what + " in place"), ref), kTolerance);
    std::vector<double> x(t.n, 0.0);
    s.solve(b.data(), x.data());
    EXPECT_LT(relative_error(x, ref), kTolerance);
  }
}

class CudaTrsvLaplacian : public ::testing::TestWithParam<const char*> {};

TEST_P(CudaTrsvLaplacian, every_kernel_matches_reference_on_all_four_triangles) {
  GPUGLU_REQUIRE_GPU();
  const std::string spec = GetParam();
  for (Fill f : {Fill::lower, Fill::upper})
    for (Diag d : {Diag::stored, Diag::unit})
      check_all_kernels(spec + " " + trsv::to_string(f) + " " + trsv::to_string(d), spec_triangle(spec, f, d));
}

INSTANTIATE_TEST_SUITE_P(Generated, CudaTrsvLaplacian,
                         ::testing::Values("lap2d5:64x64", "lap2d9:48x40", "lap3d7:16x16x16", "lap3d27:10x12x9",
                                           "lap2d5:8x700"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string s = i.param;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

TEST(CudaTrsv, every_kernel_matches_reference_on_random_triangles) {
  GPUGLU_REQUIRE_GPU();
  uint64_t seed = 100;
  for (Fill f : {Fill::lower, Fill::upper})
    for (Diag d : {Diag::stored, Diag::unit})
      for (int32_t per_row : {1, 5, 40}) {
        const std::string name = std::string("random ") + trsv::to_string(f) + " " + trsv::to_string(d) + " " +
                                 std::to_string(per_row) + "/row";
        check_all_kernels(name, random_triangle(6000, per_row, f, d, ++seed), seed);
      }
}

TEST(CudaTrsv, every_kernel_matches_reference_on_a_long_chain) {
  GPUGLU_REQUIRE_GPU();
  // 20000 levels of one row: a 20000-node graph for LEVR / LEVC, a 20000-hop wait chain for SLFR / SLFC.
  check_all_kernels("chain lower", chain_triangle(20000, Fill::lower, Diag::stored));
  check_all_kernels("chain upper unit", chain_triangle(20000, Fill::upper, Diag::unit));
}

TEST(CudaTrsv, every_kernel_matches_reference_on_a_diagonal) {
  GPUGLU_REQUIRE_GPU();
  check_all_kernels("diagonal", diagonal_triangle(100000, Diag::stored));
  check_all_kernels("identity", diagonal_triangle(1000, Diag::unit));
  check_all_kernels("one row", diagonal_triangle(1, Diag::stored));
}

TEST(CudaTrsv, empty_triangle_solves_nothing) {
  GPUGLU_REQUIRE_GPU();
  trsv::Triangle t;
  const trsv::TrsvAnalysis a = trsv::analyze(t.view());
  for (TrsvKernel k : kAllKernels) {
    cuda::TriangularSolver s(t.view(), a, k);
    s.solve(nullptr, nullptr);
    s.synchronize();
  }
}

TEST(CudaTrsv, many_right_hand_sides_match_reference) {
  GPUGLU_REQUIRE_GPU();
  const trsv::Triangle t = spec_triangle("lap3d7:12x10x8", Fill::upper, Diag::stored);
  const trsv::TrsvAnalysis a = trsv::analyze(t.view());
  const int32_t nrhs = 5;
  const int64_t ld = t.n + 7;
  const std::vector<double> b = random_vector(ld * nrhs, 8);
  std::vector<double> ref(b.size(), 0.0);
  trsv::reference::solve_many(t.view(), nrhs, b.data(), ld, ref.data(), ld);
  for (TrsvKernel k : kAllKernels) {
    SCOPED_TRACE(to_string(k));
    cuda::TriangularSolver s(t.view(), a, k);
    std::vector<double> x(b.size(), 0.0);
    s.solve_many(nrhs, b.data(), ld, x.data(), ld);
    for (int32_t r = 0; r < nrhs; ++r) {
      const std::vector<double> xr(x.begin() + r * ld, x.begin() + r * ld + t.n);
      const std::vector<double> rr(ref.begin() + r * ld, ref.begin() + r * ld + t.n);
      EXPECT_LT(relative_error(xr, rr), kTolerance) << "column " << r;
    }
  }
}

TEST(CudaTrsv, update_values_solves_new_values_without_new_analysis) {
  GPUGLU_REQUIRE_GPU();
  for (Diag d : {Diag::stored, Diag::unit}) {
    const trsv::Triangle t1 = random_triangle(5000, 6, Fill::lower, d, 41);
    trsv::Triangle t2 = t1;  // same pattern, new values (an ILU refactorization)
    Lcg r(42);
    for (int32_t i = 0; i < t2.n; ++i)
      for (int64_t k = t2.rowptr[i]; k < t2.rowptr[i + 1]; ++k)
        t2.values[k] = t2.colind[k] == i ? r.uniform(1.0, 3.0) : r.uniform(-0.2, 0.2);
    const trsv::TrsvAnalysis a = trsv::analyze(t1.view());
    const std::vector<double> b = random_vector(t1.n, 43);
    std::vector<double> ref1(t1.n), ref2(t1.n);
    trsv::reference::solve(t1.view(), b.data(), ref1.data());
    trsv::reference::solve(t2.view(), b.data(), ref2.data());
    ASSERT_GT(relative_error(ref1, ref2), 1e-3);  // the new values give a different answer
    for (TrsvKernel k : kAllKernels) {
      const std::string what = label(std::string("update ") + trsv::to_string(d), k);
      SCOPED_TRACE(what);
      cuda::TriangularSolver s(t1.view(), a, k);
      EXPECT_LT(relative_error(device_solve(s, b, false, what), ref1), kTolerance);
      s.update_values(t2.values.data());
      EXPECT_LT(relative_error(device_solve(s, b, false, what + " after update"), ref2), kTolerance);
      // Device-side values (ILU's numeric factorization leaves them on the GPU).
      double* dv = nullptr;
      ASSERT_EQ(cudaMalloc(&dv, t1.values.size() * sizeof(double)), cudaSuccess);
      ASSERT_EQ(cudaMemcpy(dv, t1.values.data(), t1.values.size() * sizeof(double), cudaMemcpyHostToDevice),
                cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(cudaStreamLegacy), cudaSuccess);  // see device_solve
      s.update_values_device(dv);
      EXPECT_LT(relative_error(device_solve(s, b, false, what + " after device update"), ref1), kTolerance);
      cudaFree(dv);
    }
  }
}

TEST(CudaTrsv, update_values_rejects_zero_diagonal_and_nan) {
  GPUGLU_REQUIRE_GPU();
  trsv::Triangle t = chain_triangle(100, Fill::upper, Diag::stored);
  const trsv::TrsvAnalysis a = trsv::analyze(t.view());
  cuda::TriangularSolver s(t.view(), a, TrsvKernel::slfr);
  std::vector<double> v = t.values;
  v[t.view().diag_position(50)] = 0.0;
  try {
    s.update_values(v.data());
    ADD_FAILURE() << "zero diagonal accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::numerically_singular);
  }
  v = t.values;
  v[3] = std::nan("");
  try {
    s.update_values(v.data());
    ADD_FAILURE() << "NaN accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::nan_or_inf);
  }
}

TEST(CudaTrsv, analysis_of_another_triangle_is_rejected) {
  GPUGLU_REQUIRE_GPU();
  const trsv::Triangle t = chain_triangle(100, Fill::lower, Diag::stored);
  const trsv::Triangle other = chain_triangle(101, Fill::lower, Diag::stored);
  const trsv::TrsvAnalysis a = trsv::analyze(other.view());
  EXPECT_THROW(cuda::TriangularSolver(t.view(), a, TrsvKernel::slfr), Error);
}

// LEVR's launch plans (single-block runs of narrow levels with look-ahead, wide levels
// inside a run, every level its own launch) and LEVR / LEVC with and without programmatic
// dependent launch all give the reference's answer. The knobs are TrsvTuning's (the
// benchmark's --trsv-run-passes and --trsv-no-pdl), fixed at construction.
TEST(CudaTrsv, levr_and_levc_launch_plans_match_reference) {
  GPUGLU_REQUIRE_GPU();
  const trsv::Triangle tris[] = {spec_triangle("lap2d5:200x150", Fill::lower, Diag::unit),
                                 spec_triangle("lap2d9:90x70", Fill::upper, Diag::stored),
                                 spec_triangle("lap3d7:20x16x24", Fill::upper, Diag::stored),
                                 spec_triangle("lap3d27:12x10x14", Fill::lower, Diag::stored),
                                 random_triangle(20000, 5, Fill::lower, Diag::stored, 41),
                                 random_triangle(6000, 40, Fill::upper, Diag::unit, 42),
                                 chain_triangle(50000, Fill::upper, Diag::stored)};
  const int32_t passes[] = {0, 1, 4, 64};
  for (const trsv::Triangle& t : tris) {
    const trsv::TrsvAnalysis a = trsv::analyze(t.view());
    const std::vector<double> b = random_vector(t.n, 7);
    std::vector<double> ref(t.n);
    trsv::reference::solve(t.view(), b.data(), ref.data());
    for (const int32_t p : passes)
      for (const bool pdl_off : {false, true}) {
        cuda::TrsvTuning tuning;
        tuning.run_passes = p;
        tuning.programmatic_launch = !pdl_off;
        for (TrsvKernel k : {TrsvKernel::levr, TrsvKernel::levc}) {
          const std::string what = label("n " + std::to_string(t.n) + " passes " + std::to_string(p) + " no_pdl " +
                                             (pdl_off ? "1" : "0"),
                                         k);
          SCOPED_TRACE(what);
          cuda::TriangularSolver s(t.view(), a, k, -1, tuning);
          for (int rep = 0; rep < 2; ++rep)
            EXPECT_LT(relative_error(device_solve(s, b, rep == 1, what), ref), kTolerance) << "solve " << rep;
        }
      }
  }
}

// The no-deadlock guarantee: 1M unknowns are ~30x the warps an H100 holds at once (132 SMs
// x 64 warps), so most warp tasks start only after others have retired; with tasks handed
// out by blockIdx instead of by ticket this is where a self-scheduled kernel would hang.
TEST(CudaTrsvLarge, million_row_laplacian_all_kernels_finish_and_match) {
  GPUGLU_REQUIRE_GPU();
  for (Fill f : {Fill::lower, Fill::upper}) {
    const trsv::Triangle t = spec_triangle("lap2d5:1000x1000", f, f == Fill::lower ? Diag::unit : Diag::stored);
    const trsv::TrsvAnalysis a = trsv::analyze(t.view());
    ASSERT_EQ(a.num_levels, 1999);
    const std::vector<double> b = random_vector(t.n, 77);
    std::vector<double> ref(t.n);
    trsv::reference::solve(t.view(), b.data(), ref.data());
    for (TrsvKernel k : kAllKernels) {
      const std::string what = label(std::string("lap2d5:1000x1000 ") + trsv::to_string(f), k);
      SCOPED_TRACE(what);
      cuda::TriangularSolver s(t.view(), a, k);
      for (int rep = 0; rep < 3; ++rep)  // repeated: counters, tickets and sentinels are reset per solve
        EXPECT_LT(relative_error(device_solve(s, b, rep == 1, what), ref), kTolerance) << "solve " << rep;
    }
  }
}

TEST(CudaTrsvLarge, million_row_random_and_long_chain_self_scheduled) {
  GPUGLU_REQUIRE_GPU();
  const trsv::Triangle rnd = random_triangle(1 << 20, 3, Fill::upper, Diag::stored, 9);
  const trsv::Triangle chain = chain_triangle(200000, Fill::lower, Diag::unit);  // 200000 levels
  for (const trsv::Triangle* t : {&rnd, &chain}) {
    const trsv::TrsvAnalysis a = trsv::analyze(t->view());
    const std::vector<double> b = random_vector(t->n, 5);
    std::vector<double> ref(t->n);
    trsv::reference::solve(t->view(), b.data(), ref.data());
    for (TrsvKernel k : {TrsvKernel::slfr, TrsvKernel::slfc}) {
      const std::string what = label(t == &rnd ? "random 1M" : "chain 200k", k);
      SCOPED_TRACE(what);
      cuda::TriangularSolver s(t->view(), a, k);
      EXPECT_LT(relative_error(device_solve(s, b, false, what), ref), kTolerance);
    }
  }
}

}  // namespace
}  // namespace gpuglu::test
