// The CUDA supernodal LDL^T (src/cuda/supernodal/cuda_supernodal_ldlt) against the CPU engine
// on the same schedule (cpu/supernodal_ldlt.cpp, the oracle): the same pivot rule, so the same
// statistics and inertia and solutions equal to rounding (the Schur complements meet through
// atomics, in an order that varies, and a pivot choice at a near tie could differ; both
// factors are valid, so solutions and backward errors are compared, not entries); every path
// of the plan (whole, blocked, direct, GEMM) on a matrix that has it; bad values; and
// SparseLDLT's default on the CUDA backend. Every test skips where no CUDA device is usable.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/numeric_engine.hpp"
#include "cuda/supernodal/cuda_supernodal_ldlt.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "ldlt_test_support.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {
namespace {

using Csr = CsrMatrixD;

Options supernodal(Backend b) {
  Options o;
  o.backend = b;
  o.ldlt_engine = LuEngine::supernodal;
  return o;
}

Csr matrix(const std::string& spec) {
  if (spec == "zero_blocks") return zero_diagonal_blocks(50);
  if (spec == "dense_zero_diagonal") return dense_zero_diagonal(96, 3);  // fails the unpivoted attempt
  return gen::from_spec(spec);
}

double max_rel_diff(const std::vector<double>& x, const std::vector<double>& y) {
  double d = 0.0, m = 0.0;
  for (size_t i = 0; i < x.size(); ++i) d = std::max(d, std::fabs(x[i] - y[i])), m = std::max(m, std::fabs(y[i]));
  return m > 0.0 ? d / m : d;
}

class CudaSupernodalLdlt : public ::testing::TestWithParam<const char*> {};

TEST_P(CudaSupernodalLdlt, agrees_with_the_cpu_engine_on_statistics_inertia_and_solutions) {
  GPUGLU_REQUIRE_GPU();
  const Csr a = matrix(GetParam());
  Options o = supernodal(Backend::cuda);
  if (std::string(GetParam()).find("zero") != std::string::npos) o.scaling = false;
  const Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
  ASSERT_EQ(s.kind, FactorKind::supernodal_ldlt);
  const PatternCopy pattern(a);
  auto cpu = make_cpu_engine<double>(s, pattern.ref, o);
  cuda::CudaSupernodalLDLT gpu(s, o, -1, pattern.ref);
  const PivotRule rule = perturbing_rule(o);
  for (int round = 0; round < 2; ++round) {  // the second: a refactorization
    const EngineFactorResult rc = cpu->factor(a.values.data(), rule);
    const EngineFactorResult rg = gpu.factor(a.values.data(), rule);
    ASSERT_EQ(rc.stats.status, Status::ok);
    ASSERT_EQ(rg.stats.status, Status::ok);
    EXPECT_EQ(rg.stats.perturbed_pivots, rc.stats.perturbed_pivots);
    EXPECT_EQ(rg.max_abs_input, rc.max_abs_input);
    PivotSigns sc, sg;
    ASSERT_TRUE(cpu->pivot_signs(sc));
    ASSERT_TRUE(gpu.pivot_signs(sg));
    EXPECT_EQ(sg.negative, sc.negative);
    EXPECT_EQ(sg.zero, sc.zero);
    EXPECT_EQ(sg.positive, sc.positive);
    const std::vector<double> b = rhs_for_known_solution(a, 17 + round);
    std::vector<double> xc(b.size()), xg(b.size());
    const EngineSolveResult sc_r = cpu->solve(b.data(), xc.data(), false, 10, 1e-15);
    const EngineSolveResult sg_r = gpu.solve(b.data(), xg.data(), false, 10, 1e-15);
    EXPECT_LE(sg_r.backward_error, 1e-14) << "cpu " << sc_r.backward_error;
    EXPECT_LE(backward_error(a.view(), xg.data(), b.data()), 1e-14);
    EXPECT_LE(max_rel_diff(xg, xc), 1e-9);
    // The bare solve (no refinement) agrees too.
    gpu.solve(b.data(), xg.data(), false);
    cpu->solve(b.data(), xc.data(), false, 0, 0.0);
    EXPECT_LE(max_rel_diff(xg, xc), 1e-6);
  }
}

INSTANTIATE_TEST_SUITE_P(Matrices, CudaSupernodalLdlt,
                         ::testing::Values("lap2d5:30x30", "lap3d7:12x11x10", "lap3d27:8x8x8", "kkt:400:120:5",
                                           "zero_blocks", "shiftlap3d:10x9x8:2.5", "elast3d:6x6x6", "lap3d7:28x28x28",
                                           "shiftlap3d:14x14x14:2.5", "dense_zero_diagonal"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

// The solves are the supernodal LU's panel solves (L with each supernode's pivot order, D, L^T):
// self-scheduled on a warp's or a whole block's tiles, a launch per level, with and without
// graphs, on matrices whose supernodes take Bunch-Kaufman (2 x 2 pivots, pivot orders).
TEST(CudaSupernodalLdltPaths, solves_in_every_sweep_mode_follow_the_pivot_orders) {
  GPUGLU_REQUIRE_GPU();
  struct Mode {
    const char* what;
    bool self_scheduled;
    int threads;
    bool graph;
  };
  for (const char* spec : {"kkt:400:120:5", "shiftlap3d:14x14x14:2.5", "lap3d7:20x20x20"}) {
    const Csr a = gen::from_spec(spec);
    for (const Mode& m : {Mode{"self-scheduled", true, 0, true}, Mode{"self-scheduled, a warp", true, 32, true},
                          Mode{"levels", false, 0, true}, Mode{"levels, no graph", false, 0, false}}) {
      SCOPED_TRACE(std::string(spec) + ", " + m.what);
      Options o = supernodal(Backend::cuda);
      o.ldlt_unpivoted = false;  // Bunch-Kaufman everywhere: pivot orders in every supernode
      o.cuda.supernodal_self_scheduled_solve = m.self_scheduled;
      o.cuda.supernodal_solve_threads = m.threads;
      o.cuda.level_graph = m.graph;
      const Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
      const PatternCopy pattern(a);
      cuda::CudaSupernodalLDLT gpu(s, o, -1, pattern.ref);
      ASSERT_EQ(gpu.factor(a.values.data(), perturbing_rule(o)).stats.status, Status::ok);
      const std::vector<double> b = rhs_for_known_solution(a, 5);
      std::vector<double> x(b.size());
      gpu.solve(b.data(), x.data(), false, 0, 1e-15);
      EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-12) << "bare";
      EXPECT_LE(gpu.solve(b.data(), x.data(), false, 3, 1e-15).backward_error, 1e-14) << "refined";
    }
  }
}

TEST(CudaSupernodalLdltPaths, a_large_3d_laplacian_takes_every_path_and_solves) {
  GPUGLU_REQUIRE_GPU();
  const Csr a = gen::from_spec("lap3d7:28x28x28");
  const Options o = supernodal(Backend::cuda);
  const Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
  const PatternCopy pattern(a);
  cuda::CudaSupernodalLDLT gpu(s, o, -1, pattern.ref);
  const cuda::CudaSupernodalLDLT::Paths p = gpu.paths();
  EXPECT_GT(p.narrow, 0);
  EXPECT_GT(p.wide, 0);
  EXPECT_GT(p.tiled_schur, 0);
  ASSERT_EQ(gpu.factor(a.values.data(), perturbing_rule(o)).stats.status, Status::ok);
  EXPECT_EQ(gpu.pivot_fallbacks(), 0);  // positive definite: the unpivoted attempts stand
  EXPECT_EQ(gpu.pivoted_supernodes(), 0);
  const std::vector<double> b = rhs_for_known_solution(a, 5);
  std::vector<double> x(b.size());
  EXPECT_LE(gpu.solve(b.data(), x.data(), false, 3, 1e-15).backward_error, 1e-14);
  // Without the attempts every supernode takes Bunch-Kaufman (the pivot blocks' paths).
  Options pivoted = o;
  pivoted.ldlt_unpivoted = false;
  cuda::CudaSupernodalLDLT gpu2(s, pivoted, -1, pattern.ref);
  EXPECT_EQ(gpu2.pivoted_supernodes(), s.supernodes.count);
  EXPECT_GT(gpu2.paths().wide, 0);
  ASSERT_EQ(gpu2.factor(a.values.data(), perturbing_rule(o)).stats.status, Status::ok);
  EXPECT_LE(gpu2.solve(b.data(), x.data(), false, 3, 1e-15).backward_error, 1e-14);
}

TEST(CudaSupernodalLdltPaths, a_failed_unpivoted_attempt_is_redone_with_bunch_kaufman_for_good) {
  GPUGLU_REQUIRE_GPU();
  const Csr a = dense_zero_diagonal(96, 3);
  Options o = supernodal(Backend::cuda);
  o.scaling = false;
  const Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
  const PatternCopy pattern(a);
  cuda::CudaSupernodalLDLT gpu(s, o, -1, pattern.ref);
  for (int round = 0; round < 2; ++round) {
    const EngineFactorResult r = gpu.factor(a.values.data(), PivotRule::from(o));
    ASSERT_EQ(r.stats.status, Status::ok);
    EXPECT_EQ(r.stats.perturbed_pivots, 0);
    EXPECT_EQ(gpu.pivot_fallbacks(), 1);  // the second round tries no more
    EXPECT_GT(gpu.pivoted_supernodes(), 0);
    const std::vector<double> b = rhs_for_known_solution(a, 5 + round);
    std::vector<double> x(b.size());
    EXPECT_LE(gpu.solve(b.data(), x.data(), false, 3, 1e-15).backward_error, 1e-14);
  }
}

TEST(CudaSupernodalLdltErrors, nan_input_and_a_singular_matrix_report_as_the_cpu_does) {
  GPUGLU_REQUIRE_GPU();
  Csr a = gen::from_spec("lap2d5:12x12");
  Options o = supernodal(Backend::cuda);
  const Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
  const PatternCopy pattern(a);
  auto cpu = make_cpu_engine<double>(s, pattern.ref, o);
  cuda::CudaSupernodalLDLT gpu(s, o, -1, pattern.ref);
  a.values[7] = std::numeric_limits<double>::quiet_NaN();
  const EngineFactorResult rc = cpu->factor(a.values.data(), PivotRule::from(o));
  const EngineFactorResult rg = gpu.factor(a.values.data(), PivotRule::from(o));
  EXPECT_EQ(rg.stats.status, Status::nan_or_inf);
  EXPECT_EQ(rg.bad_entry, rc.bad_entry);
  // A zero row block: no pivot exists under report.
  std::vector<Triplet<int32_t, double>> z = {{0, 0, 0.0}, {1, 1, 1.0}, {2, 2, 2.0}, {1, 2, 0.5}, {2, 1, 0.5}};
  const Csr sing = csr_from_triplets<int32_t, double>(3, 3, z);
  Options r = o;
  r.scaling = false;
  const Schedule ss = analyze_symmetric(sing.view(), StoredTriangle::full, r);
  const PatternCopy sp(sing);
  auto cpu2 = make_cpu_engine<double>(ss, sp.ref, r);
  cuda::CudaSupernodalLDLT gpu2(ss, r, -1, sp.ref);
  const EngineFactorResult c2 = cpu2->factor(sing.values.data(), PivotRule::from(r));
  const EngineFactorResult g2 = gpu2.factor(sing.values.data(), PivotRule::from(r));
  EXPECT_EQ(c2.stats.status, Status::numerically_singular);
  EXPECT_EQ(g2.stats.status, Status::numerically_singular);
  EXPECT_EQ(g2.stats.pivot_column, c2.stats.pivot_column);
}

TEST(CudaSupernodalLdltFacade, the_default_cuda_cholesky_is_supernodal_and_counts_a_kkt_inertia) {
  GPUGLU_REQUIRE_GPU();
  const Csr a = gen::from_spec("kkt:600:150:5");
  SparseLDLT f(default_cuda_options());
  f.analyze(a.view());
  EXPECT_EQ(f.schedule().kind, FactorKind::supernodal_ldlt);
  EXPECT_EQ(f.active_backend(), Backend::cuda);
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  const std::vector<double> b = rhs_for_known_solution(a, 3);
  std::vector<double> x(b.size());
  ASSERT_EQ(f.solve(b.data(), x.data()).status, Status::ok);
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14);
  if (f.factor_stats().perturbed_pivots == 0 && !f.uses_lu()) {
    const Inertia in = f.inertia();
    EXPECT_EQ(in.negative, 150);
    EXPECT_EQ(in.positive, 600);
  }
}

}  // namespace
}  // namespace gpuglu::test
