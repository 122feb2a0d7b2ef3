#include "analysis/symmetric_input.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/transpose_pattern.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

std::string entry_name(int64_t r, int64_t c) { return "(" + std::to_string(r) + ", " + std::to_string(c) + ")"; }

}  // namespace

template <class I>
SymmetricInput check_symmetric_input(const CsrView<I, double>& a, StoredTriangle stored, bool check_symmetry) {
  if (a.nrows != a.ncols)
    throw Error(Status::not_square, "the matrix is " + std::to_string(a.nrows) + " x " + std::to_string(a.ncols) +
                                        "; a symmetric factorization needs a square matrix");
  if (a.nrows < 0) throw Error(Status::invalid_input, "negative matrix size " + std::to_string(a.nrows));
  constexpr int64_t int_max = std::numeric_limits<int32_t>::max();
  if (static_cast<int64_t>(a.nrows) > int_max)
    throw Error(Status::index_overflow, "n = " + std::to_string(a.nrows) + " exceeds the 32-bit column index range");
  SymmetricInput out;
  out.n = static_cast<int32_t>(a.nrows);
  out.stored = stored;
  if (out.n == 0) return out;
  if (!a.rowptr || (a.rowptr[a.nrows] > 0 && !a.colind))
    throw Error(Status::invalid_input, "the matrix has null row pointer or column index arrays");
  validate(a, /*require_sorted=*/true);
  const int64_t nnz = static_cast<int64_t>(a.rowptr[a.nrows]);
  // The full pattern holds up to twice the stored entries of one triangle.
  if (2 * nnz > int_max)
    throw Error(Status::index_overflow, "nnz(A) = " + std::to_string(nnz) +
                                            " is too large for the analysis (AMD, METIS and CXSparse take int arrays)");
  if (nnz > 0 && !a.values) throw Error(Status::invalid_input, "the matrix has no values");

  out.entry_row.resize(static_cast<size_t>(nnz));
  out.entry_col.resize(static_cast<size_t>(nnz));
  std::vector<int32_t> full_rowptr(static_cast<size_t>(out.n) + 1, 0);
  for (int32_t i = 0; i < out.n; ++i) {
    for (I p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const int32_t c = static_cast<int32_t>(a.colind[p]);
      if ((stored == StoredTriangle::lower && c > i) || (stored == StoredTriangle::upper && c < i))
        throw Error(Status::invalid_input, "entry " + entry_name(i, c) + " lies outside the stored " +
                                               (stored == StoredTriangle::lower ? "lower" : "upper") + " triangle");
      if (!std::isfinite(a.values[p]))
        throw Error(Status::nan_or_inf, "entry " + entry_name(i, c) + " is " + std::to_string(a.values[p]));
      out.entry_row[static_cast<size_t>(p)] = i;
      out.entry_col[static_cast<size_t>(p)] = c;
      ++full_rowptr[static_cast<size_t>(i) + 1];
      if (stored != StoredTriangle::full && c != i) ++full_rowptr[static_cast<size_t>(c) + 1];
    }
  }
  out.values = a.values;
  if (stored == StoredTriangle::full) {
    // A^T's pattern, with each entry's position in A: A is symmetric when every entry
    // meets its mirror image with the same value.
    std::vector<int32_t> rowptr32(static_cast<size_t>(out.n) + 1);
    for (int32_t i = 0; i <= out.n; ++i) rowptr32[i] = static_cast<int32_t>(a.rowptr[i]);
    const TransposedPattern<int32_t> t = transpose_pattern(out.n, out.n, rowptr32.data(), out.entry_col.data());
    for (int32_t i = 0; i < out.n; ++i) {
      const int32_t len = rowptr32[i + 1] - rowptr32[i];
      if (t.ptr[i + 1] - t.ptr[i] != len || !std::equal(t.ind.begin() + t.ptr[i], t.ind.begin() + t.ptr[i + 1],
                                                        out.entry_col.begin() + rowptr32[i]))
        throw Error(Status::invalid_input, "the matrix is not symmetric: the pattern of row " + std::to_string(i) +
                                               " differs from that of column " + std::to_string(i) +
                                               " (a symmetric factorization needs A = A^T; use LU)");
      if (!check_symmetry) continue;
      for (int32_t q = t.ptr[i]; q < t.ptr[i + 1]; ++q) {
        const int32_t p = rowptr32[i] + (q - t.ptr[i]);  // A(i, c) and A(c, i) with c = t.ind[q]
        if (a.values[p] != a.values[t.src[q]])
          throw Error(Status::invalid_input, "the matrix is not symmetric: A" + entry_name(i, t.ind[q]) + " = " +
                                                 std::to_string(a.values[p]) + " but A" + entry_name(t.ind[q], i) +
                                                 " = " + std::to_string(a.values[t.src[q]]) +
                                                 " (a symmetric factorization needs A = A^T; use LU)");
      }
    }
    out.colptr = std::move(rowptr32);
    out.rowind = out.entry_col;
    out.source.resize(static_cast<size_t>(nnz));
    for (int64_t p = 0; p < nnz; ++p) out.source[p] = p;
  } else {
    // Mirror the stored triangle: row i gets its own entries and, for each stored (r, i)
    // with r != i, the mirror (i, r); then sort each row (both halves are sorted already).
    for (int32_t i = 0; i < out.n; ++i) full_rowptr[i + 1] += full_rowptr[i];
    std::vector<std::pair<int32_t, int64_t>> row(static_cast<size_t>(full_rowptr[out.n]));  // (column, source)
    std::vector<int32_t> next(full_rowptr.begin(), full_rowptr.end() - 1);
    for (int64_t p = 0; p < nnz; ++p) {
      const int32_t r = out.entry_row[p], c = out.entry_col[p];
      row[next[r]++] = {c, p};
      if (r != c) row[next[c]++] = {r, p};
    }
    out.rowind.resize(row.size());
    out.source.resize(row.size());
    for (int32_t i = 0; i < out.n; ++i) {
      std::sort(row.begin() + full_rowptr[i], row.begin() + full_rowptr[i + 1]);
      for (int32_t e = full_rowptr[i]; e < full_rowptr[i + 1]; ++e) {
        out.rowind[e] = row[e].first;
        out.source[e] = row[e].second;
      }
    }
    out.colptr = std::move(full_rowptr);
  }
  for (int32_t i = 0; i < out.n; ++i)
    if (out.colptr[i] == out.colptr[i + 1])
      throw Error(Status::empty_row, "row " + std::to_string(i) + " has no stored entry: the matrix is singular");
  return out;
}

template SymmetricInput check_symmetric_input(const CsrView<int32_t, double>&, StoredTriangle, bool);
template SymmetricInput check_symmetric_input(const CsrView<int64_t, double>&, StoredTriangle, bool);

}  // namespace gpuglu::analysis
