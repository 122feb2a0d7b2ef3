#include <omp.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "analysis/pipeline_steps.hpp"
#include "analysis/supernodal_factor.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

constexpr int32_t kParallelFrom = 1 << 15;  // input entries

}  // namespace

void build_supernodal_value_map(Schedule& s, const InputPattern& a, int threads) {
  const Supernodes& sn = s.supernodes;
  const int32_t nnz = a.nnz();
  const bool huge = static_cast<size_t>(nnz) * (sizeof(int64_t) + sizeof(double)) <= kHugePageBudget;
  resize_large(s.value_map, static_cast<size_t>(nnz), huge);
  resize_large(s.value_scale, static_cast<size_t>(nnz), huge);
  bool missing = false;
  const int team = team_size(threads, nnz, kParallelFrom);
#pragma omp parallel for num_threads(team) schedule(static) reduction(|| : missing)
  for (int32_t r = 0; r < a.n; ++r) {
    const int32_t k = s.row_perm_inv[r];
    for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
      const int32_t c = a.colind[p];
      const int32_t l = s.col_perm_inv[c];
      // C(k, l) is L(k, l) or U(k, l) = L(l, k) mirrored: either way the larger index is
      // among the rows of the smaller one's supernode t, from the smaller one on.
      const int32_t lo = std::min(k, l);
      const int32_t hi = std::max(k, l);
      const int64_t rho = sn.row_position(lo, hi);  // hi's row in the panels of lo's supernode t
      // The supernodes hold C's pattern: every entry is present.
      if (rho < 0) {
        missing = true;
        continue;
      }
      const int32_t t = sn.of_col[lo];
      const int32_t local = lo - sn.first[t];
      const int64_t nr = sn.nrows(t);
      const int64_t ns = sn.cols(t);
      // Panel positions (supernodes.hpp): L(hi, lo) in the L panel's column `local`; U(lo, hi)
      // in the diagonal block (the L panel's column rho) or in the U^T panel below it.
      if (k >= l)
        s.value_map[p] = sn.l_ptr[t] + local * nr + rho;
      else
        s.value_map[p] = rho < ns ? sn.l_ptr[t] + rho * nr + local : sn.u_ptr[t] + (rho - ns) + local * (nr - ns);
      // Saturate, never Inf (0 * Inf = NaN): row*col <= 1/|a_rc| overflows only at explicit zeros, subnormals, clamps.
      s.value_scale[p] = std::min(s.row_scale[r] * s.col_scale[c], std::numeric_limits<double>::max());
    }
  }
  if (missing) throw Error(Status::invalid_input, "internal: an input entry is missing from the factor pattern");
}

namespace {

// Full storage (SparseLDLT always analyzes it): entry (r, c) of C's (i, j) lands at
// L(max, min), which for j >= i lies in row j's place among the rows of i's supernode t. The
// columns of t are visited together, t's rows mapped once into a dense scratch (the rows of
// one column of A are unsorted in C's order, so a merge would not do), and each entry found
// in O(1); an entry with j < i takes its mirror's position (the mirror is in row c, found by
// a search of that short row). A search per entry among t's rows, in A's order, meets a
// different supernode every other entry: cache misses dominated it.
bool map_full_storage(Schedule& s, const SymmetricInput& a, int team) {
  const Supernodes& sn = s.supernodes;
  const int32_t n = a.n;
  bool missing = false;
#pragma omp parallel num_threads(team) reduction(|| : missing)
  {
    std::vector<int32_t> pos(static_cast<size_t>(n), -1);
#pragma omp for schedule(dynamic, 8)
    for (int32_t t = 0; t < sn.count; ++t) {
      const int32_t* rows = sn.rows.data() + sn.rows_ptr[t];
      const int64_t nr = sn.nrows(t);
      for (int64_t k = 0; k < nr; ++k) pos[rows[k]] = static_cast<int32_t>(k);
      for (int32_t i = sn.first[t]; i < sn.first[t + 1]; ++i) {
        const int32_t r = s.row_perm[i];
        const int64_t column = sn.l_ptr[t] + static_cast<int64_t>(i - sn.first[t]) * nr;
        for (int32_t p = a.colptr[r]; p < a.colptr[r + 1]; ++p) {
          const int32_t j = s.col_perm_inv[a.rowind[p]];
          if (j < i) continue;
          const int32_t rho = pos[j];
          if (rho < 0 || rho >= nr || rows[rho] != j) {
            missing = true;
            continue;
          }
          s.value_map[p] = column + rho;
        }
      }
    }
#pragma omp for schedule(static)
    for (int32_t r = 0; r < n; ++r) {
      const int32_t i = s.row_perm_inv[r];
      for (int32_t p = a.colptr[r]; p < a.colptr[r + 1]; ++p) {
        const int32_t c = a.rowind[p];
        if (s.col_perm_inv[c] >= i) continue;
        const int32_t* begin = a.rowind.data() + a.colptr[c];
        const int32_t* end = a.rowind.data() + a.colptr[c + 1];
        const int32_t* mirror = std::lower_bound(begin, end, r);
        if (mirror == end || *mirror != r) {
          missing = true;
          continue;
        }
        s.value_map[p] = s.value_map[mirror - a.rowind.data()];
      }
    }
  }
  return !missing;
}

// Any storage: a search per entry among its supernode's rows.
bool map_any_storage(Schedule& s, const SymmetricInput& a, int team) {
  const Supernodes& sn = s.supernodes;
  const int64_t nnz = a.nnz();
  bool missing = false;
#pragma omp parallel for num_threads(team) schedule(static) reduction(|| : missing)
  for (int64_t p = 0; p < nnz; ++p) {
    const int32_t i = s.row_perm_inv[a.entry_row[p]], j = s.col_perm_inv[a.entry_col[p]];
    const int32_t lo = std::min(i, j), hi = std::max(i, j);
    const int64_t rho = sn.row_position(lo, hi);
    if (rho < 0) {
      missing = true;
      continue;
    }
    const int32_t t = sn.of_col[lo];
    s.value_map[p] = sn.l_ptr[t] + static_cast<int64_t>(lo - sn.first[t]) * sn.nrows(t) + rho;
  }
  return !missing;
}

}  // namespace

void build_supernodal_ldlt_value_map(Schedule& s, const SymmetricInput& a, int threads) {
  const int64_t nnz = a.nnz();
  const bool huge = static_cast<size_t>(nnz) * (sizeof(int64_t) + sizeof(double)) <= kHugePageBudget;
  resize_large(s.value_map, static_cast<size_t>(nnz), huge);
  resize_large(s.value_scale, static_cast<size_t>(nnz), huge);
  const int team = team_size(threads, nnz, kParallelFrom);
  // Full storage in CSR order: entry p is (p's row, rowind[p]) of the full pattern.
  const bool full = a.stored == StoredTriangle::full && static_cast<int64_t>(a.rowind.size()) == nnz;
  if (!(full ? map_full_storage(s, a, team) : map_any_storage(s, a, team)))
    throw Error(Status::invalid_input, "internal: an input entry is missing from L's supernodes");
#pragma omp parallel for num_threads(team) schedule(static)
  for (int64_t p = 0; p < nnz; ++p) {
    const int32_t r = a.entry_row[p], c = a.entry_col[p];
    const double half = a.stored == StoredTriangle::full && r != c ? 0.5 : 1.0;
    s.value_scale[p] = std::min(half * s.row_scale[r] * s.col_scale[c], std::numeric_limits<double>::max());
  }
}

}  // namespace gpuglu::analysis
