// The supernodal LU engine on the CPU (LuEngine::supernodal): its analysis's layout
// (include/gpuglu/supernodes.hpp) and its solves against KLU, on the generated matrices of
// the accuracy tests and more; zero pivots, NaN input, refactorization, threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "analysis/ordering.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "cpu/supernodal_blas.hpp"
#include "cpu/supernodal_solve.hpp"
#include "cpu/supernodal_sweep_layout.hpp"
#include "cpu/team_rule.hpp"
#include "cpu/triangular_solve.hpp"
#include "reference_test_support.hpp"
#include "sparse_lu_checks.hpp"

namespace gpuglu::test {
namespace {

Options supernodal(Backend backend = Backend::cpu) {
  Options o;
  o.lu_engine = LuEngine::supernodal;
  o.backend = backend;
  return o;
}

// The layout's promises: supernodes partition the columns, their rows are sorted with their
// own columns first, every pair of below rows lies in the supernode of the smaller one (the
// Schur update's targets exist), the levels respect the tree, and F maps one to one onto the
// panels.
void expect_layout_holds(const Schedule& analyzed) {
  ASSERT_FALSE(analyzed.factor_spelled_out());  // the analysis leaves F to who asks
  Schedule s = analyzed;
  spell_out_factor(s);
  const Supernodes& sn = s.supernodes;
  ASSERT_TRUE(s.supernodal());
  ASSERT_EQ(static_cast<int32_t>(sn.first.size()), sn.count + 1);
  EXPECT_EQ(sn.first.front(), 0);
  EXPECT_EQ(sn.first.back(), s.n);
  std::vector<char> in_rows(static_cast<size_t>(s.n), 0);
  for (int32_t t = 0; t < sn.count; ++t) {
    const int32_t ns = sn.cols(t);
    ASSERT_GT(ns, 0);
    const int32_t* r = sn.rows.data() + sn.rows_ptr[t];
    for (int32_t k = 0; k < ns; ++k) ASSERT_EQ(r[k], sn.first[t] + k) << "supernode " << t;
    for (int64_t a = 1; a < sn.nrows(t); ++a) ASSERT_LT(r[a - 1], r[a]) << "supernode " << t;
    for (int32_t j = sn.first[t]; j < sn.first[t + 1]; ++j) ASSERT_EQ(sn.of_col[j], t);
  }
  for (int32_t s_ = 0; s_ < sn.count; ++s_) {
    const int32_t ns = sn.cols(s_);
    const int32_t* below = sn.rows.data() + sn.rows_ptr[s_] + ns;
    const int64_t nb = sn.nrows(s_) - ns;
    EXPECT_EQ(sn.parent[s_], nb > 0 ? sn.of_col[below[0]] : -1);
    for (int64_t b = 0; b < nb; ++b) {
      const int32_t t = sn.of_col[below[b]];
      for (int64_t p = sn.rows_ptr[t]; p < sn.rows_ptr[t + 1]; ++p) in_rows[sn.rows[p]] = 1;
      for (int64_t a = b; a < nb; ++a) ASSERT_TRUE(in_rows[below[a]]) << "supernode " << s_ << " into " << t;
      for (int64_t p = sn.rows_ptr[t]; p < sn.rows_ptr[t + 1]; ++p) in_rows[sn.rows[p]] = 0;
    }
  }
  std::vector<int32_t> level(static_cast<size_t>(sn.count), -1);
  for (int32_t l = 0; l < sn.num_levels(); ++l)
    for (int64_t i = sn.level_ptr[l]; i < sn.level_ptr[l + 1]; ++i) level[sn.level_nodes[i]] = l;
  for (int32_t t = 0; t < sn.count; ++t) {
    ASSERT_GE(level[t], 0);
    if (sn.parent[t] >= 0) EXPECT_LT(level[t], level[sn.parent[t]]);
  }
  ASSERT_EQ(static_cast<int64_t>(sn.f_pos.size()), s.nnz_factor());
  EXPECT_EQ(sn.values, s.nnz_factor());  // the panels hold F and nothing else
  std::vector<char> hit(static_cast<size_t>(sn.values), 0);
  for (int64_t p : sn.f_pos) {
    ASSERT_GE(p, 0);
    ASSERT_LT(p, sn.values);
    ASSERT_FALSE(hit[p]) << "panel position " << p << " twice";
    hit[p] = 1;
  }
  for (int32_t j = 0; j < s.n; ++j) {
    EXPECT_EQ(s.f_rowind[s.f_diag[j]], j);
    for (int64_t p = s.f_colptr[j] + 1; p < s.f_colptr[j + 1]; ++p) ASSERT_LT(s.f_rowind[p - 1], s.f_rowind[p]);
  }
}

TEST(SupernodalLU, the_layout_holds_on_every_accuracy_matrix_and_ordering) {
  for (const NamedMatrix& m : accuracy_matrices()) {
    for (Ordering ordering : {Ordering::amd, Ordering::metis, Ordering::natural}) {
      SCOPED_TRACE(m.name + " " + std::string(to_string(ordering)));
      Options o = supernodal();
      o.ordering = ordering;
      SparseLU lu(o);
      lu.analyze(m.a.view());
      expect_layout_holds(lu.schedule());
      EXPECT_GT(lu.schedule().supernodes.count, 0);
      EXPECT_LT(lu.schedule().supernodes.count, m.a.nrows);  // some columns do merge
    }
  }
}

TEST(SupernodalLU, solves_match_klu_for_every_ordering_and_matching) {
  int runs = 0;
  for (const NamedMatrix& m : accuracy_matrices()) {
    Klu klu(m.a);
    const double cond = klu.condest();
    for (bool matching : {true, false}) {
      if (!matching && !has_nonzero_diagonal(m.a)) continue;
      for (Ordering ordering : {Ordering::amd, Ordering::colamd, Ordering::metis, Ordering::natural}) {
        SCOPED_TRACE(m.name + " ordering " + std::string(to_string(ordering)) + " matching " +
                     std::to_string(matching));
        Options o = supernodal();
        o.ordering = ordering;
        o.matching = matching;
        o.scaling = matching;
        expect_matches_klu(m.a, o, klu, cond);
        ++runs;
      }
    }
  }
  EXPECT_GE(runs, 20);
}

TEST(SupernodalLU, unsymmetric_and_larger_matrices_solve_without_refinement) {
  for (const char* spec : {"circuit:20000:200", "powergrid:1200:12", "lap3d7:16x16x16", "randdd:800:6:11",
                           "convdiff3d:12x12x12:20"}) {
    SCOPED_TRACE(spec);
    const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
    Options o = supernodal();
    o.refine_steps = 0;
    SparseLU lu(o);
    lu.analyze(a.view());
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
    const std::vector<double> b = rhs_for_known_solution(a, 3);
    std::vector<double> x(b.size());
    lu.solve(b.data(), x.data());
    EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-13);
  }
}

// a factored by lu (CPU supernodal), and its panels spelled back from F.
std::vector<double> factored_panels(SparseLU& lu, const CsrMatrix<int32_t, double>& a) {
  lu.analyze(a.view());
  EXPECT_EQ(lu.factor(a.view()).status, Status::ok);
  const Schedule& s = lu.schedule();
  const std::vector<double>& f = lu.factor_values();
  std::vector<double> panels(static_cast<size_t>(s.supernodes.values), 0.0);
  for (size_t i = 0; i < f.size(); ++i) panels[static_cast<size_t>(s.supernodes.f_pos[i])] = f[i];
  return panels;
}

// The panel solves (the GPU supernodal solve's oracle) and the solves through F agree.
TEST(SupernodalLU, panel_solves_equal_the_solves_through_f) {
  for (const char* spec : {"circuit:2000:20:1", "lap3d7:10x10x10", "convdiff3d:8x8x8:5", "randdd:1500:5:3"}) {
    SCOPED_TRACE(spec);
    const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
    SparseLU lu(supernodal());
    const std::vector<double> panels = factored_panels(lu, a);
    const Schedule& s = lu.schedule();
    const std::vector<double>& f = lu.factor_values();
    const std::vector<double> b = rhs_for_known_solution(a, 4);
    std::vector<double> work(b.size()), x_f(b.size()), x_p(b.size());
    for (bool transpose : {false, true}) {
      if (transpose)
        reference::solve_transpose_with_factor(s, f.data(), b.data(), x_f.data(), work.data());
      else
        reference::solve_with_factor(s, f.data(), b.data(), x_f.data(), work.data());
      reference::solve_with_panels(s, panels.data(), b.data(), x_p.data(), work.data(), transpose);
      EXPECT_LE(rel_diff_inf(x_p, x_f), 1e-12) << (transpose ? "transposed" : "plain");
    }
  }
}

// spec's factor solved by its sweep layout on each team equals its panels' solve bit for bit;
// the layout is cut into more than min_pieces pieces (0: whether or not it is cut).
void expect_layout_solves_as_the_panels(const char* spec, std::initializer_list<int32_t> teams, int32_t min_pieces) {
  SCOPED_TRACE(spec);
  const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
  SparseLU lu(supernodal());
  const std::vector<double> panels = factored_panels(lu, a);
  const Schedule& s = lu.schedule();
  reference::SweepLayout layout;
  layout.build(s, panels.data());
  if (min_pieces > 0) EXPECT_GT(layout.pieces(), min_pieces);
  const std::vector<double> b = rhs_for_known_solution(a, 4);
  std::vector<double> work(b.size()), x_p(b.size()), x_l(b.size());
  reference::solve_with_panels(s, panels.data(), b.data(), x_p.data(), work.data(), false);
  for (const int32_t team : teams) {
    std::fill(x_l.begin(), x_l.end(), 0.0);
    layout.solve(s, b.data(), x_l.data(), work.data(), {}, team);
    EXPECT_TRUE(same_bits(x_p, x_l)) << "team " << team;
  }
}

// The sweep layout (cpu/supernodal_sweep_layout.hpp) sums in the panel sweeps' order: the same
// x bit for bit, on narrow and wide supernodes alike.
TEST(SupernodalLU, the_sweep_layout_solves_as_the_panels_do_bit_for_bit) {
  for (const char* spec : {"circuit:2000:20:1", "lap3d7:10x10x10", "lap3d7:25x25x3", "convdiff3d:8x8x8:5",
                           "randdd:1500:5:3", "lap2d5:40x40"})
    expect_layout_solves_as_the_panels(spec, {1}, 0);
}

// A large factor's copy is cut into pieces that a team sweeps (the forward sweep's sums to the
// top replayed in order): still the panels' x bit for bit, on any team.
TEST(SupernodalLU, the_sweep_layout_cut_into_pieces_solves_as_the_panels_do_on_any_team) {
  for (const char* spec : {"lap3d7:20x20x20", "lap3d27:16x16x16", "convdiff3d:18x18x18:5"})
    expect_layout_solves_as_the_panels(spec, {1, 2, 3, 8}, 8);
}

// Through SparseLU: a factor's later solves read the sweep layout, its first ones the panels - the
// same bits - and a refactorization with new values is never solved with the old copy (nor its
// residual checked against the old values' bounds): its solves equal those of a twin analyzed
// alike whose first factorization has the new values.
TEST(SupernodalLU, solves_again_and_after_refactorization_match_a_fresh_factor_bit_for_bit) {
  for (const char* spec : {"lap3d7:12x12x6", "circuit:3000:30:2", "convdiff3d:10x10x10:5"}) {
    SCOPED_TRACE(spec);
    const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
    CsrMatrix<int32_t, double> changed = a;
    for (size_t p = 0; p < changed.values.size(); ++p) changed.values[p] *= 1.0 + 0.25 * static_cast<double>(p % 3);
    Options o = supernodal();
    o.refine_tolerance = 0.0;  // every solve checks and tries a correction
    SparseLU lu(o), twin(o);
    lu.analyze(a.view());
    twin.analyze(a.view());
    ASSERT_EQ(twin.factor(changed.view()).status, Status::ok);
    const std::vector<double> b = rhs_for_known_solution(a, 3);
    std::vector<double> first(b.size()), again(b.size()), x(b.size());
    twin.solve(b.data(), x.data());
    for (const CsrMatrix<int32_t, double>* m : {&a, static_cast<const CsrMatrix<int32_t, double>*>(&changed)}) {
      const bool refactored = m == &changed;
      ASSERT_EQ(lu.factor(m->view()).status, Status::ok);
      lu.solve(b.data(), first.data());
      const double first_error = lu.solve_stats().backward_error;
      for (int solve = 0; solve < reference::SweepLayout::kBuildAtSolve + 1; ++solve) {
        lu.solve(b.data(), again.data());
        EXPECT_TRUE(same_bits(first, again)) << "refactored " << refactored << ", solve " << solve + 2;
        EXPECT_EQ(lu.solve_stats().backward_error, first_error);
      }
      if (refactored) {
        EXPECT_TRUE(same_bits(again, x));
        EXPECT_EQ(twin.solve_stats().backward_error, first_error);
      }
    }
  }
}

TEST(SupernodalLU, refactorization_with_new_values_matches_klu) {
  const CsrMatrix<int32_t, double> a = gen::from_spec("circuit:2000:20:1");
  SparseLU lu(supernodal());
  lu.analyze(a.view());
  for (int step = 0; step < 3; ++step) {
    const CsrMatrix<int32_t, double> as = newton_step_values(a, step);
    ASSERT_EQ(lu.factor(as.view()).status, Status::ok);
    Klu klu(as);
    const std::vector<double> b = rhs_for_known_solution(as, 7);
    std::vector<double> x(b.size());
    lu.solve(b.data(), x.data());
    EXPECT_LE(backward_error(as.view(), x.data(), b.data()), 1e-13);
    EXPECT_LE(rel_diff_inf(x, klu.solve(b, false)), solution_tolerance(klu.condest()));
  }
}

TEST(SupernodalLU, threads_agree_to_rounding) {
  const CsrMatrix<int32_t, double> a = gen::from_spec("lap3d7:12x12x12");
  std::vector<std::vector<double>> factors;
  for (int32_t threads : {1, 4}) {
    Options o = supernodal();
    o.num_threads = threads;
    SparseLU lu(o);
    lu.analyze(a.view());
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
    factors.push_back(lu.factor_values());
  }
  ASSERT_EQ(factors[0].size(), factors[1].size());
  double scale = 0.0, diff = 0.0;
  for (size_t i = 0; i < factors[0].size(); ++i) {
    scale = std::max(scale, std::fabs(factors[0][i]));
    diff = std::max(diff, std::fabs(factors[0][i] - factors[1][i]));
  }
  EXPECT_LE(diff, 1e-13 * scale);
}

// The tree's top levels are narrower than the team: their supernodes take the whole team
// inside them (factor_by_levels' inner), which splits independent entries only.
// Past kMetisFromRows the automatic ordering is METIS's, except for a factor the CPU runs whose
// AMD order makes a factor below kAmdKeepFlops (Options::ordering_for_cpu): METIS would take
// longer than the factorizations it shortens. An ordering the caller names is kept.
TEST(SupernodalLU, automatic_ordering_keeps_amd_where_a_cpu_factor_is_small) {
  const auto plane = gen::from_spec("lap2d5:100x100");  // 1e4 rows, AMD's factor 3e7 flops
  const auto cube = gen::from_spec("lap3d7:20x20x20");  // 8e3 rows, AMD's factor 6e8 flops
  ASSERT_GE(plane.nrows, analysis::kMetisFromRows);
  ASSERT_GE(cube.nrows, analysis::kMetisFromRows);
  auto ordering_of = [](const CsrMatrix<int32_t, double>& a, Options o) {
    SparseLU lu(o);
    lu.analyze(a.view());
    EXPECT_EQ(lu.factor(a.view()).status, Status::ok);
    return lu.schedule().ordering;
  };
  auto ldlt_ordering_of = [](const CsrMatrix<int32_t, double>& a, Options o) {
    SparseLDLT ldlt(o);
    ldlt.analyze(a.view(), StoredTriangle::full);
    return ldlt.schedule().ordering;
  };
  EXPECT_EQ(ordering_of(plane, supernodal()), Ordering::amd);
  EXPECT_EQ(ldlt_ordering_of(plane, supernodal()), Ordering::amd);
  EXPECT_EQ(ordering_of(cube, supernodal()), Ordering::metis);
  EXPECT_EQ(ldlt_ordering_of(cube, supernodal()), Ordering::metis);
  Options named = supernodal();
  named.ordering = Ordering::metis;
  EXPECT_EQ(ordering_of(plane, named), Ordering::metis);
  EXPECT_EQ(ldlt_ordering_of(plane, named), Ordering::metis);
}

// A factor the automatic analysis sized for the CPU (analysis/supernodal_symbolic.hpp's
// amalgamation_for) lets fewer explicit zeros into its supernodes than the same ordering
// named (CHOLMOD's default amalgamation, the GPU's), for the LU and the LDL^T, and solves as well.
TEST(SupernodalLU, a_cpu_sized_analysis_amalgamates_less) {
  const auto a = gen::from_spec("lap3d7:25x25x3");
  const std::vector<double> b = rhs_for_known_solution(a, 1);
  auto zeros_of = [&](Options o) {
    SparseLU lu(o);
    lu.analyze(a.view());
    EXPECT_EQ(lu.schedule().ordering, Ordering::amd);
    EXPECT_EQ(lu.factor(a.view()).status, Status::ok);
    std::vector<double> x(b.size());
    lu.solve(b.data(), x.data());
    EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14);
    return lu.schedule().supernodes.explicit_zeros;
  };
  auto ldlt_zeros_of = [&](Options o) {
    SparseLDLT ldlt(o);
    ldlt.analyze(a.view(), StoredTriangle::full);
    return ldlt.schedule().supernodes.explicit_zeros;
  };
  Options named = supernodal();
  named.ordering = Ordering::amd;
  EXPECT_LT(zeros_of(supernodal()), zeros_of(named) / 2);
  EXPECT_LT(ldlt_zeros_of(supernodal()), ldlt_zeros_of(named) / 2);
}

