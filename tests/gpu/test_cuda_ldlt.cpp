// The CUDA LDL^T engine (src/cuda/ldlt) against the CPU reference engine on the same
// symmetric schedule: the same scatter, pivots and update order, rounded alike, so the
// factors must be bitwise equal - on the first factorization, on refactorization with new
// values, with perturbed pivots, from full or one-triangle storage, graph or not - and the
// statistics identical; the solves (with and without refinement) agree with the CPU's and
// reach the backward-error tolerance; SparseLDLT on the CUDA backend solves through it.
// Every test skips (and CTest reports Skipped) where no CUDA device is usable.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/numeric_engine.hpp"
#include "cuda/ldlt/cuda_ldlt.hpp"
#include "cuda/lu/cuda_lu.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "ldlt_test_support.hpp"

namespace gpuglu::test {
namespace {

using Csr = CsrMatrixD;

int device_ordinal() { return query_device().ordinal; }

// The CUDA backend's options; Eq. 7 uses the device's resident warps.
Options device_options() {
  Options o = cuda_options();
  const DeviceInfo d = query_device();
  if (d.usable && d.total_warps() > 0) o.modes.total_warps = d.total_warps();
  return o;
}

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

int64_t differing_bits(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) return -1;
  int64_t bad = 0;
  for (size_t i = 0; i < x.size(); ++i) bad += same_bits(x[i], y[i]) ? 0 : 1;
  return bad;
}

// Entries of F whose bits differ (the first few named).
int64_t bit_differences(const Schedule& s, const std::vector<double>& gpu, const std::vector<double>& cpu,
                        const std::string& what) {
  EXPECT_EQ(gpu.size(), cpu.size()) << what;
  if (gpu.size() != cpu.size()) return -1;
  int64_t bad = 0;
  for (int32_t j = 0; j < s.n; ++j)
    for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p)
      if (!same_bits(gpu[p], cpu[p]) && ++bad <= 5)
        ADD_FAILURE() << what << ": F(" << s.f_rowind[p] << ", " << j << ") gpu " << gpu[p] << " cpu " << cpu[p];
  return bad;
}

void expect_same_result(const EngineFactorResult& g, const EngineFactorResult& c, const std::string& what) {
  EXPECT_EQ(g.stats.status, c.stats.status) << what;
  EXPECT_EQ(g.stats.pivot_column, c.stats.pivot_column) << what;
  EXPECT_TRUE(same_bits(g.stats.pivot_value, c.stats.pivot_value))
      << what << ": " << g.stats.pivot_value << " vs " << c.stats.pivot_value;
  EXPECT_EQ(g.stats.perturbed_pivots, c.stats.perturbed_pivots) << what;
  EXPECT_EQ(g.stats.first_perturbed, c.stats.first_perturbed) << what;
  EXPECT_TRUE(same_bits(g.stats.min_pivot_ratio, c.stats.min_pivot_ratio))
      << what << ": min pivot ratio " << g.stats.min_pivot_ratio << " vs " << c.stats.min_pivot_ratio;
  EXPECT_TRUE(same_bits(g.stats.max_active, c.stats.max_active))
      << what << ": max active " << g.stats.max_active << " vs " << c.stats.max_active;
  EXPECT_TRUE(same_bits(g.max_abs_input, c.max_abs_input))
      << what << ": max input " << g.max_abs_input << " vs " << c.max_abs_input;
  EXPECT_EQ(g.bad_entry, c.bad_entry) << what;
  EXPECT_GE(g.device_ms, 0.0) << what;
}

// New values of the same symmetric matrix: entry (i, j) scaled by a function of i + j, the
// diagonal a little more, so a diagonally dominant A stays so.
double variation(int32_t i, int32_t j) {
  return i == j ? 1.25 + 0.1 * std::sin(static_cast<double>(i)) : 1.0 + 0.1 * std::sin(0.3 * (i + j));
}

Csr varied(const Csr& a) {
  Csr v = a;
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) v.values[p] *= variation(i, a.colind[p]);
  return v;
}

// The lower triangle of a symmetric A, as the one-triangle storages keep it.
Csr lower_triangle(const Csr& a) {
  std::vector<Triplet<int32_t, double>> e;
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] <= i) e.push_back({i, a.colind[p], a.values[p]});
  return csr_from_triplets<int32_t, double>(a.nrows, a.ncols, e);
}

