// SplitLU on the CPU backend (include/gpuglu/split_lu.hpp; docs/design.md, "One
// factorization over two GPUs"): solves and transposed solves against A and against
// SparseLU's answer on grids, a convection-diffusion and a circuit; refactorization with new
// values; the partition's sizes; the degenerate splits (no separator, an empty part); every
// error the facade reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/split_lu.hpp"
#include "gpuglu/status.hpp"
#include "error_status.hpp"
#include "split_test_support.hpp"

namespace gpuglu::test {
namespace {

using Csr = CsrMatrix<int32_t, double>;

double relative_residual_of(const Csr& a, const std::vector<double>& x, const std::vector<double>& b, bool transpose) {
  if (!transpose) return relative_residual(a.view(), x.data(), b.data());
  const Csr t = gpuglu::transpose(a.view());
  return relative_residual(t.view(), x.data(), b.data());
}

// SparseLU's answer on one device: the reference the split is compared with.
std::vector<double> one_device_solution(const Csr& a, const std::vector<double>& b, bool transpose) {
  SparseLU lu(split_cpu_options());
  lu.analyze(a.view());
  EXPECT_EQ(lu.factor(a.view()).status, Status::ok);
  std::vector<double> x(b.size());
  if (transpose)
    lu.solve_transpose(b.data(), x.data());
  else
    lu.solve(b.data(), x.data());
  return x;
}

void expect_solves_like_sparse_lu(SplitLU& split, const Csr& a, const std::string& name) {
  for (bool transpose : {false, true}) {
    SCOPED_TRACE(name + (transpose ? " transposed" : ""));
    const std::vector<double> b = smooth_rhs(a.nrows);
    std::vector<double> x(b.size());
    const SolveStats& st = transpose ? split.solve_transpose(b.data(), x.data()) : split.solve(b.data(), x.data());
    EXPECT_EQ(st.status, Status::ok);
    EXPECT_FALSE(st.inaccurate);
    EXPECT_GE(st.backward_error, 0.0);
    EXPECT_LE(relative_residual_of(a, x, b, transpose), 1e-12);
    EXPECT_LE(relative_difference_inf(x, one_device_solution(a, b, transpose)), 1e-10);
  }
}

// The partition covers every unknown once. With the matching off B = A, and then no row of
// a part reaches the other part (uncoupled: B's row k of part d sees only P_d and S).
void expect_sound_partition(const SplitLU& split, const Csr& a, bool b_is_a = false) {
  const int32_t n = a.nrows;
  std::vector<int> where(static_cast<size_t>(n), -1);
  for (int d = 0; d < 2; ++d)
    for (int32_t v : split.part(d)) {
      ASSERT_EQ(where[v], -1);
      where[v] = d;
    }
  for (int32_t v : split.separator()) {
    ASSERT_EQ(where[v], -1);
    where[v] = 2;
  }
  EXPECT_EQ(std::count(where.begin(), where.end(), -1), 0);
  EXPECT_EQ(split.part_size(0) + split.part_size(1) + split.separator_size(), n);
  if (!b_is_a) return;
  for (int32_t i = 0; i < n; ++i) {
    if (where[i] == 2) continue;
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      EXPECT_NE(where[a.colind[p]], 1 - where[i]) << "entry (" << i << ", " << a.colind[p] << ") couples the parts";
  }
}

class SplitLuOnGenerated : public ::testing::TestWithParam<const char*> {};

TEST_P(SplitLuOnGenerated, SolvesAsSparseLuDoes) {
  const Csr a = gen::from_spec(GetParam());
  SplitLU split(split_cpu_options());
  split.analyze(a.view());
  expect_sound_partition(split, a);
  EXPECT_GT(split.separator_size(), 0);
  EXPECT_GT(split.part_size(0), 0);
  EXPECT_GT(split.part_size(1), 0);
  const FactorStats& fs = split.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok) << split.failure();
  EXPECT_TRUE(split.failure().empty());
  EXPECT_EQ(fs.factorizations, 1);
  EXPECT_EQ(split.half_factor_stats(0).status, Status::ok);
  EXPECT_EQ(split.half_factor_stats(1).status, Status::ok);
  expect_solves_like_sparse_lu(split, a, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Generators, SplitLuOnGenerated,
                         ::testing::Values("lap2d5:40x40", "lap3d7:16x16x16", "convdiff3d:12x12x12:50",
                                           "circuit:3000:30:7"));

TEST(SplitLu, SeparatorOfA2dGridIsSmallAndBalanced) {
  const Csr a = gen::from_spec("lap2d5:40x40");
  SplitLU split(split_cpu_options(), {3, 5});
  split.analyze(a.view());
  const int32_t n = a.nrows;
  EXPECT_LT(split.separator_size(), n / 4);
  const int32_t p0 = split.part_size(0), p1 = split.part_size(1);
  EXPECT_LE(std::max(p0, p1), 2 * std::min(p0, p1));
  EXPECT_EQ(split.devices(), (std::vector<int32_t>{3, 5}));  // ignored by the CPU backend
  EXPECT_EQ(split.n(), n);
}

TEST(SplitLu, RefactorsNewValuesWithoutNewAnalysis) {
  Csr a = gen::from_spec("convdiff3d:10x10x10:20");
  SplitLU split(split_cpu_options());
  split.analyze(a.view());
  const std::vector<int32_t> separator = split.separator();
  ASSERT_EQ(split.factor(a.view()).status, Status::ok);
  // Same pattern, new values: the diagonal heavier, the rest skewed entry by entry.
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      a.values[p] *= a.colind[p] == i ? 1.7 : 0.6 + 0.05 * ((i + a.colind[p]) % 9);
  const FactorStats& fs = split.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok) << split.failure();
  EXPECT_EQ(fs.factorizations, 2);
  EXPECT_EQ(split.separator(), separator);
  expect_solves_like_sparse_lu(split, a, "refactored");
}

TEST(SplitLu, SolveMayAliasRightHandSide) {
  const Csr a = gen::from_spec("lap2d5:20x20");
  SplitLU split(split_cpu_options());
  split.analyze(a.view());
  ASSERT_EQ(split.factor(a.view()).status, Status::ok);
  const std::vector<double> b = smooth_rhs(a.nrows);
  std::vector<double> x = b;
  split.solve(x.data(), x.data());
  EXPECT_LE(relative_residual(a.view(), x.data(), b.data()), 1e-12);
}

// Two grids side by side, nothing between them: no separator, two independent halves.
TEST(SplitLu, BlockDiagonalMatrixHasNoSeparator) {
  const Csr g0 = gen::from_spec("lap2d5:15x15");
  const Csr g1 = gen::from_spec("convdiff3d:6x6x6:10");
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t i = 0; i < g0.nrows; ++i)
    for (int32_t p = g0.rowptr[i]; p < g0.rowptr[i + 1]; ++p) t.push_back({i, g0.colind[p], g0.values[p]});
  for (int32_t i = 0; i < g1.nrows; ++i)
    for (int32_t p = g1.rowptr[i]; p < g1.rowptr[i + 1]; ++p)
      t.push_back({g0.nrows + i, g0.nrows + g1.colind[p], g1.values[p]});
  const int32_t n = g0.nrows + g1.nrows;
  const Csr a = csr_from_triplets<int32_t, double>(n, n, t);
  SplitLU split(split_cpu_options());
  split.analyze(a.view());
  EXPECT_EQ(split.separator_size(), 0);
  EXPECT_GT(split.part_size(0), 0);
  EXPECT_GT(split.part_size(1), 0);
  expect_sound_partition(split, a);
  ASSERT_EQ(split.factor(a.view()).status, Status::ok) << split.failure();
  expect_solves_like_sparse_lu(split, a, "block diagonal");
}

