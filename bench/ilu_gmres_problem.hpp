#pragma once
// The linear system of the ILU(0)-GMRES benchmark as PETSc objects on PETSC_COMM_WORLD:
// A (MATAIJ: SeqAIJ on one rank, MPIAIJ with contiguous row blocks on more), b = A * ones
// and a solution vector. Every rank builds the whole CSR (generator or Matrix Market file)
// and keeps only its own rows; for the benchmark's sizes (1M unknowns, 7M entries: ~84 MB
// per rank, freed by the caller after create()) that is simpler than reading on one rank
// and scattering.
#include <petscmat.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_matrices.hpp"

namespace gpuglu::bench {

class IluProblem {
 public:
  IluProblem() = default;
  IluProblem(const IluProblem&) = delete;
  IluProblem& operator=(const IluProblem&) = delete;
  ~IluProblem();

  // m: the whole matrix (bench_matrices.hpp), the same on every rank; this rank keeps
  // its rows. Collective on PETSC_COMM_WORLD.
  PetscErrorCode create(const BenchMatrix& m);

  // Sets A's values again (the same numbers, the same pattern) and assembles, so that A's
  // object state changes and the next PCSetUp redoes the numeric factorization, as after a
  // Newton step. Collective.
  PetscErrorCode refresh_values();

  // ||b - A x||_2 / ||b||_2 of the current x. Collective.
  PetscErrorCode relative_residual(PetscReal* r) const;

  Mat A = nullptr;
  Vec b = nullptr, x = nullptr;
  std::string name, kind;  // the spec, or the file's stem; "generated" or the file's folder
  int64_t n = 0, nnz = 0;  // global

 private:
  // This rank's rows in PETSc's AIJ layout: row offsets from 0, global column indices.
  PetscInt first_row_ = 0;
  std::vector<PetscInt> rowptr_, colind_;
  std::vector<PetscScalar> values_;
  Vec work_ = nullptr;
};

}  // namespace gpuglu::bench
