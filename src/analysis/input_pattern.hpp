#pragma once
// The analysis works on one internal copy of the input's pattern, whatever the
// caller's index type: 32-bit row pointers and column indices. The SuiteSparse and
// METIS routines the analysis calls take int arrays, so an input whose nnz does
// not fit in int is rejected up front (Status::index_overflow) instead of being
// truncated somewhere inside them. The factor itself is indexed with 64 bits.
#include <cstdint>
#include <vector>

#include "gpuglu/matrix.hpp"

namespace gpuglu::analysis {

struct InputPattern {
  int32_t n = 0;
  std::vector<int32_t> rowptr{0};  // CSR of A, sorted unique columns
  std::vector<int32_t> colind;
  const double* values = nullptr;  // the caller's values, CSR order (may be null)
  int32_t nnz() const { return rowptr.back(); }
};

// A's transpose storage: column j holds rows rowind[colptr[j] .. colptr[j+1]),
// ascending, and src[] gives each entry's position in the CSR order of A.
struct ColumnPattern {
  std::vector<int32_t> colptr;
  std::vector<int32_t> rowind;
  std::vector<int32_t> src;
};

// Validates A for the analysis (square, well-formed, sorted unique columns, no empty
// row or column, finite values, sizes within int) and copies its pattern.
// needs_values: the matching reads the values, so null values are an error then.
// Throws Error naming the first defect.
template <class I>
InputPattern check_input(const CsrView<I, double>& a, bool needs_values);

ColumnPattern columns_of(const InputPattern& a);

}  // namespace gpuglu::analysis