// A diagonal matrix (no edges: halves, no separator) and matrices too small to separate
// (one part, the other half absent).
TEST(SplitLu, DegenerateSplitsStillSolve) {
  std::vector<Triplet<int32_t, double>> diag;
  for (int32_t i = 0; i < 9; ++i) diag.push_back({i, i, 2.0 + i});
  const Csr d = csr_from_triplets<int32_t, double>(9, 9, diag);
  const Csr tiny = csr_from_triplets<int32_t, double>(
      3, 3, {{0, 0, 4.0}, {0, 1, -1.0}, {1, 0, -1.0}, {1, 1, 4.0}, {1, 2, 2.0}, {2, 1, -1.0}, {2, 2, 3.0}});
  const Csr one = csr_from_triplets<int32_t, double>(1, 1, {{0, 0, -2.5}});
  for (const Csr* a : {&d, &tiny, &one}) {
    SCOPED_TRACE("n = " + std::to_string(a->nrows));
    SplitLU split(split_cpu_options());
    split.analyze(a->view());
    EXPECT_EQ(split.separator_size(), 0);
    ASSERT_EQ(split.factor(a->view()).status, Status::ok) << split.failure();
    expect_solves_like_sparse_lu(split, *a, "degenerate");
  }
  SplitLU split(split_cpu_options());
  split.analyze(tiny.view());
  EXPECT_EQ(split.part_size(0), 3);
  EXPECT_EQ(split.part_size(1), 0);
  EXPECT_EQ(split.half_factor_stats(1).status, Status::not_factored);  // half 1 is not built
}

