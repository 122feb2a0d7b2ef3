#pragma once
// The input of the LDL^T analysis: a symmetric matrix given with both triangles (PETSc's
// SeqAIJ) or one (SeqSBAIJ stores the upper one). The analysis works on the full symmetric
// pattern, in which an empty row means singular whichever triangle was stored, and
// remembers where each stored entry lies so that refactorizations only scatter values.
#include <cstdint>
#include <vector>

#include "gpuglu/matrix.hpp"
#include "gpuglu/options.hpp"

namespace gpuglu::analysis {

struct SymmetricInput {
  int32_t n = 0;
  // The full symmetric pattern (both triangles, the diagonal where stored), CSC with rows
  // ascending per column; by symmetry it is also the CSR pattern.
  std::vector<int32_t> colptr{0};
  std::vector<int32_t> rowind;
  // For each entry of the full pattern (in that CSR order), the stored entry that gives
  // its value (the entry itself, or its mirror image for one-triangle storage).
  std::vector<int64_t> source;
  // The stored entries in the caller's CSR order: row and column.
  std::vector<int32_t> entry_row, entry_col;
  const double* values = nullptr;
  StoredTriangle stored = StoredTriangle::full;
  int64_t nnz() const { return static_cast<int64_t>(entry_row.size()); }
};

// Validates a (square, well-formed, sorted unique columns, finite values, sizes within
// int, every row of the full pattern nonempty, and - for full storage unless the caller
// vouches for it - symmetric in pattern and values) and builds the full pattern. Throws
// Error naming the first defect: not_square, invalid_input (an entry on the wrong side of
// the diagonal for one-triangle storage, or an asymmetric full matrix, named by its
// position), empty_row, nan_or_inf, index_overflow. threads: the team of its loops over a
// large A (Options::num_threads; 0: OpenMP's default), as for the analysis after it: in a PETSc
// rank OpenMP's default team would take every core of the node (input_team).
template <class I>
SymmetricInput check_symmetric_input(const CsrView<I, double>& a, StoredTriangle stored, bool check_symmetry,
                                     int32_t threads);

// The team of a loop over an input of nnz entries: one thread below 2^16 entries (a parallel
// region's start costs more there), else threads_of(threads).
int input_team(int32_t threads, int64_t nnz);

}  // namespace gpuglu::analysis
