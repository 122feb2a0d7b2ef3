#pragma once
// Row-wise views of the factor pattern, kept beside the column-wise one: U by rows
// gives each column's subcolumns (GLU's right-looking update targets), L by rows
// gives the "look left" dependencies of Algorithm 4 and the transpose solves.
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

// Fills u_rowptr/u_colind/u_pos and l_rowptr/l_colind/l_pos from f_colptr/f_rowind/f_diag.
void build_factor_rows(Schedule& s);

}  // namespace gpuglu::analysis