TEST(SplitLu, RejectsMalformedInput) {
  SplitLU split(split_cpu_options());
  const Csr rect = csr_from_triplets<int32_t, double>(2, 3, {{0, 0, 1.0}, {1, 1, 1.0}, {1, 2, 1.0}});
  EXPECT_EQ(status_of([&] { split.analyze(rect.view()); }), Status::not_square);
  const Csr empty_row = csr_from_triplets<int32_t, double>(3, 3, {{0, 0, 1.0}, {0, 2, 1.0}, {2, 1, 1.0}});
  EXPECT_EQ(status_of([&] { split.analyze(empty_row.view()); }), Status::empty_row);
  Csr nan = gen::from_spec("lap2d5:8x8");
  nan.values[5] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(status_of([&] { split.analyze(nan.view()); }), Status::nan_or_inf);
  // Rows 0 and 1 reach column 0 only: structural rank 2.
  const Csr struct_singular = csr_from_triplets<int32_t, double>(
      3, 3, {{0, 0, 1.0}, {1, 0, 1.0}, {2, 0, 1.0}, {2, 1, 1.0}, {2, 2, 1.0}});
  EXPECT_EQ(status_of([&] { split.analyze(struct_singular.view()); }), Status::structurally_singular);
  EXPECT_FALSE(split.analyzed());
  EXPECT_EQ(status_of([] { SplitLU bad(split_cpu_options(), {0, 1, 2}); }), Status::invalid_input);
  Options given = split_cpu_options();
  given.ordering = Ordering::given;
  SplitLU with_given(given);
  const Csr a = gen::from_spec("lap2d5:8x8");
  EXPECT_EQ(status_of([&] { with_given.analyze(a.view()); }), Status::unsupported);
}

TEST(SplitLu, ReportsFactorAndSolveMisuse) {
  Csr a = gen::from_spec("lap2d5:12x12");
  SplitLU split(split_cpu_options());
  std::vector<double> b = smooth_rhs(a.nrows), x(b.size());
  EXPECT_EQ(status_of([&] { split.factor(a.view()); }), Status::not_analyzed);
  split.analyze(a.view());
  EXPECT_EQ(status_of([&] { split.solve(b.data(), x.data()); }), Status::not_factored);
  const Csr other = gen::from_spec("lap2d9:12x12");
  EXPECT_EQ(status_of([&] { split.factor(other.view()); }), Status::pattern_changed);
  a.values[7] = std::numeric_limits<double>::infinity();
  const FactorStats& fs = split.factor(a.view());
  EXPECT_EQ(fs.status, Status::nan_or_inf);
  EXPECT_EQ(fs.pivot_column_original, a.colind[7]);
  EXPECT_FALSE(split.factored());
  std::string message;
  EXPECT_EQ(status_of([&] { split.solve(b.data(), x.data()); }, &message), Status::not_factored);
  EXPECT_NE(message.find("is inf"), std::string::npos) << message;
}

// factor()'s checks run over A's entries in two halves on two threads: the first NaN/Inf in
// A's order is the one reported, and a changed column in the second half is found.
// The checks run over ranges of A's entries (two for a small A; one with a single thread):
// the first NaN/Inf in A's order is reported whichever range finds it.
TEST(SplitLu, ChecksFindTheFirstBadEntryAndAChangedPattern) {
  for (int threads : {1, 2}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    Csr a = gen::from_spec("lap3d7:16x16x16");
    const int64_t nnz = a.nnz();
    Options o = split_cpu_options();
    o.num_threads = threads;
    SplitLU split(o);
    split.analyze(a.view());
    ASSERT_EQ(split.factor(a.view()).status, Status::ok);
    const std::vector<double> values = a.values;
    a.values[static_cast<size_t>(nnz - 5)] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(split.factor(a.view()).status, Status::nan_or_inf);
    EXPECT_EQ(split.factor_stats().pivot_column_original, a.colind[static_cast<size_t>(nnz - 5)]);
    a.values[static_cast<size_t>(nnz / 2 + 3)] = std::numeric_limits<double>::infinity();
    EXPECT_EQ(split.factor(a.view()).status, Status::nan_or_inf);
    EXPECT_EQ(split.factor_stats().pivot_column_original, a.colind[static_cast<size_t>(nnz / 2 + 3)]);
    a.values[10] = std::numeric_limits<double>::infinity();
    EXPECT_EQ(split.factor(a.view()).status, Status::nan_or_inf);
    EXPECT_EQ(split.factor_stats().pivot_column_original, a.colind[10]);
    a.values = values;
    Csr other = a;
    other.colind[static_cast<size_t>(nnz - 2)] = other.colind[static_cast<size_t>(nnz - 3)];
    EXPECT_EQ(status_of([&] { split.factor(other.view()); }), Status::pattern_changed);
    ASSERT_EQ(split.factor(a.view()).status, Status::ok);
  }
}

