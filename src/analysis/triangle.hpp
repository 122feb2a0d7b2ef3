#pragma once
// A sparse triangular matrix in CSR form, the input of the triangular-solve module
// (analysis, CPU reference, GPU kernels). 64-bit row pointers because a factor's nnz can
// pass 2^31 long before n does; 32-bit column indices.
//
// Storage rules (checked by trsv::analyze, src/analysis/trsv_analysis.hpp):
//   - column indices strictly increasing within a row (sorted, no duplicates);
//   - lower: every column <= row; upper: every column >= row;
//   - Diag::stored: the diagonal is stored in every row, so it is the LAST entry of a
//     lower row and the FIRST entry of an upper row (no search in the kernels);
//   - Diag::unit: no diagonal entry is stored; the diagonal is 1 (ILU's and LU's L).
#include <cstdint>
#include <vector>

#include "gpuglu/matrix.hpp"

namespace gpuglu::trsv {

enum class Fill { lower, upper };
enum class Diag { unit, stored };

const char* to_string(Fill f) noexcept;
const char* to_string(Diag d) noexcept;

// Non-owning view. values may be null for a pattern-only view (analysis needs no values).
struct TriangleView {
  int32_t n = 0;
  const int64_t* rowptr = nullptr;  // n + 1 entries, rowptr[0] == 0
  const int32_t* colind = nullptr;  // rowptr[n] entries
  const double* values = nullptr;   // rowptr[n] entries or null
  Fill fill = Fill::lower;
  Diag diag = Diag::stored;

  int64_t nnz() const { return rowptr ? rowptr[n] : 0; }
  // Row i's off-diagonal entries are [offdiag_begin(i), offdiag_end(i)); its diagonal (when
  // stored) sits just past the end (lower) or just before the beginning (upper).
  int64_t offdiag_begin(int32_t i) const {
    return rowptr[i] + (fill == Fill::upper && diag == Diag::stored ? 1 : 0);
  }
  int64_t offdiag_end(int32_t i) const {
    return rowptr[i + 1] - (fill == Fill::lower && diag == Diag::stored ? 1 : 0);
  }
  int64_t diag_position(int32_t i) const { return fill == Fill::lower ? rowptr[i + 1] - 1 : rowptr[i]; }
};

// Owning triangle (tests, benchmark, the ILU path's factors).
struct Triangle {
  int32_t n = 0;
  Fill fill = Fill::lower;
  Diag diag = Diag::stored;
  std::vector<int64_t> rowptr{0};
  std::vector<int32_t> colind;
  std::vector<double> values;

  TriangleView view() const {
    return {n, rowptr.data(), colind.data(), values.empty() ? nullptr : values.data(), fill, diag};
  }
};

// The lower (or upper) part of a square CSR matrix with sorted rows: with Diag::stored the
// diagonal entries are kept (a row without one is kept too, and analyze() then names it);
// with Diag::unit they are dropped and each off-diagonal entry is divided by its pivot (a_jj
// in L, a_ii in U; 1 where that diagonal is absent or zero), as an LDU split of A and ILU(0)'s
// L do: the raw unit triangle of a Laplacian (entries -1) has solutions growing like 2^levels
// and overflows on a 1000 x 1000 grid. The L / U pair of Li's Eq. (3) on ILU(0)'s pattern.
Triangle triangle_part(const CsrView<int32_t, double>& a, Fill fill, Diag diag);

}  // namespace gpuglu::trsv
