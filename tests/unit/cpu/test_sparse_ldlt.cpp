// SparseLDLT's column engine on the reference backend: solves against KLU and the backward error, the three
// storages giving one factor, thread counts giving the same bits, inertia against a dense
// eigenvalue count (LAPACK), and the fallback to LU that keeps a wrong answer from being
// reported as a solution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "ldlt_test_support.hpp"
#include "reference_test_support.hpp"
#include "sparse_lu_checks.hpp"


namespace gpuglu::test {
namespace {

using Csr = CsrMatrix<int32_t, double>;

// The column engine's tests (test_supernodal_ldlt.cpp has the supernodal engine's, the default).
Options cpu_options(int threads = 4) {
  Options o;
  o.backend = Backend::cpu;
  o.num_threads = threads;
  o.ldlt_engine = LuEngine::column;
  return o;
}

void expect_solves(SparseLDLT& f, const Csr& a, uint64_t seed) {
  const std::vector<double> b = rhs_for_known_solution(a, seed);
  std::vector<double> x(b.size());
  const SolveStats& ss = f.solve(b.data(), x.data());
  ASSERT_EQ(ss.status, Status::ok);
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-12);
  Klu klu(a);
  EXPECT_LE(rel_diff_inf(x, klu.solve(b)), solution_tolerance(klu.condest()));
}

class LdltSpd : public ::testing::TestWithParam<const char*> {};

TEST_P(LdltSpd, solves_like_klu_with_positive_inertia_and_no_fallback) {
  const Csr a = gen::from_spec(GetParam());
  SparseLDLT f(cpu_options());
  f.analyze(a.view());
  ASSERT_TRUE(f.schedule().symmetric());
  EXPECT_EQ(f.schedule().symmetric_pairs, 0);  // no small diagonal: the plain ordering
  const FactorStats& fs = f.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_FALSE(fs.lu_fallback);
  EXPECT_EQ(fs.perturbed_pivots, 0);
  expect_solves(f, a, 3);
  const Inertia in = f.inertia();
  EXPECT_EQ(in.positive, a.nrows);
  EXPECT_EQ(in.negative + in.zero, 0);
}

TEST_P(LdltSpd, lower_upper_and_full_storage_give_the_same_factor) {
  const Csr a = gen::from_spec(GetParam());
  std::vector<double> full_factor;
  for (StoredTriangle t : {StoredTriangle::full, StoredTriangle::lower, StoredTriangle::upper}) {
    const Csr stored = t == StoredTriangle::full ? a : triangle_of(a, t);
    SparseLDLT f(cpu_options());
    f.analyze(stored.view(), t);
    ASSERT_EQ(f.factor(stored.view()).status, Status::ok);
    if (t == StoredTriangle::full)
      full_factor = f.factor_values();
    else
      EXPECT_EQ(f.factor_values(), full_factor) << "storage " << static_cast<int>(t);
    expect_solves(f, a, 5);
  }
}

TEST_P(LdltSpd, thread_counts_give_identical_bits) {
  const Csr a = gen::from_spec(GetParam());
  SparseLDLT one(cpu_options(1)), many(cpu_options(8));
  one.analyze(a.view());
  many.analyze(a.view());
  ASSERT_EQ(one.factor(a.view()).status, Status::ok);
  ASSERT_EQ(many.factor(a.view()).status, Status::ok);
  EXPECT_EQ(one.factor_values(), many.factor_values());
}

TEST_P(LdltSpd, the_spd_flag_skips_the_scaling_and_still_solves) {
  const Csr a = gen::from_spec(GetParam());
  SparseLDLT f(cpu_options());
  f.analyze(a.view(), StoredTriangle::full, nullptr, true, /*spd=*/true);
  EXPECT_FALSE(f.schedule().scaled);
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  expect_solves(f, a, 7);
}

INSTANTIATE_TEST_SUITE_P(Generated, LdltSpd,
                         ::testing::Values("lap2d5:20x15", "lap2d9:12x10", "lap3d7:10x9x8", "lap3d27:6x6x6"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

TEST(LdltIndefinite, random_symmetric_inertia_matches_the_dense_eigenvalue_count) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Csr a = random_symmetric(60 + static_cast<int32_t>(seed) * 7, 3, seed, 1.0);
    SparseLDLT f(cpu_options());
    f.analyze(a.view());
    const FactorStats& fs = f.factor(a.view());
    ASSERT_EQ(fs.status, Status::ok) << "seed " << seed;
    expect_solves(f, a, seed);
    if (fs.perturbed_pivots > 0 || f.uses_lu()) {
      EXPECT_THROW(f.inertia(), Error);
      continue;
    }
    const Inertia got = f.inertia(), want = dense_inertia(a);
    EXPECT_EQ(got.negative, want.negative) << "seed " << seed;
    EXPECT_EQ(got.positive, want.positive) << "seed " << seed;
    EXPECT_EQ(got.zero, 0);
  }
}

TEST(LdltIndefinite, kkt_with_a_zero_block_solves_and_counts_one_negative_pivot_per_constraint) {
  const Csr a = gen::from_spec("kkt:300:80:5");
  SparseLDLT f(cpu_options());
  f.analyze(a.view());
  const FactorStats& fs = f.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  expect_solves(f, a, 11);
  // Every zero-diagonal constraint is paired with a primal variable ordered before it
  // (symmetric_pairs.hpp), whose elimination fills its pivot: no perturbation.
  EXPECT_EQ(f.schedule().symmetric_pairs, 80);
  EXPECT_EQ(fs.perturbed_pivots, 0);
  EXPECT_FALSE(f.uses_lu());
  const Inertia in = f.inertia();  // [H A^T; A 0] with H SPD, A full row rank: (n_dual -, n_primal +)
  EXPECT_EQ(in.negative, 80);
  EXPECT_EQ(in.positive, 300);
  EXPECT_EQ(in.zero, 0);
}

TEST(LdltIndefinite, shifted_laplacian_inertia_is_the_count_of_eigenvalues_below_the_shift) {
  // Eigenvalues 6 - 2cos(i pi / 9) - 2cos(j pi / 8) - 2cos(k pi / 7) - shift (generators.hpp).
  const double shift = 2.5;
  const Csr a = gen::shifted_laplacian_3d(8, 7, 6, shift);
  int64_t below = 0;
  for (int i = 1; i <= 8; ++i)
    for (int j = 1; j <= 7; ++j)
      for (int k = 1; k <= 6; ++k)
        below += 6.0 - 2.0 * std::cos(i * M_PI / 9) - 2.0 * std::cos(j * M_PI / 8) - 2.0 * std::cos(k * M_PI / 7) < shift;
  SparseLDLT f(cpu_options());
  f.analyze(a.view());
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  expect_solves(f, a, 29);
  ASSERT_EQ(f.factor_stats().perturbed_pivots, 0);
  const Inertia in = f.inertia();
  EXPECT_EQ(in.negative, below);
  EXPECT_EQ(in.positive, a.nrows - below);
}

TEST(LdltIndefinite, perturbed_zero_pivots_are_repaired_by_refinement_and_void_the_inertia) {
  const Csr a = zero_diagonal_blocks(40);
  Options o = cpu_options();
  o.scaling = false;
  SparseLDLT f(o);
  f.analyze(a.view());
  const FactorStats& fs = f.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_EQ(fs.perturbed_pivots, 40);
  EXPECT_FALSE(fs.lu_fallback);
  EXPECT_GE(fs.check_backward_error, 0.0);  // a perturbed factor is checked before it is accepted
  expect_solves(f, a, 13);
  EXPECT_THROW(f.inertia(), Error);
}

TEST(LdltIndefinite, a_perturbation_refinement_cannot_repair_falls_back_to_lu_and_still_solves) {
  const Csr a = zero_diagonal_blocks(40);
  Options o = cpu_options();
  o.scaling = false;
  o.perturbation = 0.5;  // a contraction of 1/3 per step: 10 steps leave 1e-5
  SparseLDLT f(o);
  f.analyze(a.view());
  const FactorStats& fs = f.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_TRUE(fs.lu_fallback);
  EXPECT_TRUE(f.uses_lu());
  EXPECT_EQ(fs.recovery, RecoveryReason::tiny_pivot);
  EXPECT_GT(fs.check_backward_error, o.backward_error_tolerance);
  expect_solves(f, a, 13);
  EXPECT_THROW(f.inertia(), Error);
  // The next factorization tries the LDL^T again, and falls back again.
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  EXPECT_TRUE(f.uses_lu());
  EXPECT_EQ(f.analysis_count(), 1);
}

TEST(LdltIndefinite, the_report_policy_fails_on_a_zero_pivot_instead) {
  std::vector<Triplet<int32_t, double>> e = {{0, 1, 1.0}, {1, 0, 1.0}};
  const Csr a = csr_from_triplets<int32_t, double>(2, 2, e);
  Options o = cpu_options();
  o.scaling = false;
  o.pivot_policy = PivotPolicy::report;
  SparseLDLT f(o);
  f.analyze(a.view());
  EXPECT_EQ(f.factor(a.view()).status, Status::numerically_singular);
  EXPECT_FALSE(f.factored());
  std::vector<double> b(2, 1.0), x(2);
  EXPECT_THROW(f.solve(b.data(), x.data()), Error);
}

TEST(LdltErrors, an_asymmetric_or_one_sided_matrix_is_rejected_by_name) {
  const Csr lap = gen::from_spec("lap2d5:4x4");
  Csr asym = lap;
  asym.values[1] += 1.0;
  SparseLDLT f(cpu_options());
  try {
    f.analyze(asym.view());
    FAIL() << "an asymmetric matrix was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not symmetric"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(f.analyze(asym.view(), StoredTriangle::full, nullptr, /*check_symmetry=*/false));
  try {
    f.analyze(lap.view(), StoredTriangle::lower);
    FAIL() << "an entry above the diagonal was accepted as the lower triangle";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_input);
  }
}

// Large enough for the checks' parallel pass: the first failing row is named, as a serial
// pass would (for a missing mirror, the smaller of the pair; for values, the first row).
TEST(LdltErrors, the_parallel_symmetry_check_names_the_first_failing_row) {
  const Csr lap = gen::from_spec("lap3d7:30x30x30");
  ASSERT_GE(lap.nnz(), 1 << 16);
  auto message = [](const Csr& a) {
    SparseLDLT f(cpu_options());
    try {
      f.analyze(a.view());
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::invalid_input);
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  auto entry = [&](const Csr& a, int32_t i, int32_t j) {
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] == j) return p;
    return -1;
  };
  Csr values = lap;
  ASSERT_GE(entry(values, 20001, 20002), 0);
  ASSERT_GE(entry(values, 9001, 9000), 0);
  values.values[entry(values, 20001, 20002)] += 1.0;
  values.values[entry(values, 9001, 9000)] += 1.0;
  EXPECT_NE(message(values).find("A(9000, 9001)"), std::string::npos) << message(values);
  // Row 15000 loses its entry (15000, 14100) (set aside by rebuilding the row without it):
  // column 14100's pattern differs from row 14100's first.
  ASSERT_GE(entry(lap, 15000, 14100), 0);
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t i = 0; i < lap.nrows; ++i)
    for (int32_t p = lap.rowptr[i]; p < lap.rowptr[i + 1]; ++p)
      if (!(i == 15000 && lap.colind[p] == 14100)) t.push_back({i, lap.colind[p], lap.values[p]});
  const Csr pattern = csr_from_triplets<int32_t, double>(lap.nrows, lap.ncols, t);
  EXPECT_NE(message(pattern).find("pattern of row 14100 "), std::string::npos) << message(pattern);
}

