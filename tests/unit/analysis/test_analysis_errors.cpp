// Bad input to the analysis: a clear error naming the problem, never a crash.
#include <gtest/gtest.h>

#include <limits>

#include "gpuglu/analysis.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {
namespace {

Status status_of(const CsrMatrix<int32_t, double>& a, const Options& o = Options()) {
  try {
    analyze(a.view(), o);
  } catch (const Error& e) {
    return e.status();
  }
  return Status::ok;
}

CsrMatrix<int32_t, double> from(int32_t n, const std::vector<Triplet<int32_t, double>>& t, int32_t ncols = -1) {
  return csr_from_triplets<int32_t, double>(n, ncols < 0 ? n : ncols, t);
}

TEST(AnalysisErrors, non_square) { EXPECT_EQ(status_of(from(2, {{0, 0, 1}, {1, 1, 1}, {1, 2, 1}}, 3)), Status::not_square); }

TEST(AnalysisErrors, structurally_singular_names_the_rank) {
  // Rows 0 and 1 both only touch column 0.
  const auto a = from(3, {{0, 0, 1}, {1, 0, 2}, {2, 1, 1}, {2, 2, 1}});
  for (bool matching : {true, false}) {
    Options o;
    o.matching = matching;
    try {
      analyze(a.view(), o);
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::structurally_singular);
      EXPECT_NE(std::string(e.what()).find("structural rank 2"), std::string::npos) << e.what();
    }
  }
}

TEST(AnalysisErrors, empty_row_and_empty_column) {
  EXPECT_EQ(status_of(from(3, {{0, 0, 1}, {0, 1, 1}, {2, 2, 1}})), Status::empty_row);
  EXPECT_EQ(status_of(from(3, {{0, 0, 1}, {1, 0, 1}, {2, 2, 1}})), Status::empty_row);
}

TEST(AnalysisErrors, nan_and_inf_values) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(status_of(from(2, {{0, 0, 1}, {1, 1, nan}})), Status::nan_or_inf);
  EXPECT_EQ(status_of(from(2, {{0, 0, inf}, {1, 1, 1}})), Status::nan_or_inf);
}

TEST(AnalysisErrors, malformed_arrays) {
  const std::vector<int32_t> rowptr{0, 2, 1};
  const std::vector<int32_t> colind{0, 1};
  const std::vector<double> values{1, 1};
  const CsrView<int32_t, double> v{2, 2, rowptr.data(), colind.data(), values.data()};
  EXPECT_THROW(analyze(v, Options()), Error);
  const std::vector<int32_t> rowptr2{0, 1, 2};
  const std::vector<int32_t> colind2{0, 5};
  const CsrView<int32_t, double> w{2, 2, rowptr2.data(), colind2.data(), values.data()};
  try {
    analyze(w, Options());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_input);
  }
}

TEST(AnalysisErrors, matching_needs_values) {
  const auto a = random_matrix(10, 2, 3);
  CsrView<int32_t, double> v = a.view();
  v.values = nullptr;
  EXPECT_THROW(analyze(v, Options()), Error);
  Options o;
  o.matching = false;
  EXPECT_NO_THROW(analyze(v, o));  // the pattern alone suffices without the matching
}

TEST(AnalysisErrors, empty_matrix_is_a_valid_empty_schedule) {
  const CsrMatrix<int32_t, double> a;
  const Schedule s = analyze(a.view(), Options());
  EXPECT_EQ(s.n, 0);
  EXPECT_EQ(s.num_levels(), 0);
  EXPECT_EQ(s.nnz_factor(), 0);
}

TEST(AnalysisErrors, zero_diagonal_without_matching_is_left_to_the_numeric_phase) {
  // [0 1; 1 0]: structurally nonsingular, but its diagonal is empty.
  const auto a = from(2, {{0, 1, 1}, {1, 0, 1}});
  Options o;
  o.matching = false;
  const Schedule s = analyze(a.view(), o);
  // Column 1's search reaches row 1 through L(1, 0): the fill gives U(1, 1) a place.
  EXPECT_EQ(s.nnz_u, 3);
  EXPECT_EQ(s.nnz_l, 1);
}

}  // namespace
}  // namespace gpuglu::test
