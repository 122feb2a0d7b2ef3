// matrix_ops.hpp: conversions, validation, SpMV and the error measures, on hand
// matrices whose answers are known exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {
namespace {

using T = Triplet<int32_t, double>;

// [1 0 2]
// [0 3 0]
// [4 5 6]
// [0 0 7]   (4 x 3, so row/column mix-ups show)
CsrMatrixD hand_matrix() {
  return csr_from_triplets<int32_t, double>(
      4, 3, {{2, 2, 6}, {0, 0, 1}, {0, 2, 2}, {1, 1, 3}, {2, 0, 4}, {2, 1, 5}, {3, 2, 7}});
}

template <class F>
Status status_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.status();
  }
  return Status::ok;
}

TEST(MatrixOps, csr_from_triplets_sorts_and_sums_duplicates) {
  const CsrMatrixD a = csr_from_triplets<int32_t, double>(2, 3, {{1, 2, 1}, {0, 1, 2}, {1, 0, 3}, {1, 2, 4}});
  EXPECT_EQ(a.rowptr, (std::vector<int32_t>{0, 1, 3}));
  EXPECT_EQ(a.colind, (std::vector<int32_t>{1, 0, 2}));
  EXPECT_EQ(a.values, (std::vector<double>{2, 3, 5}));
  EXPECT_EQ(status_of([] { csr_from_triplets<int32_t, double>(2, 2, {{2, 0, 1.0}}); }), Status::invalid_input);
}

TEST(MatrixOps, csr_to_csc_and_back_is_identity) {
  const CsrMatrixD a = hand_matrix();
  const CscMatrixD c = csr_to_csc(a.view());
  EXPECT_EQ(c.colptr, (std::vector<int32_t>{0, 2, 4, 7}));
  EXPECT_EQ(c.rowind, (std::vector<int32_t>{0, 2, 1, 2, 0, 2, 3}));
  EXPECT_EQ(c.values, (std::vector<double>{1, 4, 3, 5, 2, 6, 7}));
  const CsrMatrixD b = csc_to_csr(c.view());
  EXPECT_EQ(b.nrows, 4);
  EXPECT_EQ(b.ncols, 3);
  EXPECT_EQ(b.rowptr, a.rowptr);
  EXPECT_EQ(b.colind, a.colind);
  EXPECT_EQ(b.values, a.values);
}

TEST(MatrixOps, transpose_swaps_dimensions_and_entries) {
  const CsrMatrixD t = transpose(hand_matrix().view());
  EXPECT_EQ(t.nrows, 3);
  EXPECT_EQ(t.ncols, 4);
  EXPECT_EQ(t.rowptr, (std::vector<int32_t>{0, 2, 4, 7}));
  EXPECT_EQ(t.colind, (std::vector<int32_t>{0, 2, 1, 2, 0, 2, 3}));
  EXPECT_EQ(t.values, (std::vector<double>{1, 4, 3, 5, 2, 6, 7}));
  const CsrMatrixD tt = transpose(t.view());
  EXPECT_EQ(tt.values, hand_matrix().values);
}