// Every SPD matrix has |a_ij| <= sqrt(a_ii a_jj): its MC64 scaling is the diagonal's own
// (1 / sqrt(a_ii), the identity matched); a KKT matrix's zero block needs the matching.
TEST(LdltScaling, an_spd_matrix_takes_the_diagonal_scaling) {
  const Csr a = gen::from_spec("elast3d:5x4x4");
  SparseLDLT f(cpu_options());
  f.analyze(a.view());
  const Schedule& s = f.schedule();
  ASSERT_TRUE(s.scaled);
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] == i) EXPECT_DOUBLE_EQ(s.row_scale[i], 1.0 / std::sqrt(a.values[p]));
  const Csr kkt = gen::from_spec("kkt:300:60");
  SparseLDLT g(cpu_options());
  g.analyze(kkt.view());
  ASSERT_TRUE(g.schedule().scaled);
  for (int32_t i = 0; i < kkt.nrows; ++i) {
    const double si = g.schedule().row_scale[i];
    ASSERT_TRUE(std::isfinite(si) && si > 0.0) << i;  // the zero block's rows too
  }
  ASSERT_EQ(g.factor(kkt.view()).status, Status::ok);
  std::vector<double> b(static_cast<size_t>(kkt.nrows), 1.0), x(b.size());
  ASSERT_EQ(g.solve(b.data(), x.data()).status, Status::ok);
  EXPECT_LE(backward_error(kkt.view(), x.data(), b.data()), 1e-14);
}

