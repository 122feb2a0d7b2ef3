#include "analysis/value_map.hpp"

#include <algorithm>
#include <limits>

#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

void build_value_map(Schedule& s, const InputPattern& a) {
  const int64_t nnz = a.nnz();
  s.value_map.resize(static_cast<size_t>(nnz));
  s.value_scale.resize(static_cast<size_t>(nnz));
  for (int32_t r = 0; r < a.n; ++r) {
    const int32_t k = s.row_perm_inv[r];
    for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
      const int32_t c = a.colind[p];
      const int32_t l = s.col_perm_inv[c];
      const auto first = s.f_rowind.begin() + s.f_colptr[l];
      const auto last = s.f_rowind.begin() + s.f_colptr[l + 1];
      const auto it = std::lower_bound(first, last, k);
      // The symbolic factorization starts from C's pattern: every entry is present.
      if (it == last || *it != k) throw Error(Status::invalid_input, "internal: an input entry is missing from the factor pattern");
      s.value_map[p] = it - s.f_rowind.begin();
      // Saturate, never Inf (0 * Inf = NaN): row*col <= 1/|a_rc| overflows only at explicit zeros, subnormals, clamps.
      s.value_scale[p] = std::min(s.row_scale[r] * s.col_scale[c], std::numeric_limits<double>::max());
    }
  }
}

}  // namespace gpuglu::analysis
