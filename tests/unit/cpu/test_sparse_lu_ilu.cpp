// SparseLU with Options::ilu_levels: the incomplete factorization ILU(k) on the reference
// backend (the column engine's two executors and the row ILU) against the textbook IKJ loop;
// it drops exactly the fill outside the levels-of-fill pattern, does not refine, and never
// re-pivots.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "ilu_checks.hpp"

namespace gpuglu::test {
namespace {

Options ilu_options(int32_t k, CpuIlu engine = CpuIlu::gather) {
  Options o;
  o.ordering = Ordering::natural;
  o.ilu_levels = k;
  o.num_threads = 2;
  use_cpu_ilu(o, engine);
  return o;
}

TEST(SparseLUIlu, factors_match_the_ikj_loop) {
  for (const char* spec : {"lap2d5:12x10", "convdiff3d:5x4x4", "lap3d7:5x5x4", "randdd:150:5:3"}) {
    const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
    for (int32_t k : {0, 1, 2}) {
      DenseIlu d = dense_ilu(a, k);
      for (CpuIlu engine : kCpuIlus) {
        SCOPED_TRACE(std::string(spec) + " ILU(" + std::to_string(k) + ")" + name_of(engine));
        SparseLU lu(ilu_options(k, engine));
        lu.analyze(a.view());
        ASSERT_TRUE(lu.schedule().incomplete);
        ASSERT_EQ(lu.schedule().kind, kind_of(engine));
        ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
        EXPECT_LT(ilu_difference(lu, d, k), 1e-13);
      }
    }
  }
}

TEST(SparseLUIlu, more_levels_approach_the_exact_solve_and_nothing_refines) {
  const CsrMatrix<int32_t, double> a = gen::from_spec("convdiff3d:8x8x8");
  std::vector<double> xtrue(static_cast<size_t>(a.nrows), 1.0), b(xtrue.size()), x(xtrue.size());
  spmv(a.view(), xtrue.data(), b.data());
  double previous = INFINITY;
  for (int32_t k : {0, 1, 3}) {
    SparseLU lu(ilu_options(k));
    lu.analyze(a.view());
    ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
    const SolveStats& st = lu.solve(b.data(), x.data());
    EXPECT_EQ(st.refine_steps, 0);
    const double r = relative_residual(a.view(), x.data(), b.data());
    EXPECT_LT(r, 1.0) << "ILU(" << k << ") is no preconditioner at all";
    EXPECT_LT(r, previous) << "ILU(" << k << ") is not closer to A than fewer levels";
    previous = r;
  }
  SparseLU full(ilu_options(1000));
  full.analyze(a.view());
  ASSERT_EQ(full.factor(a.view()).status, Status::ok);
  full.solve(b.data(), x.data());
  EXPECT_LT(relative_residual(a.view(), x.data(), b.data()), 1e-12) << "ILU(n) is the complete LU";
}

TEST(SparseLUIlu, a_zero_pivot_is_reported_not_re_pivoted) {
  // [0 1; 1 0] blocks on the diagonal: ILU(0) meets a zero pivot in the first column.
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t b = 0; b < 10; ++b) t.push_back({2 * b, 2 * b + 1, 1.0}), t.push_back({2 * b + 1, 2 * b, 1.0});
  const auto a = csr_from_triplets<int32_t, double>(20, 20, t);
  for (CpuIlu engine : kCpuIlus) {
    SCOPED_TRACE(name_of(engine));
    Options o = ilu_options(0, engine);
    o.pivot_policy = PivotPolicy::repivot;
    SparseLU lu(o);
    lu.analyze(a.view());
    const FactorStats& st = lu.factor(a.view());
    EXPECT_EQ(st.status, Status::numerically_singular);
    EXPECT_EQ(st.pivot_column, 0);
    EXPECT_EQ(lu.analysis_count(), 1);
  }
}

// NaN or Inf in A: reported as such by either engine, where the row ILU reads A's values in
// place (no scatter, ILU(0) in A's order) and where it scatters them (another order).
TEST(SparseLUIlu, nan_or_inf_in_a_is_reported) {
  CsrMatrix<int32_t, double> a = gen::from_spec("lap2d5:9x9");
  const double kept = a.values[40];
  for (CpuIlu engine : kCpuIlus)
    for (Ordering ord : {Ordering::natural, Ordering::amd}) {
      SCOPED_TRACE(std::string(name_of(engine)) + " " + std::string(to_string(ord)));
      Options o = ilu_options(0, engine);
      o.ordering = ord;
      SparseLU lu(o);
      lu.analyze(a.view());
      a.values[40] = std::numeric_limits<double>::quiet_NaN();
      EXPECT_EQ(lu.factor(a.view()).status, Status::nan_or_inf);
      a.values[40] = std::numeric_limits<double>::infinity();
      EXPECT_EQ(lu.factor(a.view()).status, Status::nan_or_inf);
      a.values[40] = kept;
      EXPECT_EQ(lu.factor(a.view()).status, Status::ok);
    }
}

// The row ILU in another order (AMD, a given permutation) and with a diagonal A lacks: the
// same factor as the column engine's (F's columns compared entry by entry), and the same
// solves, plain and transposed.
TEST(SparseLUIlu, row_ilu_matches_the_column_engine_in_any_order) {
  const CsrMatrix<int32_t, double> a = gen::from_spec("convdiff3d:6x5x4:3");
  // Row 17's diagonal removed from the pattern: the analysis stores it as an explicit zero,
  // which the updates from its neighbours fill.
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t r = 0; r < a.nrows; ++r)
    for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p)
      if (!(r == 17 && a.colind[p] == 17)) t.push_back({r, a.colind[p], a.values[p]});
  const auto holed = csr_from_triplets<int32_t, double>(a.nrows, a.ncols, t);
  std::vector<int32_t> reversed(static_cast<size_t>(a.nrows));
  for (int32_t k = 0; k < a.nrows; ++k) reversed[k] = a.nrows - 1 - k;
  std::vector<double> b(static_cast<size_t>(a.nrows)), x_rows(b.size()), x_cols(b.size());
  for (size_t i = 0; i < b.size(); ++i) b[i] = 1.0 + static_cast<double>(i % 7);
  for (const CsrMatrix<int32_t, double>* m : {&a, &holed})
    for (Ordering ord : {Ordering::natural, Ordering::amd, Ordering::given})
      for (int32_t k : {0, 2}) {
        SCOPED_TRACE(std::string(m == &a ? "A" : "A without a(17, 17)") + " " + std::string(to_string(ord)) + " ILU(" +
                     std::to_string(k) + ")");
        Options o_rows = ilu_options(k, CpuIlu::rows), o_cols = ilu_options(k, CpuIlu::gather);
        o_rows.ordering = o_cols.ordering = ord;
        SparseLU rows(o_rows), cols(o_cols);
        const int32_t* given = ord == Ordering::given ? reversed.data() : nullptr;
        rows.analyze(m->view(), given);
        cols.analyze(m->view(), given);
        ASSERT_EQ(rows.schedule().kind, FactorKind::row_ilu);
        EXPECT_EQ(rows.schedule().value_map.empty(), m == &a && ord == Ordering::natural && k == 0)
            << "the map is left out exactly where it is the identity";
        EXPECT_EQ(rows.schedule().nnz_factor(), cols.schedule().nnz_factor());
        // Without its diagonal, row 17 may come before every neighbour (AMD): a zero pivot
        // for both, at the same row.
        const FactorStats fs_rows = rows.factor(m->view()), fs_cols = cols.factor(m->view());
        ASSERT_EQ(fs_rows.status, fs_cols.status);
        ASSERT_EQ(fs_rows.pivot_column, fs_cols.pivot_column);
        if (fs_rows.status != Status::ok) {
          EXPECT_EQ(m, &holed);
          continue;
        }
        const std::vector<double>& fr = rows.factor_values();
        const std::vector<double>& fc = cols.factor_values();
        ASSERT_EQ(rows.schedule().f_rowind, cols.schedule().f_rowind);
        double worst = 0.0, top = 0.0;
        for (size_t p = 0; p < fc.size(); ++p)
          worst = std::max(worst, std::abs(fr[p] - fc[p])), top = std::max(top, std::abs(fc[p]));
        EXPECT_LT(worst, 1e-13 * top);
        for (bool transpose : {false, true}) {
          if (transpose) {
            rows.solve_transpose(b.data(), x_rows.data());
            cols.solve_transpose(b.data(), x_cols.data());
          } else {
            rows.solve(b.data(), x_rows.data());
            cols.solve(b.data(), x_cols.data());
          }
          double dx = 0.0, nx = 0.0;
          for (size_t i = 0; i < b.size(); ++i)
            dx = std::max(dx, std::abs(x_rows[i] - x_cols[i])), nx = std::max(nx, std::abs(x_cols[i]));
          EXPECT_LT(dx, 1e-12 * nx) << (transpose ? "transposed" : "plain");
        }
      }
}