double max_abs(const std::vector<double>& x) {
  double m = 0.0;
  for (double v : x) m = std::max(m, std::fabs(v));
  return m;
}

double relative_difference(const std::vector<double>& x, const std::vector<double>& ref) {
  double d = 0.0;
  for (size_t i = 0; i < x.size(); ++i) d = std::max(d, std::fabs(x[i] - ref[i]));
  const double m = max_abs(ref);
  return m > 0.0 ? d / m : d;
}

// Both engines on one schedule of A (full storage).
struct Engines {
  Schedule s;
  PatternCopy pattern;
  std::unique_ptr<NumericEngine> cpu, gpu;
  Engines(const Csr& a, const Options& o)
      : s(analyze_symmetric(a.view(), StoredTriangle::full, o)),
        pattern(a),
        cpu(make_cpu_engine(s, pattern.ref, o)),
        gpu(make_cuda_engine(s, pattern.ref, o, device_ordinal())) {}
};

// Factor values (A's pattern) on both engines: identical results and bits.
void expect_same_factor(Engines& e, const std::vector<double>& values, const PivotRule& rule, const std::string& what) {
  const EngineFactorResult c = e.cpu->factor(values.data(), rule);
  const EngineFactorResult g = e.gpu->factor(values.data(), rule);
  expect_same_result(g, c, what);
  EXPECT_EQ(bit_differences(e.s, e.gpu->factor_values(), e.cpu->factor_values(), what), 0)
      << what << ": entries of F whose bits differ";
}

// The solves of the last factorization (of `a`, A's values): without refinement and with
// up to 3 steps, against the CPU engine's and A's backward error; the transposed and the
// in-place solves give the same x.
void expect_solves(Engines& e, const Csr& a, const std::string& what) {
  const int32_t n = a.nrows;
  std::vector<double> x_true(static_cast<size_t>(n)), b(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) x_true[i] = 1.0 + 0.5 * std::sin(0.7 * i);
  spmv(a.view(), x_true.data(), b.data());
  for (int32_t steps : {0, 3}) {
    SCOPED_TRACE(what + ", max_steps " + std::to_string(steps));
    std::vector<double> x_cpu(b.size()), x_gpu(b.size());
    const EngineSolveResult rc = e.cpu->solve(b.data(), x_cpu.data(), false, steps, 1e-15);
    const EngineSolveResult rg = e.gpu->solve(b.data(), x_gpu.data(), false, steps, 1e-15);
    EXPECT_LE(relative_difference(x_gpu, x_cpu), 1e-13) << "gpu vs cpu solution";
    EXPECT_LE(backward_error(a.view(), x_gpu.data(), b.data()), 1e-12);
    if (steps == 0) {
      EXPECT_EQ(rg.refine_steps, 0);
      EXPECT_EQ(rg.backward_error, -1.0);
    } else {
      EXPECT_GE(rg.backward_error, 0.0);
      EXPECT_LE(rg.backward_error, 1e-12);
      EXPECT_LE(rg.refine_steps, steps);
      EXPECT_GE(rc.backward_error, 0.0);
    }
    std::vector<double> x_t(b.size());
    e.gpu->solve(b.data(), x_t.data(), true, steps, 1e-15);
    // The column-oriented solve kernels add with atomics, so a repeated solve agrees to
    // rounding, not necessarily bitwise.
    EXPECT_LE(relative_difference(x_t, x_gpu), 1e-14) << "A = A^T: the transposed solve is the same solve";
    std::vector<double> inplace = b;
    e.gpu->solve(inplace.data(), inplace.data(), false, steps, 1e-15);
    EXPECT_LE(relative_difference(inplace, x_gpu), 1e-14) << "in-place solve";
  }
}

// First factorization, solves, refactorization with new values, solves.
void check_matrix(const std::string& spec, const Options& o) {
  SCOPED_TRACE(spec);
  const Csr a = gen::from_spec(spec);
  Engines e(a, o);
  ASSERT_TRUE(e.s.symmetric());
  ASSERT_NE(dynamic_cast<cuda::CudaLDLT*>(e.gpu.get()), nullptr)
      << "make_cuda_engine: a symmetric schedule is the LDL^T's";
  EXPECT_EQ(e.gpu->backend(), Backend::cuda);
  EXPECT_GT(e.gpu->device_bytes(), static_cast<int64_t>(e.s.f_rowind.size() * sizeof(double)));
  const PivotRule rule = perturbing_rule(o);
  expect_same_factor(e, a.values, rule, "first factorization");
  if (::testing::Test::HasFatalFailure()) return;
  expect_solves(e, a, "first factorization");
  const Csr a2 = varied(a);
  expect_same_factor(e, a2.values, rule, "refactorization");
  expect_solves(e, a2, "refactorization");
  const cuda::CudaLDLT::LevelTiming t = dynamic_cast<cuda::CudaLDLT&>(*e.gpu).level_timing();
  EXPECT_EQ(t.levels, e.s.num_levels());
}

