#pragma once
// analyze(): the CPU analysis, once per sparsity pattern (DESIGN.md, "One pipeline,
// two backends"). MC64 matching + scaling, fill-reducing ordering, static-pivot
// symbolic factorization, GLU3.0 relaxed dependency detection (Algorithm 4),
// levels and their kernel modes, the value map and the update lists.
#include <cstdint>

#include "gpuglu/matrix.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu {

// a: square CSR with sorted, unique column indices; values are needed for the
// matching (pattern-only input is allowed when options.matching is false).
// given_perm: with Ordering::given, a permutation (new -> old) of 0..n-1 applied
// symmetrically after the matching; ignored otherwise.
// Throws Error: not_square, invalid_input, empty_row, nan_or_inf,
// structurally_singular, index_overflow, out_of_memory.
Schedule analyze(const CsrView<int64_t, double>& a, const Options& options,
                 const int32_t* given_perm = nullptr);
Schedule analyze(const CsrView<int32_t, double>& a, const Options& options,
                 const int32_t* given_perm = nullptr);

}  // namespace gpuglu
