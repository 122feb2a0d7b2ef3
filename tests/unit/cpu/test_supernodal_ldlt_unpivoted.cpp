// The supernodal LDL^T's unpivoted attempt (core/bunch_kaufman.hpp, Options::ldlt_unpivoted)
// on the reference backend: a positive definite matrix keeps it (no pivot moves), and
// indefinite ones whose multipliers pass the threshold test keep it too, all solving as the
// pivoted factorization does; a matrix with zero pivots fails it, and the pivoted
// factorization that follows solves it exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/bunch_kaufman.hpp"
#include "core/numeric_types.hpp"
#include "cpu/supernodal_ldlt.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "ldlt_test_support.hpp"
#include "reference_ldlt_support.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {
namespace {

using Csr = CsrMatrix<int32_t, double>;

// One factorization of a's values on s's panels; x solves a x = b through it.
struct Attempt {
  NumericStats stats;
  bool failed = false;
  std::vector<int32_t> perm;
  std::vector<int8_t> kind;
  PivotSigns signs;
  std::vector<double> x;
  std::vector<int8_t> pivoted;  // after the attempt: the supernodes that failed it
};

// unpivoted: every supernode tries the unpivoted factorization (else none does).
Attempt factor_and_solve(const Schedule& s, const Csr& a, const Options& o, bool unpivoted) {
  ReferenceLdlt f = factor_reference_ldlt(s, a, o, unpivoted, 2);
  Attempt r;
  r.stats = f.stats;
  r.failed = f.failed;
  r.pivoted = f.pivoted;
  if (r.failed) return r;
  r.perm = f.perm;
  r.kind = f.kind;
  r.signs = reference::supernodal_ldlt_inertia(s, f.panels.data(), f.pivots());
  const std::vector<double> b = rhs_for_known_solution(a, 11);
  std::vector<double> work(static_cast<size_t>(s.n));
  r.x.assign(b.size(), 0.0);
  reference::solve_supernodal_ldlt(s, f.panels.data(), f.pivots(), b.data(), r.x.data(), work.data());
  return r;
}

Options cpu_supernodal() {
  Options o;
  o.backend = Backend::cpu;
  o.ldlt_engine = LuEngine::supernodal;
  return o;
}

TEST(LdltUnpivotedRule, multipliers_up_to_1_over_u_stand) {
  EXPECT_TRUE(unpivoted_column_stands(0.0));
  EXPECT_TRUE(unpivoted_column_stands(1.0 / kLdltThresholdU));
  EXPECT_FALSE(unpivoted_column_stands(1.01 / kLdltThresholdU));
}

// Positive definite: every pivot positive, the attempt stands, nothing moves.
TEST(LdltUnpivoted, a_positive_definite_matrix_keeps_it_and_solves_as_the_pivoted_factor_does) {
  const Csr a = gen::from_spec("lap3d7:16x16x16");
  const Options o = cpu_supernodal();
  const Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
  const Attempt u = factor_and_solve(s, a, o, true), p = factor_and_solve(s, a, o, false);
  ASSERT_FALSE(u.failed);
  EXPECT_EQ(u.stats.status, Status::ok);
  EXPECT_EQ(u.stats.perturbed_pivots, 0);
  for (int32_t j = 0; j < s.n; ++j) {  // nothing moved
    EXPECT_EQ(u.perm[j], j - s.supernodes.first[s.supernodes.of_col[j]]);
    EXPECT_EQ(u.kind[j], kPivotOne);
  }
  EXPECT_EQ(u.signs.positive, a.nrows);
  const std::vector<double> b = rhs_for_known_solution(a, 11);
  EXPECT_LE(backward_error(a.view(), u.x.data(), b.data()), 1e-14);
  EXPECT_LE(rel_diff_inf(u.x, p.x), 1e-12);
}

// Indefinite but diagonally dominant (the 3-D Laplacian's pattern, diagonal +8 on the first
// half of the unknowns and -8 on the rest): Schur complements stay dominant, multipliers
// small, and the attempt stands with the pivoted factor's inertia.
TEST(LdltUnpivoted, an_indefinite_matrix_with_small_multipliers_keeps_it_with_the_same_inertia) {
  Csr a = gen::from_spec("lap3d7:14x14x14");
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] == i) a.values[p] = i < a.nrows / 2 ? 8.0 : -8.0;
  Options o = cpu_supernodal();
  const Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
  const Attempt u = factor_and_solve(s, a, o, true), p = factor_and_solve(s, a, o, false);
  ASSERT_FALSE(u.failed);
  EXPECT_EQ(u.signs.negative, a.nrows - a.nrows / 2);
  EXPECT_EQ(u.signs.negative, p.signs.negative);
  EXPECT_EQ(u.signs.positive, p.signs.positive);
  const std::vector<double> b = rhs_for_known_solution(a, 11);
  EXPECT_LE(backward_error(a.view(), u.x.data(), b.data()), 1e-13);
  EXPECT_LE(rel_diff_inf(u.x, p.x), 1e-9);
}

// A KKT system (the generator's, symmetric pairs ordered by the analysis): its pairs'
// multipliers stay far below 1 / u.
TEST(LdltUnpivoted, a_kkt_system_keeps_it_and_solves) {
  const Csr a = gen::from_spec("kkt:3000:800:5");
  const Options o = cpu_supernodal();
  const Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
  const Attempt u = factor_and_solve(s, a, o, true), p = factor_and_solve(s, a, o, false);
  ASSERT_FALSE(u.failed);
  EXPECT_EQ(u.stats.perturbed_pivots, 0);
  EXPECT_EQ(u.signs.negative, p.signs.negative);
  const std::vector<double> b = rhs_for_known_solution(a, 11);
  EXPECT_LE(backward_error(a.view(), u.x.data(), b.data()), 1e-13);
}

// Zero pivots: the attempt fails; the engine (SparseLDLT here) then factors with Bunch-Kaufman
// (2 x 2 pivots, nothing perturbed) and keeps to it for the next values.
TEST(LdltUnpivoted, zero_pivots_fail_it_and_the_pivoted_factorization_solves_exactly) {
  const Csr a = dense_zero_diagonal(96, 3);
  Options o = cpu_supernodal();
  o.scaling = false;
  const Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
  const Attempt u = factor_and_solve(s, a, o, true);
  EXPECT_TRUE(u.failed);
  EXPECT_GT(std::count(u.pivoted.begin(), u.pivoted.end(), int8_t{1}), 0);
  const Attempt p = factor_and_solve(s, a, o, false);
  ASSERT_FALSE(p.failed);
  EXPECT_EQ(p.stats.perturbed_pivots, 0);
  SparseLDLT f(o);
  f.analyze(a.view());
  for (int round = 0; round < 2; ++round) {
    const FactorStats& fs = f.factor(a.view());
    ASSERT_EQ(fs.status, Status::ok);
    EXPECT_EQ(fs.perturbed_pivots, 0);
    const std::vector<double> b = rhs_for_known_solution(a, 5 + round);
    std::vector<double> x(b.size());
    f.solve(b.data(), x.data());
    EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14);
  }
}

}  // namespace
}  // namespace gpuglu::test