class CudaLDLTMatrices : public ::testing::TestWithParam<const char*> {};

TEST_P(CudaLDLTMatrices, factor_refactor_and_solves_match_the_cpu_engine_bitwise) {
  GPUGLU_REQUIRE_GPU();
  check_matrix(GetParam(), device_options());
}

INSTANTIATE_TEST_SUITE_P(Generated, CudaLDLTMatrices,
                         ::testing::Values("lap2d5:40x30", "lap3d7:16x16x16", "lap3d27:10x10x10", "kkt:3000:800:5"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// 64000 unknowns: thousands of short levels and the huge late ones (the top separators'
// dense columns, a block per target), so every kernel mode and both update paths run.
TEST(CudaLDLT, a_large_grid_runs_every_kernel_mode_and_matches_bitwise) {
  GPUGLU_REQUIRE_GPU();
  const Options o = device_options();
  {
    const Schedule s = analyze_symmetric(gen::from_spec("lap3d7:40x40x40").view(), StoredTriangle::full, o);
    EXPECT_GT(s.levels_in_mode(KernelMode::small_block), 0);
    EXPECT_GT(s.levels_in_mode(KernelMode::large_block), 0);
    EXPECT_GT(s.levels_in_mode(KernelMode::stream), 0);
  }
  check_matrix("lap3d7:40x40x40", o);
}

// The graph, the plain launches and the persistent kernel: the same update order per
// column, so the same bits (and the CPU's).
TEST(CudaLDLT, graph_plain_launches_and_persistent_kernel_agree_bitwise) {
  GPUGLU_REQUIRE_GPU();
  const Csr a = gen::from_spec("lap3d7:16x16x16");
  const Options o = device_options();
  const Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
  const PivotRule rule = perturbing_rule(o);
  Options plain = o;
  plain.cuda.level_graph = false;
  Options persistent = o;
  persistent.modes.persistent_kernel = true;
  cuda::CudaLDLT graphed(s, o, device_ordinal()), launched(s, plain, device_ordinal()),
      self_scheduled(s, persistent, device_ordinal());
  EXPECT_TRUE(graphed.uses_graph());
  EXPECT_FALSE(launched.uses_graph());
  EXPECT_FALSE(self_scheduled.uses_graph());
  const PatternCopy pattern(a);
  const std::unique_ptr<NumericEngine> cpu = make_cpu_engine(s, pattern.ref, o);
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const std::vector<double> values = round == 0 ? a.values : varied(a).values;
    ASSERT_EQ(cpu->factor(values.data(), rule).stats.status, Status::ok);
    ASSERT_EQ(graphed.factor(values.data(), rule).stats.status, Status::ok);
    ASSERT_EQ(launched.factor(values.data(), rule).stats.status, Status::ok);
    ASSERT_EQ(self_scheduled.factor(values.data(), rule).stats.status, Status::ok);
    EXPECT_GT(graphed.level_timing().graph_ms, 0.0);
    EXPECT_GT(launched.level_timing().loop_ms, 0.0);
    EXPECT_EQ(bit_differences(s, graphed.factor_values(), cpu->factor_values(), "graph"), 0);
    EXPECT_EQ(bit_differences(s, launched.factor_values(), cpu->factor_values(), "plain launches"), 0);
    EXPECT_EQ(bit_differences(s, self_scheduled.factor_values(), cpu->factor_values(), "persistent kernel"), 0);
  }
}

TEST(CudaLDLT, perturbed_and_reported_zero_pivots_match_the_cpu_engine) {
  GPUGLU_REQUIRE_GPU();
  const Csr a = zero_diagonal_blocks(40);
  Options o = device_options();
  o.scaling = false;
  Engines e(a, o);
  {
    SCOPED_TRACE("perturb");
    const PivotRule rule = perturbing_rule(o);
    const EngineFactorResult c = e.cpu->factor(a.values.data(), rule);
    ASSERT_EQ(c.stats.status, Status::ok);
    ASSERT_GT(c.stats.perturbed_pivots, 0);
    expect_same_result(e.gpu->factor(a.values.data(), rule), c, "perturb");
    EXPECT_EQ(bit_differences(e.s, e.gpu->factor_values(), e.cpu->factor_values(), "perturb"), 0);
    // Refinement repairs the perturbation (a contraction of about sqrt(eps) per step).
    std::vector<double> x_true(static_cast<size_t>(a.nrows)), b(x_true.size()), x(x_true.size());
    for (size_t i = 0; i < x_true.size(); ++i) x_true[i] = 1.0 + static_cast<double>(i % 7);
    spmv(a.view(), x_true.data(), b.data());
    const EngineSolveResult r = e.gpu->solve(b.data(), x.data(), false, 10, 1e-15);
    EXPECT_GE(r.refine_steps, 1);
    EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-12);
  }
  {
    SCOPED_TRACE("report");
    const PivotRule rule = PivotRule::from(o);  // the engines' report
    ASSERT_EQ(rule.policy, PivotPolicy::report);
    const EngineFactorResult c = e.cpu->factor(a.values.data(), rule);
    ASSERT_EQ(c.stats.status, Status::numerically_singular);
    expect_same_result(e.gpu->factor(a.values.data(), rule), c, "report");
    std::vector<double> b(static_cast<size_t>(a.nrows), 1.0), x(b.size());
    try {
      e.gpu->solve(b.data(), x.data(), false, 0, 0.0);
      ADD_FAILURE() << "solve after a failed factorization did not throw";
    } catch (const Error& err) {
      EXPECT_EQ(err.status(), Status::not_factored);
    }
  }
}

