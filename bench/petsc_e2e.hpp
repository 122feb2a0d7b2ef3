#pragma once
// One sparse LU solver measured through PETSc's public interface only (MatGetFactor,
// MatLUFactorSymbolic/Numeric, MatSolve), as a PETSc application drives it in a Newton
// loop: the same Mat, new values, SAME_NONZERO_PATTERN refactorization, one solve.
#include <cstdint>
#include <string>
#include <vector>

#include "gpuglu/matrix.hpp"

namespace gpuglu::bench {

struct E2eRun {
  std::string solver;  // a MatSolverType: gpuglu, klu, mumps, superlu, umfpack, petsc
  int warmup = 1;      // untimed refactor + solve rounds after the first factorization
  int repeat = 5;
  double residual_tol = 1e-10;
};

struct E2eTimes {
  double first_factor_ms = 0;  // MatGetFactor + ordering + symbolic + first numeric
  double symbolic_ms = 0;      // ordering + MatLUFactorSymbolic
  double first_solve_ms = 0;
  double numeric_ms = 0;  // medians over the repeats
  double solve_ms = 0;
  double total_ms = 0;     // median of (numeric + solve) per repeat
  double residual = -1;    // the worst relative residual over all solves
  int64_t nnz_factor = -1;  // MatGetInfo's nz_used where the solver implements it
  std::string ordering;     // what MatGetOrdering was given ("external": the solver orders itself)
  std::string view;         // MatView of the factor (ASCII info format), gpuglu only
  std::string failure;      // empty: every step succeeded and every residual was below tol
};

// Never throws: a PETSc error, a factor error or a residual above tol ends in failure.
E2eTimes run_petsc_e2e(const CsrMatrix<int32_t, double>& a, const E2eRun& r);

}  // namespace gpuglu::bench
