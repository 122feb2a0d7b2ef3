#include "analysis/dual_centering.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuglu::analysis {

// With v_j = c_kj - u_k for k = row_of_col[j], the constraint of entry (i, j) reads
// u_i - u_k <= c_ij - c_kj: an upper bound on u_i from row i's entries, a lower bound on
// u_k from the entries of k's matched column.
void center_row_duals(int32_t n, const int32_t* colptr, const int32_t* rowind, const std::vector<double>& cost,
                      const std::vector<double>& log_colmax, const std::vector<int32_t>& row_of_col,
                      std::vector<double>& u, int32_t sweeps) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const auto m = static_cast<size_t>(n);
  std::vector<int32_t> col_of_row(m);
  std::vector<double> matched_cost(m);  // c_kj of each column's matched entry
  for (int32_t j = 0; j < n; ++j) {
    col_of_row[row_of_col[j]] = j;
    for (int32_t p = colptr[j]; p < colptr[j + 1]; ++p)
      if (rowind[p] == row_of_col[j]) matched_cost[j] = cost[p];
  }
  // Row i's entries (column, cost), for its upper bound.
  std::vector<int32_t> rowptr(m + 1, 0), col(static_cast<size_t>(colptr[n]));
  std::vector<double> row_cost(col.size());
  for (int32_t p = 0; p < colptr[n]; ++p) ++rowptr[rowind[p] + 1];
  for (size_t i = 0; i < m; ++i) rowptr[i + 1] += rowptr[i];
  std::vector<int32_t> next(rowptr.begin(), rowptr.end() - 1);
  for (int32_t j = 0; j < n; ++j)
    for (int32_t p = colptr[j]; p < colptr[j + 1]; ++p) {
      col[next[rowind[p]]] = j;
      row_cost[next[rowind[p]]++] = cost[p];
    }

  for (int32_t sweep = 0; sweep < sweeps; ++sweep) {
    double moved = 0.0;
    for (int32_t i = 0; i < n; ++i) {
      const int32_t mj = col_of_row[i];
      double hi = kInf, lo = -kInf;
      for (int32_t q = rowptr[i]; q < rowptr[i + 1]; ++q) {
        const int32_t j = col[q];
        if (j != mj && row_cost[q] < kInf) hi = std::min(hi, u[row_of_col[j]] + row_cost[q] - matched_cost[j]);
      }
      for (int32_t p = colptr[mj]; p < colptr[mj + 1]; ++p) {
        const int32_t l = rowind[p];
        if (l != i && cost[p] < kInf) lo = std::max(lo, u[l] - cost[p] + matched_cost[mj]);
      }
      if (!(lo <= hi)) continue;  // rounding: stay where the search left it
      // Row and column scale equal on the matched entry: u_i = -log|a_i,mj| / 2.
      const double balanced = 0.5 * (matched_cost[mj] - log_colmax[mj]);
      const double target = std::clamp(balanced, lo, hi);
      moved = std::max(moved, std::fabs(target - u[i]));
      u[i] = target;
    }
    if (moved < 1e-3) break;  // a thousandth of a decade's log: nothing left worth a sweep
  }
}

}  // namespace gpuglu::analysis
