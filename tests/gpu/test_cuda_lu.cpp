// The CUDA numeric engine against the CPU right-looking level executor: the same
// schedule, the same arithmetic, so every F value must agree to rounding (in fact
// bitwise), on first factorization and on refactorization with new values; the solves
// match reference::solve_with_factor / solve_transpose_with_factor; failures (tiny
// pivot, NaN input, missing fill) are reported as the reference reports them.
// Every test skips (and CTest reports Skipped) where no CUDA device is usable.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cuda/lu/cuda_lu.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "cpu/level_numeric.hpp"
#include "cpu/refinement.hpp"
#include "cpu/scatter.hpp"
#include "cpu/triangular_solve.hpp"

namespace gpuglu::test {
namespace {

using cuda::CudaLU;

int device_ordinal() { return query_device().ordinal; }

// The options the CUDA backend analyzes with: Eq. 7 uses the device's resident warps. The
// column engine: its kernels are what these tests check (the automatic engine is supernodal).
Options device_options() {
  Options o;
  o.lu_engine = LuEngine::column;
  const DeviceInfo d = query_device();
  if (d.usable && d.total_warps() > 0) o.modes.total_warps = d.total_warps();
  return o;
}

Options plain_options() {
  Options o = device_options();
  o.matching = false;
  o.scaling = false;
  return o;
}

struct CpuFactor {
  std::vector<double> f;
  reference::ScatterResult scatter;
  NumericStats stats;
};

CpuFactor cpu_factor(const Schedule& s, const std::vector<double>& values, const PivotRule& rule) {
  CpuFactor c;
  c.f.assign(s.f_rowind.size(), 0.0);
  c.scatter = reference::scatter_values(s, values.data(), c.f.data());
  if (c.scatter.bad_entry < 0) c.stats = reference::factor_levels(s, c.f.data(), rule, 0);
  return c;
}

std::vector<double> download(const Schedule& s, const CudaLU& lu) {
  std::vector<double> f(s.f_rowind.size(), std::numeric_limits<double>::quiet_NaN());
  lu.download_factor(f.data());
  return f;
}

// |gpu - cpu| <= 1e-10 * max(|cpu|, max |cpu column|) for every entry of F.
void expect_factor_matches(const Schedule& s, const std::vector<double>& gpu, const std::vector<double>& cpu,
                           const std::string& what) {
  ASSERT_EQ(gpu.size(), cpu.size());
  int64_t bad = 0;
  for (int32_t j = 0; j < s.n; ++j) {
    double colmax = 0.0;
    for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p) colmax = std::max(colmax, std::fabs(cpu[p]));
    for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p) {
      const double tol = 1e-10 * std::max(std::fabs(cpu[p]), colmax);
      if (!(std::fabs(gpu[p] - cpu[p]) <= tol)) {
        if (++bad <= 5)
          ADD_FAILURE() << what << ": F(" << s.f_rowind[p] << ", " << j << ") gpu " << gpu[p] << " cpu " << cpu[p];
      }
    }
  }
  EXPECT_EQ(bad, 0) << what << ": entries of F that differ";
}

void expect_stats_match(const EngineFactorResult& g, const CpuFactor& c, const std::string& what) {
  EXPECT_EQ(g.stats.status, c.stats.status) << what;
  EXPECT_EQ(g.stats.pivot_column, c.stats.pivot_column) << what;
  EXPECT_EQ(g.stats.perturbed_pivots, c.stats.perturbed_pivots) << what;
  EXPECT_DOUBLE_EQ(g.stats.min_pivot_ratio, c.stats.min_pivot_ratio) << what;
  EXPECT_DOUBLE_EQ(g.stats.max_active, c.stats.max_active) << what;
  EXPECT_DOUBLE_EQ(g.max_abs_input, c.scatter.max_abs) << what;
  EXPECT_EQ(g.bad_entry, -1) << what;
  EXPECT_GE(g.device_ms, 0.0) << what;
}

std::vector<double> varied_values(const CsrMatrixD& a) {
  std::vector<double> v = a.values;
  for (size_t p = 0; p < v.size(); ++p) v[p] *= 1.0 + 0.1 * std::sin(static_cast<double>(p));
  return v;
}

double max_abs(const std::vector<double>& x) {
  double m = 0.0;
  for (double v : x) m = std::max(m, std::fabs(v));
  return m;
}

