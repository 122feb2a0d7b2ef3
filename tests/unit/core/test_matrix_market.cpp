// Matrix Market reader and writer: round trips of every supported header, and one
// malformed file per failure mode, each of which must name the offending line.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "gpuglu/matrix_market.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/status.hpp"
#include "test_matrices.hpp"

namespace gpuglu {
namespace {

CsrMatrixD read_text(const std::string& text) {
  std::istringstream in(text);
  return read_matrix_market(in, "t.mtx");
}

std::string write_text(const CsrMatrixD& a, MmSymmetry s) {
  std::ostringstream out;
  write_matrix_market(out, a.view(), s);
  return out.str();
}

void expect_same(const CsrMatrixD& a, const CsrMatrixD& b) {
  EXPECT_EQ(a.nrows, b.nrows);
  EXPECT_EQ(a.ncols, b.ncols);
  EXPECT_EQ(a.rowptr, b.rowptr);
  EXPECT_EQ(a.colind, b.colind);
  EXPECT_EQ(a.values, b.values);  // bitwise: 17 digits must round-trip
}

TEST(MatrixMarket, general_round_trip_keeps_every_bit) {
  const CsrMatrixD a = csr_from_triplets<int32_t, double>(
      3, 4, {{0, 0, 1.0 / 3.0}, {0, 3, -2.5e-300}, {1, 1, 6.02214076e23}, {2, 2, -0.1}, {2, 0, 7.0}});
  const std::string text = write_text(a, MmSymmetry::general);
  EXPECT_EQ(text.rfind("%%MatrixMarket matrix coordinate real general\n3 4 5\n", 0), 0u) << text;
  expect_same(read_text(text), a);
}

TEST(MatrixMarket, symmetric_writes_lower_triangle_and_reads_back_full) {
  const CsrMatrixD a = gen::from_spec("lap2d9:5x4");
  const std::string text = write_text(a, MmSymmetry::symmetric);
  EXPECT_NE(text.find("real symmetric"), std::string::npos);
  std::istringstream in(text);
  std::string banner;
  int m = 0, n = 0, nnz = 0;
  std::getline(in, banner);
  in >> m >> n >> nnz;
  EXPECT_EQ(nnz, (a.nnz() + a.nrows) / 2);
  expect_same(read_text(text), a);
}

TEST(MatrixMarket, skew_symmetric_round_trip_negates_mirror) {
  const CsrMatrixD a = csr_from_triplets<int32_t, double>(3, 3, {{1, 0, 2}, {0, 1, -2}, {2, 1, 0.5}, {1, 2, -0.5}});
  const std::string text = write_text(a, MmSymmetry::skew_symmetric);
  EXPECT_NE(text.find("skew-symmetric\n3 3 2\n"), std::string::npos) << text;
  expect_same(read_text(text), a);
}

TEST(MatrixMarket, writer_rejects_claimed_symmetry_that_is_absent) {
  const CsrMatrixD a = gen::from_spec("convdiff3d:3x3x3:2");
  try {
    write_text(a, MmSymmetry::symmetric);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_input);
  }
  EXPECT_THROW(write_text(gen::from_spec("lap2d5:3x3"), MmSymmetry::skew_symmetric), Error);
}

TEST(MatrixMarket, pattern_and_integer_fields) {
  const CsrMatrixD p = read_text(
      "%%MatrixMarket matrix coordinate pattern symmetric\n% a comment\n\n3 3 3\n1 1\n3 1\n3 3\n");
  EXPECT_EQ(p.rowptr, (std::vector<int32_t>{0, 2, 2, 4}));
  EXPECT_EQ(p.colind, (std::vector<int32_t>{0, 2, 0, 2}));
  EXPECT_EQ(p.values, (std::vector<double>(4, 1.0)));

  const CsrMatrixD i = read_text("%%MATRIXMARKET Matrix Coordinate Integer General\r\n2 2 3\r\n1 2 -7\r\n2 1 +4\r\n1 2 10\r\n");
  EXPECT_EQ(i.colind, (std::vector<int32_t>{1, 0}));
  EXPECT_EQ(i.values, (std::vector<double>{3, 4}));  // duplicates summed
}

TEST(MatrixMarket, nan_and_inf_are_read_literally) {
  const CsrMatrixD a = read_text("%%MatrixMarket matrix coordinate real general\n1 2 2\n1 1 nan\n1 2 -inf\n");
  ASSERT_EQ(a.values.size(), 2u);
  EXPECT_TRUE(std::isnan(a.values[0]));
  EXPECT_TRUE(std::isinf(a.values[1]));
}

struct Malformed {
  const char* name;
  const char* text;
  Status status;
  int line;
};

const char* const kBanner = "%%MatrixMarket matrix coordinate real general\n";

class MatrixMarketMalformed : public ::testing::TestWithParam<Malformed> {};

TEST_P(MatrixMarketMalformed, throws_with_file_and_line) {
  const Malformed& c = GetParam();
  try {
    read_text(c.text);
    FAIL() << "no error for " << c.name;
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), c.status) << e.what();
    const std::string where = "t.mtx:" + std::to_string(c.line) + ":";
    EXPECT_EQ(std::string(e.what()).rfind(where, 0), 0u) << e.what();
  }
}

