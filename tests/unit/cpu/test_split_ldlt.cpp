// SplitLU with SplitFactorization::ldlt on the CPU backend (include/gpuglu/split_lu.hpp): the
// halves are SparseLDLTs in Schur mode, S = S_0 + S_1 is symmetric. Solves against A and
// against SparseLDLT's answer on SPD grids, an indefinite shifted Laplacian and KKT systems
// (their matched pairs kept on one side);
// refactorization with symmetric new values; the partition without the matching (B = A, the
// parts uncoupled); an unsymmetric A refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "error_status.hpp"
#include "split_test_support.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/split_lu.hpp"

namespace gpuglu::test {
namespace {

using Csr = CsrMatrix<int32_t, double>;

std::vector<double> one_device_solution(const Csr& a, const std::vector<double>& b) {
  SparseLDLT f(split_cpu_options());
  f.analyze(a.view());
  EXPECT_EQ(f.factor(a.view()).status, Status::ok);
  std::vector<double> x(b.size());
  f.solve(b.data(), x.data());
  return x;
}

void expect_solves_like_sparse_ldlt(SplitLU& split, const Csr& a, const std::string& name) {
  SCOPED_TRACE(name);
  const std::vector<double> b = smooth_rhs(a.nrows);
  const std::vector<double> x_one = one_device_solution(a, b);
  for (bool transpose : {false, true}) {  // A = A^T: the same system
    std::vector<double> x(b.size());
    const SolveStats& st = transpose ? split.solve_transpose(b.data(), x.data()) : split.solve(b.data(), x.data());
    EXPECT_EQ(st.status, Status::ok);
    EXPECT_FALSE(st.inaccurate);
    EXPECT_LE(relative_residual(a.view(), x.data(), b.data()), 1e-12);
    EXPECT_LE(relative_difference_inf(x, x_one), 1e-10);
  }
}

class SplitLdltOnGenerated : public ::testing::TestWithParam<const char*> {};

TEST_P(SplitLdltOnGenerated, SolvesAsSparseLdltDoes) {
  const Csr a = gen::from_spec(GetParam());
  SplitLU split(split_cpu_options(), {0, 1}, SplitFactorization::ldlt);
  EXPECT_EQ(split.factorization(), SplitFactorization::ldlt);
  split.analyze(a.view());
  EXPECT_GT(split.separator_size(), 0);
  ASSERT_NE(split.half(0), nullptr);
  EXPECT_EQ(split.half(0)->schedule().kind, FactorKind::supernodal_ldlt);
  EXPECT_EQ(split.half(0)->schedule().schur_size, split.separator_size());
  // No matching: B = A, so no entry of A couples the two parts.
  std::vector<int> where(static_cast<size_t>(a.nrows), 2);
  for (int d = 0; d < 2; ++d)
    for (int32_t v : split.part(d)) where[v] = d;
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (where[i] < 2) EXPECT_NE(where[a.colind[p]], 1 - where[i]);
  ASSERT_EQ(split.factor(a.view()).status, Status::ok) << split.failure();
  EXPECT_EQ(split.root_factorization(), RootFactorization::lu_pivoted);  // the host's root
  expect_solves_like_sparse_ldlt(split, a, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Generators, SplitLdltOnGenerated,
                         ::testing::Values("lap2d5:40x40", "lap3d7:14x14x14", "shiftlap3d:12x12x12:0.9"));

// A KKT system's zero diagonal: the partition keeps A's matched pairs together (a dual
// unknown and its primal partner on one side), so neither half's A11 is structurally
// singular and the split solves as one device's LDL^T does; each dual unknown in a part has
// a neighbour in that part.
TEST(SplitLdlt, AKktSystemKeepsItsPairsTogetherAndSolves) {
  for (const char* spec : {"kkt:2000:600", "kkt:3000:1400:3"}) {
    const Csr a = gen::from_spec(spec);
    SplitLU split(split_cpu_options(), {0, 1}, SplitFactorization::ldlt);
    split.analyze(a.view());
    EXPECT_GT(split.separator_size(), 0);
    std::vector<int> where(static_cast<size_t>(a.nrows), 2);
    for (int d = 0; d < 2; ++d)
      for (int32_t v : split.part(d)) where[v] = d;
    for (int32_t i = 0; i < a.nrows; ++i) {
      if (where[i] == 2) continue;
      bool has_diagonal = false, has_neighbour_in_part = false;
      for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        has_diagonal = has_diagonal || (a.colind[p] == i && a.values[p] != 0.0);
        has_neighbour_in_part = has_neighbour_in_part || (a.colind[p] != i && where[a.colind[p]] == where[i]);
      }
      EXPECT_TRUE(has_diagonal || has_neighbour_in_part) << spec << ": unknown " << i << " alone in part " << where[i];
    }
    ASSERT_EQ(split.factor(a.view()).status, Status::ok) << split.failure();
    expect_solves_like_sparse_ldlt(split, a, spec);
  }
}

TEST(SplitLdlt, RefactorsSymmetricNewValues) {
  Csr a = gen::from_spec("lap3d7:12x12x12");
  SplitLU split(split_cpu_options(), {0, 1}, SplitFactorization::ldlt);
  split.analyze(a.view());
  ASSERT_EQ(split.factor(a.view()).status, Status::ok);
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) a.values[p] *= 1.0 + 0.05 * ((i + a.colind[p]) % 4);
  ASSERT_EQ(split.factor(a.view()).status, Status::ok);
  expect_solves_like_sparse_ldlt(split, a, "refactored");
}

TEST(SplitLdlt, AnUnsymmetricMatrixIsRefusedByName) {
  Csr a = gen::from_spec("lap2d5:8x8");
  a.values[1] += 0.5;  // row 0's first off-diagonal entry
  SplitLU split(split_cpu_options(), {0, 1}, SplitFactorization::ldlt);
  std::string message;
  EXPECT_EQ(status_of([&] { split.analyze(a.view()); }, &message), Status::invalid_input);
  EXPECT_NE(message.find("symmetric"), std::string::npos) << message;
  EXPECT_FALSE(split.analyzed());
}

}  // namespace
}  // namespace gpuglu::test