// Solve and solve-transpose with the values `values` (the ones just factored) against
// the reference solves on the CPU factor, and their residuals with A.
void check_solves(const Schedule& s, const CsrMatrixD& pattern, const std::vector<double>& values, CudaLU& lu,
                  const std::vector<double>& cpu_f, const std::string& what) {
  CsrMatrixD a = pattern;
  a.values = values;
  const CsrMatrixD at = transpose(a.view());
  const int32_t n = s.n;
  std::vector<double> x_true(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) x_true[i] = 1.0 + 0.5 * std::sin(0.7 * i);
  for (bool tr : {false, true}) {
    const CsrMatrixD& op = tr ? at : a;
    std::vector<double> b(static_cast<size_t>(n)), x_gpu(static_cast<size_t>(n)), x_cpu(static_cast<size_t>(n)),
        work(static_cast<size_t>(n));
    spmv(op.view(), x_true.data(), b.data());
    lu.solve(b.data(), x_gpu.data(), tr);
    if (tr)
      reference::solve_transpose_with_factor(s, cpu_f.data(), b.data(), x_cpu.data(), work.data());
    else
      reference::solve_with_factor(s, cpu_f.data(), b.data(), x_cpu.data(), work.data());
    double diff = 0.0;
    for (int32_t i = 0; i < n; ++i) diff = std::max(diff, std::fabs(x_gpu[i] - x_cpu[i]));
    EXPECT_LE(diff, 1e-10 * max_abs(x_cpu)) << what << (tr ? " (transpose)" : "") << ": gpu vs cpu solution";
    EXPECT_LE(relative_residual(op.view(), x_gpu.data(), b.data()), 1e-12) << what << (tr ? " (transpose)" : "");
    // In place (b and x alias) gives the same answer.
    std::vector<double> inplace = b;
    lu.solve(inplace.data(), inplace.data(), tr);
    double again = 0.0;
    for (int32_t i = 0; i < n; ++i) again = std::max(again, std::fabs(inplace[i] - x_gpu[i]));
    EXPECT_LE(again, 1e-14 * max_abs(x_gpu)) << what << (tr ? " (transpose)" : "") << ": in-place solve";
  }
}

// Factor, compare, refactor with changed values, compare, solve: the core check.
void check_matrix(const std::string& spec, const Options& options) {
  SCOPED_TRACE(spec);
  const CsrMatrixD a = gen::from_spec(spec);
  const Schedule s = analyze(a.view(), options);
  const PivotRule rule = PivotRule::from(options);
  CudaLU lu(s, options, device_ordinal());
  EXPECT_GT(lu.device_bytes(), lu.factor_bytes());
  EXPECT_GE(lu.factor_bytes(), static_cast<int64_t>(s.f_rowind.size() * (sizeof(double) + sizeof(int32_t))));

  const CpuFactor c1 = cpu_factor(s, a.values, rule);
  ASSERT_EQ(c1.stats.status, Status::ok);
  const EngineFactorResult g1 = lu.factor(a.values.data(), rule);
  expect_stats_match(g1, c1, spec + " first factorization");
  expect_factor_matches(s, download(s, lu), c1.f, spec + " first factorization");
  const CudaLU::LevelTiming t = lu.level_timing();
  EXPECT_EQ(t.levels, s.num_levels());
  check_solves(s, a, a.values, lu, c1.f, spec + " first factorization");

  const std::vector<double> v2 = varied_values(a);
  const CpuFactor c2 = cpu_factor(s, v2, rule);
  ASSERT_EQ(c2.stats.status, Status::ok);
  const EngineFactorResult g2 = lu.factor(v2.data(), rule);
  expect_stats_match(g2, c2, spec + " refactorization");
  expect_factor_matches(s, download(s, lu), c2.f, spec + " refactorization");
  check_solves(s, a, v2, lu, c2.f, spec + " refactorization");
}

class CudaLUMatrices : public ::testing::TestWithParam<const char*> {};

TEST_P(CudaLUMatrices, factor_refactor_and_solves_match_the_reference) {
  GPUGLU_REQUIRE_GPU();
  check_matrix(GetParam(), device_options());
}

