#pragma once
// A Schedule built the slow, obvious way (dense boolean symbolic factorization,
// Algorithm 4 dependencies, longest-path levels) for matrices of a few hundred rows.
// It lets the reference kernels be tested independently of src/analysis, on
// permutations and scalings the test chooses, and serves as a second opinion on it.
#include <cstdint>
#include <vector>

#include "gpuglu/matrix.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::test {

struct NaiveTransform {
  std::vector<int32_t> row_perm;  // new -> old; empty = identity
  std::vector<int32_t> col_perm;  // new -> old; empty = identity
  std::vector<double> row_scale;  // by old row; empty = ones
  std::vector<double> col_scale;  // by old column; empty = ones
};

// a: square CSR, sorted columns. The diagonal of C is always stored (explicit zero if absent).
Schedule naive_schedule(const CsrMatrix<int32_t, double>& a, const NaiveTransform& t = NaiveTransform());

// Merges level l + 1 into level l (columns and update lists alike): the result has a
// missed dependency whenever some column of level l + 1 depends on one of level l.
Schedule merge_levels(const Schedule& s, int32_t l);

// The first level l such that a column of level l + 1 depends on a column of level l
// through an update with a nonempty L column; -1 if none.
int32_t first_dependent_level_pair(const Schedule& s);

}  // namespace gpuglu::test
