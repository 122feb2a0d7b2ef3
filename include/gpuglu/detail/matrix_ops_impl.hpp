#pragma once
// Implementations of the templates declared in gpuglu/matrix_ops.hpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>

#include "gpuglu/status.hpp"

namespace gpuglu {

template <class I, class V>
CsrMatrix<I, V> csr_from_triplets(I nrows, I ncols, const std::vector<Triplet<I, V>>& entries) {
  if (nrows < 0 || ncols < 0) throw Error(Status::invalid_input, "csr_from_triplets: negative size");
  CsrMatrix<I, V> a;
  a.nrows = nrows;
  a.ncols = ncols;
  a.rowptr.assign(static_cast<size_t>(nrows) + 1, I(0));
  for (const auto& t : entries) {
    if (t.row < 0 || t.row >= nrows || t.col < 0 || t.col >= ncols)
      throw Error(Status::invalid_input, "csr_from_triplets: entry (" + std::to_string(t.row) + ", " +
                                             std::to_string(t.col) + ") outside the matrix");
    ++a.rowptr[static_cast<size_t>(t.row) + 1];
  }
  for (I i = 0; i < nrows; ++i) a.rowptr[i + 1] += a.rowptr[i];
  std::vector<I> next(a.rowptr.begin(), a.rowptr.end() - 1);
  std::vector<I> col(entries.size());
  std::vector<V> val(entries.size());
  for (const auto& t : entries) {
    I p = next[t.row]++;
    col[p] = t.col;
    val[p] = t.value;
  }
  // Sort each row by column and sum duplicates.
  std::vector<I> order;
  I out = 0;
  std::vector<I> newptr(a.rowptr.size(), I(0));
  a.colind.reserve(entries.size());
  a.values.reserve(entries.size());
  for (I i = 0; i < nrows; ++i) {
    order.resize(static_cast<size_t>(a.rowptr[i + 1] - a.rowptr[i]));
    std::iota(order.begin(), order.end(), a.rowptr[i]);
    std::sort(order.begin(), order.end(), [&](I x, I y) { return col[x] < col[y]; });
    I last = -1;
    for (I p : order) {
      if (col[p] == last) {
        a.values.back() += val[p];
      } else {
        a.colind.push_back(col[p]);
        a.values.push_back(val[p]);
        last = col[p];
        ++out;
      }
    }
    newptr[i + 1] = out;
  }
  a.rowptr = std::move(newptr);
  return a;
}

template <class I, class V>
CscMatrix<I, V> csr_to_csc(const CsrView<I, V>& a) {
  CscMatrix<I, V> c;
  c.nrows = a.nrows;
  c.ncols = a.ncols;
  const I nnz = a.nrows > 0 ? a.rowptr[a.nrows] : I(0);
  c.colptr.assign(static_cast<size_t>(a.ncols) + 1, I(0));
  c.rowind.resize(static_cast<size_t>(nnz));
  if (a.values) c.values.resize(static_cast<size_t>(nnz));
  for (I p = 0; p < nnz; ++p) ++c.colptr[static_cast<size_t>(a.colind[p]) + 1];
  for (I j = 0; j < a.ncols; ++j) c.colptr[j + 1] += c.colptr[j];
  std::vector<I> next(c.colptr.begin(), c.colptr.end() - 1);
  for (I i = 0; i < a.nrows; ++i) {
    for (I p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      I q = next[a.colind[p]]++;
      c.rowind[q] = i;
      if (a.values) c.values[q] = a.values[p];
    }
  }
  return c;
}

template <class I, class V>
CsrMatrix<I, V> csc_to_csr(const CscView<I, V>& a) {
  // The CSC of A is the CSR of A^T; transposing it gives the CSR of A.
  CsrView<I, V> at{a.ncols, a.nrows, a.colptr, a.rowind, a.values};
  CscMatrix<I, V> t = csr_to_csc(at);
  CsrMatrix<I, V> r;
  r.nrows = a.nrows;
  r.ncols = a.ncols;
  r.rowptr = std::move(t.colptr);
  r.colind = std::move(t.rowind);
  r.values = std::move(t.values);
  return r;
}

template <class I, class V>
CsrMatrix<I, V> transpose(const CsrView<I, V>& a) {
  CscMatrix<I, V> c = csr_to_csc(a);
  CsrMatrix<I, V> t;
  t.nrows = a.ncols;
  t.ncols = a.nrows;
  t.rowptr = std::move(c.colptr);
  t.colind = std::move(c.rowind);
  t.values = std::move(c.values);
  return t;
}

template <class J, class I, class V>
CsrMatrix<J, V> convert_indices(const CsrView<I, V>& a) {
  auto fits = [](auto x) {
    return static_cast<long double>(x) <= static_cast<long double>(std::numeric_limits<J>::max());
  };
  const I nnz = a.nrows > 0 ? a.rowptr[a.nrows] : I(0);
  if (!fits(a.nrows) || !fits(a.ncols) || !fits(nnz))
    throw Error(Status::index_overflow, "matrix with " + std::to_string(a.nrows) + " rows and " +
                                            std::to_string(nnz) + " entries does not fit " +
                                            std::to_string(sizeof(J) * 8) + "-bit indices");
  CsrMatrix<J, V> r;
  r.nrows = static_cast<J>(a.nrows);
  r.ncols = static_cast<J>(a.ncols);
  r.rowptr.assign(a.rowptr, a.rowptr + a.nrows + 1);
  r.colind.assign(a.colind, a.colind + nnz);
  if (a.values) r.values.assign(a.values, a.values + nnz);
  return r;
}

template <class I, class V>
void validate(const CsrView<I, V>& a, bool require_sorted) {
  auto fail = [](const std::string& m) { throw Error(Status::invalid_input, m); };
  if (a.nrows < 0 || a.ncols < 0) fail("matrix has a negative dimension");
  if (!a.rowptr) fail("matrix has no row pointer array");
  if (a.rowptr[0] != 0) fail("rowptr[0] is " + std::to_string(a.rowptr[0]) + ", expected 0");
  for (I i = 0; i < a.nrows; ++i) {
    if (a.rowptr[i + 1] < a.rowptr[i]) fail("rowptr decreases at row " + std::to_string(i));
    for (I p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const I c = a.colind[p];
      if (c < 0 || c >= a.ncols)
        fail("row " + std::to_string(i) + " has column index " + std::to_string(c) +
             " outside [0, " + std::to_string(a.ncols) + ")");
      if (require_sorted && p > a.rowptr[i] && a.colind[p - 1] >= c)
        fail("row " + std::to_string(i) + " has unsorted or duplicate column index " + std::to_string(c));
    }
  }
}

template <class I, class V>
void spmv(const CsrView<I, V>& a, const V* x, V* y) {
  for (I i = 0; i < a.nrows; ++i) {
    V s = V(0);
    for (I p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) s += a.values[p] * x[a.colind[p]];
    y[i] = s;
  }
}

template <class I, class V>
void spmv_transpose(const CsrView<I, V>& a, const V* x, V* y) {
  std::fill(y, y + a.ncols, V(0));
  for (I i = 0; i < a.nrows; ++i)
    for (I p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) y[a.colind[p]] += a.values[p] * x[i];
}

template <class I, class V>
double relative_residual(const CsrView<I, V>& a, const V* x, const V* b) {
  // Squares of entries beyond 1e154 (badly scaled rows) overflow: sum them relative to max |b_i|.
  double scale = 0;
  for (I i = 0; i < a.nrows; ++i) scale = std::max(scale, static_cast<double>(std::abs(b[i])));
  if (scale == 0) scale = 1;
  double rn = 0, bn = 0;
  for (I i = 0; i < a.nrows; ++i) {
    V s = b[i];
    for (I p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) s -= a.values[p] * x[a.colind[p]];
    const double r = std::abs(s) / scale, bi = std::abs(b[i]) / scale;
    rn += r * r;
    bn += bi * bi;
  }
  if (bn == 0) return rn == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return std::sqrt(rn / bn);
}

template <class I, class V>
double backward_error(const CsrView<I, V>& a, const V* x, const V* b) {
  double worst = 0;
  for (I i = 0; i < a.nrows; ++i) {
    V r = b[i];
    double d = std::abs(b[i]);
    for (I p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      r -= a.values[p] * x[a.colind[p]];
      d += std::abs(a.values[p]) * std::abs(x[a.colind[p]]);
    }
    const double num = std::abs(r);
    if (num == 0) continue;
    if (!(d > 0) || !std::isfinite(num)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, num / d);
  }
  return worst;
}

}  // namespace gpuglu