INSTANTIATE_TEST_SUITE_P(Generated, CudaLUMatrices,
                         ::testing::Values("circuit:2000:40", "powergrid:1500:20", "lap2d5:40x40", "lap2d9:30x30",
                                           "lap3d7:12x12x12", "convdiff3d:10x10x10:5", "randdd:1200:6:3",
                                           "kkt:400:100:5", "circuit:50:5:2"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(CudaLU, matrix_without_matching_and_scaling_matches_the_reference) {
  GPUGLU_REQUIRE_GPU();
  check_matrix("convdiff3d:9x8x7:20", plain_options());
}

// A 50k-unknown circuit: its levels use all three kernel modes.
TEST(CudaLU, large_circuit_uses_all_three_kernel_modes_and_matches_the_reference) {
  GPUGLU_REQUIRE_GPU();
  const Options o = device_options();
  {
    const Schedule s = analyze(gen::from_spec("circuit:50000:500").view(), o);
    ASSERT_GE(s.n, 50000);
    EXPECT_GT(s.levels_in_mode(KernelMode::small_block), 0);
    EXPECT_GT(s.levels_in_mode(KernelMode::large_block), 0);
    EXPECT_GT(s.levels_in_mode(KernelMode::stream), 0);
  }
  check_matrix("circuit:50000:500", o);
}

// The graph and the plain launches give bitwise the same factor.
TEST(CudaLU, graph_and_plain_launches_agree_bitwise) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrixD a = gen::from_spec("powergrid:3000:30:2");
  const Options o = device_options();
  const Schedule s = analyze(a.view(), o);
  const PivotRule rule = PivotRule::from(o);
  CudaLU graphed(s, o, device_ordinal());
  Options plain_launches = o;
  plain_launches.cuda.level_graph = false;
  CudaLU plain(s, plain_launches, device_ordinal());
  EXPECT_TRUE(graphed.uses_graph());
  EXPECT_FALSE(plain.uses_graph());
  ASSERT_EQ(graphed.factor(a.values.data(), rule).stats.status, Status::ok);
  ASSERT_EQ(plain.factor(a.values.data(), rule).stats.status, Status::ok);
  EXPECT_GT(graphed.level_timing().graph_ms, 0.0);
  EXPECT_GT(plain.level_timing().loop_ms, 0.0);
  EXPECT_EQ(download(s, graphed), download(s, plain));
  const CpuFactor c = cpu_factor(s, a.values, rule);
  EXPECT_EQ(download(s, graphed), c.f) << "GPU and CPU right-looking factors are not bitwise equal";
}

// Row `copy` := row `from` (pattern and values): exactly singular.
CsrMatrixD with_equal_rows(const CsrMatrixD& a, int32_t from, int32_t copy) {
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t i = 0; i < a.nrows; ++i) {
    const int32_t src = i == copy ? from : i;
    for (int32_t p = a.rowptr[src]; p < a.rowptr[src + 1]; ++p) t.push_back({i, a.colind[p], a.values[p]});
  }
  return csr_from_triplets<int32_t, double>(a.nrows, a.ncols, t);
}

// One matrix analysed twice, for the level loop and for the persistent kernel (the same
// options otherwise), with a CudaLU for each.
struct LevelsAndPersistent {
  Schedule s, sp;
  PivotRule rule;
  CudaLU levels, persistent;
  LevelsAndPersistent(const CsrMatrixD& a, Options o)
      : s(analyze(a.view(), o)),
        sp(analyze(a.view(), with_persistent_kernel(o))),
        rule(PivotRule::from(o)),
        levels(s, o, device_ordinal()),
        persistent(sp, with_persistent_kernel(o), device_ordinal()) {}
  static Options with_persistent_kernel(Options o) {
    o.modes.persistent_kernel = true;
    return o;
  }
};

