#include <algorithm>
#include <limits>

#include "analysis/pipeline_steps.hpp"
#include "analysis/supernodal_factor.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

constexpr int32_t kParallelFrom = 1 << 15;  // input entries

}  // namespace

void build_supernodal_value_map(Schedule& s, const InputPattern& a, const SupernodeBlocks& block) {
  const Supernodes& sn = s.supernodes;
  const int32_t nnz = a.nnz();
  const bool huge = static_cast<size_t>(nnz) * (sizeof(int64_t) + sizeof(double)) <= kHugePageBudget;
  resize_large(s.value_map, static_cast<size_t>(nnz), huge);
  resize_large(s.value_scale, static_cast<size_t>(nnz), huge);
  bool missing = false;
#pragma omp parallel for schedule(static) reduction(|| : missing) if (nnz >= kParallelFrom)
  for (int32_t r = 0; r < a.n; ++r) {
    const int32_t k = s.row_perm_inv[r];
    for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
      const int32_t c = a.colind[p];
      const int32_t l = s.col_perm_inv[c];
      // C(k, l) is L(k, l) or U(k, l) = L(l, k) mirrored: either way the larger index is
      // among the rows of the smaller one's supernode, from the smaller one on.
      const int32_t lo = std::min(k, l);
      const int32_t hi = std::max(k, l);
      const int32_t t = sn.of_col[lo];
      const int32_t local = lo - sn.first[t];
      const int32_t* begin = sn.rows.data() + sn.rows_ptr[t] + local;
      const int32_t* end = sn.rows.data() + sn.rows_ptr[t + 1];
      const int32_t* it = std::lower_bound(begin, end, hi);
      // The supernodes hold C's pattern: every entry is present.
      if (it == end || *it != hi) {
        missing = true;
        continue;
      }
      s.value_map[p] = k >= l ? s.f_diag[l] + (it - begin) : block[it - sn.rows.data()] + local;
      // Saturate, never Inf (0 * Inf = NaN): row*col <= 1/|a_rc| overflows only at explicit zeros, subnormals, clamps.
      s.value_scale[p] = std::min(s.row_scale[r] * s.col_scale[c], std::numeric_limits<double>::max());
    }
  }
  if (missing) throw Error(Status::invalid_input, "internal: an input entry is missing from the factor pattern");
}

}  // namespace gpuglu::analysis