// Teams only where the work pays for one (cpu/team_rule.hpp): a whole small factorization and
// a thin level run on one thread; large ones get the threads asked for.
TEST(SupernodalLU, teams_only_where_the_work_pays) {
  EXPECT_EQ(reference::factor_team(8, reference::kTeamMinFactorFlops / 2), 1);
  EXPECT_EQ(reference::factor_team(8, reference::kTeamMinFactorFlops * 2), 8);
  EXPECT_EQ(reference::level_team(8, reference::kTeamMinFlopsPerLevel / 2), 1);
  EXPECT_EQ(reference::level_team(8, reference::kTeamMinFlopsPerLevel * 2), 8);
}

// A team works inside the top supernodes; wide supernodes factor by blocks of columns and their
// large Schur updates by GEMM where an optimized BLAS is loaded (cpu/supernodal_blas.hpp), in
// pieces that do not depend on the team: on one thread or several the factor agrees to rounding
// (a level's concurrent supernodes still add into shared ancestors in any order) and solves as
// KLU does.
TEST(SupernodalLU, top_supernodes_agree_on_any_team_and_match_klu) {
  for (const char* spec : {"lap3d7:18x18x18", "convdiff3d:14x14x14:5", "lap3d27:12x12x12"}) {
    SCOPED_TRACE(spec);
    const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
    const std::vector<double> b = rhs_for_known_solution(a, 2);
    Klu klu(a);
    std::vector<std::vector<double>> factors;
    for (int32_t threads : {1, 2, 8}) {
      Options o = supernodal();
      o.num_threads = threads;
      SparseLU lu(o);
      lu.analyze(a.view());
      const Supernodes& sn = lu.schedule().supernodes;
      int32_t widest = 0;
      for (int32_t s = 0; s < sn.count; ++s) widest = std::max(widest, sn.cols(s));
      ASSERT_GE(widest, 2 * reference::kBlasPanelColumns);  // blocks and a deferred update
      ASSERT_EQ(lu.factor(a.view()).status, Status::ok) << threads;
      factors.push_back(lu.factor_values());
      std::vector<double> x(b.size());
      lu.solve(b.data(), x.data());
      EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14) << threads;
      EXPECT_LE(rel_diff_inf(x, klu.solve(b)), solution_tolerance(klu.condest())) << threads;
    }
    for (size_t t = 1; t < factors.size(); ++t) {
      ASSERT_EQ(factors[0].size(), factors[t].size());
      EXPECT_LE(rel_diff_inf(factors[t], factors[0]), 1e-13) << "team " << t;
    }
  }
}