// The persistent, self-scheduled level loop gives bitwise the graph's factor (the same
// update order per column), on matrices that use all kernel modes and on a 200k-unknown
// circuit whose tasks far outnumber the resident blocks; a tiny pivot is reported at the
// same column.
TEST(CudaLU, persistent_kernel_agrees_with_the_level_loop_bitwise) {
  GPUGLU_REQUIRE_GPU();
  for (const char* spec : {"powergrid:3000:30:2", "circuit:50000:500", "lap3d7:20x20x20", "circuit:200000:2000"}) {
    SCOPED_TRACE(spec);
    const CsrMatrixD a = gen::from_spec(spec);
    LevelsAndPersistent both(a, device_options());
    EXPECT_FALSE(both.persistent.uses_graph());
    for (int round = 0; round < 2; ++round) {
      const std::vector<double> values = round == 0 ? a.values : varied_values(a);
      ASSERT_EQ(both.levels.factor(values.data(), both.rule).stats.status, Status::ok);
      ASSERT_EQ(both.persistent.factor(values.data(), both.rule).stats.status, Status::ok);
      EXPECT_EQ(download(both.s, both.levels), download(both.sp, both.persistent)) << "round " << round;
    }
  }
  const CsrMatrixD singular = with_equal_rows(gen::from_spec("randdd:400:5:7"), 40, 41);
  LevelsAndPersistent both(singular, plain_options());
  const EngineFactorResult g = both.levels.factor(singular.values.data(), both.rule);
  const EngineFactorResult p = both.persistent.factor(singular.values.data(), both.rule);
  EXPECT_EQ(g.stats.status, Status::numerically_singular);
  EXPECT_EQ(p.stats.status, Status::numerically_singular);
  EXPECT_EQ(p.stats.pivot_column, g.stats.pivot_column);
}

TEST(CudaLU, equal_rows_under_report_policy_name_the_reference_pivot_column) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrixD a = with_equal_rows(gen::from_spec("randdd:400:5:7"), 40, 41);
  for (const Options& o : {device_options(), plain_options()}) {
    const Schedule s = analyze(a.view(), o);
    const PivotRule rule = PivotRule::from(o);
    const CpuFactor c = cpu_factor(s, a.values, rule);
    ASSERT_EQ(c.stats.status, Status::numerically_singular);
    CudaLU lu(s, o, device_ordinal());
    const EngineFactorResult g = lu.factor(a.values.data(), rule);
    EXPECT_EQ(g.stats.status, Status::numerically_singular);
    EXPECT_EQ(g.stats.pivot_column, c.stats.pivot_column);
    EXPECT_EQ(g.stats.pivot_value, c.stats.pivot_value);
    std::vector<double> b(static_cast<size_t>(s.n), 1.0), x(b.size());
    try {
      lu.solve(b.data(), x.data(), false);
      ADD_FAILURE() << "solve after a failed factorization did not throw";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::not_factored);
    }
    // The same object factors a nonsingular matrix of the same pattern afterwards.
    const std::vector<double> v2 = varied_values(a);
    const CpuFactor c2 = cpu_factor(s, v2, rule);
    if (c2.stats.status == Status::ok) {
      ASSERT_EQ(lu.factor(v2.data(), rule).stats.status, Status::ok);
      expect_factor_matches(s, download(s, lu), c2.f, "after a singular factorization");
    }
  }
}

TEST(CudaLU, perturb_policy_matches_the_reference_perturbed_count) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrixD a = with_equal_rows(gen::from_spec("randdd:400:5:7"), 40, 41);
  Options o = plain_options();
  o.pivot_policy = PivotPolicy::perturb;
  const Schedule s = analyze(a.view(), o);
  const PivotRule rule = PivotRule::from(o);
  const CpuFactor c = cpu_factor(s, a.values, rule);
  ASSERT_EQ(c.stats.status, Status::ok);
  ASSERT_GT(c.stats.perturbed_pivots, 0);
  CudaLU lu(s, o, device_ordinal());
  const EngineFactorResult g = lu.factor(a.values.data(), rule);
  expect_stats_match(g, c, "perturb");
  expect_factor_matches(s, download(s, lu), c.f, "perturb");
}

