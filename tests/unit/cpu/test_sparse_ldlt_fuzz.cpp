// The LU fuzz test's promise for the LDL^T (SparseLDLT, default policy): on thousands of
// small random symmetric matrices - entries over many decades, zero diagonal blocks,
// indefinite, some singular - it returns a solution with componentwise backward error
// <= 1e-12 or reports a failure, never a success with a wrong answer, and it never fails
// where KLU or UMFPACK solve the same system. Whatever the static pivots cannot do, the
// checks and the fallback to gpuglu's LU must; the tally says how often each was needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {
namespace {

enum class SymKind { sum_with_transpose, scaled_symmetric, zero_diagonal_block };
const char* name(SymKind k) {
  switch (k) {
    case SymKind::sum_with_transpose: return "A plus its transpose";
    case SymKind::scaled_symmetric: return "symmetrically scaled";
    case SymKind::zero_diagonal_block: return "zero diagonal block";
  }
  return "?";
}

CsrMatrix<int32_t, double> symmetric_fuzz_matrix(SymKind kind, double decades, uint64_t seed) {
  Rng rng(seed);
  std::vector<Triplet<int32_t, double>> t;
  switch (kind) {
    case SymKind::sum_with_transpose: {  // B + B^T of the LU fuzz matrices (every kind)
      const auto b = fuzz_matrix(static_cast<Kind>(seed % 6), decades, seed);
      for (int32_t i = 0; i < b.nrows; ++i)
        for (int32_t p = b.rowptr[i]; p < b.rowptr[i + 1]; ++p) {
          t.push_back({i, b.colind[p], b.values[p]});
          t.push_back({b.colind[p], i, b.values[p]});
        }
      return csr_from_triplets<int32_t, double>(b.nrows, b.ncols, t);
    }
    case SymKind::scaled_symmetric: {  // D (M + M^T) D, M random with a random diagonal
      const int32_t n = 3 + rng.below(60);
      std::vector<double> d(static_cast<size_t>(n));
      for (double& v : d) v = std::pow(10.0, decades * rng.symmetric());
      const auto m = random_matrix(n, 1 + rng.below(4), seed * 3 + 1, rng.uniform() < 0.5 ? 1.5 : 0.0);
      for (int32_t i = 0; i < n; ++i)
        for (int32_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p) {
          const int32_t j = m.colind[p];
          t.push_back({i, j, d[i] * m.values[p] * d[j]});
          t.push_back({j, i, d[i] * m.values[p] * d[j]});
        }
      return csr_from_triplets<int32_t, double>(n, n, t);
    }
    case SymKind::zero_diagonal_block: {  // [H A^T; A 0], H indefinite, A random (maybe rank deficient)
      const int32_t np = 3 + rng.below(40), nd = 1 + rng.below(np);
      auto v = [&] { return (rng.uniform() < 0.5 ? -1.0 : 1.0) * std::pow(10.0, decades * rng.symmetric()); };
      for (int32_t i = 0; i < np; ++i) {
        t.push_back({i, i, v()});
        const int32_t j = rng.below(np);
        const double hij = v();
        t.push_back({i, j, hij});
        t.push_back({j, i, hij});
      }
      for (int32_t r = 0; r < nd; ++r)
        for (int32_t e = 0; e < 2; ++e) {
          const int32_t c = rng.below(np);
          const double a = v();
          t.push_back({np + r, c, a});
          t.push_back({c, np + r, a});
        }
      return csr_from_triplets<int32_t, double>(np + nd, np + nd, t);
    }
  }
  return {};
}

struct Tally {
  int solved = 0, failed = 0, peer_solved = 0, on_lu = 0, perturbed = 0;
};

class SparseLDLTFuzz : public ::testing::TestWithParam<SymKind> {};

TEST_P(SparseLDLTFuzz, solves_accurately_or_reports_a_failure_never_worse_than_klu) {
  const SymKind kind = GetParam();
  Options o;
  o.backend = Backend::cpu;
  Tally tally;
  uint64_t seed = 5000 * (static_cast<uint64_t>(kind) + 1);
  for (double decades : {1.0, 5.0, 40.0, 150.0}) {
    for (int trial = 0; trial < 100; ++trial, ++seed) {
      const CsrMatrix<int32_t, double> a = symmetric_fuzz_matrix(kind, decades, seed);
      SCOPED_TRACE(std::string(name(kind)) + ", decades " + std::to_string(decades) + ", seed " + std::to_string(seed));
      Rng rng(seed ^ 0x5eed);
      std::vector<double> b(static_cast<size_t>(a.nrows));
      for (double& v : b) v = rng.symmetric();
      const bool peer_solved = peer_solves(a, b);
      tally.peer_solved += peer_solved;
      SparseLDLT f(o);
      std::string failure;
      try {
        f.analyze(a.view());
        const FactorStats& st = f.factor(a.view());
        tally.perturbed += st.perturbed_pivots > 0;
        if (st.status != Status::ok) failure = std::string("factorization: ") + to_string(st.status);
      } catch (const Error& e) {
        failure = std::string("analysis: ") + e.what();
      }
      if (failure.empty()) {
        std::vector<double> x(b.size());
        const SolveStats& ss = f.solve(b.data(), x.data());
        if (ss.status != Status::ok) {
          failure = std::string("solve: ") + to_string(ss.status);
        } else {
          EXPECT_LE(backward_error(a.view(), x.data(), b.data()), kSolved) << "a success with a wrong answer";
          EXPECT_LE(ss.backward_error, kSolved);
        }
        tally.on_lu += f.uses_lu();
      }
      if (!failure.empty()) {
        EXPECT_FALSE(peer_solved) << "gpuglu's LDL^T failed (" << failure << ") where KLU or UMFPACK solves";
        ++tally.failed;
      } else {
        ++tally.solved;
      }
      if (::testing::Test::HasFailure()) return;
    }
  }
  EXPECT_GT(tally.solved, 0);
  std::printf("%s: %d solved (%d with perturbed pivots, %d on the LU fallback), %d failures reported, %d solved by a peer\n",
              name(kind), tally.solved, tally.perturbed, tally.on_lu, tally.failed, tally.peer_solved);
}

INSTANTIATE_TEST_SUITE_P(Kinds, SparseLDLTFuzz,
                         ::testing::Values(SymKind::sum_with_transpose, SymKind::scaled_symmetric,
                                           SymKind::zero_diagonal_block),
                         [](const ::testing::TestParamInfo<SymKind>& info) {
                           std::string s = name(info.param);
                           std::replace(s.begin(), s.end(), ' ', '_');
                           return s;
                         });

}  // namespace
}  // namespace gpuglu::test