TEST(LdltErrors, asymmetric_values_trusted_by_the_caller_are_still_solved_right) {
  // The caller vouches for symmetry and is wrong: the LDL^T factors (A + A^T) / 2, whose
  // solution misses A's backward-error tolerance, and the LU solves A itself.
  Csr a = gen::from_spec("lap2d5:10x10");
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] > i) a.values[p] *= 1.5;
  SparseLDLT f(cpu_options());
  f.analyze(a.view(), StoredTriangle::full, nullptr, /*check_symmetry=*/false);
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  const std::vector<double> b = rhs_for_known_solution(a, 17);
  std::vector<double> x(b.size());
  ASSERT_EQ(f.solve(b.data(), x.data()).status, Status::ok);
  EXPECT_TRUE(f.uses_lu());
  EXPECT_TRUE(f.solve_stats().recovered);
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-12);
}

TEST(LdltRefactor, new_values_refactor_without_a_new_analysis_and_aliasing_solves_work) {
  const Csr a = gen::from_spec("lap3d7:8x8x8");
  SparseLDLT f(cpu_options());
  f.analyze(a.view());
  for (int step = 0; step < 3; ++step) {
    Csr b = a;
    for (double& v : b.values) v *= 1.0 + 0.1 * step;
    ASSERT_EQ(f.factor(b.view()).status, Status::ok);
    std::vector<double> rhs = rhs_for_known_solution(b, 19 + step), x = rhs;
    ASSERT_EQ(f.solve(x.data(), x.data()).status, Status::ok);  // in place
    EXPECT_LE(backward_error(b.view(), x.data(), rhs.data()), 1e-12);
  }
  EXPECT_EQ(f.analysis_count(), 1);
  EXPECT_EQ(f.factor_stats().factorizations, 3);
}

