// Partial pivoting inside the supernodal LU's supernodes (core/supernode_pivoting.hpp,
// Options::lu_supernode_pivoting) on the CPU engine, the GPU's oracle: a static pivot that fails
// inside a supernode is rescued by a row of the same diagonal block, the factorization stays on
// the supernodal schedule (no re-analysis, no column engine), and the plain and transposed solves
// follow the row order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_market.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "cpu/supernodal_sweep_layout.hpp"
#include "reference_test_support.hpp"
#include "sparse_lu_checks.hpp"
#include "supernodal_pivoting_matrices.hpp"
#include "test_matrices.hpp"

namespace gpuglu::test {
namespace {

using Csr = CsrMatrix<int32_t, double>;

Options supernodal(PivotPolicy policy) {
  Options o;
  o.lu_engine = LuEngine::supernodal;
  o.backend = Backend::cpu;
  o.pivot_policy = policy;
  return o;
}

// Both solves of lu against a (b from a known solution), by backward error.
void expect_solves(SparseLU& lu, const Csr& a, double tol) {
  const Csr at = transpose(a.view());
  for (bool transposed : {false, true}) {
    const Csr& m = transposed ? at : a;
    const std::vector<double> b = rhs_for_known_solution(m, 5);
    std::vector<double> x(b.size());
    if (transposed)
      lu.solve_transpose(b.data(), x.data());
    else
      lu.solve(b.data(), x.data());
    EXPECT_LE(backward_error(m.view(), x.data(), b.data()), tol) << (transposed ? "transposed" : "plain");
  }
}

TEST(SupernodalLuPivoting, a_zero_pivot_inside_a_supernode_takes_a_row_of_its_block) {
  const Csr a = zero_pivots_in_pairs(8, 8);
  for (PivotPolicy policy : {PivotPolicy::report, PivotPolicy::automatic}) {
    Options o = supernodal(policy);
    o.matching = false;  // MC64 would match the pairs' off-diagonal ones: no pivot would fail
    SparseLU lu(o);
    lu.analyze(a.view());
    const FactorStats& fs = lu.factor(a.view());
    ASSERT_EQ(fs.status, Status::ok) << to_string(policy);
    EXPECT_GT(fs.pivoted_supernodes, 0);
    EXPECT_FALSE(fs.reanalyzed);
    EXPECT_FALSE(fs.repivoted);
    EXPECT_EQ(lu.lu_engine(), LuEngine::supernodal);
    expect_solves(lu, a, 1e-14);
    // The same supernodes pivot again for new values, with no failing round first.
    const Csr a2 = scaled_values(a, 1.5);
    const FactorStats& fs2 = lu.factor(a2.view());
    ASSERT_EQ(fs2.status, Status::ok);
    EXPECT_EQ(fs2.pivoted_supernodes, fs.pivoted_supernodes);
    expect_solves(lu, a2, 1e-14);
  }
}

TEST(SupernodalLuPivoting, off_the_failure_goes_to_the_pivot_policy) {
  const Csr a = zero_pivots_in_pairs(8, 8);
  Options o = supernodal(PivotPolicy::report);
  o.matching = false;
  o.lu_supernode_pivoting = false;
  SparseLU lu(o);
  lu.analyze(a.view());
  EXPECT_EQ(lu.factor(a.view()).status, Status::numerically_singular);
}

TEST(SupernodalLuPivoting, a_perturbing_policy_perturbs_instead) {
  const Csr a = zero_pivots_in_pairs(6, 6);
  Options o = supernodal(PivotPolicy::perturb);
  o.matching = false;
  SparseLU lu(o);
  lu.analyze(a.view());
  const FactorStats& fs = lu.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_GT(fs.perturbed_pivots, 0);
  EXPECT_EQ(fs.pivoted_supernodes, 0);
}

// F's pattern does not follow a pivoted supernode's rows: refused, naming why.
// A factor solved many times reads the sweep layout (cpu/supernodal_sweep_layout.hpp), which follows
// the pivoted supernodes' row orders as the panel sweeps do: the same bits as its first solve.
TEST(SupernodalLuPivoting, a_pivoted_factor_solved_again_gives_the_same_bits) {
  const Csr a = zero_pivots_in_pairs(8, 8);
  Options o = supernodal(PivotPolicy::report);
  o.matching = false;
  o.refine_steps = 0;
  SparseLU lu(o);
  lu.analyze(a.view());
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  ASSERT_GT(lu.factor_stats().pivoted_supernodes, 0);
  const std::vector<double> b = rhs_for_known_solution(a, 5);
  std::vector<double> first(b.size()), again(b.size());
  lu.solve(b.data(), first.data());
  for (int solve = 1; solve <= reference::SweepLayout::kBuildAtSolve; ++solve) lu.solve(b.data(), again.data());
  EXPECT_EQ(std::memcmp(first.data(), again.data(), first.size() * sizeof(double)), 0);
  EXPECT_LE(backward_error(a.view(), again.data(), b.data()), 1e-12);
}

TEST(SupernodalLuPivoting, factor_values_are_refused_once_a_supernode_pivots) {
  const Csr a = zero_pivots_in_pairs(6, 6);
  Options o = supernodal(PivotPolicy::report);
  o.matching = false;
  SparseLU lu(o);
  lu.analyze(a.view());
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  try {
    (void)lu.factor_values();
    FAIL() << "factor_values() answered";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
    EXPECT_NE(std::string(e.what()).find("pivoted inside their diagonal blocks"), std::string::npos) << e.what();
  }
}

// The collection's matrices whose static pivots fail on the supernodal schedule: both stay on
// the supernodal LU now (they went to the column engine before), at the same accuracy.
// rajat19's failing supernode finds its pivot in its own block. tuma1's failing supernodes have
// diagonal blocks singular to rounding (KKT constraint rows whose pivots lie in their
// ancestors' rows): pivoting inside them is not enough, and the recovery ladder's next rung, the
// supernodal LU in the LDL^T analysis's paired order, needs no pivoting at all.
TEST(SupernodalLuPivoting, collection_matrices_stay_on_the_supernodal_lu) {
  struct Case {
    const char* name;
    bool reanalyzed;  // by the paired order
  };
  for (const Case& k : {Case{"circuit/rajat19.mtx", false}, Case{"sym-indefinite/tuma1.mtx", true}}) {
    const std::filesystem::path file = shared_matrix_dir().parent_path() / "collection" / k.name;
    if (!shared_matrix_dir_available() || !std::filesystem::exists(file)) {
      std::printf("[ SKIPPED  ] no %s\n", file.string().c_str());
      continue;
    }
    SCOPED_TRACE(k.name);
    const Csr a = read_matrix_market(file.string());
    Options o = supernodal(PivotPolicy::automatic);
    o.num_threads = 2;
    SparseLU lu(o);
    lu.analyze(a.view());
    const FactorStats& fs = lu.factor(a.view());
    ASSERT_EQ(fs.status, Status::ok);
    EXPECT_EQ(lu.lu_engine(), LuEngine::supernodal);
    EXPECT_EQ(fs.reanalyzed, k.reanalyzed);
    EXPECT_FALSE(fs.repivoted);
    if (!k.reanalyzed) EXPECT_GT(fs.pivoted_supernodes, 0);
    expect_solves(lu, a, 1e-12);
    // The next values of the pattern factor on the schedule kept, with no recovery.
    const Csr a2 = scaled_values(a, 2.0);
    const FactorStats& fs2 = lu.factor(a2.view());
    ASSERT_EQ(fs2.status, Status::ok);
    EXPECT_EQ(fs2.recovery, RecoveryReason::none);
    expect_solves(lu, a2, 1e-12);
  }
}

// The paired rung needs a symmetric A: the same KKT-like zero pivots in an unsymmetric matrix
// skip it (the column engine's order, then KLU's, as before).
TEST(SupernodalLuPivoting, the_paired_order_is_tried_only_for_symmetric_matrices) {
  Csr a = zero_pivots_in_pairs(8, 8);  // unsymmetric couplings
  Options o = supernodal(PivotPolicy::automatic);
  o.matching = false;
  o.lu_supernode_pivoting = false;  // the zero pivots reach the ladder
  SparseLU lu(o);
  lu.analyze(a.view());
  const FactorStats& fs = lu.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_EQ(lu.lu_engine(), LuEngine::column);
  expect_solves(lu, a, 1e-14);
}

}  // namespace
}  // namespace gpuglu::test
