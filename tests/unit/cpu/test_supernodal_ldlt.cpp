// The supernodal LDL^T (FactorKind::supernodal_ldlt) on the reference backend: Bunch-Kaufman
// 2 x 2 pivots inside supernodes where static pivots fail (zero diagonals, KKT without the
// pairing), inertia from D with its 2 x 2 blocks against a dense eigenvalue count, solves
// against the column LDL^T and KLU, the engine choice and its errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/bunch_kaufman.hpp"
#include "cpu/supernodal_sweep_layout.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/matrix_market.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "ldlt_test_support.hpp"
#include "reference_ldlt_support.hpp"
#include "reference_test_support.hpp"
#include "sparse_lu_checks.hpp"
#include "test_matrices.hpp"


namespace gpuglu::test {
namespace {

using Csr = CsrMatrix<int32_t, double>;

Options supernodal_cpu(int threads = 4) {
  Options o;
  o.backend = Backend::cpu;
  o.num_threads = threads;
  o.ldlt_engine = LuEngine::supernodal;
  return o;
}

double solve_error(SparseLDLT& f, const Csr& a, uint64_t seed) {
  const std::vector<double> b = rhs_for_known_solution(a, seed);
  std::vector<double> x(b.size());
  const SolveStats& ss = f.solve(b.data(), x.data());
  EXPECT_EQ(ss.status, Status::ok);
  Klu klu(a);
  EXPECT_LE(rel_diff_inf(x, klu.solve(b)), solution_tolerance(klu.condest()));
  return backward_error(a.view(), x.data(), b.data());
}

TEST(BunchKaufman, the_choice_follows_the_four_cases) {
  // A dominant diagonal: 1 x 1 at k.
  EXPECT_EQ(bunch_kaufman_choice(1.0, 1.0, 0.0, 1.0), PivotChoice::one_at_k);
  // A column already eliminated in the block: 1 x 1 at k whatever its pivot.
  EXPECT_EQ(bunch_kaufman_choice(0.0, 0.0, 0.0, 0.0), PivotChoice::one_at_k);
  // |a_kk| omega_r >= alpha omega1^2: still k.
  EXPECT_EQ(bunch_kaufman_choice(0.5, 1.0, 0.0, 2.0), PivotChoice::one_at_k);
  // r's diagonal is large against its row: 1 x 1 at r.
  EXPECT_EQ(bunch_kaufman_choice(0.0, 1.0, 5.0, 1.0), PivotChoice::one_at_r);
  // Neither: the 2 x 2 pivot (k, r).
  EXPECT_EQ(bunch_kaufman_choice(0.0, 1.0, 0.0, 1.0), PivotChoice::two_with_r);
  // A 2 x 2 block whose determinant is tiny against its columns is refused.
  EXPECT_TRUE(two_by_two_usable(-1.0, 1.0, 1.0, 1e-13, 0.0));
  EXPECT_FALSE(two_by_two_usable(1e-20, 1.0, 1.0, 1e-13, 0.0));
}

class SupernodalLdltSpd : public ::testing::TestWithParam<const char*> {};

TEST_P(SupernodalLdltSpd, solves_to_rounding_with_positive_inertia_like_the_column_engine) {
  const Csr a = gen::from_spec(GetParam());
  SparseLDLT f(supernodal_cpu());
  f.analyze(a.view());
  ASSERT_EQ(f.schedule().kind, FactorKind::supernodal_ldlt);
  EXPECT_TRUE(f.schedule().symmetric());
  EXPECT_EQ(f.schedule().supernodes.u_ptr.front(), f.schedule().supernodes.l_ptr.back());  // L only
  const FactorStats& fs = f.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_EQ(fs.perturbed_pivots, 0);
  EXPECT_FALSE(fs.lu_fallback);
  EXPECT_LE(solve_error(f, a, 3), 1e-14);
  const Inertia in = f.inertia();
  EXPECT_EQ(in.positive, a.nrows);
  EXPECT_EQ(in.negative + in.zero, 0);
  // nnz(L) of the supernodes is the column engine's plus the amalgamation's zeros.
  Options column = supernodal_cpu();
  column.ldlt_engine = LuEngine::column;
  SparseLDLT c(column);
  c.analyze(a.view());
  EXPECT_GE(f.schedule().nnz_l, c.schedule().nnz_l);
  EXPECT_EQ(f.schedule().nnz_u, a.nrows);
  EXPECT_THROW(f.factor_values(), Error);  // no F: the factor lives in pivoted panels
}

TEST_P(SupernodalLdltSpd, each_storage_and_thread_count_solves_the_same_system) {
  const Csr a = gen::from_spec(GetParam());
  const std::vector<double> b = rhs_for_known_solution(a, 9);
  std::vector<double> first;
  for (int threads : {1, 8}) {
    SparseLDLT f(supernodal_cpu(threads));
    f.analyze(a.view(), StoredTriangle::full);
    ASSERT_EQ(f.factor(a.view()).status, Status::ok);
    std::vector<double> x(b.size());
    f.solve(b.data(), x.data());
    if (first.empty())
      first = x;
    else
      EXPECT_LE(rel_diff_inf(x, first), 1e-12);
  }
}

INSTANTIATE_TEST_SUITE_P(Generated, SupernodalLdltSpd,
                         ::testing::Values("lap2d5:20x15", "lap2d9:12x10", "lap3d7:10x9x8", "lap3d27:6x6x6",
                                           "lap3d7:16x16x16"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

TEST(SupernodalLdltPivoting, zero_diagonal_blocks_take_two_by_two_pivots_exactly_and_count_the_inertia) {
  const Csr a = zero_diagonal_blocks(40);
  Options o = supernodal_cpu();
  o.scaling = false;
  SparseLDLT f(o);
  f.analyze(a.view());
  const FactorStats& fs = f.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_EQ(fs.perturbed_pivots, 0);  // the column engine perturbs 40 of them
  EXPECT_FALSE(fs.lu_fallback);
  EXPECT_LE(solve_error(f, a, 13), 1e-15);
  const Inertia in = f.inertia();
  EXPECT_EQ(in.positive, 40);
  EXPECT_EQ(in.negative, 80);
  EXPECT_EQ(in.zero, 0);
}

TEST(SupernodalLdltPivoting, the_report_policy_factors_what_static_pivots_cannot) {
  std::vector<Triplet<int32_t, double>> e = {{0, 1, 1.0}, {1, 0, 1.0}};
  const Csr a = csr_from_triplets<int32_t, double>(2, 2, e);
  Options o = supernodal_cpu();
  o.scaling = false;
  o.pivot_policy = PivotPolicy::report;
  SparseLDLT f(o);
  f.analyze(a.view());
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  const Inertia in = f.inertia();
  EXPECT_EQ(in.positive, 1);
  EXPECT_EQ(in.negative, 1);
  // A singular matrix still fails under report: no pivot can be found.
  std::vector<Triplet<int32_t, double>> z = {{0, 0, 0.0}, {1, 1, 1.0}};
  const Csr s = csr_from_triplets<int32_t, double>(2, 2, z);
  SparseLDLT g(o);
  g.analyze(s.view());
  EXPECT_EQ(g.factor(s.view()).status, Status::numerically_singular);
}

TEST(SupernodalLdltPivoting, kkt_solves_with_and_without_the_pairing_and_counts_its_inertia) {
  const Csr a = gen::from_spec("kkt:300:80:5");
  for (bool pairs : {true, false}) {
    Options o = supernodal_cpu();
    o.symmetric_pairs = pairs;
    SparseLDLT f(o);
    f.analyze(a.view());
    const FactorStats& fs = f.factor(a.view());
    ASSERT_EQ(fs.status, Status::ok) << "pairs " << pairs;
    EXPECT_LE(solve_error(f, a, 11), 1e-14) << "pairs " << pairs;
    if (fs.perturbed_pivots > 0 || f.uses_lu()) continue;
    const Inertia in = f.inertia();
    EXPECT_EQ(in.negative, 80) << "pairs " << pairs;
    EXPECT_EQ(in.positive, 300) << "pairs " << pairs;
  }
}

TEST(SupernodalLdltPivoting, random_indefinite_inertia_matches_the_dense_eigenvalue_count) {
  int exact = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Csr a = random_symmetric(60 + static_cast<int32_t>(seed) * 7, 3, seed, 0.3);
    SparseLDLT f(supernodal_cpu());
    f.analyze(a.view());
    const FactorStats& fs = f.factor(a.view());
    ASSERT_EQ(fs.status, Status::ok) << "seed " << seed;
    EXPECT_LE(solve_error(f, a, seed), 1e-13) << "seed " << seed;
    if (fs.perturbed_pivots > 0 || f.uses_lu()) continue;
    ++exact;
    const Inertia got = f.inertia(), want = dense_inertia(a);
    EXPECT_EQ(got.negative, want.negative) << "seed " << seed;
    EXPECT_EQ(got.positive, want.positive) << "seed " << seed;
  }
  EXPECT_GT(exact, 10);
}

TEST(SupernodalLdltPivoting, shifted_laplacian_inertia_is_the_count_of_eigenvalues_below_the_shift) {
  const double shift = 2.5;
  const Csr a = gen::shifted_laplacian_3d(8, 7, 6, shift);
  int64_t below = 0;
  for (int i = 1; i <= 8; ++i)
    for (int j = 1; j <= 7; ++j)
      for (int k = 1; k <= 6; ++k)
        below += 6.0 - 2.0 * std::cos(i * M_PI / 9) - 2.0 * std::cos(j * M_PI / 8) - 2.0 * std::cos(k * M_PI / 7) < shift;
  SparseLDLT f(supernodal_cpu());
  f.analyze(a.view());
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  EXPECT_LE(solve_error(f, a, 29), 1e-14);
  ASSERT_EQ(f.factor_stats().perturbed_pivots, 0);
  const Inertia in = f.inertia();
  EXPECT_EQ(in.negative, below);
  EXPECT_EQ(in.positive, a.nrows - below);
}

// A factor solved often reads a copy in its sweeps' order (cpu/supernodal_sweep_layout.hpp)
// from its kBuildAtSolve-th solve on: the same x bit for bit as the first solves, which read
// the panels, with 1 x 1 and 2 x 2 pivots, narrow and wide supernodes; and a refactorization
// with new values is never solved with the old copy (its first solve reads the new panels).
TEST(SupernodalLdltRefactor, solves_again_and_after_refactorization_match_a_fresh_factor_bit_for_bit) {
  std::vector<std::pair<std::string, Csr>> cases;
  for (const char* spec : {"lap3d7:12x12x6", "lap3d7:25x25x3", "lap2d5:40x40", "kkt:300:80:5", "elast3d:5x5x5"})
    cases.emplace_back(spec, gen::from_spec(spec));
  cases.emplace_back("zero_diagonal_blocks", zero_diagonal_blocks(40));
  for (const auto& [name, a] : cases) {
    SCOPED_TRACE(name);
    Csr changed = a;  // symmetric still: each value scaled by its own row and column
    for (int32_t i = 0; i < changed.nrows; ++i)
      for (int32_t p = changed.rowptr[i]; p < changed.rowptr[i + 1]; ++p)
        changed.values[p] *= 1.0 + 0.25 * static_cast<double>((i + changed.colind[p]) % 3);
    for (int32_t steps : {0, -1}) {
      Options o = supernodal_cpu(1);
      o.refine_steps = steps;
      SparseLDLT f(o);
      f.analyze(a.view());
      const std::vector<double> b = rhs_for_known_solution(a, 3);
      std::vector<double> first(b.size()), again(b.size());
      for (const Csr* m : {&a, static_cast<const Csr*>(&changed)}) {
        const bool refactored = m == &changed;
        ASSERT_EQ(f.factor(m->view()).status, Status::ok);
        ASSERT_FALSE(f.uses_lu());
        f.solve(b.data(), first.data());
        EXPECT_LE(backward_error(m->view(), first.data(), b.data()), 1e-12);
        for (int solve = 0; solve < reference::SweepLayout::kBuildAtSolve + 1; ++solve) {
          f.solve(b.data(), again.data());
          EXPECT_TRUE(same_bits(first, again)) << "steps " << steps << ", refactored " << refactored << ", solve "
                                               << solve + 2;
        }
      }
    }
  }
}

// A large factor's sweep layout, cut into pieces that a team sweeps, solves as the panels do bit
// for bit, 2 x 2 pivots' reorders included, on any team (the LU's: SupernodalLU's tests).
TEST(SupernodalLdltLayout, a_large_factor_cut_into_pieces_solves_as_the_panels_on_any_team) {
  for (const char* spec : {"elast3d:12x12x12", "kkt:6000:2000:5"}) {
    SCOPED_TRACE(spec);
    const Csr a = gen::from_spec(spec);
    const Options o = supernodal_cpu(1);
    const Schedule s = analyze_symmetric(a.view(), StoredTriangle::full, o);
    ReferenceLdlt f = factor_reference_ldlt(s, a, o, /*unpivoted=*/false, 1);  // Bunch-Kaufman everywhere
    ASSERT_EQ(f.stats.status, Status::ok);
    const std::vector<double>& panels = f.panels;
    const reference::LdltPivots piv = f.pivots();
    const std::vector<double> b = rhs_for_known_solution(a, 5);
    std::vector<double> work(b.size()), x_p(b.size()), x_l(b.size());
    reference::solve_supernodal_ldlt(s, panels.data(), piv, b.data(), x_p.data(), work.data());
    EXPECT_LE(backward_error(a.view(), x_p.data(), b.data()), 1e-12);
    reference::SweepLayout layout;
    layout.build(s, panels.data(), &piv, 4);
    EXPECT_GT(layout.pieces(), 4);
    for (const int32_t team : {1, 2, 3, 8}) {
      std::fill(x_l.begin(), x_l.end(), 0.0);
      layout.solve_ldlt(s, b.data(), x_l.data(), work.data(), piv, team);
      EXPECT_TRUE(same_bits(x_p, x_l)) << "team " << team;
    }
  }
}

// Through SparseLDLT: one thread's first solve runs on the panels and its later ones on the
// sweep layout; a team's first solve already reads the layout (SweepLayout::teamed). Either
// way every solve of a factorization is its first one's bit for bit.
TEST(SupernodalLdltRefactor, solves_of_a_large_factor_on_one_thread_or_a_team_match_its_first_bit_for_bit) {
  for (const char* spec : {"elast3d:12x12x12", "kkt:6000:2000:5"}) {
    SCOPED_TRACE(spec);
    const Csr a = gen::from_spec(spec);
    const std::vector<double> b = rhs_for_known_solution(a, 5);
    for (int threads : {1, 4}) {
      SparseLDLT f(supernodal_cpu(threads));
      f.analyze(a.view());
      ASSERT_GE(f.schedule().supernodes.values, reference::SweepLayout::kPiecesFromEntries);
      EXPECT_EQ(reference::SweepLayout::teamed(f.schedule(), threads), threads > 1);
      ASSERT_EQ(f.factor(a.view()).status, Status::ok);
      ASSERT_FALSE(f.uses_lu());
      std::vector<double> first(b.size()), again(b.size());
      f.solve(b.data(), first.data());
      EXPECT_LE(backward_error(a.view(), first.data(), b.data()), 1e-12);
      for (int solve = 0; solve < reference::SweepLayout::kBuildAtSolve + 1; ++solve) {
        f.solve(b.data(), again.data());
        EXPECT_TRUE(same_bits(first, again)) << "threads " << threads << ", solve " << solve + 2;
      }
    }
  }
}

// Wide supernodes update their later columns and their ancestors by GEMM where an optimized
// BLAS is loaded (cpu/supernodal_blas.hpp), 2 x 2 pivots included: on one thread or several the
// solves are backward stable and the inertia is the matrix's. (KLU's solution is no reference
// here: its condest underrates the larger KKT system.)
TEST(SupernodalLdltPivoting, wide_supernodes_with_two_by_two_pivots_solve_and_count_the_inertia_on_any_team) {
  for (const char* spec : {"kkt:2400:800:5", "elast3d:9x9x9"}) {
    SCOPED_TRACE(spec);
    const Csr a = gen::from_spec(spec);
    const bool kkt = std::string(spec).rfind("kkt", 0) == 0;
    for (int threads : {1, 2, 8}) {
      Options o = supernodal_cpu(threads);
      SparseLDLT f(o);
      f.analyze(a.view());
      const Supernodes& sn = f.schedule().supernodes;
      int32_t widest = 0;
      for (int32_t s = 0; s < sn.count; ++s) widest = std::max(widest, sn.cols(s));
      ASSERT_GT(widest, 2 * kLdltPivotBlock);  // later columns updated after a pivot block
      const FactorStats& fs = f.factor(a.view());
      ASSERT_EQ(fs.status, Status::ok) << threads;
      ASSERT_FALSE(f.uses_lu());
      const std::vector<double> b = rhs_for_known_solution(a, 7);
      std::vector<double> x(b.size());
      EXPECT_EQ(f.solve(b.data(), x.data()).status, Status::ok) << threads;
      EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14) << threads;
      if (fs.perturbed_pivots > 0) continue;
      const Inertia in = f.inertia();
      EXPECT_EQ(in.negative, kkt ? 800 : 0) << threads;
      EXPECT_EQ(in.positive, a.nrows - (kkt ? 800 : 0)) << threads;
    }
  }
}

TEST(SupernodalLdltRefactor, new_values_refactor_without_a_new_analysis) {
  Csr a = gen::from_spec("lap3d7:9x8x7");
  SparseLDLT f(supernodal_cpu());
  f.analyze(a.view());
  for (int round = 0; round < 3; ++round) {
    for (double& v : a.values) v *= 1.0 + 0.1 * round;
    ASSERT_EQ(f.factor(a.view()).status, Status::ok);
    EXPECT_LE(solve_error(f, a, 40 + round), 1e-14);
  }
  EXPECT_EQ(f.analysis_count(), 1);
}

TEST(SupernodalLdltChoice, auto_is_supernodal_on_the_cpu_too_complex_ones_in_real_form) {
  const Csr a = gen::from_spec("lap2d5:10x10");
  Options o;
  o.backend = Backend::cpu;
  SparseLDLT f(o);
  f.analyze(a.view());
  EXPECT_EQ(f.schedule().kind, FactorKind::supernodal_ldlt);
  Options icc = supernodal_cpu();
  icc.ilu_levels = 0;  // ICC(0) stays on the column engine
  SparseLDLT g(icc);
  g.analyze(a.view());
  EXPECT_EQ(g.schedule().kind, FactorKind::column_ldlt);
  // A complex A takes the supernodal engine through its real form (api/real_form_ldlt.hpp).
  SparseLDLTComplex z(o);
  std::vector<std::complex<double>> values(a.values.begin(), a.values.end());
  const CsrView<int32_t, std::complex<double>> zv{a.nrows, a.ncols, a.rowptr.data(), a.colind.data(), values.data()};
  z.analyze(zv);
  EXPECT_EQ(z.schedule().kind, FactorKind::supernodal_ldlt);
  ASSERT_EQ(z.factor(zv).status, Status::ok);
  const Inertia in = z.inertia();
  EXPECT_EQ(in.positive, a.nrows);
}

}  // namespace
}  // namespace gpuglu::test

