// Options::shift_type: PETSc's ILU shift loop (src/api/ilu_shift.hpp). The oracle is PETSc's
// algorithm written out on a dense copy: the row-oriented IKJ elimination on the ILU(k)
// pattern with the diagonal shifted, each row tested as it is finished, and the whole
// factorization restarted at the first failing row. gpuglu's column-oriented engines test
// the finished factor instead; the shifts, the number of tries and the factor must agree.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "api/ilu_shift.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "ilu_checks.hpp"

namespace gpuglu::test {
namespace {

constexpr double kZeroPivot = 2.220446049250313e-14;  // PETSc's default zeropivot and shift amount

struct OracleResult {
  DenseIlu factor;
  int32_t tries = 0;
  double amount = 0.0;
};

// PETSc's MatLUFactorNumeric_SeqAIJ shift loop with MatPivotCheck_nz / _pd, on a dense copy.
OracleResult petsc_shift_loop(const CsrMatrix<int32_t, double>& a, int32_t k, ShiftType type) {
  const int32_t n = a.nrows;
  const DenseIlu pattern = dense_ilu(a, k);  // for the levels only
  double top = kZeroPivot;
  for (int32_t i = 0; i < n; ++i) {
    double rs = 0.0, d = 0.0;
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      rs += std::fabs(a.values[p]);
      if (a.colind[p] == i) d = a.values[p];
    }
    top = std::max(top, rs - std::fabs(d) - d);
  }
  top *= 1.1;
  OracleResult out;
  double lo = 0.0, hi = 1.0, fraction = 0.0;
  bool newshift;
  do {
    newshift = false;
    DenseIlu d = pattern;
    std::fill(d.a.begin(), d.a.end(), 0.0);
    for (int32_t i = 0; i < n; ++i)
      for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) d.at(i, a.colind[p]) = a.values[p];
    for (int32_t i = 0; i < n && !newshift; ++i) {
      d.at(i, i) += out.amount;
      for (int32_t c = 0; c < i; ++c) {
        if (d.level(i, c) > k) continue;
        d.at(i, c) /= d.at(c, c);
        for (int32_t j = c + 1; j < n; ++j)
          if (d.level(c, j) <= k && d.level(i, j) <= k) d.at(i, j) -= d.at(i, c) * d.at(c, j);
      }
      double rs = 0.0;
      for (int32_t j = 0; j < n; ++j)
        if (j != i && d.level(i, j) <= k) rs += std::fabs(d.at(i, j));
      const double pv = d.at(i, i);
      const bool fails = type == ShiftType::positive_definite ? pv <= kZeroPivot * rs : std::fabs(pv) <= kZeroPivot * rs;
      if (!fails) continue;
      if (type == ShiftType::nonzero) {
        out.amount = out.tries == 0 ? kZeroPivot : 2 * out.amount;
      } else {
        if (out.tries == 5) {
          fraction = hi;
        } else {
          lo = fraction;
          fraction = (hi + lo) / 2;
        }
        out.amount = fraction * top;
      }
      ++out.tries;
      newshift = true;
    }
    if (type == ShiftType::positive_definite && !newshift && fraction > 0 && out.tries < 5) {
      hi = fraction;
      fraction = (hi + lo) / 2;
      out.amount = fraction * top;
      ++out.tries;
      newshift = true;
    }
    out.factor = d;
  } while (newshift);
  return out;
}

Options shifted_ilu(int32_t k, ShiftType type, CpuIlu engine) {
  Options o;
  o.ordering = Ordering::natural;
  o.ilu_levels = k;
  o.shift_type = type;
  o.shift_amount = kZeroPivot;
  o.zero_pivot = kZeroPivot;
  o.num_threads = 2;
  use_cpu_ilu(o, engine);
  return o;
}

// A matrix whose ILU meets zero pivots: a convection-diffusion operator with some diagonal
// entries stored as exact zeros (the rows of constraints in a saddle-point system) and,
// for positive_definite, negative ones.
CsrMatrix<int32_t, double> with_bad_diagonal(const char* spec, int32_t every, double value) {
  CsrMatrix<int32_t, double> a = gen::from_spec(spec);
  for (int32_t i = 0; i < a.nrows; i += every)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] == i) a.values[p] = value;
  return a;
}

TEST(IluShiftSearch, nonzero_starts_at_the_amount_and_doubles) {
  api::ShiftSearch s(ShiftType::nonzero, 1e-3, 0.0);
  EXPECT_EQ(s.amount(), 0.0);
  EXPECT_TRUE(s.next(true));
  EXPECT_EQ(s.amount(), 1e-3);
  EXPECT_TRUE(s.next(true));
  EXPECT_EQ(s.amount(), 2e-3);
  EXPECT_FALSE(s.next(false));
  EXPECT_EQ(s.tries(), 2);
}

