// SparseLDLT's Schur-complement mode on the CPU supernodal LDL^T (solver.hpp's
// set_schur_indices, schur_complement, condense, expand; docs/design.md, "Schur
// complements"): S against a dense S = A22 - A21 A11^{-1} A12 and against the LU's S on the
// same matrix; condense + a dense solve of S + expand against the solution of A x = b, on SPD
// and indefinite matrices (2 x 2 pivots inside supernodes, zero diagonals), Schur sets at the
// start, in the middle, scattered, single, all; one-triangle storage; refactorization; the
// analysis's layout; every refusal.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "error_status.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "ldlt_test_support.hpp"
#include "reference_test_support.hpp"
#include "schur_test_support.hpp"

namespace gpuglu::test {
namespace {

Options ldlt_cpu() {
  Options o;
  o.backend = Backend::cpu;
  return o;
}

struct SchurCase {
  std::string name;
  Csr a;
};

std::vector<SchurCase> cases() {
  return {{"lap2d5:16x16 (SPD)", gen::from_spec("lap2d5:16x16")},
          {"lap3d7:6x6x6 (SPD)", gen::from_spec("lap3d7:6x6x6")},
          {"shiftlap2d:15x15:1.3 (indefinite)", gen::from_spec("shiftlap2d:15x15:1.3")},
          {"kkt:160:60 (zero diagonal)", gen::from_spec("kkt:160:60")},
          {"random symmetric (mixed signs)", random_symmetric(220, 5, 7, 0.6)}};
}

std::vector<std::vector<int32_t>> schur_sets(int32_t n) {
  std::vector<int32_t> start(10), middle(18), scattered;
  std::iota(start.begin(), start.end(), 0);
  std::iota(middle.begin(), middle.end(), n / 2 - 9);
  for (int32_t i = 2; i < n; i += n / 15) scattered.push_back(i);
  return {start, middle, scattered, {n / 3}};
}

std::vector<double> x_true_of(int32_t n) {
  std::vector<double> x(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) x[i] = 1.0 + 0.5 * std::sin(0.3 * i);
  return x;
}

TEST(SchurComplementLdlt, matches_the_dense_schur_complement_and_solution) {
  for (const SchurCase& c : cases()) {
    const int32_t n = c.a.nrows;
    const std::vector<double> x_true = x_true_of(n);
    std::vector<double> b(static_cast<size_t>(n));
    spmv(c.a.view(), x_true.data(), b.data());
    for (const std::vector<int32_t>& idx : schur_sets(n)) {
      SCOPED_TRACE(c.name + ", " + std::to_string(idx.size()) + " indices from " + std::to_string(idx.front()));
      SparseLDLT f(ldlt_cpu());
      f.set_schur_indices(idx);
      // A KKT system's A11 can lose its dual rows' partners: then there is no S, and both
      // factorizations say so at the analysis.
      if (status_of([&] { f.analyze(c.a.view()); }) == Status::structurally_singular) {
        Options o = ldlt_cpu();
        o.lu_engine = LuEngine::supernodal;
        SparseLU lu(o);
        lu.set_schur_indices(idx);
        EXPECT_EQ(status_of([&] { lu.analyze(c.a.view()); }), Status::structurally_singular);
        continue;
      }
      ASSERT_EQ(f.schedule().kind, FactorKind::supernodal_ldlt);
      ASSERT_EQ(f.factor(c.a.view()).status, Status::ok);
      EXPECT_EQ(f.factor_stats().lu_fallback, false);
      EXPECT_EQ(f.factor_stats().perturbed_pivots, 0);
      const Dense s = schur_of(f);
      EXPECT_LE(relative_error(s, dense_schur(c.a, idx)), 1e-11);
      const auto k = static_cast<int32_t>(idx.size());
      for (int32_t j = 0; j < k; ++j)  // S is symmetric, both triangles written
        for (int32_t i = 0; i < j; ++i) EXPECT_EQ(s[i + static_cast<size_t>(j) * k], s[j + static_cast<size_t>(i) * k]);
      for (bool transpose : {false, true}) {  // A = A^T: the transposed forms are the same
        const std::vector<double> x = solve_through_schur(f, b, transpose);
        EXPECT_LE(rel_diff_inf(x, x_true), 1e-10) << (transpose ? "transposed" : "plain");
      }
    }
  }
}

// The LDL^T's S and the LU's S of one matrix: the same complement, by two factorizations.
TEST(SchurComplementLdlt, gives_the_lus_schur_complement) {
  const Csr a = gen::from_spec("kkt:300:100");
  std::vector<int32_t> idx;
  for (int32_t i = 5; i < a.nrows; i += 23) idx.push_back(i);
  SparseLDLT ldlt(ldlt_cpu());
  Options lu_options = ldlt_cpu();
  lu_options.lu_engine = LuEngine::supernodal;
  SparseLU lu(lu_options);
  for (BasicSparseSolver<double>* f : {static_cast<BasicSparseSolver<double>*>(&ldlt),
                                       static_cast<BasicSparseSolver<double>*>(&lu)})
    f->set_schur_indices(idx);
  ldlt.analyze(a.view());
  lu.analyze(a.view());
  ASSERT_EQ(ldlt.factor(a.view()).status, Status::ok);
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  EXPECT_LE(relative_error(schur_of(ldlt), schur_of(lu)), 1e-11);
}

// Upper-triangle storage (PETSc's SBAIJ) gives the full storage's S and solution.
TEST(SchurComplementLdlt, one_triangle_storage_gives_the_same_schur_complement) {
  const Csr a = gen::from_spec("shiftlap2d:12x12:0.9");
  const Csr upper = triangle_of(a, StoredTriangle::upper);
  const std::vector<int32_t> idx = {3, 40, 41, 77, 120};
  SparseLDLT full(ldlt_cpu()), tri(ldlt_cpu());
  full.set_schur_indices(idx);
  tri.set_schur_indices(idx);
  full.analyze(a.view());
  tri.analyze(upper.view(), StoredTriangle::upper);
  ASSERT_EQ(full.factor(a.view()).status, Status::ok);
  ASSERT_EQ(tri.factor(upper.view()).status, Status::ok);
  EXPECT_LE(relative_error(schur_of(tri), schur_of(full)), 1e-13);
}

TEST(SchurComplementLdlt, refactorization_gives_the_new_schur_complement) {
  Csr a = gen::from_spec("lap3d7:5x5x6");
  const std::vector<int32_t> idx = {0, 1, 2, 60, 61, 149};
  SparseLDLT f(ldlt_cpu());
  f.set_schur_indices(idx);
  f.analyze(a.view());
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  // New symmetric values: each a_ij scaled by a factor of min(i, j) and max(i, j).
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const int32_t j = a.colind[p];
      a.values[p] *= 1.0 + 0.1 * ((std::min(i, j) + 2 * std::max(i, j)) % 5);
    }
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  EXPECT_LE(relative_error(schur_of(f), dense_schur(a, idx)), 1e-12);
}

// The Schur unknowns come last, in the caller's order, unscaled, as the last supernode.
TEST(SchurComplementLdlt, the_schur_unknowns_are_the_last_supernode_unscaled) {
  const Csr a = gen::from_spec("kkt:120:40");
  const std::vector<int32_t> idx = {7, 8, 50, 130, 159};
  SparseLDLT f(ldlt_cpu());
  f.set_schur_indices(idx);
  f.analyze(a.view());
  const Schedule& s = f.schedule();
  const auto k = static_cast<int32_t>(idx.size());
  ASSERT_EQ(s.schur_size, k);
  ASSERT_GE(s.schur_supernode(), 0);
  EXPECT_EQ(s.supernodes.first[s.schur_supernode()], s.n - k);
  EXPECT_EQ(s.supernodes.cols(s.schur_supernode()), k);
  for (int32_t i = 0; i < k; ++i) {
    EXPECT_EQ(s.col_perm_inv[idx[i]], s.n - k + i);
    EXPECT_EQ(s.row_scale[idx[i]], 1.0);
  }
}

// k == n: A11 is empty and S = A; no indices: a plain LDL^T that solves.
TEST(SchurComplementLdlt, all_unknowns_make_s_equal_to_a_and_none_a_plain_ldlt) {
  const Csr a = gen::from_spec("shiftlap2d:4x5:0.5");
  std::vector<int32_t> all(static_cast<size_t>(a.nrows));
  std::iota(all.begin(), all.end(), 0);
  SparseLDLT f(ldlt_cpu());
  f.set_schur_indices(all);
  f.analyze(a.view());
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  EXPECT_LE(relative_error(schur_of(f), to_dense(a)), 0.0);
  f.set_schur_indices({});
  f.analyze(a.view());
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  std::vector<double> b(static_cast<size_t>(a.nrows), 1.0), x(b.size());
  f.solve(b.data(), x.data());
  EXPECT_LT(backward_error(a.view(), x.data(), b.data()), 1e-14);
}

TEST(SchurComplementLdlt, structurally_singular_a11_is_reported) {
  // Dual row 1 couples only to primal unknown 0: with 0 in I, A11's row 1 has no partner.
  const Csr a = csr_from_triplets<int32_t, double>(
      3, 3, {{0, 0, 2.0}, {0, 1, 1.0}, {1, 0, 1.0}, {0, 2, 1.0}, {2, 0, 1.0}, {2, 2, 3.0}});
  SparseLDLT f(ldlt_cpu());
  f.set_schur_indices({0});
  std::string message;
  EXPECT_EQ(status_of([&] { f.analyze(a.view()); }, &message), Status::structurally_singular);
  EXPECT_NE(message.find("A11"), std::string::npos) << message;
}

TEST(SchurComplementLdlt, what_cannot_keep_a_schur_block_is_refused) {
  const Csr a = gen::from_spec("lap2d5:6x6");
  const int32_t n = a.nrows;
  auto analyze_with = [&](const Options& o) { return schur_analysis_status<SparseLDLT>(o, a, {2, 3}); };
  Options column = ldlt_cpu();
  column.ldlt_engine = LuEngine::column;
  auto [st, message] = analyze_with(column);
  EXPECT_EQ(st, Status::unsupported);
  EXPECT_NE(message.find("-mat_gpuglu_ldlt_engine supernodal"), std::string::npos) << message;
  Options icc = ldlt_cpu();
  icc.ilu_levels = 0;
  std::tie(st, message) = analyze_with(icc);
  EXPECT_EQ(st, Status::unsupported);
  EXPECT_NE(message.find("ICC"), std::string::npos) << message;
  SparseLDLTComplex complex_ldlt;
  EXPECT_EQ(status_of([&] { complex_ldlt.set_schur_indices({1}); }), Status::unsupported);

  SparseLDLT f(ldlt_cpu());
  f.set_schur_indices({4, 9, 20});
  f.analyze(a.view());
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  std::vector<double> b(static_cast<size_t>(n), 1.0), x(b.size()), r(3);
  EXPECT_EQ(status_of([&] { f.solve(b.data(), x.data()); }, &message), Status::unsupported);
  EXPECT_NE(message.find("condense"), std::string::npos) << message;
  EXPECT_EQ(status_of([&] { f.solve_transpose(b.data(), x.data()); }), Status::unsupported);
  EXPECT_EQ(status_of([&] { (void)f.inertia(); }, &message), Status::unsupported);
  EXPECT_NE(message.find("Schur"), std::string::npos) << message;
  EXPECT_EQ(status_of([&] { f.expand(r.data(), x.data()); }), Status::invalid_input);  // no condense
  EXPECT_EQ(status_of([&] { f.condense_device(b.data(), r.data()); }), Status::unsupported);  // a CPU factor
  std::vector<int32_t> unsorted = {9, 4};
  f.set_schur_indices(unsorted);
  EXPECT_EQ(status_of([&] { f.analyze(a.view()); }, &message), Status::invalid_input);
  EXPECT_NE(message.find("sorted"), std::string::npos) << message;
}

}  // namespace
}  // namespace gpuglu::test