TEST(LdltRefactor, many_right_hand_sides_at_once) {
  const Csr a = gen::from_spec("kkt:120:30:2");
  SparseLDLT f(cpu_options());
  f.analyze(a.view());
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  const int32_t n = a.nrows, nrhs = 3;
  std::vector<double> b(static_cast<size_t>(n) * nrhs), x(b.size());
  for (int32_t c = 0; c < nrhs; ++c) {
    const std::vector<double> bc = rhs_for_known_solution(a, 23 + c);
    std::copy(bc.begin(), bc.end(), b.begin() + static_cast<size_t>(c) * n);
  }
  ASSERT_EQ(f.solve(nrhs, b.data(), n, x.data(), n).status, Status::ok);
  for (int32_t c = 0; c < nrhs; ++c)
    EXPECT_LE(backward_error(a.view(), x.data() + static_cast<size_t>(c) * n, b.data() + static_cast<size_t>(c) * n),
              1e-12);
}

}  // namespace
}  // namespace gpuglu::test

namespace gpuglu::test {
namespace {

Options icc_options(int32_t levels) {
  Options o = cpu_options();
  o.ilu_levels = levels;
  o.ordering = Ordering::natural;
  return o;
}

TEST(Icc, icc0_reproduces_a_on_its_pattern) {
  // The defining property of IC(0): (L D L^T)(i, j) = A(i, j) wherever L has an entry.
  const Csr a = gen::from_spec("lap2d5:12x10");
  SparseLDLT f(icc_options(0));
  f.analyze(a.view());
  const Schedule& s = f.schedule();
  ASSERT_TRUE(s.incomplete);
  EXPECT_EQ(s.nnz_l, (a.nnz() - a.nrows) / 2);
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  const std::vector<double>& fv = f.factor_values();
  const int32_t n = s.n;
  // Dense L and D (small n) in C's numbering; natural ordering and no scaling: C = A.
  std::vector<double> l(static_cast<size_t>(n) * n, 0.0), d(static_cast<size_t>(n));
  for (int32_t j = 0; j < n; ++j) {
    d[j] = fv[s.f_diag[j]];
    l[static_cast<size_t>(j) * n + j] = 1.0;
    for (int64_t p = s.f_diag[j] + 1; p < s.f_colptr[j + 1]; ++p) l[static_cast<size_t>(s.f_rowind[p]) * n + j] = fv[p];
  }
  for (int32_t j = 0; j < n; ++j)
    for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p) {
      const int32_t i = s.f_rowind[p];
      double ldl = 0.0;
      for (int32_t k = 0; k <= j; ++k) ldl += l[static_cast<size_t>(i) * n + k] * d[k] * l[static_cast<size_t>(j) * n + k];
      double aij = 0.0;
      for (int32_t q = a.rowptr[i]; q < a.rowptr[i + 1]; ++q)
        if (a.colind[q] == j) aij = a.values[q];
      EXPECT_NEAR(ldl, aij, 1e-13) << "(" << i << ", " << j << ")";
    }
}

TEST(Icc, enough_levels_of_fill_give_the_complete_factor_bit_for_bit) {
  const Csr a = gen::from_spec("lap3d7:6x5x4");
  Options complete = cpu_options();
  complete.ordering = Ordering::natural;
  complete.scaling = false;
  SparseLDLT full(complete), icc(icc_options(a.nrows));
  full.analyze(a.view());
  icc.analyze(a.view());
  ASSERT_EQ(icc.schedule().f_rowind, full.schedule().f_rowind);
  ASSERT_EQ(full.factor(a.view()).status, Status::ok);
  ASSERT_EQ(icc.factor(a.view()).status, Status::ok);
  EXPECT_EQ(icc.factor_values(), full.factor_values());
}

// PETSc's pivot rule for an incomplete factor: tiny pivots reported, no threshold relative to
// the column (the PETSc adapter's ILU and ICC). On the CPU, ICC(k) is then the row ILU of the
// full matrix, whose L U is the incomplete L D L^T.
Options petsc_icc_options(int32_t levels) {
  Options o = icc_options(levels);
  o.pivot_policy = PivotPolicy::report;
  o.pivot_threshold = 0.0;
  return o;
}

std::vector<double> icc_solve(const Options& o, const Csr& a, const std::vector<double>& b,
                              StoredTriangle stored = StoredTriangle::full, FactorKind* kind = nullptr,
                              FactorStats* fs = nullptr) {
  SparseLDLT f(o);
  const Csr stored_a = stored == StoredTriangle::full ? a : triangle_of(a, stored);
  f.analyze(stored_a.view(), stored);
  if (kind) *kind = f.schedule().kind;
  const FactorStats& st = f.factor(stored_a.view());
  EXPECT_EQ(st.status, Status::ok);
  if (fs) *fs = st;
  std::vector<double> x(b.size());
  EXPECT_EQ(f.solve(b.data(), x.data()).status, Status::ok);
  return x;
}

TEST(Icc, under_petscs_pivot_rule_the_cpu_factors_it_by_rows_as_the_column_icc) {
  for (const char* spec : {"lap3d7:8x7x6", "lap2d5:20x17", "lap3d27:5x5x4"}) {
    const Csr a = gen::from_spec(spec);
    const std::vector<double> b = rhs_for_known_solution(a, 3);
    for (int32_t levels : {0, 1, 2}) {
      SCOPED_TRACE(std::string(spec) + " ICC(" + std::to_string(levels) + ")");
      FactorKind rows_kind{}, column_kind{};
      const std::vector<double> x_rows = icc_solve(petsc_icc_options(levels), a, b, StoredTriangle::full, &rows_kind);
      const std::vector<double> x_column = icc_solve(icc_options(levels), a, b, StoredTriangle::full, &column_kind);
      EXPECT_EQ(rows_kind, FactorKind::row_ilu);
      EXPECT_NE(column_kind, FactorKind::row_ilu);
      EXPECT_LE(rel_diff_inf(x_rows, x_column), 1e-12);
    }
  }
}

TEST(Icc, one_stored_triangle_factors_by_rows_as_both_bit_for_bit) {
  const Csr a = gen::from_spec("lap3d7:7x6x5");
  const std::vector<double> b = rhs_for_known_solution(a, 4);
  const std::vector<double> full = icc_solve(petsc_icc_options(1), a, b);
  EXPECT_EQ(icc_solve(petsc_icc_options(1), a, b, StoredTriangle::upper), full);
  EXPECT_EQ(icc_solve(petsc_icc_options(1), a, b, StoredTriangle::lower), full);
}

TEST(Icc, the_positive_definite_shift_by_rows_takes_the_column_icc_shifts) {
  // The shifted Laplacian of the test below: its first failing rows are the column ICC's (a
  // negative pivot fails either row sum's test), so PETSc's loop takes the same shifts.
  Csr a = gen::from_spec("lap2d5:10x10");
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] == i) a.values[p] -= 1.5;
  const std::vector<double> b = rhs_for_known_solution(a, 5);
  Options rows = petsc_icc_options(0), column = icc_options(0);
  rows.shift_type = column.shift_type = ShiftType::positive_definite;
  FactorStats by_rows, by_columns;
  const std::vector<double> x_rows = icc_solve(rows, a, b, StoredTriangle::full, nullptr, &by_rows);
  const std::vector<double> x_column = icc_solve(column, a, b, StoredTriangle::full, nullptr, &by_columns);
  EXPECT_GT(by_rows.shift_tries, 0);
  EXPECT_EQ(by_rows.shift_tries, by_columns.shift_tries);
  EXPECT_EQ(by_rows.shift_amount, by_columns.shift_amount);
  EXPECT_LE(rel_diff_inf(x_rows, x_column), 1e-10);
}

