#pragma once
// The CPU backend's solves with a column-engine factor F (LU, ILU, and the column LDL^T /
// ICC), by rows. The reference solves (cpu/triangular_solve.hpp) run L z = c and U z = z by
// columns: every entry of F is a read-modify-write of z at a scattered row. Here the first
// solve after each factorization copies L and U in row order (the schedule's
// l_rowptr/u_rowptr lists, values gathered once through l_pos/u_pos) with the reciprocal
// pivots, so each row of a solve is one dot product streaming its entries: the layout PETSc's
// own MatSolve_SeqAIJ reads, which a preconditioner applied every Krylov iteration needs. The
// input's permutation and scaling (triangular_solve.hpp's notation) are fused into the
// forward pass, the output's applied in one pass after the backward one; both are skipped
// where they are the identity (ILU in PETSc's ordering).
#include <cstdint>
#include <vector>

#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

template <class T>
class RowOrderedFactor {
 public:
  // The schedule's rows (analysis/factor_rows.hpp) must outlive this object.
  explicit RowOrderedFactor(const Schedule& s);

  // After each factorization of F (f: F's values in the schedule's CSC order).
  void gather(const T* f);
  // The row ILU (cpu/row_ilu.hpp) factors straight into these instead: L and U by rows and
  // the reciprocal pivots.
  T* l_values() noexcept { return l_.data(); }
  T* u_values() noexcept { return u_.data(); }
  T* inv_diag() noexcept { return inv_diag_.data(); }
  const T* l_values() const noexcept { return l_.data(); }
  const T* u_values() const noexcept { return u_.data(); }

  // x = A^{-1} b with the LU factor. b and x may alias; work holds n entries.
  void solve(const T* b, T* x, T* work) const;
  // x = A^{-T} b (never conjugated) from the same rows: U^T and L^T by scatters. The column
  // kinds' transposed solves read F's columns instead (triangular_solve.hpp); the row ILU
  // has no F by columns.
  void solve_transpose(const T* b, T* x, T* work) const;
  // x = A^{-1} b with the symmetric factor (L with D on F's diagonal, f: F as gathered);
  // hermitian: L^H.
  void solve_symmetric(const T* f, const T* b, T* x, T* work, bool hermitian) const;

 private:
  // w = L^{-1} c, c[k] = in_scale[in[k]] b[in[k]] (or b itself where `plain_in_`).
  void forward(const int32_t* in, const double* in_scale, const T* b, T* w) const;

  const Schedule& s_;
  std::vector<T> l_;         // L(k, i), i < k, in l_colind's order
  std::vector<T> u_;         // U(j, k), k > j, in u_colind's order
  std::vector<T> inv_diag_;  // 1 / F(j, j)
  bool plain_rows_ = false;     // row_perm is the identity and row_scale all ones
  bool plain_columns_ = false;  // col_perm likewise
};

}  // namespace gpuglu::reference
