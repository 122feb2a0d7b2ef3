#pragma once
// Step 1 of every numeric factorization: the input values, permuted and scaled,
// land in the factor storage (F = C on the pattern of L + U, zero on the fill).
#include <cstdint>

#include "core/scalar.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

struct ScatterResult {
  int64_t bad_entry = -1;  // first input entry (CSR order of A) that is NaN or Inf, -1 if none
  double max_abs = 0.0;    // max |C(i, j)| over the scattered entries
};

// f: s.value_map_extent() entries (F's, or a supernodal schedule's panels), overwritten.
// a_values: input_nnz entries in A's CSR order. f[value_map[p]] += value_scale[p] *
// a_values[p], so duplicate entries are summed (an empty value_scale: a scale of 1). A
// schedule whose value_map is empty (the identity) has nothing to scatter: check_values.
// T: double or std::complex<double>. conjugate (complex Hermitian LDL^H only): entries
// flagged there are conjugated on the way in (A's entries that land in C's upper triangle
// are stored as their mirror in L); null for everything else. threads: the team that zeroes
// f first where it is large (kTeamMinFillEntries; it may be fresh storage whose pages that
// fill touches first: core/first_touch.hpp); the scatter itself is one thread's.
template <class T>
ScatterResult scatter_values(const Schedule& s, const T* a_values, T* f, const char* conjugate = nullptr,
                             int32_t threads = 1);

// What scatter_values reports, for values an engine reads in place (a value map that is the
// identity and no scaling): nothing is written.
template <class T>
ScatterResult check_values(const T* a_values, int64_t nnz);

}  // namespace gpuglu::reference
