#include "analysis/row_ilu.hpp"

#include <algorithm>

namespace gpuglu::analysis {

bool factors_by_rows(const Options& o) {
  // An incomplete factor is never re-pivoted: report, repivot and automatic all report.
  return o.ilu_levels >= 0 && o.backend == Backend::cpu && o.pivot_policy != PivotPolicy::perturb &&
         o.pivot_threshold == 0.0 && !o.cpu_right_looking;
}

void build_row_ilu(Schedule& s, const InputPattern& a, RowPattern&& f) {
  const int32_t n = s.n;
  s.kind = FactorKind::row_ilu;
  s.incomplete = true;
  const int64_t* ptr = f.ptr.data();
  const int64_t* diag = f.diag.data();
  s.l_rowptr.resize(static_cast<size_t>(n) + 1);
  s.u_rowptr.resize(static_cast<size_t>(n) + 1);
  s.l_rowptr[0] = s.u_rowptr[0] = 0;
  for (int32_t i = 0; i < n; ++i) {
    s.l_rowptr[i + 1] = s.l_rowptr[i] + (diag[i] - ptr[i]);
    s.u_rowptr[i + 1] = s.u_rowptr[i] + (ptr[i + 1] - diag[i] - 1);
  }
  s.nnz_l = s.l_rowptr[n];
  s.nnz_u = s.u_rowptr[n] + n;
  s.l_colind.resize(static_cast<size_t>(s.nnz_l));
  s.u_colind.resize(static_cast<size_t>(s.u_rowptr[n]));
  // Row i's pivots k update it with U(k, :): an upper bound where fill is dropped, as
  // factor_flops() counts the column kinds'.
  double flops = 0.0;
  for (int32_t i = 0; i < n; ++i) {
    std::copy(f.cols.begin() + ptr[i], f.cols.begin() + diag[i], s.l_colind.begin() + s.l_rowptr[i]);
    std::copy(f.cols.begin() + diag[i] + 1, f.cols.begin() + ptr[i + 1], s.u_colind.begin() + s.u_rowptr[i]);
    for (int64_t e = ptr[i]; e < diag[i]; ++e) {
      const int32_t k = f.cols[e];
      flops += 1.0 + 2.0 * static_cast<double>(s.u_rowptr[k + 1] - s.u_rowptr[k]);
    }
  }
  s.factor_flops = flops;
  s.value_scale.clear();

  // Entry p of A (row r, column c) is C's (row_perm_inv[r], col_perm_inv[c]); F's rows are
  // the row storage's order. Where q is the identity and F has A's nnz, every row of A is F's
  // (a subset as long, both sorted): the map is the identity, left empty.
  bool plain = static_cast<int64_t>(f.cols.size()) == static_cast<int64_t>(a.nnz());
  for (int32_t i = 0; i < n && plain; ++i) plain = s.col_perm[i] == i;
  if (plain) {
    s.value_map.clear();
    return;
  }
  s.value_map.resize(static_cast<size_t>(a.nnz()));
  std::vector<int64_t> where(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) {
    for (int64_t p = ptr[i]; p < ptr[i + 1]; ++p) where[f.cols[p]] = p;
    const int32_t r = s.row_perm[i];
    for (int32_t e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) s.value_map[e] = where[s.col_perm_inv[a.colind[e]]];
  }
}

void spell_out_row_factor(Schedule& s) {
  if (s.kind != FactorKind::row_ilu || s.f_colptr.size() == static_cast<size_t>(s.n) + 1) return;
  const int32_t n = s.n;
  std::vector<int64_t> colptr(static_cast<size_t>(n) + 1, 0);
  for (int32_t c : s.l_colind) ++colptr[c + 1];
  for (int32_t c : s.u_colind) ++colptr[c + 1];
  for (int32_t j = 0; j < n; ++j) colptr[j + 1] += colptr[j] + 1;  // and the diagonal
  std::vector<int64_t> next(colptr.begin(), colptr.end() - 1);
  s.f_rowind.resize(static_cast<size_t>(colptr[n]));
  s.f_diag.resize(static_cast<size_t>(n));
  // Row by row, so each column's rows ascend: U(0:j, j), the diagonal, then L(j+1:n, j).
  for (int32_t i = 0; i < n; ++i) {
    for (int64_t e = s.l_rowptr[i]; e < s.l_rowptr[i + 1]; ++e) s.f_rowind[next[s.l_colind[e]]++] = i;
    s.f_diag[i] = next[i];
    s.f_rowind[next[i]++] = i;
    for (int64_t e = s.u_rowptr[i]; e < s.u_rowptr[i + 1]; ++e) s.f_rowind[next[s.u_colind[e]]++] = i;
  }
  s.f_colptr = std::move(colptr);
}

}  // namespace gpuglu::analysis