// Both halves of a full-storage pair, each halved and added, give the one-triangle value:
// the same F bit for bit.
TEST(CudaLDLT, full_and_lower_triangle_storage_give_the_same_factor) {
  GPUGLU_REQUIRE_GPU();
  for (const char* spec : {"lap3d27:10x10x10", "kkt:3000:800:5"}) {
    SCOPED_TRACE(spec);
    const Csr a = gen::from_spec(spec);
    const Csr low = lower_triangle(a);
    const Options o = device_options();
    const PivotRule rule = perturbing_rule(o);
    const Schedule s_full = analyze_symmetric(a.view(), StoredTriangle::full, o);
    const Schedule s_low = analyze_symmetric(low.view(), StoredTriangle::lower, o);
    ASSERT_EQ(s_full.f_rowind, s_low.f_rowind);
    ASSERT_EQ(s_full.input_nnz, static_cast<int64_t>(a.values.size()));
    ASSERT_EQ(s_low.input_nnz, static_cast<int64_t>(low.values.size()));
    cuda::CudaLDLT full(s_full, o, device_ordinal()), lower(s_low, o, device_ordinal());
    const EngineFactorResult rf = full.factor(a.values.data(), rule);
    const EngineFactorResult rl = lower.factor(low.values.data(), rule);
    ASSERT_EQ(rf.stats.status, Status::ok);
    EXPECT_EQ(rl.stats.status, Status::ok);
    EXPECT_EQ(rl.stats.perturbed_pivots, rf.stats.perturbed_pivots);
    EXPECT_EQ(bit_differences(s_full, lower.factor_values(), full.factor_values(), "lower vs full"), 0);
    const std::unique_ptr<NumericEngine> cpu = make_cpu_engine(s_low, PatternRef{}, o);
    ASSERT_EQ(cpu->factor(low.values.data(), rule).stats.status, Status::ok);
    EXPECT_EQ(bit_differences(s_low, lower.factor_values(), cpu->factor_values(), "lower, gpu vs cpu"), 0);
  }
}

