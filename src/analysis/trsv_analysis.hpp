#pragma once
// The analysis of a sparse triangular solve, once per factor pattern, O(nnz) on the CPU
// (R. Li, Sec. 4.1 and 4.4; Naumov, Sec. 2). It is everything the four kernels of
// src/cuda/trsv/trsv_kernels.cu need besides the values:
//   levels     level(i) = 1 + max level(j) over the rows j that row i depends on (0 when
//              none): rows of one level are independent, so LEVR/LEVC solve a level at once;
//   jlev       the rows grouped by level, ascending level (a topological order of the
//              dependency DAG): the self-scheduled kernels hand out unknowns in this order,
//              which both shortens waits (Li, Sec. 4.3, difference 1) and makes every wait
//              a wait on an unknown handed out earlier (the no-deadlock argument);
//   dep_count  per row, how many rows it depends on (its in-degree): SLFC's counters;
//   CSC        the off-diagonal pattern by columns (the dependents of each unknown), with
//              csc_map[k] = the CSR position of CSC entry k, so that new values are
//              gathered on the device without another analysis (ILU refactorization).
#include <cstdint>
#include <vector>

#include "analysis/triangle.hpp"

namespace gpuglu::trsv {

struct TrsvAnalysis {
  int32_t n = 0;
  Fill fill = Fill::lower;
  Diag diag = Diag::stored;
  int64_t nnz = 0;          // stored entries (diagonal included when stored)
  int64_t offdiag_nnz = 0;  // dependency edges

  int32_t num_levels = 0;
  std::vector<int32_t> level;      // n: level of each row, 0-based
  std::vector<int32_t> level_ptr;  // num_levels + 1: level l is jlev[level_ptr[l] .. level_ptr[l+1])
  std::vector<int32_t> jlev;       // n: rows by ascending level, ascending row within a level
  std::vector<int32_t> dep_count;  // n: off-diagonal entries of row i

  std::vector<int64_t> csc_colptr;  // n + 1
  std::vector<int32_t> csc_rowind;  // offdiag_nnz: the rows that depend on column j, ascending
  std::vector<int64_t> csc_map;     // offdiag_nnz: CSR position of each CSC entry

  int32_t max_level_rows = 0;   // widest level
  int32_t max_row_offdiag = 0;  // longest row (off-diagonal entries)
  int32_t max_col_offdiag = 0;  // longest column (off-diagonal entries)

  double rows_per_level() const { return num_levels > 0 ? static_cast<double>(n) / num_levels : 0.0; }
  double offdiag_per_row() const { return n > 0 ? static_cast<double>(offdiag_nnz) / n : 0.0; }
};

// Checks t's pattern (triangle.hpp's storage rules) and, when t.values is not null, its
// values (check_values); then builds the analysis. Throws gpuglu::Error naming the row and
// the problem: invalid_input (sizes, indices out of range or unsorted, an entry on the wrong
// side of the diagonal, a stored diagonal under Diag::unit), structurally_singular (a row
// without its diagonal under Diag::stored), and check_values' errors.
// analyze(t) is analyze_dependencies(t) followed by compute_levels(t, a).
TrsvAnalysis analyze(const TriangleView& t);

// The analysis without its levels: the same checks and errors as analyze(), then n, nnz,
// dep_count, the CSC and its map, max_row_offdiag and max_col_offdiag. level, level_ptr and
// jlev stay empty and num_levels, max_level_rows 0 until compute_levels() (CPU) or
// cuda::compute_levels_on_device() (GPU, Kahn's algorithm: src/cuda/trsv/trsv_levels.hpp) fills
// them: the split lets the two be timed and compared on the same dependency data.
TrsvAnalysis analyze_dependencies(const TriangleView& t);

// The levels on the CPU (Li, Sec. 4.1, the row-wise loop) into a = analyze_dependencies(t):
// level, num_levels, level_ptr, jlev, max_level_rows. O(nnz).
void compute_levels(const TriangleView& t, TrsvAnalysis& a);

// Throws invalid_input unless a holds the dependency part of t's analysis (what
// analyze_dependencies(t) returns: same n, nnz, fill and diagonal; dep_count and the CSC of
// the right lengths). What a level builder checks before it trusts a's counts and CSC.
void check_dependencies(const TriangleView& t, const TrsvAnalysis& a);

// The widest level of a level_ptr (0 for none): max_level_rows, for either level builder.
int32_t widest_level(const std::vector<int32_t>& level_ptr);

// Values only (the pattern must have passed analyze()): nan_or_inf for a NaN or Inf entry,
// numerically_singular for a zero diagonal. O(nnz); run again on new values.
void check_values(const TriangleView& t);

}  // namespace gpuglu::trsv
