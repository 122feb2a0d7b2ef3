#pragma once
// MC64's dual variables are one point of a polytope: u_i + v_j <= c_ij on every entry, with
// equality on the matching, and any point of it scales the matched entries to +-1 and every
// other to at most 1. The point the shortest-path search ends at can lie hundreds of decades
// away from a natural scaling on weakly coupled or block-triangular matrices (a circuit
// matrix with rows scaled by 10^+-100 got row scales of 10^+-191): far enough, with larger
// spreads, to leave the double range. This moves the row duals (each matched column's dual
// follows its row's) toward the balanced point where a matched entry's row and column scales
// are equal, without leaving the polytope.
#include <cstdint>
#include <vector>

namespace gpuglu::analysis {

// cost: c_ij in CSC order (infinite on explicit zeros), log_colmax: log max_i |a_ij|,
// row_of_col: the matching, u: feasible row duals, improved in place by at most `sweeps`
// Gauss-Seidel sweeps (each O(nnz)); each u_i moves within the interval the others leave it.
void center_row_duals(int32_t n, const int32_t* colptr, const int32_t* rowind, const std::vector<double>& cost,
                      const std::vector<double>& log_colmax, const std::vector<int32_t>& row_of_col,
                      std::vector<double>& u, int32_t sweeps);

}  // namespace gpuglu::analysis