// PETSc's ILU has no relative threshold: the analysis for the CPU builds the row ILU then,
// and only then (a threshold, perturbation or the right-looking executor keep the column one).
TEST(SparseLUIlu, the_row_ilu_is_built_only_under_a_rule_without_a_column) {
  const CsrMatrix<int32_t, double> a = gen::from_spec("lap2d5:8x8");
  auto kind_for = [&](Options o) {
    SparseLU lu(o);
    lu.analyze(a.view());
    return lu.schedule().kind;
  };
  Options o = ilu_options(0, CpuIlu::rows);
  EXPECT_EQ(kind_for(o), FactorKind::row_ilu);
  Options perturb = o;
  perturb.pivot_policy = PivotPolicy::perturb;
  EXPECT_EQ(kind_for(perturb), FactorKind::column_lu);
  Options threshold = o;
  threshold.pivot_threshold = 1e-10;
  EXPECT_EQ(kind_for(threshold), FactorKind::column_lu);
  Options right = o;
  right.cpu_right_looking = true;
  EXPECT_EQ(kind_for(right), FactorKind::column_lu);
  Options complete = o;
  complete.ilu_levels = -1;
  EXPECT_NE(kind_for(complete), FactorKind::row_ilu);
  // The automatic backend keeps a factor this small on the CPU whatever the machine (ILU(0):
  // decided before the analysis; ILU(k): analyzed for the CPU, its levels of fill too few to
  // move it), so it is analyzed for the row ILU too.
  for (int32_t k : {0, 2}) {
    Options automatic = o;
    automatic.backend = Backend::automatic;
    automatic.ilu_levels = k;
    SparseLU lu(automatic);
    lu.analyze(a.view());
    EXPECT_EQ(lu.schedule().kind, FactorKind::row_ilu) << "ILU(" << k << ")";
    EXPECT_EQ(lu.active_backend(), Backend::cpu);
    EXPECT_EQ(lu.analysis_count(), 1);
  }
}

}  // namespace
}  // namespace gpuglu::test