namespace gpuglu::test {
namespace {

// stokes64 (singular: the pressure's constant mode) meets a tiny pivot inside a supernode with
// large growth; the column LDL^T's symmetric pairs factor it (one perturbed pivot, refined).
// The recovery ladder takes the column engine before the LU, which cannot factor it at all.
TEST(SupernodalLdltRecovery, a_factor_that_fails_its_check_is_redone_on_the_column_engine) {
  const std::filesystem::path file = shared_matrix_dir().parent_path() / "collection/sym-indefinite/stokes64.mtx";
  if (!shared_matrix_dir_available() || !std::filesystem::exists(file)) GTEST_SKIP() << "no " << file;
  const Csr a = read_matrix_market(file.string());
  Options o = supernodal_cpu(2);
  SparseLDLT f(o);
  f.analyze(a.view(), StoredTriangle::full, nullptr, /*check_symmetry=*/false);
  ASSERT_EQ(f.schedule().kind, FactorKind::supernodal_ldlt);
  const FactorStats& fs = f.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_EQ(f.schedule().kind, FactorKind::column_ldlt);
  EXPECT_FALSE(f.uses_lu());
  EXPECT_NE(fs.recovery, RecoveryReason::none);
  EXPECT_EQ(f.analysis_count(), 2);
  const std::vector<double> b = rhs_for_known_solution(a, 7);
  std::vector<double> x(b.size());
  ASSERT_EQ(f.solve(b.data(), x.data()).status, Status::ok);
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-12);
}

}  // namespace
}  // namespace gpuglu::test
