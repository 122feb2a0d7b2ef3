#include "analysis/input_pattern.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/transpose_pattern.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

std::string entry_name(int64_t r, int64_t c) {
  return "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
}

}  // namespace

template <class I>
InputPattern check_input(const CsrView<I, double>& a, bool needs_values) {
  if (a.nrows != a.ncols)
    throw Error(Status::not_square, "the matrix is " + std::to_string(a.nrows) + " x " + std::to_string(a.ncols) +
                                        "; LU needs a square matrix");
  if (a.nrows < 0) throw Error(Status::invalid_input, "negative matrix size " + std::to_string(a.nrows));
  constexpr int64_t int_max = std::numeric_limits<int32_t>::max();
  if (static_cast<int64_t>(a.nrows) > int_max)
    throw Error(Status::index_overflow, "n = " + std::to_string(a.nrows) + " exceeds the 32-bit column index range");
  InputPattern out;
  out.n = static_cast<int32_t>(a.nrows);
  if (out.n == 0) return out;
  if (!a.rowptr || (a.rowptr[a.nrows] > 0 && !a.colind))
    throw Error(Status::invalid_input, "the matrix has null row pointer or column index arrays");
  validate(a, /*require_sorted=*/true);
  const int64_t nnz = static_cast<int64_t>(a.rowptr[a.nrows]);
  if (nnz > int_max)
    throw Error(Status::index_overflow, "nnz(A) = " + std::to_string(nnz) +
                                            " exceeds 2^31 - 1, the limit of the analysis (AMD, COLAMD, METIS take int arrays)");
  if (needs_values && nnz > 0 && !a.values)
    throw Error(Status::invalid_input, "the matching (MC64) needs the matrix values, but none were given");

  out.rowptr.resize(static_cast<size_t>(out.n) + 1);
  out.colind.resize(static_cast<size_t>(nnz));
  std::vector<char> col_seen(static_cast<size_t>(out.n), 0);
  for (int32_t i = 0; i < out.n; ++i) {
    out.rowptr[i] = static_cast<int32_t>(a.rowptr[i]);
    if (a.rowptr[i] == a.rowptr[i + 1])
      throw Error(Status::empty_row, "row " + std::to_string(i) + " has no stored entry: the matrix is singular");
    for (I p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const int32_t c = static_cast<int32_t>(a.colind[p]);
      out.colind[static_cast<size_t>(p)] = c;
      col_seen[static_cast<size_t>(c)] = 1;
      if (a.values && !std::isfinite(a.values[p]))
        throw Error(Status::nan_or_inf, "entry " + entry_name(i, c) + " is " + std::to_string(a.values[p]));
    }
  }
  out.rowptr[out.n] = static_cast<int32_t>(nnz);
  for (int32_t c = 0; c < out.n; ++c)
    if (!col_seen[c])
      throw Error(Status::empty_row, "column " + std::to_string(c) + " has no stored entry: the matrix is singular");
  out.values = a.values;
  return out;
}

template InputPattern check_input(const CsrView<int32_t, double>&, bool);
template InputPattern check_input(const CsrView<int64_t, double>&, bool);

ColumnPattern columns_of(const InputPattern& a) {
  TransposedPattern<int32_t> p = transpose_pattern(a.n, a.n, a.rowptr.data(), a.colind.data());
  ColumnPattern t;
  t.colptr = std::move(p.ptr);
  t.rowind = std::move(p.ind);
  t.src = std::move(p.src);
  return t;
}

}  // namespace gpuglu::analysis