// [[0 1] [1 1]] on the diagonal of a well-conditioned rest: without matching, the first
// static pivot is exactly zero.
CsrMatrix<int32_t, double> zero_first_pivot() {
  CsrMatrix<int32_t, double> rest = gen::from_spec("lap2d5:10x10");
  std::vector<Triplet<int32_t, double>> t{{0, 0, 0.0}, {0, 1, 1.0}, {1, 0, 1.0}, {1, 1, 1.0}};
  for (int32_t i = 0; i < rest.nrows; ++i)
    for (int32_t p = rest.rowptr[i]; p < rest.rowptr[i + 1]; ++p)
      t.push_back({i + 2, rest.colind[p] + 2, rest.values[p]});
  return csr_from_triplets<int32_t, double>(rest.nrows + 2, rest.nrows + 2, t);
}

TEST(SupernodalLU, a_zero_pivot_is_reported_perturbed_or_recovered_by_policy) {
  const CsrMatrix<int32_t, double> a = zero_first_pivot();
  const std::vector<double> b = rhs_for_known_solution(a, 1);
  std::vector<double> x(b.size());
  {
    Options o = supernodal();
    o.matching = false;
    o.ordering = Ordering::natural;
    o.pivot_policy = PivotPolicy::report;
    o.lu_supernode_pivoting = false;  // on, row 1 of the same supernode is the pivot
    SparseLU lu(o);
    lu.analyze(a.view());
    const FactorStats& st = lu.factor(a.view());
    EXPECT_EQ(st.status, Status::numerically_singular);
    EXPECT_EQ(st.pivot_column_original, 0);
  }
  {
    Options o = supernodal();
    o.matching = false;
    o.ordering = Ordering::natural;
    o.pivot_policy = PivotPolicy::perturb;
    SparseLU lu(o);
    lu.analyze(a.view());
    const FactorStats& st = lu.factor(a.view());
    EXPECT_EQ(st.status, Status::ok);
    EXPECT_EQ(st.perturbed_pivots, 1);
  }
  {
    Options o = supernodal();  // the default policy: a re-analysis, then a solution
    o.matching = false;
    o.ordering = Ordering::natural;
    SparseLU lu(o);
    lu.analyze(a.view());
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
    lu.solve(b.data(), x.data());
    EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-13);
  }
}

