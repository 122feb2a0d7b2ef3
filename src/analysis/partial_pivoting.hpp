#pragma once
// The pivot order of a sparse LU with partial pivoting, taken from KLU, for
// PivotPolicy::repivot: when A's values defeat the static pivots of the matching, KLU
// factors A once on the CPU and its row and column permutations (and row scaling) become
// the static pivots of a new schedule, which the level-scheduled engines then reuse.
#include <cstdint>
#include <vector>

#include "analysis/input_pattern.hpp"

namespace gpuglu::analysis {

// KLU factors P (R \ A) Q = L U (+ the off-diagonal blocks of its BTF form). In the
// Schedule's terms (schedule.hpp) C(k, l) = A(row_perm[k], col_perm[l]) * row_scale[row_perm[k]].
struct PartialPivoting {
  std::vector<int32_t> row_perm;   // new -> old row: Numeric->Pnum (BTF, fill-reducing and pivot rows)
  std::vector<int32_t> col_perm;   // new -> old column: Symbolic->Q (BTF + AMD within each block)
  std::vector<double> row_scale;   // indexed by the old row: row_scale[Pnum[k]] = 1 / Numeric->Rs[k]
  int32_t blocks = 0;              // diagonal blocks of the BTF form
  int32_t off_diagonal_pivots = 0; // pivots KLU took off the (preordered) diagonal
};

// KLU with its defaults (BTF on, AMD, pivot tolerance 0.001, row scaling by the row's
// largest |entry|) on A, handed over in CSC form (cols, values from a.values). Throws
// Error: structurally_singular (with the structural rank), numerically_singular (naming
// the column of A without a usable pivot), out_of_memory, index_overflow, invalid_input.
// complex_values: A's complex values (CSR order, std::complex<double> layout: real and
// imaginary parts interleaved), factored by KLU's complex routine (klu_z_factor) instead of
// a.values; a.values then holds their magnitudes for the checks.
PartialPivoting klu_partial_pivoting(const InputPattern& a, const ColumnPattern& cols,
                                     const double* complex_values = nullptr);

}  // namespace gpuglu::analysis
