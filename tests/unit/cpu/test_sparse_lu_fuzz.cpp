// A seeded fuzz test of the default pivot policy: thousands of small random matrices whose
// entries span many decades, some structurally or numerically singular. For every one,
// SparseLU either returns a solution with componentwise backward error <= 1e-12 or reports
// a failure (analysis, factorization or solve) - never a success with a wrong answer - and
// it never fails where KLU or UMFPACK (through their C APIs, on the same system) solve it.
#include <gtest/gtest.h>
#include <umfpack.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "fuzz_support.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {
namespace {

struct Tally {
  int solved = 0, failed = 0, peer_solved = 0, recovered = 0;
};

// One matrix through analyze, factor and solve. Returns whether gpuglu solved it.
bool expect_never_wrong(const CsrMatrix<int32_t, double>& a, const Options& o, uint64_t seed, Tally& tally) {
  Rng rng(seed ^ 0x5eed);
  std::vector<double> b(static_cast<size_t>(a.nrows));
  for (double& v : b) v = rng.symmetric();
  const bool peer_solved = peer_solves(a, b);
  tally.peer_solved += peer_solved;
  SparseLU lu(o);
  std::string failure;
  try {
    lu.analyze(a.view());
    const FactorStats& st = lu.factor(a.view());
    tally.recovered += st.recovery != RecoveryReason::none;
    if (st.status != Status::ok) failure = std::string("factorization: ") + to_string(st.status);
  } catch (const Error& e) {
    failure = std::string("analysis: ") + e.what();
  }
  if (failure.empty()) {
    std::vector<double> x(b.size());
    const SolveStats& ss = lu.solve(b.data(), x.data());
    tally.recovered += ss.recovered;
    if (ss.status != Status::ok) {
      failure = std::string("solve: ") + to_string(ss.status);
    } else {
      const double berr = backward_error(a.view(), x.data(), b.data());
      EXPECT_LE(berr, kSolved) << "a success with a wrong answer (reported backward error " << ss.backward_error << ")";
      EXPECT_LE(ss.backward_error, kSolved);
    }
  }
  if (!failure.empty()) {
    EXPECT_FALSE(peer_solved) << "gpuglu failed (" << failure << ") where KLU or UMFPACK solves";
    ++tally.failed;
    return false;
  }
  ++tally.solved;
  return true;
}

class SparseLUFuzz : public ::testing::TestWithParam<Kind> {};

void run_fuzz(Kind kind, LuEngine engine, int trials_per_decade) {
  Options o;
  o.backend = Backend::cpu;
  o.lu_engine = engine;
  // Static diagonal pivots are what the tiny-diagonal kind attacks: give it them.
  if (kind == Kind::tiny_diagonal) {
    o.matching = false;
    o.ordering = Ordering::natural;
  }
  Tally tally;
  uint64_t seed = 1000 * (static_cast<uint64_t>(kind) + 1);
  for (double decades : {2.0, 10.0, 40.0, 150.0, 300.0}) {
    for (int trial = 0; trial < trials_per_decade; ++trial, ++seed) {
      const CsrMatrix<int32_t, double> a = fuzz_matrix(kind, decades, seed);
      SCOPED_TRACE(std::string(name(kind)) + ", decades " + std::to_string(decades) + ", seed " + std::to_string(seed));
      expect_never_wrong(a, o, seed, tally);
      if (::testing::Test::HasFailure()) return;  // the first counterexample is the useful one
    }
  }
  // Every kind must exercise both outcomes somewhere, or the test proves little.
  ::testing::Test::RecordProperty("solved", tally.solved);
  ::testing::Test::RecordProperty("failed", tally.failed);
  ::testing::Test::RecordProperty("recovered", tally.recovered);
  EXPECT_GT(tally.solved, 0);
  std::printf("%s (%s engine): %d solved, %d failures reported, %d solved by a peer, %d recoveries\n", name(kind),
              to_string(engine).data(), tally.solved, tally.failed, tally.peer_solved, tally.recovered);
}

TEST_P(SparseLUFuzz, solves_accurately_or_reports_a_failure_never_worse_than_klu) {
  run_fuzz(GetParam(), LuEngine::column, 100);
}

// The supernodal engine under the same judge (fewer trials: the same matrices, another engine).
TEST_P(SparseLUFuzz, the_supernodal_engine_is_never_wrong_either) { run_fuzz(GetParam(), LuEngine::supernodal, 40); }

INSTANTIATE_TEST_SUITE_P(Kinds, SparseLUFuzz,
                         ::testing::Values(Kind::random_pattern, Kind::random_with_diagonal, Kind::scaled_dominant,
                                           Kind::scaled_random, Kind::tiny_diagonal, Kind::dependent_rows),
                         [](const ::testing::TestParamInfo<Kind>& info) {
                           std::string s = name(info.param);
                           std::replace(s.begin(), s.end(), ' ', '_');
                           return s;
                         });

}  // namespace
}  // namespace gpuglu::test