TEST(SupernodalLU, nan_input_is_reported_and_good_values_factor_afterwards) {
  CsrMatrix<int32_t, double> a = gen::from_spec("circuit:2000:20:1");
  SparseLU lu(supernodal());
  lu.analyze(a.view());
  CsrMatrix<int32_t, double> bad = a;
  bad.values[bad.values.size() / 2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(lu.factor(bad.view()).status, Status::nan_or_inf);
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  const std::vector<double> b = rhs_for_known_solution(a, 2);
  std::vector<double> x(b.size());
  lu.solve(b.data(), x.data());
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-13);
}

TEST(SupernodalLU, tiny_matrices) {
  for (int32_t n : {1, 2, 3}) {
    std::vector<Triplet<int32_t, double>> t;
    for (int32_t i = 0; i < n; ++i) {
      t.push_back({i, i, 4.0 + i});
      if (i + 1 < n) t.push_back({i, i + 1, 1.0});
    }
    const CsrMatrix<int32_t, double> a = csr_from_triplets<int32_t, double>(n, n, t);
    SparseLU lu(supernodal());
    lu.analyze(a.view());
    expect_layout_holds(lu.schedule());
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
    const std::vector<double> b = rhs_for_known_solution(a, 2);
    std::vector<double> x(b.size());
    lu.solve(b.data(), x.data());
    EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-15);
  }
}

}  // namespace
}  // namespace gpuglu::test