TEST(Icc, a_factor_by_rows_tells_no_inertia) {
  const Csr a = gen::from_spec("lap2d5:8x8");
  SparseLDLT f(petsc_icc_options(0));
  f.analyze(a.view());
  ASSERT_EQ(f.factor(a.view()).status, Status::ok);
  try {
    (void)f.inertia();
    FAIL() << "inertia() of an ICC factored by rows";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
    EXPECT_NE(std::string(e.what()).find("factored by rows"), std::string::npos) << e.what();
  }
}

TEST(Icc, the_positive_definite_shift_makes_an_indefinite_icc_usable) {
  // A shifted Laplacian is indefinite: ICC(0) meets a negative pivot, and PETSc's
  // positive-definite shift raises the diagonal until every pivot is positive.
  Csr a = gen::from_spec("lap2d5:10x10");
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] == i) a.values[p] -= 1.5;
  Options o = icc_options(0);
  o.shift_type = ShiftType::positive_definite;
  SparseLDLT f(o);
  f.analyze(a.view());
  const FactorStats& fs = f.factor(a.view());
  ASSERT_EQ(fs.status, Status::ok);
  EXPECT_GT(fs.shift_tries, 0);
  EXPECT_GT(fs.shift_amount, 0.0);
  for (int32_t j = 0; j < f.schedule().n; ++j) EXPECT_GT(f.factor_values()[f.schedule().f_diag[j]], 0.0);
  Options none = icc_options(0);
  none.shift_type = ShiftType::none;
  none.pivot_policy = PivotPolicy::report;
  SparseLDLT g(none);
  g.analyze(a.view());
  EXPECT_EQ(g.factor(a.view()).status, Status::ok);  // negative pivots are not tiny: no shift asked
}

}  // namespace
}  // namespace gpuglu::test