// Without the matching B = A and the partition depends on A's graph only; a first analysis
// of a grid shows where the separator lies, and a second matrix of the same graph is made
// to fail there.
Options unmatched() {
  Options o = split_cpu_options();
  o.matching = false;
  return o;
}

TEST(SplitLu, PartsAreUncoupledAndSolveWithoutMatching) {
  const Csr a = gen::from_spec("lap3d7:10x10x10");
  SplitLU split(unmatched());
  split.analyze(a.view());
  expect_sound_partition(split, a, /*b_is_a=*/true);
  ASSERT_EQ(split.factor(a.view()).status, Status::ok) << split.failure();
  expect_solves_like_sparse_lu(split, a, "unmatched");
}

TEST(SplitLu, SingularSeparatorNamesAColumnOfA) {
  Csr a = gen::from_spec("lap2d5:12x12");
  SplitLU probe(unmatched());
  probe.analyze(a.view());
  ASSERT_GT(probe.separator_size(), 0);
  // A separator row of zeros (stored): both halves are untouched, S gets a zero row.
  const int32_t s = probe.separator()[0];
  for (int32_t p = a.rowptr[s]; p < a.rowptr[s + 1]; ++p) a.values[p] = 0.0;
  SplitLU split(unmatched());
  split.analyze(a.view());
  ASSERT_EQ(split.separator(), probe.separator());
  const FactorStats& fs = split.factor(a.view());
  EXPECT_EQ(fs.status, Status::numerically_singular);
  const std::vector<int32_t>& sep = split.separator();
  EXPECT_NE(std::find(sep.begin(), sep.end(), fs.pivot_column_original), sep.end());
  EXPECT_NE(split.failure().find("column " + std::to_string(fs.pivot_column_original) + " of A"), std::string::npos)
      << split.failure();
  EXPECT_EQ(split.half_factor_stats(0).status, Status::ok);
  EXPECT_EQ(split.half_factor_stats(1).status, Status::ok);
  std::vector<double> b = smooth_rhs(a.nrows), x(b.size());
  EXPECT_EQ(status_of([&] { split.solve(b.data(), x.data()); }), Status::not_factored);
}

// A row of part 0 that reaches only the separator: A is structurally nonsingular (that row
// takes a separator column), but half 0's block A_00 has an empty row, which no pivot order
// inside the half cures.
TEST(SplitLu, StructurallySingularHalfIsNamed) {
  const Csr grid = gen::from_spec("lap2d5:12x12");
  SplitLU probe(unmatched());
  probe.analyze(grid.view());
  std::vector<int> where(static_cast<size_t>(grid.nrows), 2);
  for (int d = 0; d < 2; ++d)
    for (int32_t v : probe.part(d)) where[v] = d;
  int32_t v = -1;
  for (int32_t i = 0; i < grid.nrows && v < 0; ++i) {
    if (where[i] != 0) continue;
    for (int32_t p = grid.rowptr[i]; p < grid.rowptr[i + 1]; ++p)
      if (where[grid.colind[p]] == 2) v = i;
  }
  ASSERT_GE(v, 0);
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t i = 0; i < grid.nrows; ++i)
    for (int32_t p = grid.rowptr[i]; p < grid.rowptr[i + 1]; ++p)
      if (i != v || where[grid.colind[p]] == 2) t.push_back({i, grid.colind[p], grid.values[p]});
  const Csr a = csr_from_triplets<int32_t, double>(grid.nrows, grid.nrows, t);
  SplitLU split(unmatched());
  std::string message;
  const Status st = status_of([&] { split.analyze(a.view()); }, &message);
  EXPECT_TRUE(st == Status::structurally_singular || st == Status::empty_row) << to_string(st) << ": " << message;
  EXPECT_NE(message.find("half 0"), std::string::npos) << message;
  EXPECT_NE(message.find("cannot be used"), std::string::npos) << message;
}

}  // namespace
}  // namespace gpuglu::test