TEST(IluShiftSearch, positive_definite_bisects_down_after_a_success) {
  api::ShiftSearch s(ShiftType::positive_definite, 0.0, 8.0);
  EXPECT_TRUE(s.next(true));  // fraction 1/2
  EXPECT_EQ(s.amount(), 4.0);
  EXPECT_TRUE(s.next(false));  // success: hi = 1/2, try 1/4
  EXPECT_EQ(s.amount(), 2.0);
  EXPECT_TRUE(s.next(true));  // lo = 1/4, try 3/8
  EXPECT_EQ(s.amount(), 3.0);
  EXPECT_TRUE(s.next(false));  // hi = 3/8, try 5/16
  EXPECT_EQ(s.amount(), 2.5);
  EXPECT_TRUE(s.next(true));  // lo = 5/16, try 11/32: the fifth try
  EXPECT_EQ(s.amount(), 2.75);
  EXPECT_FALSE(s.next(false));  // success after the fifth try: keep it
  EXPECT_EQ(s.tries(), 5);
}

TEST(IluShiftSearch, positive_definite_without_failures_never_shifts) {
  api::ShiftSearch s(ShiftType::positive_definite, 0.0, 8.0);
  EXPECT_FALSE(s.next(false));
  EXPECT_EQ(s.amount(), 0.0);
}

TEST(IluShiftSearch, manteuffel_bound_is_petscs_shift_top) {
  // sum |a_ij| - |a_ii| - a_ii: row [4 -1 -2] gives 7 - 4 - 4 = -1, row [-1 -3] gives 4 - 3 + 3 = 4.
  const std::vector<int64_t> rowptr{0, 3, 5};
  const std::vector<int32_t> colind{0, 1, 2, 0, 1};
  const std::vector<double> values{4, -1, -2, -1, -3};
  EXPECT_DOUBLE_EQ(api::manteuffel_bound(2, rowptr.data(), colind.data(), values.data(), 1e-14), 1.1 * 4.0);
}

TEST(SparseLUIluShift, nonzero_and_positive_definite_match_petscs_loop) {
  struct Case {
    const char* spec;
    int32_t every;
    double diag;
    ShiftType type;
  };
  const Case cases[] = {
      {"convdiff3d:6x5x4", 7, 0.0, ShiftType::nonzero},
      {"lap2d5:9x8", 5, 0.0, ShiftType::nonzero},
      {"convdiff3d:6x5x4", 7, -1.0, ShiftType::positive_definite},
      {"lap2d5:9x8", 4, 0.0, ShiftType::positive_definite},
  };
  for (const Case& c : cases) {
    const CsrMatrix<int32_t, double> a = with_bad_diagonal(c.spec, c.every, c.diag);
    for (int32_t k : {0, 1}) {
      const OracleResult oracle = petsc_shift_loop(a, k, c.type);
      ASSERT_GT(oracle.tries, 0) << "the case must need a shift";
      for (CpuIlu engine : kCpuIlus) {
        SCOPED_TRACE(std::string(c.spec) + " " + std::string(to_string(c.type)) + " ILU(" + std::to_string(k) + ")" +
                     name_of(engine));
        SparseLU lu(shifted_ilu(k, c.type, engine));
        lu.analyze(a.view());
        const FactorStats& st = lu.factor(a.view());
        ASSERT_EQ(st.status, Status::ok);
        EXPECT_EQ(st.shift_tries, oracle.tries);
        EXPECT_DOUBLE_EQ(st.shift_amount, oracle.amount);
        EXPECT_EQ(st.perturbed_pivots, 0);
        DenseIlu d = oracle.factor;
        EXPECT_LT(ilu_difference(lu, d, k), 1e-12);
      }
    }
  }
}

TEST(SparseLUIluShift, none_reports_the_zero_pivot_and_a_healthy_matrix_is_not_shifted) {
  const CsrMatrix<int32_t, double> bad = with_bad_diagonal("lap2d5:9x8", 5, 0.0);
  for (CpuIlu engine : kCpuIlus) {
    SparseLU none(shifted_ilu(0, ShiftType::none, engine));
    none.analyze(bad.view());
    EXPECT_EQ(none.factor(bad.view()).status, Status::numerically_singular) << name_of(engine);
  }

  const CsrMatrix<int32_t, double> good = gen::from_spec("convdiff3d:6x5x4");
  for (ShiftType t : {ShiftType::nonzero, ShiftType::positive_definite}) {
    SparseLU lu(shifted_ilu(0, t, CpuIlu::rows));
    lu.analyze(good.view());
    const FactorStats& st = lu.factor(good.view());
    ASSERT_EQ(st.status, Status::ok);
    EXPECT_EQ(st.shift_tries, 0);
    EXPECT_EQ(st.shift_amount, 0.0);
    DenseIlu d = dense_ilu(good, 0);
    EXPECT_LT(ilu_difference(lu, d, 0), 1e-13);
  }
}

}  // namespace
}  // namespace gpuglu::test
