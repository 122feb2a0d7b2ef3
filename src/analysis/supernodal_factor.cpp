#include "analysis/supernodal_factor.hpp"

#include <omp.h>

#include <algorithm>

#include "analysis/pipeline_steps.hpp"

namespace gpuglu::analysis {

namespace {

// Below this many entries of F the threads cost more than they save.
constexpr int64_t kParallelFrom = int64_t{1} << 16;

// For each entry e = rows_ptr[d] + rho of supernode d's rows (row r = rows[e]): the
// position in F's column r of U(first[d], r); U(first[d] + k, r) follows it at + k for
// k < min(rho, ns).
using SupernodeBlocks = std::vector<int64_t>;

// Every entry of F that supernode d's panels hold, with its place in U's and L's rows:
// the U entries above d's rows (ns per below row, fewer in the diagonal block), then
// d's columns from their pivots down. The positions written are d's alone.
void spell_out(Schedule& s, const SupernodeBlocks& block, int32_t d) {
  Supernodes& sn = s.supernodes;
  const int32_t ns = sn.cols(d);
  const int32_t f0 = sn.first[d];
  const int64_t nr = sn.nrows(d);
  const int64_t nb = nr - ns;
  const int64_t r0 = sn.rows_ptr[d];
  const int32_t* rows = sn.rows.data() + r0;
  for (int64_t rho = 0; rho < nr; ++rho) {
    // U(f0 + k, r); L's row r lists its columns in the order of F's column r.
    const int32_t r = rows[rho];
    const int32_t kmax = static_cast<int32_t>(std::min<int64_t>(rho, ns));
    const int64_t base = block[r0 + rho];
    const int64_t l_row = s.l_rowptr[r] + (base - s.f_colptr[r]);
    for (int32_t k = 0; k < kmax; ++k) {
      const int64_t p = base + k;
      s.f_rowind[p] = f0 + k;
      sn.f_pos[p] = rho < ns ? sn.l_ptr[d] + rho * nr + k : sn.u_ptr[d] + (rho - ns) + k * nb;
      s.l_colind[l_row + k] = f0 + k;
      s.l_pos[l_row + k] = s.f_diag[f0 + k] + rho - k;  // L(r, f0 + k) in its column
    }
  }
  for (int32_t k = 0; k < ns; ++k) {
    // Column f0 + k from the pivot down; U's row f0 + k is its L part mirrored.
    const int32_t j = f0 + k;
    const int64_t diag = s.f_diag[j];
    const int64_t col = sn.l_ptr[d] + k * nr;
    const int64_t u_row = s.u_rowptr[j] - (k + 1);
    for (int64_t rho = k; rho < nr; ++rho) {
      const int64_t p = diag + rho - k;
      s.f_rowind[p] = rows[rho];
      sn.f_pos[p] = col + rho;
      if (rho == k) continue;
      s.u_colind[u_row + rho] = rows[rho];
      s.u_pos[u_row + rho] = block[r0 + rho] + k;
    }
  }
}

}  // namespace

void count_supernodal_factor(Schedule& s) {
  const Supernodes& sn = s.supernodes;
  s.nnz_l = 0;
  s.factor_flops = 0.0;
  // A division per entry of L(:, j) and two operations per update L(i, j) U(j, k); with one
  // structure for L and U^T, row j of U holds as many entries as column j of L.
  for (int32_t t = 0; t < sn.count; ++t)
    for (int32_t k = 0; k < sn.cols(t); ++k) {
      const int64_t lower = sn.nrows(t) - k - 1;
      s.nnz_l += lower;
      s.factor_flops += static_cast<double>(lower) + 2.0 * static_cast<double>(lower) * static_cast<double>(lower);
    }
  s.nnz_u = s.nnz_l + s.n;  // F is symmetric, with the diagonal in U
}

void count_supernodal_ldlt_factor(Schedule& s) {
  const Supernodes& sn = s.supernodes;
  s.nnz_l = 0;
  s.factor_flops = 0.0;
  for (int32_t t = 0; t < sn.count; ++t)
    for (int32_t k = 0; k < sn.cols(t); ++k) {
      const int64_t lower = sn.nrows(t) - k - 1;
      s.nnz_l += lower;
      s.factor_flops += static_cast<double>(lower) * static_cast<double>(lower + 1);
    }
  s.nnz_u = s.n;
}

void spell_out_supernodal_factor(Schedule& s, int threads) {
  Supernodes& sn = s.supernodes;
  const int32_t n = s.n;
  // Column j (local index k in its supernode t): U above the diagonal (every column of each
  // descendant whose below rows hold j, then t's own columns before j), the pivot, then L
  // (t's rows after position k).
  std::vector<int64_t> next(static_cast<size_t>(n), 0);
  for (int32_t t = 0; t < sn.count; ++t) {
    const int32_t ns = sn.cols(t);
    for (int64_t p = sn.rows_ptr[t] + ns; p < sn.rows_ptr[t + 1]; ++p) next[sn.rows[p]] += ns;
  }
  s.f_colptr.assign(static_cast<size_t>(n) + 1, 0);
  s.f_diag.resize(static_cast<size_t>(n));
  s.u_rowptr.assign(static_cast<size_t>(n) + 1, 0);
  s.l_rowptr.assign(static_cast<size_t>(n) + 1, 0);
  for (int32_t j = 0; j < n; ++j) {
    const int32_t t = sn.of_col[j];
    const int32_t k = j - sn.first[t];
    const int64_t lower = sn.nrows(t) - k - 1;
    const int64_t up = next[j] + k;
    s.f_colptr[j + 1] = s.f_colptr[j] + up + 1 + lower;
    s.f_diag[j] = s.f_colptr[j] + up;
    s.u_rowptr[j + 1] = s.u_rowptr[j] + lower;  // F is symmetric: U's row j mirrors L(:, j)
    s.l_rowptr[j + 1] = s.l_rowptr[j] + up;     // and L's row j mirrors U(:, j)
    next[j] = s.f_colptr[j];
  }
  // The one sequential step: descendants in ascending order, so each column's U rows
  // come sorted.
  SupernodeBlocks block;
  resize_large(block, sn.rows.size(), sn.rows.size() * sizeof(int64_t) <= kHugePageBudget);
  for (int32_t d = 0; d < sn.count; ++d) {
    const int32_t ns = sn.cols(d);
    for (int32_t rho = 0; rho < ns; ++rho) block[sn.rows_ptr[d] + rho] = s.f_diag[sn.first[d] + rho] - rho;
    for (int64_t e = sn.rows_ptr[d] + ns; e < sn.rows_ptr[d + 1]; ++e) {
      block[e] = next[sn.rows[e]];
      next[sn.rows[e]] += ns;
    }
  }
  const int64_t nnz = s.f_colptr[n];
  const size_t f_bytes = static_cast<size_t>(nnz + s.u_rowptr[n] + s.l_rowptr[n]) * (sizeof(int32_t) + sizeof(int64_t));
  const bool huge = f_bytes <= kHugePageBudget;
  resize_large(s.f_rowind, static_cast<size_t>(nnz), huge);
  resize_large(sn.f_pos, static_cast<size_t>(nnz), huge);
  resize_large(s.u_colind, static_cast<size_t>(s.u_rowptr[n]), huge);
  resize_large(s.u_pos, static_cast<size_t>(s.u_rowptr[n]), huge);
  resize_large(s.l_colind, static_cast<size_t>(s.l_rowptr[n]), huge);
  resize_large(s.l_pos, static_cast<size_t>(s.l_rowptr[n]), huge);
  const int team = team_size(threads, nnz, kParallelFrom);
#pragma omp parallel for num_threads(team) schedule(dynamic, 16)
  for (int32_t d = 0; d < sn.count; ++d) spell_out(s, block, d);
}

}  // namespace gpuglu::analysis
