#pragma once
// Dense references for the Schur-complement tests (test_schur_complement.cpp for the LU,
// test_schur_complement_ldlt.cpp for the LDL^T): S = A22 - A21 A11^{-1} A12 computed densely,
// and the Schur-mode solve (condense, a dense solve of S, expand) through either facade.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "error_status.hpp"
#include "gpuglu/matrix.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/solver.hpp"

namespace gpuglu::test {

using Csr = CsrMatrix<int32_t, double>;
using Dense = std::vector<double>;  // column-major

inline Dense to_dense(const Csr& a) {
  const int32_t n = a.nrows;
  Dense d(static_cast<size_t>(n) * n, 0.0);
  for (int32_t i = 0; i < n; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) d[i + static_cast<size_t>(a.colind[p]) * n] = a.values[p];
  return d;
}

// x = M^{-1} B (M: n x n, B: n x nrhs, both column-major), Gaussian elimination with partial
// pivoting: the reference the sparse results are measured against.
inline Dense dense_solve(Dense m, int32_t n, Dense b, int32_t nrhs) {
  for (int32_t k = 0; k < n; ++k) {
    int32_t r = k;
    for (int32_t i = k + 1; i < n; ++i)
      if (std::fabs(m[i + static_cast<size_t>(k) * n]) > std::fabs(m[r + static_cast<size_t>(k) * n])) r = i;
    if (r != k) {
      for (int32_t j = 0; j < n; ++j) std::swap(m[k + static_cast<size_t>(j) * n], m[r + static_cast<size_t>(j) * n]);
      for (int32_t j = 0; j < nrhs; ++j) std::swap(b[k + static_cast<size_t>(j) * n], b[r + static_cast<size_t>(j) * n]);
    }
    const double pivot = m[k + static_cast<size_t>(k) * n];
    for (int32_t i = k + 1; i < n; ++i) {
      const double f = m[i + static_cast<size_t>(k) * n] / pivot;
      if (f == 0.0) continue;
      for (int32_t j = k + 1; j < n; ++j) m[i + static_cast<size_t>(j) * n] -= f * m[k + static_cast<size_t>(j) * n];
      for (int32_t j = 0; j < nrhs; ++j) b[i + static_cast<size_t>(j) * n] -= f * b[k + static_cast<size_t>(j) * n];
    }
  }
  for (int32_t j = 0; j < nrhs; ++j)
    for (int32_t k = n - 1; k >= 0; --k) {
      double& x = b[k + static_cast<size_t>(j) * n];
      for (int32_t i = k + 1; i < n; ++i) x -= m[k + static_cast<size_t>(i) * n] * b[i + static_cast<size_t>(j) * n];
      x /= m[k + static_cast<size_t>(k) * n];
    }
  return b;
}

// What a fresh Solver (SparseLU or SparseLDLT) under o says when it analyzes a with the Schur
// indices idx: the status and the message (the refusal tests).
template <class Solver>
std::pair<Status, std::string> schur_analysis_status(const Options& o, const Csr& a, const std::vector<int32_t>& idx) {
  Solver f(o);
  f.set_schur_indices(idx);
  std::string message;
  const Status st = status_of([&] { f.analyze(a.view()); }, &message);
  return {st, message};
}

// The rows `r` and columns `c` of the dense n x n matrix a.
inline Dense block(const Dense& a, int32_t n, const std::vector<int32_t>& r, const std::vector<int32_t>& c) {
  Dense out(r.size() * c.size());
  for (size_t j = 0; j < c.size(); ++j)
    for (size_t i = 0; i < r.size(); ++i) out[i + j * r.size()] = a[r[i] + static_cast<size_t>(c[j]) * n];
  return out;
}

inline std::vector<int32_t> complement_of(const std::vector<int32_t>& idx, int32_t n) {
  std::vector<char> in(static_cast<size_t>(n), 0);
  for (int32_t i : idx) in[i] = 1;
  std::vector<int32_t> out;
  for (int32_t i = 0; i < n; ++i)
    if (!in[i]) out.push_back(i);
  return out;
}

// S = A22 - A21 A11^{-1} A12 (transpose: of A^T), k x k, column-major.
inline Dense dense_schur(const Csr& a, const std::vector<int32_t>& idx, bool transpose = false) {
  const int32_t n = a.nrows;
  Dense d = to_dense(a);
  if (transpose) d = to_dense(gpuglu::transpose(a.view()));
  const std::vector<int32_t> j = complement_of(idx, n);
  const auto m = static_cast<int32_t>(j.size());
  const auto k = static_cast<int32_t>(idx.size());
  Dense s = block(d, n, idx, idx);
  if (m == 0) return s;
  const Dense x = dense_solve(block(d, n, j, j), m, block(d, n, j, idx), k);  // A11^{-1} A12
  const Dense a21 = block(d, n, idx, j);
  for (int32_t c = 0; c < k; ++c)
    for (int32_t r = 0; r < k; ++r) {
      double sum = 0.0;
      for (int32_t p = 0; p < m; ++p) sum += a21[r + static_cast<size_t>(p) * k] * x[p + static_cast<size_t>(c) * m];
      s[r + static_cast<size_t>(c) * k] -= sum;
    }
  return s;
}

inline double max_abs(const Dense& v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

// max |S - ref| / max |ref|.
inline double relative_error(const Dense& s, const Dense& ref) {
  double e = 0.0;
  for (size_t i = 0; i < s.size(); ++i) e = std::max(e, std::fabs(s[i] - ref[i]));
  return e / std::max(max_abs(ref), 1e-300);
}

// S of a factor in Schur mode, packed k x k (read with leading dimension ld; 0: k).
inline Dense schur_of(BasicSparseSolver<double>& lu, int64_t ld = 0) {
  const auto k = static_cast<int64_t>(lu.schur_indices().size());
  if (ld == 0) ld = k;
  Dense s(static_cast<size_t>(ld * k), -7.0);
  lu.schur_complement(s.data(), ld);
  Dense packed(static_cast<size_t>(k * k));
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i) packed[i + j * k] = s[i + j * ld];
  return packed;
}

// condense, a dense solve of the reduced system with S, expand: x of A x = b (transpose: A^T).
inline std::vector<double> solve_through_schur(BasicSparseSolver<double>& lu, const std::vector<double>& b,
                                               bool transpose) {
  const auto k = static_cast<int32_t>(lu.schur_indices().size());
  Dense s = schur_of(lu);
  if (transpose) {  // S of A^T is S^T
    Dense st(s.size());
    for (int32_t j = 0; j < k; ++j)
      for (int32_t i = 0; i < k; ++i) st[j + static_cast<size_t>(i) * k] = s[i + static_cast<size_t>(j) * k];
    s = st;
  }
  std::vector<double> reduced(static_cast<size_t>(k));
  lu.condense(b.data(), reduced.data(), transpose);
  const Dense x2 = dense_solve(s, k, reduced, 1);
  std::vector<double> x(b.size());
  lu.expand(x2.data(), x.data(), transpose);
  return x;
}

}  // namespace gpuglu::test
