// The analysis split for the GPU level path (src/analysis/trsv_analysis.hpp): analyze() ==
// analyze_dependencies() + compute_levels(), field for field; analyze_dependencies leaves
// the levels empty (what cuda::compute_levels_on_device fills); widest_level; and, where no
// GPU is usable (CI), cuda::analyze_with_device_levels reports invalid input as the CPU
// does and otherwise no_device, never a wrong analysis.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuda/trsv/trsv_levels.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/status.hpp"
#include "analysis/trsv_analysis.hpp"
#include "trsv_test_support.hpp"

namespace gpuglu::test {
namespace {

using trsv::Diag;
using trsv::Fill;

std::vector<trsv::Triangle> triangles() {
  return {random_triangle(500, 4, Fill::lower, Diag::stored, 1), random_triangle(400, 9, Fill::upper, Diag::unit, 2),
          chain_triangle(200, Fill::upper, Diag::stored),        diagonal_triangle(60, Diag::stored),
          diagonal_triangle(60, Diag::unit),                     spec_triangle("lap3d7:6x5x4", Fill::lower, Diag::unit),
          spec_triangle("lap2d9:9x8", Fill::upper, Diag::stored), trsv::Triangle{}};
}

TEST(TrsvLevelSplit, dependencies_then_levels_is_analyze) {
  for (const trsv::Triangle& t : triangles()) {
    SCOPED_TRACE("n " + std::to_string(t.n));
    const trsv::TrsvAnalysis whole = trsv::analyze(t.view());
    trsv::TrsvAnalysis a = trsv::analyze_dependencies(t.view());
    trsv::compute_levels(t.view(), a);
    EXPECT_EQ(a.n, whole.n);
    EXPECT_EQ(a.nnz, whole.nnz);
    EXPECT_EQ(a.offdiag_nnz, whole.offdiag_nnz);
    EXPECT_EQ(a.num_levels, whole.num_levels);
    EXPECT_EQ(a.max_level_rows, whole.max_level_rows);
    EXPECT_EQ(a.max_row_offdiag, whole.max_row_offdiag);
    EXPECT_EQ(a.max_col_offdiag, whole.max_col_offdiag);
    EXPECT_EQ(a.level, whole.level);
    EXPECT_EQ(a.level_ptr, whole.level_ptr);
    EXPECT_EQ(a.jlev, whole.jlev);
    EXPECT_EQ(a.dep_count, whole.dep_count);
    EXPECT_EQ(a.csc_colptr, whole.csc_colptr);
    EXPECT_EQ(a.csc_rowind, whole.csc_rowind);
    EXPECT_EQ(a.csc_map, whole.csc_map);
  }
}

TEST(TrsvLevelSplit, dependencies_alone_leave_the_levels_empty) {
  const trsv::Triangle t = spec_triangle("lap2d5:7x6", Fill::lower, Diag::stored);
  const trsv::TrsvAnalysis a = trsv::analyze_dependencies(t.view());
  EXPECT_TRUE(a.level.empty());
  EXPECT_TRUE(a.level_ptr.empty());
  EXPECT_TRUE(a.jlev.empty());
  EXPECT_EQ(a.num_levels, 0);
  EXPECT_EQ(a.max_level_rows, 0);
  EXPECT_EQ(static_cast<int32_t>(a.dep_count.size()), t.n);
  EXPECT_EQ(a.offdiag_nnz, 2 * 7 * 6 - 7 - 6);  // one west and one south neighbour per row, less the borders
}

TEST(TrsvLevelSplit, compute_levels_replaces_earlier_levels) {
  const trsv::Triangle t = chain_triangle(30, Fill::lower, Diag::unit);
  trsv::TrsvAnalysis a = trsv::analyze_dependencies(t.view());
  trsv::compute_levels(t.view(), a);
  trsv::compute_levels(t.view(), a);  // twice: no stale level survives
  EXPECT_EQ(a.num_levels, 30);
  EXPECT_EQ(a.level_ptr.size(), 31u);
  EXPECT_EQ(a.max_level_rows, 1);
}

TEST(TrsvLevelSplit, check_dependencies_accepts_its_triangle_only) {
  const trsv::Triangle t = random_triangle(300, 5, Fill::upper, Diag::stored, 4);
  EXPECT_NO_THROW(trsv::check_dependencies(t.view(), trsv::analyze_dependencies(t.view())));
  EXPECT_NO_THROW(trsv::check_dependencies(t.view(), trsv::analyze(t.view())));
  const auto status = [&](const trsv::TrsvAnalysis& a) {
    try {
      trsv::check_dependencies(t.view(), a);
    } catch (const Error& e) {
      return e.status();
    }
    return Status::ok;
  };
  EXPECT_EQ(status(trsv::analyze_dependencies(random_triangle(301, 5, Fill::upper, Diag::stored, 4).view())),
            Status::invalid_input);
  trsv::TrsvAnalysis other_fill = trsv::analyze_dependencies(t.view());
  other_fill.fill = Fill::lower;
  EXPECT_EQ(status(other_fill), Status::invalid_input);
  trsv::TrsvAnalysis no_csc = trsv::analyze_dependencies(t.view());
  no_csc.csc_rowind.pop_back();
  EXPECT_EQ(status(no_csc), Status::invalid_input);
  trsv::TrsvAnalysis bare;  // sizes only
  bare.n = t.n;
  bare.nnz = t.view().nnz();
  bare.fill = t.fill;
  EXPECT_EQ(status(bare), Status::invalid_input);
}

TEST(TrsvLevelSplit, widest_level_of_level_pointers) {
  EXPECT_EQ(trsv::widest_level({}), 0);
  EXPECT_EQ(trsv::widest_level({0}), 0);
  EXPECT_EQ(trsv::widest_level({0, 3}), 3);
  EXPECT_EQ(trsv::widest_level({0, 1, 5, 6, 13, 14}), 7);
}

TEST(DeviceLevelsWithoutGpu, invalid_input_first_then_no_device) {
  if (query_device().usable) GTEST_SKIP() << "a GPU is usable here: tests/gpu covers the device path";
  trsv::Triangle bad = spec_triangle("lap2d5:3x3", Fill::lower, Diag::unit);
  bad.diag = Diag::stored;  // rows without their diagonal
  try {
    cuda::analyze_with_device_levels(bad.view());
    ADD_FAILURE() << "invalid triangle accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::structurally_singular) << e.what();
  }
  const trsv::Triangle t = spec_triangle("lap2d5:5x5", Fill::upper, Diag::stored);
  try {
    cuda::analyze_with_device_levels(t.view());
    ADD_FAILURE() << "levels computed without a device";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::no_device) << e.what();
  }
  // Nothing to compute: the empty triangle needs no device.
  trsv::Triangle empty;
  const trsv::TrsvAnalysis a = cuda::analyze_with_device_levels(empty.view());
  EXPECT_EQ(a.num_levels, 0);
  EXPECT_EQ(a.level_ptr, std::vector<int32_t>{0});
}

}  // namespace
}  // namespace gpuglu::test
