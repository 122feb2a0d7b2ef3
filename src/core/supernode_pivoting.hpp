#pragma once
// Partial pivoting inside the supernodal LU's supernodes (Options::lu_supernode_pivoting),
// written once for the CPU engine (cpu/supernodal_numeric.cpp) and the CUDA engine
// (cuda/supernodal/). The LU's pivots are static: the analysis (MC64's matching and scaling,
// nested dissection) fixes them, and a pivot that fails the static test of
// core/numeric_types.hpp is reported (SparseLU then redoes the analysis, or falls back to
// the column engine). Where it fails, the supernode holding it is factored again with
// partial pivoting inside its diagonal block, as PARDISO and SuperLU_DIST's
// "static across, partial within" schemes do: each column's pivot is the largest entry of
// the block's remaining rows (the first on ties, LAPACK's rule), its rows swapped with the
// pivot row's across the whole panel row - L's columns, U^T's - and the static test then
// applied against the whole column, L21's rows included (those cannot be chosen: the
// supernodal structure is fixed by the analysis). A supernode's Schur complement
// A21 A11^-1 A12 does not depend on the row order chosen inside it, so the supernodes around
// it stand as they were and the factorization is simply redone, the pivoted supernode
// keeping its search for the factor's later values (they tend to fail where these did).
//
// The solves follow the row order: the forward L sweep reads a pivoted supernode's entries of
// x in its pivot order (once its descendants' updates are in), the transposed sweep L^T writes
// them back the same way.
#include <cstdint>

namespace gpuglu {

// A failure can hide an ancestor's own (the failed supernode sent it no update): the
// factorization is redone at most this many times; then the failure is reported as before.
constexpr int kSupernodePivotRounds = 4;

// A supernode's rows in pivot order: order[i] = the row of its diagonal block (0-based, in the
// analysis's order) that became row i. Kept for the whole factor in one n-entry array indexed by
// column (order[first + i]); the identity in supernodes that do not pivot.
// The supernodal LDL^T's Bunch-Kaufman pivot order (its perm) is the same kind of order, which
// its solves follow the same way.
struct SupernodeRowOrder {
  // count: the supernode follows its order (nullptr: every supernode does where order is
  // given, none where it is not)
  const int8_t* pivoted = nullptr;
  const int32_t* order = nullptr;  // n
};

}  // namespace gpuglu
