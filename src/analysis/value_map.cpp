#include "analysis/value_map.hpp"

#include <algorithm>
#include <limits>

#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

// Column by column of A: its column c is F's column l = col_perm_inv[c], whose rows k are
// found by a stamp of where each row of F(:, l) sits (a pass over the column, as long as it
// is within a few times A's column: ILU(0)'s F is C itself) or by a binary search in it
// (a complete factor's long filled columns). Either finds the same position.
void build_value_map(Schedule& s, const InputPattern& a, const ColumnPattern& cols) {
  constexpr int64_t kStampWithin = 4;  // F's column at most this many times A's: stamp it
  const int64_t nnz = a.nnz();
  s.value_map.resize(static_cast<size_t>(nnz));
  s.value_scale.resize(static_cast<size_t>(nnz));
  std::vector<int64_t> where(static_cast<size_t>(a.n));
  std::vector<int32_t> stamp(static_cast<size_t>(a.n), -1);
  const int32_t* rowind = s.f_rowind.data();
  for (int32_t c = 0; c < a.n; ++c) {
    const int32_t l = s.col_perm_inv[c];
    const int64_t first = s.f_colptr[l], last = s.f_colptr[l + 1];
    const int32_t a_first = cols.colptr[c], a_last = cols.colptr[c + 1];
    const bool stamped = last - first <= kStampWithin * (a_last - a_first);
    if (stamped)
      for (int64_t q = first; q < last; ++q) {
        where[rowind[q]] = q;
        stamp[rowind[q]] = l;
      }
    for (int32_t e = a_first; e < a_last; ++e) {
      const int32_t r = cols.rowind[e];
      const int32_t k = s.row_perm_inv[r];
      int64_t at = -1;
      if (stamped) {
        if (stamp[k] == l) at = where[k];
      } else {
        const int32_t* it = std::lower_bound(rowind + first, rowind + last, k);
        if (it != rowind + last && *it == k) at = it - rowind;
      }
      // The symbolic factorization starts from C's pattern: every entry is present.
      if (at < 0) throw Error(Status::invalid_input, "internal: an input entry is missing from the factor pattern");
      const int32_t p = cols.src[e];
      s.value_map[p] = at;
      // Saturate, never Inf (0 * Inf = NaN): row*col <= 1/|a_rc| overflows only at explicit zeros, subnormals, clamps.
      s.value_scale[p] = std::min(s.row_scale[r] * s.col_scale[c], std::numeric_limits<double>::max());
    }
  }
}

}  // namespace gpuglu::analysis
