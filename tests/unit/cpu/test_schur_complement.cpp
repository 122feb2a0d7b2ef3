// SparseLU's Schur-complement mode on the CPU supernodal LU (set_schur_indices,
// schur_complement, condense, expand; docs/design.md, "Schur complements"): S against a
// dense S = A22 - A21 A11^{-1} A12, condense + a dense solve of S + expand against the
// solution of A x = b, plain and transposed, Schur sets at the start, in the middle,
// scattered, single, all; refactorization; pivoting inside supernodes; the analysis's layout
// (the Schur block last, one supernode, alone in its level); every refusal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/schur_ordering.hpp"
#include "analysis/supernodal_symbolic.hpp"
#include "analysis/symmetric_graph.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "reference_test_support.hpp"
#include "schur_test_support.hpp"
#include "supernodal_pivoting_matrices.hpp"
#include "error_status.hpp"

namespace gpuglu::test {
namespace {

Options supernodal_cpu() {
  Options o;
  o.lu_engine = LuEngine::supernodal;
  o.backend = Backend::cpu;
  return o;
}

struct SchurCase {
  std::string name;
  Csr a;
};

std::vector<SchurCase> cases() {
  gen::CircuitParams circuit;
  circuit.nodes = 300;
  circuit.voltage_sources = 8;
  circuit.conductance_decades = 3;
  return {{"lap2d5:20x20", gen::from_spec("lap2d5:20x20")},
          {"convdiff3d:7x7x7:5", gen::from_spec("convdiff3d:7x7x7:5")},
          {"circuit:300", gen::circuit_mna(circuit)},
          {"random:250", random_matrix(250, 4, 11)}};
}

// Schur sets of an n-unknown matrix: at the start, in the middle, scattered, one index.
std::vector<std::vector<int32_t>> schur_sets(int32_t n) {
  std::vector<int32_t> start(12), middle(20), scattered;
  std::iota(start.begin(), start.end(), 0);
  std::iota(middle.begin(), middle.end(), n / 2 - 10);
  for (int32_t i = 3; i < n; i += n / 17) scattered.push_back(i);
  return {start, middle, scattered, {n / 3}};
}

std::string describe(const std::vector<int32_t>& idx) {
  std::string s = std::to_string(idx.size()) + " indices from " + std::to_string(idx.front());
  return s;
}

TEST(SchurComplement, matches_the_dense_schur_complement_and_solution) {
  for (const SchurCase& c : cases()) {
    const int32_t n = c.a.nrows;
    const std::vector<double> x_true = [&] {
      std::vector<double> x(static_cast<size_t>(n));
      for (int32_t i = 0; i < n; ++i) x[i] = 1.0 + 0.5 * std::sin(0.3 * i);
      return x;
    }();
    for (const std::vector<int32_t>& idx : schur_sets(n)) {
      SCOPED_TRACE(c.name + ", " + describe(idx));
      SparseLU lu(supernodal_cpu());
      lu.set_schur_indices(idx);
      lu.analyze(c.a.view());
      ASSERT_EQ(lu.factor(c.a.view()).status, Status::ok);
      EXPECT_EQ(lu.schedule().schur_size, static_cast<int32_t>(idx.size()));
      EXPECT_LE(relative_error(schur_of(lu), dense_schur(c.a, idx)), 1e-12);
      // A leading dimension above k leaves the rows below k alone.
      EXPECT_LE(relative_error(schur_of(lu, static_cast<int64_t>(idx.size()) + 3), dense_schur(c.a, idx)), 1e-12);
      for (bool transpose : {false, true}) {
        std::vector<double> b(static_cast<size_t>(n));
        if (transpose)
          spmv_transpose(c.a.view(), x_true.data(), b.data());
        else
          spmv(c.a.view(), x_true.data(), b.data());
        const std::vector<double> x = solve_through_schur(lu, b, transpose);
        EXPECT_LE(rel_diff_inf(x, x_true), 1e-12) << (transpose ? "transposed" : "plain");
        for (int32_t i : idx) EXPECT_EQ(x[i], x[i]);  // no NaN at the Schur entries
      }
    }
  }
}

// condense() alone: b2 - A21 A11^{-1} b1 against the dense computation.
TEST(SchurComplement, condense_gives_the_reduced_right_hand_side) {
  const Csr a = gen::from_spec("convdiff3d:6x6x6:3");
  const int32_t n = a.nrows;
  const std::vector<int32_t> idx = {5, 40, 41, 100, 150, 215};
  SparseLU lu(supernodal_cpu());
  lu.set_schur_indices(idx);
  lu.analyze(a.view());
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  std::vector<double> b(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) b[i] = std::cos(0.7 * i);
  for (bool transpose : {false, true}) {
    const Dense d = transpose ? to_dense(gpuglu::transpose(a.view())) : to_dense(a);
    const std::vector<int32_t> j = complement_of(idx, n);
    const auto m = static_cast<int32_t>(j.size());
    Dense b1(static_cast<size_t>(m));
    for (int32_t p = 0; p < m; ++p) b1[p] = b[j[p]];
    const Dense y = dense_solve(block(d, n, j, j), m, b1, 1);
    const Dense a21 = block(d, n, idx, j);
    Dense ref(idx.size());
    for (size_t r = 0; r < idx.size(); ++r) {
      ref[r] = b[idx[r]];
      for (int32_t p = 0; p < m; ++p) ref[r] -= a21[r + static_cast<size_t>(p) * idx.size()] * y[p];
    }
    Dense reduced(idx.size());
    lu.condense(b.data(), reduced.data(), transpose);
    EXPECT_LE(relative_error(reduced, ref), 1e-12) << (transpose ? "transposed" : "plain");
  }
}

// MC64's matching and scaling (the circuit's zero diagonals) and pivoting inside supernodes
// (a zero pivot in every node block, unmatched) work on A11 as on any A.
TEST(SchurComplement, pivoting_inside_supernodes_stays_out_of_the_schur_block) {
  const Csr a = zero_pivots_in_pairs(8, 8);
  const int32_t n = a.nrows;
  const std::vector<int32_t> idx = {20, 21, 60, 61, 100, 101};  // whole node blocks
  Options o = supernodal_cpu();
  o.matching = false;
  SparseLU lu(o);
  lu.set_schur_indices(idx);
  lu.analyze(a.view());
  const FactorStats& fs = lu.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_GT(fs.pivoted_supernodes, 0);
  EXPECT_FALSE(fs.reanalyzed);
  EXPECT_LE(relative_error(schur_of(lu), dense_schur(a, idx)), 1e-12);
  std::vector<double> x_true(static_cast<size_t>(n)), b(x_true.size());
  for (int32_t i = 0; i < n; ++i) x_true[i] = 1.0 + 0.25 * (i % 7);
  for (bool transpose : {false, true}) {
    if (transpose)
      spmv_transpose(a.view(), x_true.data(), b.data());
    else
      spmv(a.view(), x_true.data(), b.data());
    EXPECT_LE(rel_diff_inf(solve_through_schur(lu, b, transpose), x_true), 1e-12) << transpose;
  }
}

TEST(SchurComplement, refactorization_gives_the_new_schur_complement) {
  const Csr a = gen::from_spec("convdiff3d:6x6x6:2");
  const std::vector<int32_t> idx = {0, 7, 49, 50, 51, 120, 200};
  SparseLU lu(supernodal_cpu());
  lu.set_schur_indices(idx);
  lu.analyze(a.view());
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  EXPECT_LE(relative_error(schur_of(lu), dense_schur(a, idx)), 1e-12);
  Csr a2 = a;
  for (size_t p = 0; p < a2.values.size(); ++p) a2.values[p] *= 1.0 + 0.3 * std::sin(0.1 * static_cast<double>(p));
  ASSERT_EQ(lu.factor(a2.view()).status, Status::ok);
  EXPECT_EQ(lu.analysis_count(), 1);
  EXPECT_LE(relative_error(schur_of(lu), dense_schur(a2, idx)), 1e-12);
  // condense() belongs to the factor it ran on.
  std::vector<double> b(static_cast<size_t>(a.nrows), 1.0), reduced(idx.size()), x(b.size());
  lu.condense(b.data(), reduced.data());
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  EXPECT_THROW(lu.expand(reduced.data(), x.data()), Error);
}

// The analysis: C's last k unknowns are the Schur set in its order, matched to themselves and
// unscaled, the last supernode holds exactly them, alone in the last level; the ordering cache
// does not hand A's ordering to A11's analysis.
TEST(SchurComplement, the_schur_unknowns_are_the_last_supernode) {
  const Csr a = gen::from_spec("circuit:2000");
  const int32_t n = a.nrows;
  std::vector<int32_t> idx;
  for (int32_t i = 5; i < n; i += 97) idx.push_back(i);
  const auto k = static_cast<int32_t>(idx.size());
  Options o = supernodal_cpu();
  o.ordering_cache = true;
  const Schedule full = analyze(a.view(), o);  // fills the cache with A's ordering
  (void)full;
  const Schedule s = analyze_schur(a.view(), idx, o);
  ASSERT_EQ(s.schur_size, k);
  const Supernodes& sn = s.supernodes;
  const int32_t t = s.schur_supernode();
  ASSERT_EQ(t, sn.count - 1);
  EXPECT_EQ(sn.first[t], n - k);
  EXPECT_EQ(sn.nrows(t), k);
  for (int32_t i = 0; i < k; ++i) {
    EXPECT_EQ(s.col_perm[n - k + i], idx[i]);
    EXPECT_EQ(s.row_perm[n - k + i], idx[i]);
    EXPECT_EQ(s.row_scale[idx[i]], 1.0);
    EXPECT_EQ(s.col_scale[idx[i]], 1.0);
  }
  for (int32_t u = 0; u < t; ++u) EXPECT_LT(sn.first[u + 1], n - k + 1);
  const int32_t last = sn.num_levels() - 1;
  ASSERT_EQ(sn.level_ptr[last + 1] - sn.level_ptr[last], 1);
  EXPECT_EQ(sn.level_nodes[sn.level_ptr[last]], t);
  for (int32_t u = 0; u < sn.count; ++u) {
    if (sn.parent[u] >= 0) {
      int32_t lu_ = -1, lp = -1;
      for (int32_t l = 0; l < sn.num_levels(); ++l)
        for (int64_t i = sn.level_ptr[l]; i < sn.level_ptr[l + 1]; ++i) {
          if (sn.level_nodes[i] == u) lu_ = l;
          if (sn.level_nodes[i] == sn.parent[u]) lp = l;
        }
      EXPECT_LT(lu_, lp) << "supernode " << u;
    }
  }
  // The same analysis with the cache off gives the same order.
  o.ordering_cache = false;
  EXPECT_EQ(analyze_schur(a.view(), idx, o).col_perm, s.col_perm);
}

// Two Schur unknowns s0 < s1 and two parts of A11: one hanging from s0 alone, the other
// from s1 alone, so that s1 has two children in the elimination tree. CHOLMOD's postorder,
// which orders children by weight, puts the heavier part between s0 and s1 in one of the two
// sizes below; the analysis must move the Schur unknowns back to the end.
Csr two_parts_on_two_schur_unknowns(int32_t under_s0, int32_t under_s1) {
  std::vector<Triplet<int32_t, double>> t;
  const int32_t n = 2 + under_s0 + under_s1;
  auto couple = [&](int32_t i, int32_t j, double v) {
    t.push_back({i, j, v});
    t.push_back({j, i, 0.5 * v});
  };
  for (int32_t i = 0; i < n; ++i) t.push_back({i, i, 4.0 + 0.01 * i});
  couple(0, 1, -1.0);
  // Each part a path: its first unknown coupled to its Schur unknown.
  const int32_t parts[2][2] = {{2, under_s0}, {2 + under_s0, under_s1}};
  for (int32_t p = 0; p < 2; ++p) {
    const int32_t begin = parts[p][0], size = parts[p][1];
    couple(p, begin, -1.0 - 0.1 * p);
    for (int32_t i = begin; i + 1 < begin + size; ++i) couple(i, i + 1, -1.0 + 0.01 * i);
  }
  return csr_from_triplets<int32_t, double>(n, n, t);
}

TEST(SchurComplement, a_postorder_that_splits_the_schur_unknowns_is_undone) {
  for (const auto& [under_s0, under_s1] : {std::pair<int32_t, int32_t>{1, 30}, {30, 1}, {12, 12}}) {
    SCOPED_TRACE(std::to_string(under_s0) + " under s0, " + std::to_string(under_s1) + " under s1");
    const Csr a = two_parts_on_two_schur_unknowns(under_s0, under_s1);
    const std::vector<int32_t> idx = {0, 1};
    Options o = supernodal_cpu();
    o.ordering = Ordering::amd;
    const Schedule s = analyze_schur(a.view(), idx, o);
    ASSERT_EQ(s.col_perm[a.nrows - 2], 0);
    ASSERT_EQ(s.col_perm[a.nrows - 1], 1);
    SparseLU lu(o);
    lu.set_schur_indices(idx);
    lu.analyze(a.view());
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
    EXPECT_LE(relative_error(schur_of(lu), dense_schur(a, idx)), 1e-12);
  }
}

// CHOLMOD with the order kept (postorder off), as the analysis reruns it when its postorder
// left a subtree between Schur unknowns: the order stands, and the Schur unknowns moved last
// are a topological order of the same tree.
TEST(SchurComplement, an_order_with_the_schur_unknowns_moved_last_is_kept_by_cholmod) {
  const Csr a = two_parts_on_two_schur_unknowns(3, 5);
  const std::vector<int32_t> idx = {0, 1};
  // 2 3 4 hang from 0, 5 .. 9 from 1: [2 3 4 0 5 6 7 8 9 1] interleaves the Schur unknowns.
  const std::vector<int32_t> q = {4, 3, 2, 0, 9, 8, 7, 6, 5, 1};
  const std::vector<int32_t> moved = analysis::move_schur_last(q, idx);
  ASSERT_TRUE(analysis::schur_trails(moved, idx));
  EXPECT_FALSE(analysis::schur_trails(q, idx));
  const CscMatrix<int32_t, double> csc = csr_to_csc(a.view());
  analysis::MatchedPattern b;
  b.n = a.nrows;
  b.colptr = csc.colptr;
  b.rowind = csc.rowind;
  const analysis::SymmetricGraph g = analysis::symmetric_graph(analysis::with_dense_block(b, idx), 1);
  analysis::SupernodalPattern sp = analysis::supernodal_symbolic(g, moved, 1, true, /*postorder=*/false);
  EXPECT_EQ(sp.q, moved);
  analysis::isolate_schur_supernode(sp.supernodes, 2);
  const Supernodes& sn = sp.supernodes;
  EXPECT_EQ(sn.first[sn.count - 1], a.nrows - 2);
  for (int32_t t = 0; t + 1 < sn.count; ++t) EXPECT_EQ(sn.parent[t] >= 0, true) << t;
}

// A Schur block that CHOLMOD left in pieces (and a supernode stretched over both sides) is
// made one supernode, alone in the last level, with the panels' offsets recomputed.
TEST(SchurComplement, isolating_the_schur_supernode_splits_and_merges) {
  Supernodes sn;
  sn.count = 4;
  sn.first = {0, 1, 3, 4, 5};
  sn.rows_ptr = {0, 3, 7, 9, 10};
  sn.rows = {0, 2, 3, /**/ 1, 2, 3, 4, /**/ 3, 4, /**/ 4};
  sn.of_col = {0, 1, 1, 2, 3};
  sn.parent = {1, 2, 3, -1};
  sn.explicit_zeros = 0;
  analysis::isolate_schur_supernode(sn, 3);  // columns 2, 3, 4
  ASSERT_EQ(sn.count, 3);
  EXPECT_EQ(sn.first, (std::vector<int32_t>{0, 1, 2, 5}));
  EXPECT_EQ(sn.rows, (std::vector<int32_t>{0, 2, 3, 1, 2, 3, 4, 2, 3, 4}));
  EXPECT_EQ(sn.of_col, (std::vector<int32_t>{0, 1, 2, 2, 2}));
  EXPECT_EQ(sn.parent, (std::vector<int32_t>{2, 2, -1}));
  EXPECT_EQ(sn.l_ptr, (std::vector<int64_t>{0, 3, 7, 16}));
  EXPECT_EQ(sn.u_ptr, (std::vector<int64_t>{16, 18, 21, 21}));
  EXPECT_EQ(sn.values, 21);
  EXPECT_EQ(sn.level_ptr, (std::vector<int64_t>{0, 2, 3}));
  EXPECT_EQ(sn.level_nodes, (std::vector<int32_t>{0, 1, 2}));
}

TEST(SchurComplement, all_unknowns_make_s_equal_to_a_and_none_a_plain_lu) {
  const Csr a = gen::from_spec("lap2d5:6x6");
  const int32_t n = a.nrows;
  std::vector<int32_t> all(static_cast<size_t>(n));
  std::iota(all.begin(), all.end(), 0);
  SparseLU lu(supernodal_cpu());
  lu.set_schur_indices(all);
  lu.analyze(a.view());
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  EXPECT_EQ(schur_of(lu), to_dense(a));
  std::vector<double> b(static_cast<size_t>(n), 2.0), reduced(b.size()), x(b.size());
  lu.condense(b.data(), reduced.data());
  EXPECT_EQ(reduced, b);
  lu.expand(b.data(), x.data());
  EXPECT_EQ(x, b);

  SparseLU plain(supernodal_cpu());
  plain.set_schur_indices({});
  plain.analyze(a.view());
  ASSERT_EQ(plain.factor(a.view()).status, Status::ok);
  EXPECT_EQ(plain.schedule().schur_size, 0);
  std::vector<double> y(b.size());
  plain.solve(b.data(), y.data());
  EXPECT_LE(backward_error(a.view(), y.data(), b.data()), 1e-14);
  EXPECT_THROW(plain.schur_complement(y.data(), n), Error);
}

// lu_engine auto (whatever it would pick for A) takes the supernodal LU for a Schur set.
TEST(SchurComplement, automatic_engine_is_the_supernodal_lu) {
  const Csr a = gen::from_spec("lap2d5:10x10");
  Options o;
  o.backend = Backend::cpu;
  SparseLU lu(o);
  const std::vector<int32_t> idx = {3, 50};
  lu.set_schur_indices(idx);
  lu.analyze(a.view());
  EXPECT_EQ(lu.lu_engine(), LuEngine::supernodal);
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  EXPECT_LE(relative_error(schur_of(lu), dense_schur(a, idx)), 1e-12);
}

TEST(SchurComplement, bad_indices_are_named_at_analyze) {
  const Csr a = gen::from_spec("lap2d5:5x5");
  const std::vector<std::pair<std::vector<int32_t>, std::string>> bad = {
      {{1, 4, 3}, "sorted"}, {{1, 4, 4}, "duplicate"}, {{2, 25}, "out of range"}, {{-1, 2}, "out of range"}};
  for (const auto& [idx, why] : bad) {
    SparseLU lu(supernodal_cpu());
    lu.set_schur_indices(idx);
    std::string message;
    EXPECT_EQ(status_of([&] { lu.analyze(a.view()); }, &message), Status::invalid_input) << why;
    EXPECT_NE(message.find(why), std::string::npos) << message;
    EXPECT_NE(message.find("entry"), std::string::npos) << message;
    EXPECT_FALSE(lu.analyzed());
  }
}

TEST(SchurComplement, structurally_singular_a11_is_reported) {
  // Row 2 has entries in columns 1 and 3 only: with both in I, A11 has an empty row.
  const Csr a = csr_from_triplets<int32_t, double>(
      4, 4, {{0, 0, 2.0}, {0, 1, 1.0}, {1, 0, 1.0}, {1, 1, 3.0}, {2, 1, 1.0}, {2, 3, 1.0}, {3, 2, 1.0}, {3, 3, 4.0},
             {1, 2, 1.0}});
  SparseLU lu(supernodal_cpu());
  lu.set_schur_indices({1, 3});  // A11 = A({0, 2}, {0, 2}): row 2 is empty there
  std::string message;
  EXPECT_EQ(status_of([&] { lu.analyze(a.view()); }, &message), Status::structurally_singular);
  EXPECT_NE(message.find("A11"), std::string::npos) << message;
}

TEST(SchurComplement, options_that_cannot_keep_a_schur_block_are_refused) {
  const Csr a = gen::from_spec("lap2d5:5x5");
  auto analyze_with = [&](const Options& o) { return schur_analysis_status<SparseLU>(o, a, {2, 3}); };
  Options column = supernodal_cpu();
  column.lu_engine = LuEngine::column;
  auto [st, message] = analyze_with(column);
  EXPECT_EQ(st, Status::unsupported);
  EXPECT_NE(message.find("-mat_gpuglu_lu_engine supernodal"), std::string::npos) << message;
  Options ilu = supernodal_cpu();
  ilu.ilu_levels = 0;
  std::tie(st, message) = analyze_with(ilu);
  EXPECT_EQ(st, Status::unsupported);
  EXPECT_NE(message.find("ILU"), std::string::npos) << message;
  Options repivot = supernodal_cpu();
  repivot.pivot_policy = PivotPolicy::repivot;
  std::tie(st, message) = analyze_with(repivot);
  EXPECT_EQ(st, Status::unsupported);
  EXPECT_NE(message.find("repivot"), std::string::npos) << message;

  SparseLUComplex complex_lu;
  EXPECT_EQ(status_of([&] { complex_lu.set_schur_indices({1}); }), Status::unsupported);
  complex_lu.set_schur_indices({});  // none: nothing to refuse
}

TEST(SchurComplement, full_solves_and_misordered_calls_are_refused) {
  const Csr a = gen::from_spec("lap2d5:6x6");
  const int32_t n = a.nrows;
  SparseLU lu(supernodal_cpu());
  const std::vector<int32_t> idx = {4, 9};
  lu.set_schur_indices(idx);
  std::vector<double> b(static_cast<size_t>(n), 1.0), x(b.size()), r(idx.size()), s(idx.size() * idx.size());
  EXPECT_EQ(status_of([&] { lu.schur_complement(s.data(), 2); }), Status::not_analyzed);
  lu.analyze(a.view());
  EXPECT_EQ(status_of([&] { lu.condense(b.data(), r.data()); }), Status::not_factored);
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  std::string message;
  EXPECT_EQ(status_of([&] { lu.solve(b.data(), x.data()); }, &message), Status::unsupported);
  EXPECT_NE(message.find("condense"), std::string::npos) << message;
  EXPECT_EQ(status_of([&] { lu.solve_transpose(b.data(), x.data()); }), Status::unsupported);
  EXPECT_EQ(status_of([&] { lu.schur_complement(s.data(), 1); }), Status::invalid_input);  // ld < k
  EXPECT_EQ(status_of([&] { lu.expand(r.data(), x.data()); }), Status::invalid_input);     // no condense
  lu.condense(b.data(), r.data(), /*transpose=*/true);
  EXPECT_EQ(status_of([&] { lu.expand(r.data(), x.data(), false); }), Status::invalid_input);
  EXPECT_EQ(status_of([&] { lu.expand(r.data(), x.data(), true); }), Status::ok);
  // New indices take effect at the next analyze(); until then the factor keeps its own.
  lu.set_schur_indices({1, 2, 3});
  EXPECT_EQ(lu.schur_indices().size(), 3u);
  EXPECT_EQ(lu.schedule().schur_size, 2);
}

}  // namespace
}  // namespace gpuglu::test
