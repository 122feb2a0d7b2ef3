#pragma once
// Maximum product transversal with MC64-style scaling (Duff & Koster's job 5), our own:
// Debian builds SuperLU and SuperLU_DIST without MC64 (HSL licence), and no other
// packaged library exposes it. docs/design.md explains the choice.
//
// With colmax_j = max_i |a_ij| and costs c_ij = log colmax_j - log |a_ij| >= 0 on the
// nonzero entries, a minimum-cost perfect matching maximizes the product of the matched
// entries. It is found by shortest augmenting paths (Dijkstra on reduced costs, one
// search per column left unmatched by a greedy start), which also yields dual
// variables u (rows) and v (columns) with c_ij - u_i - v_j >= 0, equality on the
// matching. Scaling rows by exp(u_i) and columns by exp(v_j - log colmax_j) then makes
// every matched entry +-1 and every other entry at most 1 in magnitude. The exponents are
// formed in the log domain and shifted (u + t, v - t changes no product) so that they fit
// the double range whenever some shift does; see scales_clamped.
#include <cstdint>
#include <vector>

namespace gpuglu::analysis {

struct ProductMatching {
  std::vector<int32_t> row_of_col;  // column j is matched with row row_of_col[j]
  std::vector<double> row_scale;
  std::vector<double> col_scale;
  // Scales whose exponent lay beyond +-700 even after the best shift, clamped there (the
  // others kept): their matched entries may then be far from +-1. 0 for representable scalings.
  int32_t scales_clamped = 0;
};

// A in CSC (n x n, rows ascending, values of each entry). Returns false when no
// perfect matching exists on the nonzero entries (explicit zeros are not used).
bool max_product_matching(int32_t n, const int32_t* colptr, const int32_t* rowind, const double* values,
                          ProductMatching& out);

}  // namespace gpuglu::analysis
