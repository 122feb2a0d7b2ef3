// The CUDA backend's solves through the triangular-solve module (CudaLU -> TriangularSolver,
// Options::trsv_kernel): every kernel gives the CPU backend's solution for LU and ILU, for
// A and for A^T (whose triangles are built on the first transposed solve), and after a
// refactorization with new values (the values reach the solvers by a gather from F).
// Skipped without a usable GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::test {
namespace {

constexpr TrsvKernel kKernels[] = {TrsvKernel::automatic, TrsvKernel::levr, TrsvKernel::levc,
                                   TrsvKernel::slfr,      TrsvKernel::slfc, TrsvKernel::cusparse};

double max_relative_difference(const std::vector<double>& x, const std::vector<double>& y) {
  double worst = 0.0, scale = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    worst = std::max(worst, std::fabs(x[i] - y[i]));
    scale = std::max(scale, std::fabs(y[i]));
  }
  return scale > 0 ? worst / scale : worst;
}

struct Solutions {
  std::vector<double> x, xt;  // A^{-1} b and A^{-T} b (or the ILU's)
};

Solutions solve_both(SparseLU& lu, const std::vector<double>& b) {
  Solutions s{std::vector<double>(b.size()), std::vector<double>(b.size())};
  lu.solve(b.data(), s.x.data());
  lu.solve_transpose(b.data(), s.xt.data());
  return s;
}

void check_against_cpu(const char* spec, int32_t ilu_levels, double tol) {
  CsrMatrix<int32_t, double> a = gen::from_spec(spec);
  std::vector<double> b(static_cast<size_t>(a.nrows));
  for (size_t i = 0; i < b.size(); ++i) b[i] = std::cos(0.7 * static_cast<double>(i)) + 2.0;

  Options cpu;
  cpu.backend = Backend::cpu;
  cpu.lu_engine = LuEngine::column;  // the trsv kernels are the column engine's solves
  cpu.ilu_levels = ilu_levels;
  if (ilu_levels >= 0) cpu.ordering = Ordering::natural;
  cpu.refine_steps = 0;  // the bare triangular solves are compared
  SparseLU ref(cpu);
  ref.analyze(a.view());
  ASSERT_EQ(ref.factor(a.view()).status, Status::ok);
  const Solutions want = solve_both(ref, b);

  for (TrsvKernel k : kKernels) {
    SCOPED_TRACE(std::string(spec) + " ILU levels " + std::to_string(ilu_levels) + " kernel " +
                 std::string(to_string(k)));
    Options o = cpu;
    o.backend = Backend::cuda;
    o.trsv_kernel = k;
    SparseLU lu(o);
    lu.analyze(a.view());
    ASSERT_EQ(lu.active_backend(), Backend::cuda);
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
    EXPECT_NE(lu.trsv_kernel(), TrsvKernel::automatic);
    if (k != TrsvKernel::automatic) EXPECT_EQ(lu.trsv_kernel(), k);
    const Solutions got = solve_both(lu, b);
    EXPECT_LT(max_relative_difference(got.x, want.x), tol);
    EXPECT_LT(max_relative_difference(got.xt, want.xt), tol);
    if (ilu_levels < 0) {
      EXPECT_LT(relative_residual(a.view(), got.x.data(), b.data()), 1e-10);
    }

    // New values, same pattern: the solvers must see them (forward and transposed).
    CsrMatrix<int32_t, double> a2 = a;
    for (size_t p = 0; p < a2.values.size(); ++p) a2.values[p] *= 1.0 + 0.25 * std::sin(static_cast<double>(p));
    SparseLU ref2(cpu);
    ref2.analyze(a.view());
    ASSERT_EQ(ref2.factor(a2.view()).status, Status::ok);
    const Solutions want2 = solve_both(ref2, b);
    ASSERT_EQ(lu.refactor(a2.values.data()).status, Status::ok);
    const Solutions got2 = solve_both(lu, b);
    EXPECT_LT(max_relative_difference(got2.x, want2.x), tol);
    EXPECT_LT(max_relative_difference(got2.xt, want2.xt), tol);
  }
}

TEST(SparseLUCudaTrsv, lu_solves_with_every_kernel_match_the_cpu) {
  GPUGLU_REQUIRE_GPU();
  for (const char* spec : {"circuit:3000:40:7", "convdiff3d:10x9x8", "lap2d5:40x30"}) check_against_cpu(spec, -1, 1e-9);
}

TEST(SparseLUCudaTrsv, ilu_solves_with_every_kernel_match_the_cpu) {
  GPUGLU_REQUIRE_GPU();
  for (const char* spec : {"convdiff3d:12x10x9", "lap2d5:50x40"})
    for (int32_t k : {0, 1}) check_against_cpu(spec, k, 1e-11);
}

TEST(SparseLUCudaTrsv, levels_from_the_gpu_solve_as_the_cpus) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrix<int32_t, double> a = gen::from_spec("convdiff3d:12x10x9");
  std::vector<double> b(static_cast<size_t>(a.nrows), 1.0), x_cpu(b.size()), x_gpu(b.size()), xt_cpu(b.size()),
      xt_gpu(b.size());
  Options o = cuda_options();
  o.refine_steps = 0;
  SparseLU cpu_levels(o);
  o.trsv_analysis = TrsvAnalysisSite::gpu;
  SparseLU gpu_levels(o);
  for (SparseLU* lu : {&cpu_levels, &gpu_levels}) {
    lu->analyze(a.view());
    ASSERT_EQ(lu->factor(a.view()).status, Status::ok);
  }
  cpu_levels.solve(b.data(), x_cpu.data());
  gpu_levels.solve(b.data(), x_gpu.data());
  cpu_levels.solve_transpose(b.data(), xt_cpu.data());
  gpu_levels.solve_transpose(b.data(), xt_gpu.data());
  EXPECT_EQ(x_gpu, x_cpu) << "the same levels give the same solves, bit for bit";
  EXPECT_EQ(xt_gpu, xt_cpu);
}

TEST(SparseLUCudaTrsv, ilu_shift_on_the_gpu_takes_the_cpus_shifts) {
  GPUGLU_REQUIRE_GPU();
  CsrMatrix<int32_t, double> a = gen::from_spec("convdiff3d:8x8x6");
  for (int32_t i = 0; i < a.nrows; i += 7)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] == i) a.values[p] = 0.0;
  for (ShiftType t : {ShiftType::nonzero, ShiftType::positive_definite}) {
    SCOPED_TRACE(std::string(to_string(t)));
    Options o;
    o.backend = Backend::cpu;
    o.ordering = Ordering::natural;
    o.ilu_levels = 0;
    o.shift_type = t;
    o.zero_pivot = 2.220446049250313e-14;
    SparseLU cpu(o);
    cpu.analyze(a.view());
    const FactorStats c = cpu.factor(a.view());
    ASSERT_EQ(c.status, Status::ok);
    ASSERT_GT(c.shift_tries, 0);
    o.backend = Backend::cuda;
    SparseLU gpu(o);
    gpu.analyze(a.view());
    const FactorStats g = gpu.factor(a.view());
    ASSERT_EQ(g.status, Status::ok);
    EXPECT_EQ(g.shift_tries, c.shift_tries);
    EXPECT_EQ(g.shift_amount, c.shift_amount);
  }
}

}  // namespace
}  // namespace gpuglu::test