TEST(CudaLU, exact_zero_pivots_are_perturbed_like_the_reference) {
  GPUGLU_REQUIRE_GPU();
  // Blocks [1 1 0; 1 1 1; 0 1 1]: nonsingular, but their second static pivot is exactly 0.
  std::vector<Triplet<int32_t, double>> t;
  const int32_t blocks = 40;
  for (int32_t b = 0; b < blocks; ++b) {
    const int32_t off = 3 * b;
    for (auto [i, j] : {std::pair{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}}) t.push_back({off + i, off + j, 1.0});
    if (b + 1 < blocks) t.push_back({off + 2, off + 3, 0.25});
  }
  const CsrMatrixD a = csr_from_triplets<int32_t, double>(3 * blocks, 3 * blocks, t);
  Options o = plain_options();
  o.ordering = Ordering::natural;
  for (PivotPolicy policy : {PivotPolicy::report, PivotPolicy::perturb}) {
    o.pivot_policy = policy;
    const Schedule s = analyze(a.view(), o);
    const PivotRule rule = PivotRule::from(o);
    const CpuFactor c = cpu_factor(s, a.values, rule);
    CudaLU lu(s, o, device_ordinal());
    const EngineFactorResult g = lu.factor(a.values.data(), rule);
    EXPECT_EQ(g.stats.status, c.stats.status);
    EXPECT_EQ(g.stats.pivot_column, c.stats.pivot_column);
    EXPECT_EQ(g.stats.perturbed_pivots, c.stats.perturbed_pivots);
    if (policy == PivotPolicy::perturb) {
      EXPECT_EQ(g.stats.perturbed_pivots, blocks);
      expect_factor_matches(s, download(s, lu), c.f, "zero pivots perturbed");
    } else {
      EXPECT_EQ(g.stats.status, Status::numerically_singular);
    }
  }
}

// Refinement on the device against reference::refine on the CPU, both on a factor whose
// static pivots were exactly zero and got perturbed (so refinement has real work to do):
// same acceptance rule, so they must end at comparable backward errors, and both solve.
TEST(CudaLU, device_refinement_matches_the_cpu_refinement) {
  GPUGLU_REQUIRE_GPU();
  std::vector<Triplet<int32_t, double>> t;
  const int32_t blocks = 60;
  for (int32_t b = 0; b < blocks; ++b) {
    const int32_t off = 3 * b;
    // [2 2 0; 3 3 1; 0 1 d]: nonsingular (det -2), second static pivot 3 - 1.5 * 2 = 0 exactly.
    const double d = 1.0 + 0.1 * (b % 5);
    for (auto [i, j, v] : {std::tuple{0, 0, 2.0}, {0, 1, 2.0}, {1, 0, 3.0}, {1, 1, 3.0}, {1, 2, 1.0}, {2, 1, 1.0},
                           {2, 2, d}})
      t.push_back({off + i, off + j, v});
    if (b + 1 < blocks) t.push_back({off + 2, off + 3, 0.25});
  }
  const CsrMatrixD a = csr_from_triplets<int32_t, double>(3 * blocks, 3 * blocks, t);
  Options o = plain_options();
  o.ordering = Ordering::natural;
  o.pivot_policy = PivotPolicy::perturb;
  const Schedule s = analyze(a.view(), o);
  const PivotRule rule = PivotRule::from(o);
  const CpuFactor c = cpu_factor(s, a.values, rule);
  ASSERT_EQ(c.stats.status, Status::ok);
  ASSERT_GT(c.stats.perturbed_pivots, 0);
  const std::vector<int64_t> rowptr(a.rowptr.begin(), a.rowptr.end());
  CudaLU lu(s, o, device_ordinal(), PatternRef{a.nrows, rowptr.data(), a.colind.data()});
  ASSERT_EQ(lu.factor(a.values.data(), rule).stats.status, Status::ok);
  const reference::CsrRef ref{a.nrows, rowptr.data(), a.colind.data(), a.values.data()};
  reference::RefineWork work;
  work.resize(a.nrows);
  std::vector<double> b(static_cast<size_t>(a.nrows));
  for (size_t i = 0; i < b.size(); ++i) b[i] = 1.0 + static_cast<double>(i % 11);
  for (bool transpose : {false, true}) {
    std::vector<double> xc(b.size()), xg(b.size());
    if (transpose)
      reference::solve_transpose_with_factor(s, c.f.data(), b.data(), xc.data(), work.solve.data());
    else
      reference::solve_with_factor(s, c.f.data(), b.data(), xc.data(), work.solve.data());
    const reference::RefineOutcome rc = reference::refine(s, c.f.data(), ref, transpose, b.data(), xc.data(), 10, 1e-15, work);
    const EngineSolveResult rg = lu.solve(b.data(), xg.data(), transpose, 10, 1e-15);
    SCOPED_TRACE(transpose ? "transpose" : "plain");
    EXPECT_GE(rg.refine_steps, 1);
    EXPECT_GE(rc.steps, 1);
    EXPECT_LE(rg.backward_error, std::max(1e-14, 10.0 * rc.backward_error));
    std::vector<double> r(b.size());
    const double berr = reference::residual_and_backward_error(ref, transpose, b.data(), xg.data(), r.data(),
                                                               work.denom.data(), work.row_max.data(),
                                                               work.row_len.data());
    EXPECT_LE(berr, std::max(1e-14, 2.0 * rg.backward_error)) << "the device's backward error is the CPU's, recomputed";
    // max_steps 0: the bare solve, no backward error.
    const EngineSolveResult bare = lu.solve(b.data(), xg.data(), transpose, 0, 1e-15);
    EXPECT_EQ(bare.refine_steps, 0);
    EXPECT_EQ(bare.backward_error, -1.0);
  }
}

