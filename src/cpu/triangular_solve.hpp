#pragma once
// Triangular solves on the CSC factor F = (L - I) + U of C, and the full solves with
// A through the schedule's permutations and scalings (schedule.hpp notation):
//   A x = b:    c[k] = rs[rp[k]] b[rp[k]];  L U z = c;      x[cp[l]] = cs[cp[l]] z[l]
//   A^T x = b:  d[l] = cs[cp[l]] b[cp[l]];  U^T L^T w = d;  x[rp[k]] = rs[rp[k]] w[k]
// (rp/cp = row_perm/col_perm, rs/cs = row_scale/col_scale; C = rs A cs permuted, so
// C z = c reads A (cs z) = b row by row, and C^T w = d reads A^T (rs w) = b).
#include <cstdint>

#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

// In place on x (n entries), F as produced by factor_levels. T: double or
// std::complex<double> (instantiated in triangular_solve.cpp); conjugate: L^H instead of L^T
// (the Hermitian LDL^H; a plain transpose solve of A^T x = b never conjugates).
template <class T>
void lower_unit_solve(const Schedule& s, const T* f, T* x);       // L x = x, column oriented
template <class T>
void upper_solve(const Schedule& s, const T* f, T* x);            // U x = x, column oriented
template <class T>
void upper_transpose_solve(const Schedule& s, const T* f, T* x);  // U^T x = x, dot products
template <class T>
void lower_unit_transpose_solve(const Schedule& s, const T* f, T* x, bool conjugate = false);  // L^T x = x

// The notation above around any pair of triangular solves: work = the permuted, scaled b;
// triangles(work) solves L U (transpose: U^T L^T) in place; x = work scaled and permuted back.
template <class T, class Triangles>
void solve_permuted(const Schedule& s, const T* b, T* x, T* work, bool transpose, Triangles&& triangles) {
  const int32_t* rp = s.row_perm.data();
  const int32_t* cp = s.col_perm.data();
  const double* rs = s.row_scale.data();
  const double* cs = s.col_scale.data();
  const int32_t* in = transpose ? cp : rp;
  const int32_t* out = transpose ? rp : cp;
  const double* in_scale = transpose ? cs : rs;
  const double* out_scale = transpose ? rs : cs;
  for (int32_t k = 0; k < s.n; ++k) work[k] = in_scale[in[k]] * b[in[k]];
  triangles(work);
  for (int32_t l = 0; l < s.n; ++l) x[out[l]] = out_scale[out[l]] * work[l];
}

// x = A^{-1} b and x = A^{-T} b. b and x may alias; work holds n entries.
template <class T>
void solve_with_factor(const Schedule& s, const T* f, const T* b, T* x, T* work);
template <class T>
void solve_transpose_with_factor(const Schedule& s, const T* f, const T* b, T* x, T* work);

// x = A^{-1} b for a symmetric schedule (F = L with D on the diagonal, C = S P A P^T S):
//   c[k] = s[p[k]] b[p[k]];  L z = c;  z /= D;  L^T w = z;  x[p[k]] = s[p[k]] w[k].
// b and x may alias; work holds n entries. A^T = A: it serves the transposed solve too.
// hermitian: L^H instead of L^T (A = A^H, D real).
template <class T>
void solve_symmetric_with_factor(const Schedule& s, const T* f, const T* b, T* x, T* work, bool hermitian = false);

}  // namespace gpuglu::reference
