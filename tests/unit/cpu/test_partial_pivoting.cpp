// analyze_with_partial_pivoting(): the Schedule carries KLU's permutations and row scaling
// (the CSR -> CSC -> Schedule mapping), so the static-pivot engine reproduces KLU's pivots
// exactly; singular input is an Error naming the problem.
#include <gtest/gtest.h>
#include <klu.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpuglu/analysis.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "cpu/level_gather.hpp"
#include "cpu/scatter.hpp"
#include "repivot_checks.hpp"

namespace gpuglu::test {
namespace {

// KLU's factorization of A, kept open to read its permutations, scaling and pivots.
struct KluFactors {
  CscMatrix<int32_t, double> csc;
  klu_common common;
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  explicit KluFactors(const CsrMatrix<int32_t, double>& a) : csc(csr_to_csc(a.view())) {
    klu_defaults(&common);
    symbolic = klu_analyze(csc.ncols, csc.colptr.data(), csc.rowind.data(), &common);
    if (symbolic) numeric = klu_factor(csc.colptr.data(), csc.rowind.data(), csc.values.data(), symbolic, &common);
  }
  ~KluFactors() {
    if (numeric) klu_free_numeric(&numeric, &common);
    if (symbolic) klu_free_symbolic(&symbolic, &common);
  }
};

template <class F>
Error error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  return Error(Status::ok, "no error");
}

TEST(PartialPivoting, schedule_reproduces_klus_pivots) {
  // A zero-diagonal, a random and a weakly dominant matrix (KLU: 16, 4 and 3 BTF blocks;
  // the random one with off-diagonal pivots and a pivot growth of 1e5).
  for (const CsrMatrix<int32_t, double>& a :
       {swapped_pairs_matrix(200, 5), random_matrix(150, 5, 31, 0.0), random_matrix(300, 4, 9, 0.5)}) {
    KluFactors klu(a);
    ASSERT_NE(klu.numeric, nullptr) << "KLU status " << klu.common.status;
    ASSERT_TRUE(klu_rgrowth(klu.csc.colptr.data(), klu.csc.rowind.data(), klu.csc.values.data(), klu.symbolic,
                            klu.numeric, &klu.common));
    const Schedule s = analyze_with_partial_pivoting(a.view(), Options());
    const int32_t n = a.nrows;
    ASSERT_EQ(s.n, n);
    EXPECT_TRUE(s.repivoted);
    EXPECT_FALSE(s.matched);
    EXPECT_EQ(s.ordering, Ordering::amd);
    EXPECT_EQ(s.row_perm, std::vector<int32_t>(klu.numeric->Pnum, klu.numeric->Pnum + n));
    EXPECT_EQ(s.col_perm, std::vector<int32_t>(klu.symbolic->Q, klu.symbolic->Q + n));
    for (int32_t i = 0; i < n; ++i) {
      // After klu_factor, Rs is in pivot order: Rs[k] scales row Pnum[k].
      EXPECT_EQ(s.row_scale[klu.numeric->Pnum[i]], 1.0 / klu.numeric->Rs[i]) << "pivot " << i;
      EXPECT_EQ(s.col_scale[i], 1.0);
      EXPECT_EQ(s.row_perm_inv[s.row_perm[i]], i);
      EXPECT_EQ(s.col_perm_inv[s.col_perm[i]], i);
    }
    // C = P (R \ A) Q is KLU's matrix: its static LU has KLU's pivots, U(k, k) = Udiag[k].
    std::vector<double> f(s.f_rowind.size());
    ASSERT_LT(reference::scatter_values(s, a.values.data(), f.data()).bad_entry, 0);
    PivotRule rule;
    const NumericStats ns = reference::factor_levels_gather(s, f.data(), rule, 1);
    ASSERT_EQ(ns.status, Status::ok);
    const double* udiag = static_cast<const double*>(klu.numeric->Udiag);
    double worst = 0.0;
    for (int32_t k = 0; k < n; ++k) worst = std::max(worst, std::fabs(f[s.f_diag[k]] - udiag[k]) / std::fabs(udiag[k]));
    // Same pivots, other summation order (KLU's left-looking kernel): the rounding differs,
    // by up to the pivot growth (KLU's rgrowth is its reciprocal) times a few eps.
    EXPECT_LE(worst, 1e-13 / std::min(1.0, klu.common.rgrowth));
    // The int64 overload builds the same schedule.
    const Schedule s64 = analyze_with_partial_pivoting(convert_indices<int64_t>(a.view()).view(), Options());
    EXPECT_EQ(s64.row_perm, s.row_perm);
    EXPECT_EQ(s64.col_perm, s.col_perm);
    EXPECT_EQ(s64.f_rowind, s.f_rowind);
    EXPECT_EQ(s64.value_map, s.value_map);
  }
}

TEST(PartialPivoting, numerically_singular_names_the_column) {
  const CsrMatrix<int32_t, double> a = identical_rows_matrix(100, 23);
  const Error e = error_of([&] { analyze_with_partial_pivoting(a.view(), Options()); });
  EXPECT_EQ(e.status(), Status::numerically_singular) << e.what();
  EXPECT_NE(std::string(e.what()).find("no nonzero pivot for column "), std::string::npos) << e.what();
}

TEST(PartialPivoting, structurally_singular_names_the_rank) {
  // Rows 1 and 2 only touch column 0.
  const auto a =
      csr_from_triplets<int32_t, double>(3, 3, {{0, 0, 1.0}, {0, 1, 2.0}, {0, 2, 3.0}, {1, 0, 4.0}, {2, 0, 5.0}});
  const Error e = error_of([&] { analyze_with_partial_pivoting(a.view(), Options()); });
  EXPECT_EQ(e.status(), Status::structurally_singular) << e.what();
  EXPECT_NE(std::string(e.what()).find("structural rank 2"), std::string::npos) << e.what();
}

TEST(PartialPivoting, bad_input_is_rejected_like_analyze) {
  auto a = swapped_pairs_matrix(20, 1);
  a.values[3] = std::nan("");
  EXPECT_EQ(error_of([&] { analyze_with_partial_pivoting(a.view(), Options()); }).status(), Status::nan_or_inf);
  CsrView<int32_t, double> no_values = a.view();
  no_values.values = nullptr;
  EXPECT_EQ(error_of([&] { analyze_with_partial_pivoting(no_values, Options()); }).status(), Status::invalid_input);
  const CsrMatrix<int32_t, double> empty;
  EXPECT_EQ(analyze_with_partial_pivoting(empty.view(), Options()).n, 0);
}

}  // namespace
}  // namespace gpuglu::test
