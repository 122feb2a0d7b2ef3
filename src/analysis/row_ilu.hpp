#pragma once
// The row ILU's schedule (FactorKind::row_ilu, gpuglu/schedule.hpp): F by rows, the value map
// into it (none where it is A's own order), and F by columns only when asked. Its analysis is
// a few passes over A, as PETSc's symbolic ILU: no transpose, no levels, no update lists, no
// value scaling (the generic pipeline builds all of them for the engines that read them, and
// for a small ILU(0) they cost several times its numeric factorization).
#include "analysis/ilu_pattern.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

// Whether the analysis builds a row ILU for these options: an incomplete LU for the CPU
// backend whose pivot test needs no column (tiny pivots reported, no relative threshold:
// PETSc's ILU); a column threshold, perturbation relative to the column, or the
// right-looking column executor asked for keeps the column engine.
bool factors_by_rows(const Options& o);

// s's factor fields from F's rows (f: C = A(q, q)'s levels-of-fill pattern, moved in); the
// permutations are set already.
void build_row_ilu(Schedule& s, const InputPattern& a, RowPattern&& f);

// F by columns (f_colptr, f_rowind, f_diag), for a host copy of F and PETSc's shift test.
void spell_out_row_factor(Schedule& s);

}  // namespace gpuglu::analysis