TEST(CudaLDLT, nan_input_names_the_first_bad_entry_and_good_values_factor_afterwards) {
  GPUGLU_REQUIRE_GPU();
  const Csr a = gen::from_spec("lap3d7:10x10x10");
  const Options o = device_options();
  Engines e(a, o);
  const PivotRule rule = perturbing_rule(o);
  std::vector<double> v = a.values;
  v[317] = std::numeric_limits<double>::quiet_NaN();
  v[905] = std::numeric_limits<double>::infinity();
  const EngineFactorResult c = e.cpu->factor(v.data(), rule);
  ASSERT_EQ(c.bad_entry, 317);
  const EngineFactorResult g = e.gpu->factor(v.data(), rule);
  EXPECT_EQ(g.stats.status, Status::nan_or_inf);
  EXPECT_EQ(g.bad_entry, 317);
  EXPECT_TRUE(same_bits(g.max_abs_input, c.max_abs_input));
  v[317] = a.values[317];
  EXPECT_EQ(e.gpu->factor(v.data(), rule).bad_entry, 905);
  expect_same_factor(e, a.values, rule, "after NaN input");
}

// The last row i of a target column j that one of its sources k also holds is renamed to
// row n - 1 (still sorted), so the update of (i, j) finds nothing: Error(invalid_input), as
// the reference throws.
TEST(CudaLDLT, missing_fill_throws_invalid_input) {
  GPUGLU_REQUIRE_GPU();
  const Csr a = gen::from_spec("lap2d5:20x20");
  const Options o = device_options();
  Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
  bool planted = false;
  for (size_t t = 0; t < s.target_col.size() && !planted; ++t) {
    const int32_t j = s.target_col[t];
    const int64_t last = s.f_colptr[j + 1] - 1;
    const int32_t i_last = s.f_rowind[last];
    if (i_last <= j || i_last >= s.n - 1) continue;
    for (int64_t e = s.target_src_ptr[t]; e < s.target_src_ptr[t + 1] && !planted; ++e) {
      const int32_t k = s.target_src_col[e];
      for (int64_t p = s.target_src[e]; p < s.f_colptr[k + 1]; ++p)
        if (s.f_rowind[p] == i_last) planted = true;
    }
    if (planted) s.f_rowind[last] = s.n - 1;
  }
  ASSERT_TRUE(planted);
  const PatternCopy pattern(a);
  const PivotRule rule = perturbing_rule(o);
  const std::unique_ptr<NumericEngine> cpu = make_cpu_engine(s, pattern.ref, o);
  try {
    cpu->factor(a.values.data(), rule);
    ADD_FAILURE() << "the reference accepted the broken schedule";
  } catch (const Error& err) {
    EXPECT_EQ(err.status(), Status::invalid_input);
  }
  cuda::CudaLDLT ldlt(s, o, device_ordinal(), pattern.ref);
  try {
    ldlt.factor(a.values.data(), rule);
    ADD_FAILURE() << "CudaLDLT accepted the broken schedule";
  } catch (const Error& err) {
    EXPECT_EQ(err.status(), Status::invalid_input) << err.what();
  }
}

TEST(CudaLDLT, each_cuda_engine_refuses_the_other_ones_schedule_and_solve_needs_a_factor) {
  GPUGLU_REQUIRE_GPU();
  const Csr a = gen::from_spec("lap2d5:10x10");
  const Options o = device_options();
  const Schedule sym = analyze_symmetric(a.view(), StoredTriangle::full, o);
  const Schedule unsym = analyze(a.view(), o);
  try {
    cuda::CudaLDLT e(unsym, o, device_ordinal());
    ADD_FAILURE() << "CudaLDLT took an LU schedule";
  } catch (const Error& err) {
    EXPECT_EQ(err.status(), Status::invalid_input);
  }
  try {
    cuda::CudaLU e(sym, o, device_ordinal());
    ADD_FAILURE() << "CudaLU took a symmetric schedule";
  } catch (const Error& err) {
    EXPECT_EQ(err.status(), Status::invalid_input);
  }
  cuda::CudaLDLT ldlt(sym, o, device_ordinal());
  std::vector<double> b(static_cast<size_t>(sym.n), 1.0), x(b.size());
  try {
    ldlt.solve(b.data(), x.data(), false, 0, 0.0);
    ADD_FAILURE() << "solve before factor did not throw";
  } catch (const Error& err) {
    EXPECT_EQ(err.status(), Status::not_factored);
  }
}

