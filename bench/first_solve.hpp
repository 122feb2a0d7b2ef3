#pragma once
// Issue 27's first solve: one linear system from an assembled matrix to its solution, as
// PETSc's ksp ex10 runs it with -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type
// SOLVER: b = A * ones, KSPSetUp (PCSetUp: MatGetFactor, the ordering, MatLUFactorSymbolic,
// MatLUFactorNumeric), then KSPSolve (MatSolve). Nothing is repeated or warmed up: what a
// program solving one system pays, analysis included.
#include <mpi.h>

#include <cstdint>
#include <string>

#include "results_jsonl.hpp"
#include "row_block.hpp"

namespace gpuglu::bench {

struct FirstSolveResult {
  std::string solver;  // a MatSolverType (gpuglu, mumps, klu, petsc, ...) or cudss
  int ranks = 1;
  // Wall clock from a barrier, the slowest rank: KSPSetUp and KSPSolve (cuDSS: upload, handle,
  // analysis and factorization; solve and download).
  double setup_ms = -1, solve_ms = -1;
  // Inside them, from PETSc's log events (slowest rank; -1: the event did not run):
  // MatGetOrdering, MatLUFactorSym, MatLUFactorNum, MatSolve.
  double ordering_ms = -1, symbolic_ms = -1, numeric_ms = -1, mat_solve_ms = -1;
  int64_t nnz_factor = -1;   // nnz(L+U) as the solver reports it; -1: it does not
  double factor_flops = -1;  // flops of the factorization as the solver reports them; -1: none
  std::string flops_source;  // where factor_flops comes from
  // ||b - A x||_2 / ||b||_2, max_i |b - A x|_i / (|A| |x| + |b|)_i, max_i |x_i - 1|.
  double residual = -1, backward_error = -1, error_inf = -1;
  std::string ordering;  // what PCLU's MatGetOrdering was given ("external": the solver orders)
  std::string view;      // gpuglu's factor view (one rank only)
  Extras extra;          // the solver's own facts (MUMPS's INFOG, cuDSS's steps)
  std::string failure;   // empty: solved

  double total_ms() const { return setup_ms + solve_ms; }
};

// PETSc's KSP on m (this rank's rows) with solver's LU. Collective over comm; never throws:
// a PETSc error or a failed factorization is returned in failure.
FirstSolveResult run_first_solve(const RowBlock& m, const std::string& solver, MPI_Comm comm);

// cuDSS's first solve of the same system from host data (first_solve_cudss.cpp; builds with
// cuDSS only): one rank holding the whole matrix. Never throws.
FirstSolveResult run_first_solve_cudss(const RowBlock& m, MPI_Comm comm);

}  // namespace gpuglu::bench
