// ILU(k) by levels of fill: the row-merge algorithm against the definition computed on a
// dense level matrix, ILU(0) = A's pattern plus the diagonal, and ILU(large k) = the
// complete symbolic factorization.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "analysis/ilu_pattern.hpp"
#include "analysis/input_pattern.hpp"
#include "analysis/ordering.hpp"
#include "analysis/symbolic.hpp"
#include "gpuglu/generators.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {
namespace {

analysis::MatchedPattern pattern_of(const CsrMatrix<int32_t, double>& a) {
  const analysis::InputPattern in = analysis::check_input(a.view(), false);
  const analysis::ColumnPattern cols = analysis::columns_of(in);
  std::vector<int32_t> identity(static_cast<size_t>(a.nrows));
  std::iota(identity.begin(), identity.end(), 0);
  return analysis::matched_pattern(cols, a.nrows, identity);
}

// lev(i, j) on a dense matrix: 0 for entries of C(q, q) and the diagonal, then for each
// pivot k the min-plus update, keeping levels <= k_max (the definition, O(n^3)).
std::vector<std::vector<int32_t>> dense_levels(const CsrMatrix<int32_t, double>& a, const std::vector<int32_t>& q,
                                               int32_t k_max) {
  const int32_t n = a.nrows;
  constexpr int32_t inf = std::numeric_limits<int32_t>::max() / 4;
  std::vector<int32_t> qinv(static_cast<size_t>(n));
  for (int32_t k = 0; k < n; ++k) qinv[q[k]] = k;
  std::vector<std::vector<int32_t>> lev(static_cast<size_t>(n), std::vector<int32_t>(static_cast<size_t>(n), inf));
  for (int32_t i = 0; i < n; ++i) {
    lev[i][i] = 0;
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) lev[qinv[i]][qinv[a.colind[p]]] = 0;
  }
  for (int32_t k = 0; k < n; ++k)
    for (int32_t i = k + 1; i < n; ++i) {
      if (lev[i][k] > k_max) continue;
      for (int32_t j = k + 1; j < n; ++j)
        if (lev[k][j] <= k_max) lev[i][j] = std::min(lev[i][j], lev[i][k] + lev[k][j] + 1);
    }
  return lev;
}

void expect_matches_definition(const CsrMatrix<int32_t, double>& a, const std::vector<int32_t>& q, int32_t k_max) {
  const analysis::FactorPattern f = analysis::ilu_pattern(pattern_of(a), q, k_max);
  const auto lev = dense_levels(a, q, k_max);
  const int32_t n = a.nrows;
  int64_t expected = 0;
  for (int32_t j = 0; j < n; ++j) {
    std::vector<int32_t> rows;
    for (int32_t i = 0; i < n; ++i)
      if (lev[i][j] <= k_max) rows.push_back(i);
    expected += static_cast<int64_t>(rows.size());
    const std::vector<int32_t> got(f.rowind.begin() + f.colptr[j], f.rowind.begin() + f.colptr[j + 1]);
    ASSERT_EQ(got, rows) << "column " << j << ", levels " << k_max;
    ASSERT_EQ(f.rowind[f.diag[j]], j);
  }
  EXPECT_EQ(f.nnz_l + f.nnz_u, expected);
}

TEST(IluPattern, matches_the_level_of_fill_definition) {
  for (const char* spec : {"lap2d5:9x7", "lap3d7:4x4x3", "circuit:120:6", "convdiff3d:4x3x3"}) {
    const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
    std::vector<int32_t> natural(static_cast<size_t>(a.nrows));
    std::iota(natural.begin(), natural.end(), 0);
    for (int32_t k = 0; k <= 3; ++k) {
      SCOPED_TRACE(std::string(spec) + " ILU(" + std::to_string(k) + ")");
      expect_matches_definition(a, natural, k);
    }
  }
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const auto a = random_matrix(60, 2, seed);
    Rng rng(seed);
    const std::vector<int32_t> q = random_permutation(a.nrows, rng);
    for (int32_t k : {0, 1, 2, 5}) {
      SCOPED_TRACE("random seed " + std::to_string(seed) + " ILU(" + std::to_string(k) + ")");
      expect_matches_definition(a, q, k);
    }
  }
}

TEST(IluPattern, level_zero_is_the_pattern_plus_the_diagonal) {
  CsrMatrix<int32_t, double> a = gen::from_spec("lap2d5:12x10");
  std::vector<int32_t> natural(static_cast<size_t>(a.nrows));
  std::iota(natural.begin(), natural.end(), 0);
  const analysis::FactorPattern f = analysis::ilu_pattern(pattern_of(a), natural, 0);
  EXPECT_EQ(f.nnz_l + f.nnz_u, a.nnz());  // Laplacians store their diagonal
}

TEST(IluPattern, enough_levels_give_the_complete_factorization) {
  const auto a = random_matrix(150, 3, 11);
  std::vector<int32_t> natural(static_cast<size_t>(a.nrows));
  std::iota(natural.begin(), natural.end(), 0);
  const analysis::MatchedPattern b = pattern_of(a);
  const analysis::FactorPattern ilu = analysis::ilu_pattern(b, natural, a.nrows);
  const analysis::FactorPattern lu = analysis::symbolic_factorization(b, natural);
  EXPECT_EQ(ilu.colptr, lu.colptr);
  EXPECT_EQ(ilu.rowind, lu.rowind);
  EXPECT_EQ(ilu.diag, lu.diag);
}

TEST(IluPattern, negative_levels_are_rejected) {
  const CsrMatrix<int32_t, double> a = gen::from_spec("lap2d5:4x4");
  std::vector<int32_t> natural(static_cast<size_t>(a.nrows));
  std::iota(natural.begin(), natural.end(), 0);
  EXPECT_THROW(analysis::ilu_pattern(pattern_of(a), natural, -1), Error);
}

}  // namespace
}  // namespace gpuglu::test