// SparseLDLT with Options::backend = cuda: analysis, the factor on the device, solves with
// the default refinement, a refactorization - within the backward-error tolerance, and
// agreeing with the same object on the CPU.
void expect_public_api_solves(const std::string& spec) {
  SCOPED_TRACE(spec);
  const Csr a = gen::from_spec(spec);
  SparseLDLT gpu(device_options());
  Options cpu_opts;
  cpu_opts.backend = Backend::cpu;
  cpu_opts.ldlt_engine = LuEngine::column;  // the column engine's oracle, bit for bit
  SparseLDLT cpu(cpu_opts);
  gpu.analyze(a.view());
  cpu.analyze(a.view());
  EXPECT_EQ(gpu.active_backend(), Backend::cuda);
  for (const Csr& m : {a, varied(a)}) {
    const FactorStats& fs = gpu.factor(m.view());
    ASSERT_EQ(fs.status, Status::ok);
    ASSERT_EQ(cpu.factor(m.view()).status, Status::ok);
    EXPECT_GT(gpu.device_bytes(), 0);
    if (!gpu.uses_lu() && !cpu.uses_lu()) {
      EXPECT_EQ(differing_bits(gpu.factor_values(), cpu.factor_values()), 0) << "SparseLDLT: gpu and cpu factors";
    }
    std::vector<double> x_true(static_cast<size_t>(m.nrows)), b(x_true.size()), x(x_true.size()), xc(x_true.size());
    for (size_t i = 0; i < x_true.size(); ++i) x_true[i] = 1.0 + 0.5 * std::cos(0.3 * static_cast<double>(i));
    spmv(m.view(), x_true.data(), b.data());
    const SolveStats& ss = gpu.solve(b.data(), x.data());
    ASSERT_EQ(ss.status, Status::ok);
    EXPECT_LE(backward_error(m.view(), x.data(), b.data()), 1e-12);
    ASSERT_EQ(cpu.solve(b.data(), xc.data()).status, Status::ok);
    EXPECT_LE(relative_difference(x, xc), 1e-10);
    if (!gpu.uses_lu() && fs.perturbed_pivots == 0) {
      const Inertia g = gpu.inertia(), c = cpu.inertia();
      EXPECT_EQ(g.negative, c.negative);
      EXPECT_EQ(g.zero, c.zero);
      EXPECT_EQ(g.positive, c.positive);
    }
  }
}

// The PETSc adapter's ICC: tiny pivots reported, no relative threshold, PETSc's
// positive-definite shift. On the GPU the column ICC's shift loop tests the factor the device
// computed; on the CPU the same options factor by rows. An indefinite A: both take the same
// shifts and precondition alike.
TEST(SparseLDLTCuda, an_icc_under_petscs_positive_definite_shift_takes_the_cpus_shifts) {
  GPUGLU_REQUIRE_GPU();
  Csr a = gen::from_spec("lap2d5:30x30");
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] == i) a.values[p] -= 1.5;
  Options o = cuda_options();
  o.ilu_levels = 0;
  o.ordering = Ordering::natural;
  o.pivot_policy = PivotPolicy::report;
  o.pivot_threshold = 0.0;
  o.shift_type = ShiftType::positive_definite;
  Options c = o;
  c.backend = Backend::cpu;
  SparseLDLT gpu(o), cpu(c);
  gpu.analyze(a.view());
  cpu.analyze(a.view());
  EXPECT_NE(gpu.schedule().kind, FactorKind::row_ilu);
  EXPECT_EQ(cpu.schedule().kind, FactorKind::row_ilu);
  const FactorStats g = gpu.factor(a.view()), h = cpu.factor(a.view());
  ASSERT_EQ(g.status, Status::ok);
  ASSERT_EQ(h.status, Status::ok);
  EXPECT_GT(g.shift_tries, 0);
  EXPECT_EQ(g.shift_tries, h.shift_tries);
  EXPECT_EQ(g.shift_amount, h.shift_amount);
  const std::vector<double> b(static_cast<size_t>(a.nrows), 1.0);
  std::vector<double> xg(b.size()), xc(b.size());
  ASSERT_EQ(gpu.solve(b.data(), xg.data()).status, Status::ok);
  ASSERT_EQ(cpu.solve(b.data(), xc.data()).status, Status::ok);
  EXPECT_LE(relative_difference(xg, xc), 1e-10);
}

TEST(SparseLDLTCuda, solves_a_3d_laplacian_within_the_backward_error_tolerance) {
  GPUGLU_REQUIRE_GPU();
  expect_public_api_solves("lap3d7:30x30x30");
}

TEST(SparseLDLTCuda, solves_a_kkt_system_within_the_backward_error_tolerance) {
  GPUGLU_REQUIRE_GPU();
  expect_public_api_solves("kkt:3000:800:5");
}

}  // namespace
}  // namespace gpuglu::test
