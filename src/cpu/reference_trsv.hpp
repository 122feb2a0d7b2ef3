#pragma once
// CPU reference triangular solves (Li, Sec. 3.1: the sequential row-wise sweep), the oracle
// of every GPU kernel in src/cuda/trsv/trsv_kernels.cu. Sequential on purpose: the order of the
// sums is the textbook one, and nothing here depends on the analysis (only on the storage
// rules of triangle.hpp, which the caller has checked with trsv::analyze).
#include <cstdint>

#include "analysis/triangle.hpp"

namespace gpuglu::trsv::reference {

// x = T^{-1} b for one right-hand side (n entries). b and x may alias.
void solve(const TriangleView& t, const double* b, double* x);

// X = T^{-1} B for nrhs right-hand sides stored column after column (column-major):
// column r of B starts at b + r * ldb, of X at x + r * ldx (ld >= n). B and X may alias
// when ldb == ldx.
void solve_many(const TriangleView& t, int32_t nrhs, const double* b, int64_t ldb, double* x, int64_t ldx);

}  // namespace gpuglu::trsv::reference