TEST(CudaLU, nan_input_names_the_first_bad_entry) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrixD a = gen::from_spec("circuit:2000:40");
  const Options o = device_options();
  const Schedule s = analyze(a.view(), o);
  const PivotRule rule = PivotRule::from(o);
  CudaLU lu(s, o, device_ordinal());
  std::vector<double> v = a.values;
  v[317] = std::numeric_limits<double>::quiet_NaN();
  v[905] = std::numeric_limits<double>::infinity();
  const CpuFactor c = cpu_factor(s, v, rule);
  ASSERT_EQ(c.scatter.bad_entry, 317);
  const EngineFactorResult g = lu.factor(v.data(), rule);
  EXPECT_EQ(g.stats.status, Status::nan_or_inf);
  EXPECT_EQ(g.bad_entry, 317);
  EXPECT_DOUBLE_EQ(g.max_abs_input, c.scatter.max_abs);
  // Inf alone is found too, and good values afterwards factor normally.
  v[317] = a.values[317];
  EXPECT_EQ(lu.factor(v.data(), rule).bad_entry, 905);
  const EngineFactorResult ok = lu.factor(a.values.data(), rule);
  EXPECT_EQ(ok.stats.status, Status::ok);
  EXPECT_EQ(ok.bad_entry, -1);
  expect_factor_matches(s, download(s, lu), cpu_factor(s, a.values, rule).f, "after NaN input");
}

// A schedule whose factor pattern lacks an entry an update needs: the last L entry
// (i, k) of a target column that some source's L column also holds is renamed to row
// n - 1 (still sorted), so the update of (i, k) finds nothing. Error(invalid_input),
// as the reference throws.
TEST(CudaLU, missing_fill_throws_invalid_input) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrixD a = gen::from_spec("lap2d5:20x20");
  const Options o = device_options();
  Schedule s = analyze(a.view(), o);
  bool planted = false;
  for (size_t t = 0; t < s.target_col.size() && !planted; ++t) {
    const int32_t k = s.target_col[t];
    const int64_t last = s.f_colptr[k + 1] - 1;
    const int32_t i_last = s.f_rowind[last];
    if (i_last <= k || i_last >= s.n - 1) continue;
    for (int64_t e = s.target_src_ptr[t]; e < s.target_src_ptr[t + 1] && !planted; ++e) {
      const int32_t j = s.f_rowind[s.target_src[e]];
      for (int64_t p = s.f_diag[j] + 1; p < s.f_colptr[j + 1]; ++p)
        if (s.f_rowind[p] == i_last) planted = true;
    }
    if (planted) s.f_rowind[last] = s.n - 1;
  }
  ASSERT_TRUE(planted);
  const PivotRule rule = PivotRule::from(o);
  std::vector<double> f(s.f_rowind.size());
  reference::scatter_values(s, a.values.data(), f.data());
  try {
    reference::factor_levels(s, f.data(), rule, 0);
    ADD_FAILURE() << "the reference accepted the broken schedule";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_input);
  }
  CudaLU lu(s, o, device_ordinal());
  try {
    lu.factor(a.values.data(), rule);
    ADD_FAILURE() << "CudaLU accepted the broken schedule";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_input) << e.what();
  }
}

TEST(CudaLU, solve_before_factor_is_not_factored) {
  GPUGLU_REQUIRE_GPU();
  const CsrMatrixD a = gen::from_spec("lap2d5:10x10");
  const Options o = device_options();
  const Schedule s = analyze(a.view(), o);
  CudaLU lu(s, o, device_ordinal());
  std::vector<double> b(static_cast<size_t>(s.n), 1.0), x(b.size());
  try {
    lu.solve(b.data(), x.data(), true);
    ADD_FAILURE() << "solve before factor did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::not_factored);
  }
}

}  // namespace
}  // namespace gpuglu::test
