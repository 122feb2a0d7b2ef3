#pragma once
// Matrices for the analysis tests that need the matching: a diagonally dominant random
// matrix whose rows are scrambled, so most diagonal entries are structurally zero but
// the matrix is nonsingular and MC64 can recover a strong diagonal.
#include "reference_test_support.hpp"

namespace gpuglu::test {

inline CsrMatrix<int32_t, double> scrambled_matrix(int32_t n, int32_t per_row, uint64_t seed) {
  Rng rng(seed * 7919 + 1);
  return scramble_rows(random_matrix(n, per_row, seed, 1.5), random_permutation(n, rng));
}

}  // namespace gpuglu::test
