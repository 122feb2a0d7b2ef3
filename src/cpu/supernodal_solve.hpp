#pragma once
// Triangular solves on the supernodal panels (include/gpuglu/supernodes.hpp): per supernode
// a dense triangular solve with its diagonal block and a dense product with L21 or U12 -
// the order of work a GPU supernodal solve does (a level's supernodes at once), and its
// oracle. The solves through F (triangular_solve.hpp) give the same x to rounding.
#include <cstdint>
#include <vector>

#include "core/supernode_pivoting.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

// The columns the sweeps' dense products take per pass; a supernode narrower than that (most
// of a small factor's) skips their buffers and sums straight from and into x. The sweep
// layout (cpu/supernodal_sweep_layout.hpp) groups its columns by it to sum in the same order.
constexpr int32_t kColumnsPerPass = 4;

// y over U's pivot d, as both backward sweeps (panels and layout) take it, so that they agree
// bit for bit. By the reciprocal: the division then waits for d only, off the chain through y
// (each column's y waits for the one before it), where its latency stood once per column.
inline double over_pivot(double y, double d) { return y * (1.0 / d); }

// The supernodes a sweep walks: all but a Schur schedule's last, which is never factored.
int32_t factored_supernodes(const Schedule& s);
// Whether supernode t follows a row order of rows.
bool pivoted(const SupernodeRowOrder& rows, int32_t t);
// y (ns entries) put in the supernode's pivot order (y[i] = y_before[order[i]]), or back
// (inverse: y[order[i]] = y_before[i]); tmp: scratch.
void reorder(double* y, const int32_t* order, int32_t ns, bool inverse, std::vector<double>& tmp);

// In place on the permuted, scaled vector x (n entries). rows: the supernodes' row orders
// where they pivoted (core/supernode_pivoting.hpp), which the L sweeps follow. A Schur
// schedule's last supernode is not swept (cpu/supernodal_schur.hpp): the forward sweeps
// leave the reduced right-hand side in its entries, the backward ones read them as given.
void supernodal_lower_unit_solve(const Schedule& s, const double* panels, double* x,
                                 SupernodeRowOrder rows = {});  // L x = x
void supernodal_upper_solve(const Schedule& s, const double* panels, double* x);            // U x = x
void supernodal_upper_transpose_solve(const Schedule& s, const double* panels, double* x);  // U^T x = x
void supernodal_lower_unit_transpose_solve(const Schedule& s, const double* panels, double* x,
                                           SupernodeRowOrder rows = {});  // L^T x = x

// x = A^{-1} b (transpose: A^{-T} b) with the permutations and scalings of the schedule;
// work: n entries of scratch.
void solve_with_panels(const Schedule& s, const double* panels, const double* b, double* x, double* work,
                       bool transpose, SupernodeRowOrder rows = {});

}  // namespace gpuglu::reference