TEST(MatrixOps, convert_indices_roundtrips_and_reports_overflow) {
  const CsrMatrixD a = hand_matrix();
  const CsrMatrix<int64_t, double> wide = convert_indices<int64_t>(a.view());
  const CsrMatrixD back = convert_indices<int32_t>(wide.view());
  EXPECT_EQ(back.colind, a.colind);
  EXPECT_EQ(back.values, a.values);

  // One row, but more columns than int32 can number.
  const std::vector<int64_t> rowptr{0, 1}, colind{5};
  const std::vector<double> values{1.0};
  const CsrView<int64_t, double> big{1, int64_t{3'000'000'000}, rowptr.data(), colind.data(), values.data()};
  EXPECT_EQ(status_of([&] { convert_indices<int32_t>(big); }), Status::index_overflow);
}

TEST(MatrixOps, validate_names_each_defect) {
  const CsrMatrixD a = hand_matrix();
  EXPECT_NO_THROW(validate(a.view(), true));

  std::vector<int32_t> rowptr{0, 2, 1, 3};  // decreasing
  std::vector<int32_t> colind{0, 1, 2};
  CsrViewD v{3, 3, rowptr.data(), colind.data(), nullptr};
  EXPECT_EQ(status_of([&] { validate(v, false); }), Status::invalid_input);

  rowptr = {0, 2, 2, 3};
  colind = {1, 0, 3};  // unsorted row 0, column 3 out of range in row 2
  EXPECT_EQ(status_of([&] { validate(v, true); }), Status::invalid_input);
  colind = {0, 1, 3};
  EXPECT_EQ(status_of([&] { validate(v, false); }), Status::invalid_input);
  colind = {1, 1, 2};  // duplicate
  EXPECT_NO_THROW(validate(v, false));
  EXPECT_EQ(status_of([&] { validate(v, true); }), Status::invalid_input);

  rowptr = {1, 2, 2, 3};
  EXPECT_EQ(status_of([&] { validate(v, false); }), Status::invalid_input);
  CsrViewD negative{-1, 3, rowptr.data(), colind.data(), nullptr};
  EXPECT_EQ(status_of([&] { validate(negative, false); }), Status::invalid_input);
}

TEST(MatrixOps, spmv_and_transpose_products) {
  const CsrMatrixD a = hand_matrix();
  const std::vector<double> x{1, 2, 3};
  std::vector<double> y(4);
  spmv(a.view(), x.data(), y.data());
  EXPECT_EQ(y, (std::vector<double>{7, 6, 32, 21}));
  const std::vector<double> z{1, 1, 1, 1};
  std::vector<double> w(3, -99.0);
  spmv_transpose(a.view(), z.data(), w.data());
  EXPECT_EQ(w, (std::vector<double>{5, 8, 15}));
}

TEST(MatrixOps, relative_residual_and_backward_error) {
  // A = [2 1; 0 4], x = (1, 1), b = (3, 4) exactly; perturb x to get known values.
  const CsrMatrixD a = csr_from_triplets<int32_t, double>(2, 2, {{0, 0, 2}, {0, 1, 1}, {1, 1, 4}});
  const std::vector<double> b{3, 4};
  std::vector<double> x{1, 1};
  EXPECT_EQ(relative_residual(a.view(), x.data(), b.data()), 0.0);
  EXPECT_EQ(backward_error(a.view(), x.data(), b.data()), 0.0);

  x = {1, 1.5};  // r = b - Ax = (-0.5, -2)
  EXPECT_NEAR(relative_residual(a.view(), x.data(), b.data()), std::sqrt(4.25 / 25.0), 1e-15);
  // Row 0: 0.5 / (2 + 1.5 + 3); row 1: 2 / (6 + 4).
  EXPECT_NEAR(backward_error(a.view(), x.data(), b.data()), 0.2, 1e-15);

  const std::vector<double> zero{0, 0};
  EXPECT_TRUE(std::isinf(relative_residual(a.view(), x.data(), zero.data())));
  x = {0, 0};
  EXPECT_EQ(relative_residual(a.view(), x.data(), zero.data()), 0.0);
}

TEST(MatrixOps, relative_residual_does_not_overflow_on_entries_near_the_double_range) {
  // The example above times 1e200: the squares of its entries overflow, the ratio must not.
  const CsrMatrixD a = csr_from_triplets<int32_t, double>(2, 2, {{0, 0, 2e200}, {0, 1, 1e200}, {1, 1, 4e200}});
  const std::vector<double> b{3e200, 4e200};
  const std::vector<double> x{1, 1.5};
  EXPECT_NEAR(relative_residual(a.view(), x.data(), b.data()), std::sqrt(4.25 / 25.0), 1e-15);
}

TEST(MatrixOps, relative_difference_inf_scales_by_largest_reference_entry) {
  EXPECT_DOUBLE_EQ(relative_difference_inf({1.0, 2.5, -4.0}, {1.0, 2.0, -4.0}), 0.5 / 4.0);
  EXPECT_DOUBLE_EQ(relative_difference_inf({0.5, -1.0}, {0.0, 0.0}), 1.0);  // y == 0: absolute
  EXPECT_EQ(relative_difference_inf({}, {}), 0.0);
  EXPECT_TRUE(std::isinf(relative_difference_inf({std::nan(""), 1.0}, {1.0, 1.0})));
  EXPECT_EQ(status_of([] { relative_difference_inf({1.0}, {1.0, 2.0}); }), Status::invalid_input);
}

}  // namespace
}  // namespace gpuglu
