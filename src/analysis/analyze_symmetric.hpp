#pragma once
// The LDL^T analysis (analyze_symmetric in include/gpuglu/analysis.hpp) from an input that
// check_symmetric_input has already built, for SparseLDLT: it checks the caller's matrix
// once, and analyzes the full pattern (both triangles) that its engines and refinement use.
#include <cstdint>
#include <vector>

#include "analysis/ordering.hpp"
#include "analysis/symmetric_input.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

// The schedule's value map follows a's stored entries (a.entry_row / entry_col). amd_counted:
// told the ordering's AMD count as it is made (OrderingWork::amd_counted; api::DeviceWarmUp).
Schedule analyze_symmetric_input(const SymmetricInput& a, const Options& options, const int32_t* given_perm,
                                 const AmdCounted& amd_counted = {});

// The supernodal LDL^T with the unknowns `schur` (sorted, unique, in [0, n); A's numbering)
// kept out of the factorization (Schedule::schur_size; lu.hpp's set_schur_indices, as
// analyze_schur is for the LU): the scaling and ordering are those of A11 (A without them),
// the Schur unknowns come last, unscaled and in the caller's order, as one supernode the
// factorization only gathers updates into. a: full storage (full_storage()). Throws
// Error(unsupported) for ICC (ilu_levels >= 0) and ldlt_engine column, invalid_input naming
// the first bad index, and what analyze_symmetric_input throws.
Schedule analyze_symmetric_schur_input(const SymmetricInput& a, const std::vector<int32_t>& schur,
                                       const Options& options, const int32_t* given_perm);

// The LDL^T analysis's ordering of a (its symmetric scaling and fill-reducing ordering, and the
// symmetric pairs of its small diagonals: symmetric_pairs.hpp), new -> old, for the supernodal
// LU's recovery ladder (api/recovery.cpp): a KKT system's static LU pivots on nested
// dissection of C + C^T can cancel to zero inside supernodes whose blocks hold no better row,
// while in the paired order each small diagonal is filled by its partner first. Empty where no
// pair is made (no small diagonal: the order would be the LU's own).
std::vector<int32_t> paired_symmetric_ordering(const SymmetricInput& a, const Options& options);

// a as a full-storage input over its full pattern, with values full_values in that
// pattern's CSR order (which outlive the result). A full-storage a is its own full
// pattern: it is returned with the values replaced (moved in, no copy). threads: as
// check_symmetric_input's.
SymmetricInput full_storage(SymmetricInput a, const double* full_values, int32_t threads);

}  // namespace gpuglu::analysis
