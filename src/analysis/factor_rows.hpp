#pragma once
// Row-wise views of the factor pattern, kept beside the column-wise one: U by rows
// gives each column's subcolumns (GLU's right-looking update targets), L by rows
// gives the "look left" dependencies of Algorithm 4 and the transpose solves.
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

// Fills u_rowptr/u_colind/u_pos and l_rowptr/l_colind/l_pos from f_colptr/f_rowind/f_diag.
void build_factor_rows(Schedule& s);

// Schedule::factor_flops from the factor pattern and U's rows (after build_factor_rows):
// column j divides |L(:, j)| entries by its pivot and updates |L(:, j)| * |U(j, j+1:n)|
// entries with a multiply-add. For an incomplete schedule this is an upper bound: the
// updates that fall outside the pattern are dropped, not computed.
double factor_flops(const Schedule& s);

}  // namespace gpuglu::analysis
