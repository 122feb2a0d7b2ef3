#include "cpu/row_ordered_solve.hpp"

#include <algorithm>

#include "core/scalar.hpp"
#include "cpu/triangular_solve.hpp"

namespace gpuglu::reference {

namespace {

bool plain(const std::vector<int32_t>& perm, const std::vector<double>& scale) {
  for (size_t k = 0; k < perm.size(); ++k)
    if (perm[k] != static_cast<int32_t>(k)) return false;
  for (double v : scale)
    if (v != 1.0) return false;
  return true;
}

}  // namespace

template <class T>
RowOrderedFactor<T>::RowOrderedFactor(const Schedule& s)
    : s_(s),
      l_(s.l_colind.size()),
      u_(s.u_colind.size()),
      inv_diag_(static_cast<size_t>(s.n)),
      plain_rows_(plain(s.row_perm, s.row_scale)),
      plain_columns_(plain(s.col_perm, s.col_scale)) {}

template <class T>
void RowOrderedFactor<T>::gather(const T* f) {
  const int64_t* l_pos = s_.l_pos.data();
  const int64_t* u_pos = s_.u_pos.data();
  for (size_t e = 0; e < l_.size(); ++e) l_[e] = f[l_pos[e]];
  for (size_t e = 0; e < u_.size(); ++e) u_[e] = f[u_pos[e]];
  for (int32_t j = 0; j < s_.n; ++j) inv_diag_[j] = T(1.0) / f[s_.f_diag[j]];
}

template <class T>
void RowOrderedFactor<T>::forward(const int32_t* in, const double* in_scale, const T* b, T* w) const {
  const int64_t* rowptr = s_.l_rowptr.data();
  const int32_t* colind = s_.l_colind.data();
  const T* l = l_.data();
  // Row k reads only w[i], i < k, and b[k] (or b[in[k]]) before w[k] is written: b and w may
  // alias where the input is plain.
  for (int32_t k = 0; k < s_.n; ++k) {
    T sum = in ? in_scale[in[k]] * b[in[k]] : b[k];
    for (int64_t e = rowptr[k]; e < rowptr[k + 1]; ++e) sum -= l[e] * w[colind[e]];
    w[k] = sum;
  }
}

template <class T>
void RowOrderedFactor<T>::solve(const T* b, T* x, T* work) const {
  // In place on x where neither permutation moves anything; otherwise through work, whose
  // column order and scaling a last pass undoes into x (b has been read in full by then).
  T* w = plain_columns_ && plain_rows_ ? x : work;
  forward(plain_rows_ ? nullptr : s_.row_perm.data(), s_.row_scale.data(), b, w);
  const int64_t* rowptr = s_.u_rowptr.data();
  const int32_t* colind = s_.u_colind.data();
  const T* u = u_.data();
  const int32_t* cp = s_.col_perm.data();
  const double* cs = s_.col_scale.data();
  // Each row's dot product runs from its farthest column to its nearest: w[j + 1], just
  // written, enters the chain of multiply-adds last, so the rest of row j's chain overlaps the
  // row before it (the forward pass's ascending rows of L have that order already). In
  // ascending order the backward pass took 1.3-1.5x the forward one (docs/performance.md).
  for (int32_t j = s_.n - 1; j >= 0; --j) {
    T sum = w[j];
    for (int64_t e = rowptr[j + 1] - 1; e >= rowptr[j]; --e) sum -= u[e] * w[colind[e]];
    w[j] = sum * inv_diag_[j];
  }
  if (w == x) return;
  if (plain_columns_)
    std::copy(w, w + s_.n, x);
  else
    for (int32_t l = 0; l < s_.n; ++l) x[cp[l]] = cs[cp[l]] * w[l];
}

template <class T>
void RowOrderedFactor<T>::solve_transpose(const T* b, T* x, T* work) const {
  // A^{-T} = S_r P^T (L U)^{-T} Q^T S_c, solve's inverse transposed: in by the columns'
  // permutation and scaling, out by the rows'.
  const int32_t n = s_.n;
  T* w = plain_columns_ && plain_rows_ ? x : work;
  const int32_t* cp = s_.col_perm.data();
  const double* cs = s_.col_scale.data();
  if (plain_columns_) {
    if (w != b) std::copy(b, b + n, w);
  } else {
    for (int32_t l = 0; l < n; ++l) w[l] = cs[cp[l]] * b[cp[l]];
  }
  const int64_t* urow = s_.u_rowptr.data();  // U^T y = w: column j of U^T is row j of U
  const int32_t* ucol = s_.u_colind.data();
  for (int32_t j = 0; j < n; ++j) {
    const T y = w[j] * inv_diag_[j];
    w[j] = y;
    for (int64_t e = urow[j]; e < urow[j + 1]; ++e) w[ucol[e]] -= u_[e] * y;
  }
  const int64_t* lrow = s_.l_rowptr.data();  // L^T z = y, unit diagonal: column k of L^T is row k of L
  const int32_t* lcol = s_.l_colind.data();
  for (int32_t k = n - 1; k >= 0; --k) {
    const T z = w[k];
    for (int64_t e = lrow[k]; e < lrow[k + 1]; ++e) w[lcol[e]] -= l_[e] * z;
  }
  if (w == x) return;
  const int32_t* rp = s_.row_perm.data();
  const double* rs = s_.row_scale.data();
  if (plain_rows_)
    std::copy(w, w + n, x);
  else
    for (int32_t k = 0; k < n; ++k) x[rp[k]] = rs[rp[k]] * w[k];
}

template <class T>
void RowOrderedFactor<T>::solve_symmetric(const T* f, const T* b, T* x, T* work, bool hermitian) const {
  // One permutation (row_perm = col_perm) on both sides. L^T's rows are L's columns in F:
  // the reference transpose solve already reads them as dot products.
  T* w = plain_rows_ ? x : work;
  forward(plain_rows_ ? nullptr : s_.row_perm.data(), s_.row_scale.data(), b, w);
  for (int32_t k = 0; k < s_.n; ++k) w[k] *= inv_diag_[k];
  lower_unit_transpose_solve(s_, f, w, hermitian);
  if (w != x) {
    const int32_t* p = s_.row_perm.data();
    const double* sc = s_.row_scale.data();
    for (int32_t k = 0; k < s_.n; ++k) x[p[k]] = sc[p[k]] * w[k];
  }
}

template class RowOrderedFactor<double>;
template class RowOrderedFactor<Complex>;

}  // namespace gpuglu::reference
