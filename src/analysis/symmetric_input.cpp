#include "analysis/symmetric_input.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

std::string entry_name(int64_t r, int64_t c) { return "(" + std::to_string(r) + ", " + std::to_string(c) + ")"; }

}  // namespace

int input_team(int32_t threads, int64_t nnz) { return nnz < (int64_t{1} << 16) ? 1 : threads_of(threads); }

template <class I>
SymmetricInput check_symmetric_input(const CsrView<I, double>& a, StoredTriangle stored, bool check_symmetry,
                                     int32_t threads) {
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
  const int team = input_team(threads, nnz);

  out.entry_row.resize(static_cast<size_t>(nnz));
  out.entry_col.resize(static_cast<size_t>(nnz));
  auto outside = [stored](int32_t i, int32_t c) {
    return (stored == StoredTriangle::lower && c > i) || (stored == StoredTriangle::upper && c < i);
  };
  // Rows in parallel; the first row with a defect is named as a serial pass would.
  int32_t first_bad = out.n;
#pragma omp parallel for num_threads(team) schedule(static) reduction(min : first_bad)
  for (int32_t i = 0; i < out.n; ++i) {
    for (I p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const int32_t c = static_cast<int32_t>(a.colind[p]);
      if (outside(i, c) || !std::isfinite(a.values[p])) first_bad = std::min(first_bad, i);
      out.entry_row[static_cast<size_t>(p)] = i;
      out.entry_col[static_cast<size_t>(p)] = c;
    }
  }
  if (first_bad < out.n) {
    const int32_t i = first_bad;
    for (I p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const int32_t c = static_cast<int32_t>(a.colind[p]);
      if (outside(i, c))
        throw Error(Status::invalid_input, "entry " + entry_name(i, c) + " lies outside the stored " +
                                               (stored == StoredTriangle::lower ? "lower" : "upper") + " triangle");
      if (!std::isfinite(a.values[p]))
        throw Error(Status::nan_or_inf, "entry " + entry_name(i, c) + " is " + std::to_string(a.values[p]));
    }
  }
  std::vector<int32_t> full_rowptr(static_cast<size_t>(out.n) + 1, 0);
  if (stored != StoredTriangle::full) {
    for (int64_t p = 0; p < nnz; ++p) {
      ++full_rowptr[static_cast<size_t>(out.entry_row[p]) + 1];
      if (out.entry_row[p] != out.entry_col[p]) ++full_rowptr[static_cast<size_t>(out.entry_col[p]) + 1];
    }
  }
  out.values = a.values;
  if (stored == StoredTriangle::full) {
    // A is symmetric when every entry meets its mirror image (a search of the mirror's row,
    // rows being sorted) with the same value; rows in parallel, and the first failing row
    // (the smaller of a pair whose mirror is missing) is named as a serial pass would.
    std::vector<int32_t> rowptr32(static_cast<size_t>(out.n) + 1);
    for (int32_t i = 0; i <= out.n; ++i) rowptr32[i] = static_cast<int32_t>(a.rowptr[i]);
    const int32_t* cols = out.entry_col.data();
    auto mirror = [&](int32_t r, int32_t c) {  // position of (c, r), or -1
      const int32_t* begin = cols + rowptr32[c];
      const int32_t* end = cols + rowptr32[c + 1];
      const int32_t* it = std::lower_bound(begin, end, r);
      return it == end || *it != r ? -1 : static_cast<int32_t>(it - cols);
    };
    int32_t bad_pattern = out.n, bad_value = out.n;
#pragma omp parallel for num_threads(team) schedule(dynamic, 512) reduction(min : bad_pattern, bad_value)
    for (int32_t i = 0; i < out.n; ++i) {
      for (int32_t p = rowptr32[i]; p < rowptr32[i + 1]; ++p) {
        const int32_t c = cols[p];
        if (c == i) continue;
        const int32_t q = mirror(i, c);
        if (q < 0)
          bad_pattern = std::min(bad_pattern, std::min(i, c));
        else if (check_symmetry && a.values[p] != a.values[q])
          bad_value = std::min(bad_value, i);
      }
    }
    if (bad_pattern < out.n && bad_pattern <= bad_value)
      throw Error(Status::invalid_input, "the matrix is not symmetric: the pattern of row " + std::to_string(bad_pattern) +
                                             " differs from that of column " + std::to_string(bad_pattern) +
                                             " (a symmetric factorization needs A = A^T; use LU)");
    if (bad_value < out.n) {
      const int32_t i = bad_value;
      for (int32_t p = rowptr32[i]; p < rowptr32[i + 1]; ++p) {
        const int32_t c = cols[p], q = c == i ? -1 : mirror(i, c);
        if (q >= 0 && a.values[p] != a.values[q])
          throw Error(Status::invalid_input, "the matrix is not symmetric: A" + entry_name(i, c) + " = " +
                                                 std::to_string(a.values[p]) + " but A" + entry_name(c, i) + " = " +
                                                 std::to_string(a.values[q]) +
                                                 " (a symmetric factorization needs A = A^T; use LU)");
      }
    }
    out.colptr = std::move(rowptr32);
    out.rowind = out.entry_col;
    out.source.resize(static_cast<size_t>(nnz));
#pragma omp parallel for num_threads(team) schedule(static)
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

template SymmetricInput check_symmetric_input(const CsrView<int32_t, double>&, StoredTriangle, bool, int32_t);
template SymmetricInput check_symmetric_input(const CsrView<int64_t, double>&, StoredTriangle, bool, int32_t);

}  // namespace gpuglu::analysis
