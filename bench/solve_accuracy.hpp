#pragma once
// How well x solves A x = b, with A's rows spread over the ranks as a RowBlock and x, b
// PETSc vectors of the same row layout (the first_solve benchmark's check of every solve).
#include <petscmat.h>

#include "row_block.hpp"

namespace gpuglu::bench {

struct SolveAccuracy {
  double residual = -1;        // ||b - A x||_2 / ||b||_2
  double backward_error = -1;  // componentwise (Oettli-Prager): max_i |b - A x|_i / (|A| |x| + |b|)_i
  double error_inf = -1;       // max_i |x_i - 1|: the benchmark's b is A * ones
};

// Collective over A's communicator; A holds m's rows, values in m's order.
PetscErrorCode solve_accuracy(const RowBlock& m, Mat A, Vec b, Vec x, SolveAccuracy* acc);

}  // namespace gpuglu::bench
