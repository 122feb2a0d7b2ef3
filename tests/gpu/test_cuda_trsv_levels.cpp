// The GPU level analysis (src/cuda/trsv_levels, Kahn's algorithm) against the CPU's
// (trsv::analyze): the same level of every row, the same level_ptr and the same jlev, element
// for element, on lower and upper triangles with unit and stored diagonals of the generated
// model problems (2-D / 3-D Laplacians, convection-diffusion, circuit and power-grid
// matrices), random triangles, the empty / one-row / diagonal-only cases (one level), chains
// of 10^5 levels and 1M-row triangles. Every case runs under several launch shapes (kahn_shape.hpp's
// knobs): grid barriers only, block 0 for every frontier that fits it, the defaults, and
// more blocks per SM. An analysis with GPU levels then drives every TriangularSolver kernel
// to the reference's answer. Skips without a usable GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda/trsv/cuda_trsv.hpp"
#include "cuda/trsv/trsv_levels.hpp"
#include "gpuglu/status.hpp"
#include "gpuglu/trsv_kernel.hpp"
#include "cpu/reference_trsv.hpp"
#include "analysis/trsv_analysis.hpp"
#include "trsv_test_support.hpp"

namespace gpuglu::test {
namespace {

using trsv::Diag;
using trsv::Fill;

// Launch shapes: KahnTuning (Options::cuda.kahn_blocks_per_sm / kahn_narrow_rows), -1 = the default.
struct Knobs {
  int32_t narrow_rows;
  int32_t blocks_per_sm;
  const char* name;
  cuda::KahnTuning tuning() const { return {blocks_per_sm, narrow_rows}; }
};
const Knobs kShapes[] = {{-1, -1, "default"},
                         {0, -1, "grid barriers only"},
                         {1024, -1, "block 0 up to its capacity, 1024 rows"},
                         {1, 4, "4 blocks per SM, block 0 for single rows"}};

// Every field of the two analyses, the levels first.
void expect_identical(const trsv::TrsvAnalysis& gpu, const trsv::TrsvAnalysis& cpu) {
  EXPECT_EQ(gpu.num_levels, cpu.num_levels);
  EXPECT_EQ(gpu.max_level_rows, cpu.max_level_rows);
  EXPECT_TRUE(gpu.level_ptr == cpu.level_ptr) << "level_ptr differs";
  EXPECT_TRUE(gpu.level == cpu.level) << "level differs";
  EXPECT_TRUE(gpu.jlev == cpu.jlev) << "jlev differs";
  if (gpu.level != cpu.level) {
    for (size_t i = 0; i < cpu.level.size() && i < gpu.level.size(); ++i)
      if (gpu.level[i] != cpu.level[i]) {
        ADD_FAILURE() << "first wrong row " << i << ": level " << gpu.level[i] << ", CPU " << cpu.level[i];
        break;
      }
  }
  EXPECT_EQ(gpu.n, cpu.n);
  EXPECT_EQ(gpu.nnz, cpu.nnz);
  EXPECT_EQ(gpu.offdiag_nnz, cpu.offdiag_nnz);
  EXPECT_TRUE(gpu.dep_count == cpu.dep_count);
  EXPECT_TRUE(gpu.csc_colptr == cpu.csc_colptr);
  EXPECT_TRUE(gpu.csc_rowind == cpu.csc_rowind);
  EXPECT_TRUE(gpu.csc_map == cpu.csc_map);
  EXPECT_EQ(gpu.max_row_offdiag, cpu.max_row_offdiag);
  EXPECT_EQ(gpu.max_col_offdiag, cpu.max_col_offdiag);
}

// The GPU levels of t under every launch shape equal the CPU's; where the CPU rejects t,
// the GPU path rejects it with the same status.
void check_levels(const std::string& name, const trsv::Triangle& t) {
  SCOPED_TRACE(name);
  Status cpu_status = Status::ok;
  trsv::TrsvAnalysis cpu;
  try {
    cpu = trsv::analyze(t.view());
  } catch (const Error& e) {
    cpu_status = e.status();
  }
  for (const Knobs& k : kShapes) {
    SCOPED_TRACE(k.name);
    if (cpu_status != Status::ok) {
      try {
        cuda::analyze_with_device_levels(t.view(), -1, nullptr, k.tuning());
        ADD_FAILURE() << "the CPU rejects this triangle (" << to_string(cpu_status) << "), the GPU path accepted it";
      } catch (const Error& e) {
        EXPECT_EQ(e.status(), cpu_status) << e.what();
      }
      continue;
    }
    cuda::DeviceLevelStats stats;
    const trsv::TrsvAnalysis gpu = cuda::analyze_with_device_levels(t.view(), -1, &stats, k.tuning());
    expect_identical(gpu, cpu);
    if (t.n > 0) {
      EXPECT_GE(stats.blocks, 1);
      EXPECT_GE(stats.group, 1);
      EXPECT_GT(stats.device_bytes, 0);
      EXPECT_GE(stats.kahn_ms, 0.0);
    }
  }
}

class CudaTrsvLevelsGenerated : public ::testing::TestWithParam<const char*> {};

TEST_P(CudaTrsvLevelsGenerated, gpu_levels_equal_cpu_levels_on_all_four_triangles) {
  GPUGLU_REQUIRE_GPU();
  const std::string spec = GetParam();
  for (Fill f : {Fill::lower, Fill::upper})
    for (Diag d : {Diag::stored, Diag::unit})
      check_levels(spec + " " + trsv::to_string(f) + " " + trsv::to_string(d), spec_triangle(spec, f, d));
}

INSTANTIATE_TEST_SUITE_P(Generated, CudaTrsvLevelsGenerated,
                         ::testing::Values("lap2d5:64x64", "lap2d5:8x700", "lap2d9:48x40", "lap3d7:16x16x16",
                                           "lap3d27:10x12x9", "convdiff3d:14x12x10:5", "circuit:3000:40:7",
                                           "circuit:20000:200:3", "powergrid:1200:12:3", "randdd:800:6:11"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string s = i.param;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

TEST(CudaTrsvLevels, gpu_levels_equal_cpu_levels_on_random_triangles) {
  GPUGLU_REQUIRE_GPU();
  uint64_t seed = 300;
  for (Fill f : {Fill::lower, Fill::upper})
    for (Diag d : {Diag::stored, Diag::unit})
      for (int32_t per_row : {1, 5, 40})
        check_levels(std::string("random ") + trsv::to_string(f) + " " + trsv::to_string(d) + " " +
                         std::to_string(per_row) + "/row",
                     random_triangle(6000, per_row, f, d, ++seed));
}

TEST(CudaTrsvLevels, one_level_cases_empty_one_row_and_diagonal) {
  GPUGLU_REQUIRE_GPU();
  check_levels("empty", trsv::Triangle{});
  check_levels("one row stored", diagonal_triangle(1, Diag::stored));
  check_levels("one row unit", diagonal_triangle(1, Diag::unit));
  check_levels("diagonal 100000", diagonal_triangle(100000, Diag::stored));
  check_levels("identity 5000", diagonal_triangle(5000, Diag::unit));
  const trsv::TrsvAnalysis a = cuda::analyze_with_device_levels(diagonal_triangle(777, Diag::stored).view());
  EXPECT_EQ(a.num_levels, 1);
  EXPECT_EQ(a.max_level_rows, 777);
}

TEST(CudaTrsvLevels, long_chains_give_one_level_per_row) {
  GPUGLU_REQUIRE_GPU();
  for (Fill f : {Fill::lower, Fill::upper})
    for (Diag d : {Diag::stored, Diag::unit}) {
      const trsv::Triangle t = chain_triangle(100000, f, d);
      check_levels(std::string("chain 10^5 ") + trsv::to_string(f) + " " + trsv::to_string(d), t);
      const trsv::TrsvAnalysis a = cuda::analyze_with_device_levels(t.view());
      EXPECT_EQ(a.num_levels, 100000);
      EXPECT_EQ(a.max_level_rows, 1);
    }
}

TEST(CudaTrsvLevelsLarge, million_row_triangles) {
  GPUGLU_REQUIRE_GPU();
  check_levels("lap2d5:1000x1000 lower unit", spec_triangle("lap2d5:1000x1000", Fill::lower, Diag::unit));
  check_levels("lap2d5:1000x1000 upper stored", spec_triangle("lap2d5:1000x1000", Fill::upper, Diag::stored));
  check_levels("lap3d7:100x100x100 lower stored", spec_triangle("lap3d7:100x100x100", Fill::lower, Diag::stored));
  check_levels("random 1M 3/row upper", random_triangle(1 << 20, 3, Fill::upper, Diag::stored, 9));
  check_levels("random 1M 12/row lower unit", random_triangle(1 << 20, 12, Fill::lower, Diag::unit, 10));
}

// The analysis with GPU levels needs nothing else: TriangularSolver takes it as it is.
TEST(CudaTrsvLevels, triangular_solver_runs_every_kernel_on_gpu_levels) {
  GPUGLU_REQUIRE_GPU();
  const trsv::Triangle tris[] = {spec_triangle("lap3d7:20x16x12", Fill::lower, Diag::unit),
                                 spec_triangle("lap2d9:60x50", Fill::upper, Diag::stored),
                                 random_triangle(20000, 5, Fill::upper, Diag::unit, 5),
                                 chain_triangle(3000, Fill::lower, Diag::stored)};
  for (const trsv::Triangle& t : tris) {
    const trsv::TrsvAnalysis a = cuda::analyze_with_device_levels(t.view());
    const std::vector<double> b = random_vector(t.n, 17);
    std::vector<double> ref(t.n);
    trsv::reference::solve(t.view(), b.data(), ref.data());
    for (TrsvKernel k : {TrsvKernel::levr, TrsvKernel::levc, TrsvKernel::slfr, TrsvKernel::slfc,
                         TrsvKernel::cusparse, TrsvKernel::automatic}) {
      SCOPED_TRACE(std::string(to_string(k)) + " n " + std::to_string(t.n));
      cuda::TriangularSolver s(t.view(), a, k);
      std::vector<double> x(t.n, std::nan(""));
      s.solve(b.data(), x.data());
      EXPECT_LT(relative_error(x, ref), 1e-12);
    }
  }
}

TEST(CudaTrsvLevels, compute_levels_on_device_fills_an_analysis_without_levels) {
  GPUGLU_REQUIRE_GPU();
  const trsv::Triangle t = spec_triangle("lap3d27:8x9x7", Fill::upper, Diag::stored);
  trsv::TrsvAnalysis a = trsv::analyze_dependencies(t.view());
  ASSERT_TRUE(a.level.empty());
  int device = -1;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  cuda::compute_levels_on_device(t.view(), a, device);  // an explicit ordinal
  expect_identical(a, trsv::analyze(t.view()));
  cuda::compute_levels_on_device(t.view(), a);  // again, on an analysis that has levels
  expect_identical(a, trsv::analyze(t.view()));
}

TEST(CudaTrsvLevels, rejects_an_analysis_of_another_triangle_or_without_dependencies) {
  GPUGLU_REQUIRE_GPU();
  const trsv::Triangle t = chain_triangle(100, Fill::lower, Diag::stored);
  trsv::TrsvAnalysis other = trsv::analyze_dependencies(chain_triangle(101, Fill::lower, Diag::stored).view());
  EXPECT_THROW(cuda::compute_levels_on_device(t.view(), other), Error);
  trsv::TrsvAnalysis empty;
  empty.n = t.n;
  empty.nnz = t.view().nnz();
  try {
    cuda::compute_levels_on_device(t.view(), empty);
    ADD_FAILURE() << "an analysis without counts and CSC was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_input);
  }
}

// Counts and CSC that form a cycle (0 -> 1 -> 0) leave Kahn's algorithm without roots: the
// GPU path says so instead of returning partial levels.
TEST(CudaTrsvLevels, a_cycle_in_the_dependencies_is_reported) {
  GPUGLU_REQUIRE_GPU();
  trsv::Triangle t;  // 2 rows, lower, stored diagonal, entry (1, 0)
  t.n = 2;
  t.rowptr = {0, 1, 3};
  t.colind = {0, 0, 1};
  t.values = {1.0, 0.5, 1.0};
  trsv::TrsvAnalysis a = trsv::analyze_dependencies(t.view());
  a.dep_count = {1, 1};
  a.offdiag_nnz = 2;
  a.csc_colptr = {0, 1, 2};
  a.csc_rowind = {1, 0};
  a.csc_map = {1, 1};
  try {
    cuda::compute_levels_on_device(t.view(), a);
    ADD_FAILURE() << "a cyclic graph was given levels";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_input);
    EXPECT_NE(std::string(e.what()).find("acyclic"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpuglu::test