std::string with_banner(const char* body) { return kBanner + std::string(body); }

const std::string kIndexZero = with_banner("2 2 1\n0 1 1.0\n");
const std::string kIndexTooLarge = with_banner("2 2 2\n1 1 1.0\n% c\n3 1 1.0\n");
const std::string kTooFew = with_banner("2 2 3\n1 1 1\n2 2 1\n");
const std::string kTooMany = with_banner("2 2 1\n1 1 1\n2 2 1\n");
const std::string kGarbage = with_banner("2 2 1\n1 1 1.0x\n");
const std::string kGarbageIndex = with_banner("2 2 1\n1 one 1.0\n");
const std::string kMissingValue = with_banner("2 2 1\n1 1\n");
const std::string kMissingSize = with_banner("% only comments\n\n");
const std::string kBadSize = with_banner("2 2\n");
const std::string kHugeClaim = with_banner("2000000000 2000000000 2000000000\n1 1 1\n");
const std::string kAbsurdDims = with_banner("99999999999 2 1\n");
const std::string kUpperInSymmetric = "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n";
const std::string kSkewDiagonal = "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 3\n";
const std::string kSymmetricRect = "%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n";

INSTANTIATE_TEST_SUITE_P(
    Cases, MatrixMarketMalformed,
    ::testing::Values(
        Malformed{"empty", "", Status::io_error, 1},
        Malformed{"bad_banner", "%MatrixMarket matrix coordinate real general\n1 1 0\n", Status::io_error, 1},
        Malformed{"short_banner", "%%MatrixMarket matrix coordinate real\n1 1 0\n", Status::io_error, 1},
        Malformed{"array", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", Status::unsupported, 1},
        Malformed{"complex", "%%MatrixMarket matrix coordinate complex general\n", Status::unsupported, 1},
        Malformed{"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n", Status::unsupported, 1},
        Malformed{"unknown_field", "%%MatrixMarket matrix coordinate quaternion general\n", Status::io_error, 1},
        Malformed{"missing_size_line", kMissingSize.c_str(), Status::io_error, 4},
        Malformed{"bad_size_line", kBadSize.c_str(), Status::io_error, 2},
        Malformed{"index_zero", kIndexZero.c_str(), Status::io_error, 3},
        Malformed{"index_too_large", kIndexTooLarge.c_str(), Status::io_error, 5},
        Malformed{"too_few_entries", kTooFew.c_str(), Status::io_error, 5},
        Malformed{"too_many_entries", kTooMany.c_str(), Status::io_error, 4},
        Malformed{"garbage_value", kGarbage.c_str(), Status::io_error, 3},
        Malformed{"garbage_index", kGarbageIndex.c_str(), Status::io_error, 3},
        Malformed{"missing_value", kMissingValue.c_str(), Status::io_error, 3},
        Malformed{"huge_claim_is_not_allocated", kHugeClaim.c_str(), Status::io_error, 4},
        Malformed{"dims_overflow", kAbsurdDims.c_str(), Status::index_overflow, 2},
        Malformed{"upper_triangle_in_symmetric", kUpperInSymmetric.c_str(), Status::io_error, 3},
        Malformed{"skew_diagonal", kSkewDiagonal.c_str(), Status::io_error, 3},
        Malformed{"symmetric_not_square", kSymmetricRect.c_str(), Status::io_error, 2}),
    [](const ::testing::TestParamInfo<Malformed>& info) { return std::string(info.param.name); });

TEST(MatrixMarket, missing_file_is_an_io_error) {
  try {
    read_matrix_market("/nonexistent/dir/x.mtx");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::io_error);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/x.mtx"), std::string::npos);
  }
}

TEST(MatrixMarket, shared_matrices_read_and_round_trip) {
  const std::vector<std::string> files = test::shared_matrix_files();
  if (files.empty()) GTEST_SKIP() << "no matrices in " << GPUGLU_MATRIX_DIR;
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    const CsrMatrixD a = read_matrix_market(f);
    EXPECT_NO_THROW(validate(a.view(), true));
    EXPECT_GT(a.nnz(), 0);
    expect_same(read_text(write_text(a, MmSymmetry::general)), a);
  }
}

}  // namespace
}  // namespace gpuglu
