#include "cpu/supernodal_numeric.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "cpu/supernodal_blas.hpp"
#include "gpuglu/options.hpp"

namespace gpuglu::reference {

namespace {

// Rows k and r of supernode s's diagonal block swapped across its panels: L's row (all ns
// columns: the multipliers left of k move with their rows, as LAPACK's getrf keeps them) and
// U^T's columns k and r (U12's rows).
void swap_panel_rows(double* l, double* ut, int32_t ns, int64_t nr, int64_t nb, int32_t k, int32_t r) {
  for (int32_t j = 0; j < ns; ++j) std::swap(l[k + static_cast<int64_t>(j) * nr], l[r + static_cast<int64_t>(j) * nr]);
  std::swap_ranges(ut + static_cast<int64_t>(k) * nb, ut + static_cast<int64_t>(k + 1) * nb,
                   ut + static_cast<int64_t>(r) * nb);
}

// The LU of supernode s's panels, column by column (the header's rule): where pivoted, the
// column's pivot row chosen within the diagonal block (core/supernode_pivoting.hpp) and order
// (ns entries: its rows in pivot order) kept; the static-pivot test against the column's
// largest entry in its L panel, L scaled below the pivot (divided, as the column engine and
// the GPU kernels do), the rank-1 update of the rest of the L panel and of the U^T panel.
// A wide supernode that searches no pivots (cpu/supernodal_blas.hpp) runs this by blocks of
// columns, as LAPACK's getrf: the rank-1 updates stay inside the block, then U's rows of the
// block in the later columns (TRSM) and the later columns' rest and U12's later rows (GEMM);
// each column still meets its pivot test with all its earlier columns' updates in.
NodeOutcome factor_panel(const Supernodes& sn, int32_t s, double* panels, const PivotRule& rule, bool pivoted,
                         int32_t* order, int inner) {
  NodeOutcome out;
  NumericStats& st = out.stats;
  const int32_t ns = sn.cols(s);
  const int64_t nr = sn.nrows(s);
  const int64_t nb = nr - ns;
  double* l = panels + sn.l_ptr[s];
  double* ut = panels + sn.u_ptr[s];
  if (order)
    for (int32_t i = 0; i < ns; ++i) order[i] = i;
  const bool blocked = !pivoted && ns >= kBlasPanelColumns && blas_available();
  const int32_t width = blocked ? kBlasPanelBlock : ns;
  for (int32_t kb = 0; kb < ns; kb += width) {
    const int32_t ke = std::min(ns, kb + width);
    for (int32_t k = kb; k < ke; ++k) {
      double* lk = l + static_cast<int64_t>(k) * nr;
      if (pivoted) {
        int32_t r = k;
        for (int32_t i = k + 1; i < ns; ++i)
          if (std::fabs(lk[i]) > std::fabs(lk[r])) r = i;
        if (r != k) {
          swap_panel_rows(l, ut, ns, nr, nb, k, r);
          std::swap(order[k], order[r]);
        }
      }
      double colmax = 0.0;
      bool finite = true;
      for (int64_t i = 0; i < nr; ++i) {
        const double a = std::fabs(lk[i]);
        colmax = a > colmax ? a : colmax;
        finite &= a <= std::numeric_limits<double>::max();
      }
      const int32_t col = sn.first[s] + k;
      double pivot = lk[k];
      const double apiv = std::fabs(pivot);
      st.max_active = std::max(st.max_active, colmax);
      st.min_pivot_ratio = std::min(st.min_pivot_ratio, colmax > 0.0 ? apiv / colmax : 0.0);
      const bool tiny = rule.tiny(apiv, colmax);
      if (!finite || (tiny && rule.policy == PivotPolicy::report)) {
        st.status = Status::numerically_singular;
        st.pivot_column = col;
        st.pivot_value = pivot;
        out.failed = true;
        return out;
      }
      if (tiny) {
        pivot = rule.perturbed(pivot, colmax);
        lk[k] = pivot;
        if (st.perturbed_pivots++ == 0) st.first_perturbed = col;
      }
      for (int64_t i = k + 1; i < nr; ++i) lk[i] /= pivot;
      // Column j of L and of U^T take column k's rank-1 update; the columns are independent.
      const double* utk = ut + static_cast<int64_t>(k) * nb;
      const int64_t entries = static_cast<int64_t>(ke - k - 1) * (nr - k - 1 + nb);
      auto update_column = [&](int32_t j) {
        double* lj = l + static_cast<int64_t>(j) * nr;
        const double u = lj[k];
        if (u != 0.0)
          for (int64_t i = k + 1; i < nr; ++i) lj[i] -= lk[i] * u;
        double* utj = ut + static_cast<int64_t>(j) * nb;
        const double lkj = lk[j];
        if (lkj != 0.0)
          for (int64_t a = 0; a < nb; ++a) utj[a] -= lkj * utk[a];
      };
      // No OpenMP construct at all on one thread: even a parallel region whose if clause is
      // false starts a team of one, per column.
      if (inner_team_pays(inner, entries)) {
#pragma omp parallel for num_threads(inner) schedule(static)
        for (int32_t j = k + 1; j < ke; ++j) update_column(j);
      } else {
        for (int32_t j = k + 1; j < ke; ++j) update_column(j);
      }
    }
    if (ke == ns) break;
    // The block's deferred updates of the later columns [ke, ns), piece by piece of columns.
    const int64_t w = ke - kb, later = ns - ke;
    const double* l_block = l + kb + static_cast<int64_t>(kb) * nr;  // L(kb.., kb..ke)
    over_column_pieces(later, inner, w * later * (nr - kb), [&](int64_t c0, int64_t c1) {
      double* top = l + kb + (ke + c0) * nr;  // U(kb..ke, ke + c0 ..)
      trsm_left_unit_lower(w, c1 - c0, l_block, nr, top, nr);
      gemm('N', 'N', nr - ke, c1 - c0, w, -1.0, l_block + w, nr, top, nr, 1.0, top + w, nr);
    });
    over_column_pieces(later, inner, w * later * nb, [&](int64_t c0, int64_t c1) {
      const double* l_later = l + ke + c0 + static_cast<int64_t>(kb) * nr;  // L(ke + c0 .., kb..ke)
      gemm('N', 'T', nb, c1 - c0, w, -1.0, ut + static_cast<int64_t>(kb) * nb, nb, l_later, nr, 1.0,
           ut + (ke + c0) * nb, nb);
    });
  }
  return out;
}

// Row b of s's Schur complement L21 U12 subtracted from its ancestor (the header's target rule):
// the entries (a, b), a >= b, given by lower(a), and (b, a), a > b, by upper(a); below: s's
// rows under its diagonal block, nb of them. pos: target's position map (TargetRows).
template <class Lower, class Upper>
void subtract_row(const Supernodes& sn, double* panels, const int32_t* below, int64_t b, int64_t nb,
                  TargetRows& target, const std::vector<int64_t>& pos, const Lower& lower, const Upper& upper,
                  bool shared) {
  const int32_t rb = below[b];
  const int32_t t = sn.of_col[rb];
  const int32_t nst = sn.cols(t);
  const int64_t nrt = sn.nrows(t);
  target.point(t);
  double* lt = panels + sn.l_ptr[t];
  double* utt = panels + sn.u_ptr[t];
  const int64_t cb = rb - sn.first[t];
  double* lcol = lt + cb * nrt;                // L(., cb): the entries (a, b)
  double* ucol = utt + cb * (nrt - nst);       // U^T's column cb, at positions p - nst
  subtract_from(lcol + pos[below[b]], lower(b), shared);
  // Positions rise with a: the entries (b, a) lie in t's diagonal block (L's row cb, across its
  // columns) up to the first a whose position passes nst, and in U^T's column cb after it.
  auto run = [&](auto atomic) {
    int64_t a = b + 1;
    for (; a < nb; ++a) {
      const int64_t p = pos[below[a]];
      if (p >= nst) break;
      subtract_from(lcol + p, lower(a), atomic);
      subtract_from(lt + cb + p * nrt, upper(a), atomic);
    }
    for (; a < nb; ++a) {
      const int64_t p = pos[below[a]];
      subtract_from(lcol + p, lower(a), atomic);
      subtract_from(ucol + (p - nst), upper(a), atomic);
    }
  };
  with_sharing(shared, run);
}

// Subtracts s's Schur complement L21 U12 from its ancestors (the header's target rule), the
// rows b of L21 in [b_begin, b_end). pos: n entries of scratch, -1 everywhere on entry and on
// return. Concurrent callers of one level may share targets (shared: their subtractions are
// atomic); one supernode's rows reach distinct entries, so a team may split them.
void update_ancestor_rows(const Supernodes& sn, int32_t s, double* panels, std::vector<int64_t>& pos, int64_t b_begin,
                          int64_t b_end, bool shared) {
  const int32_t ns = sn.cols(s);
  const int64_t nr = sn.nrows(s);
  const int64_t nb = nr - ns;
  thread_local std::vector<double> sums;  // a row's L and U sums
  if (sums.size() < static_cast<size_t>(2 * nb)) sums.resize(static_cast<size_t>(2 * nb));
  const double* l21 = panels + sn.l_ptr[s] + ns;
  const double* ut = panels + sn.u_ptr[s];
  const int32_t* below = sn.rows.data() + sn.rows_ptr[s] + ns;
  TargetRows target(sn, pos);
  for (int64_t b = b_begin; b < b_end; ++b) {
    // Row b's sums for every a >= b, k outermost: each sum still adds its k terms in order
    // (the same arithmetic as one dot product per entry), but the inner loops run down
    // contiguous columns of L21 and U^T instead of across them.
    const int64_t len = nb - b;
    double* lsum = sums.data();
    double* usum = sums.data() + len;
    std::fill(sums.begin(), sums.begin() + 2 * len, 0.0);
    for (int32_t k = 0; k < ns; ++k) {
      const double* lk = l21 + static_cast<int64_t>(k) * nr + b;
      const double* uk = ut + static_cast<int64_t>(k) * nb + b;
      const double ub = uk[0], lb = lk[0];
      for (int64_t i = 0; i < len; ++i) {
        lsum[i] += lk[i] * ub;
        usum[i] += lb * uk[i];
      }
    }
    subtract_row(
        sn, panels, below, b, nb, target, pos, [&](int64_t a) { return lsum[a - b]; },
        [&](int64_t a) { return usum[a - b]; }, shared);
  }
}

// update_ancestor_rows by GEMM (cpu/supernodal_blas.hpp), kBlasUpdateRows rows b at a time from
// b_begin (a multiple of it): the block's columns of L21 U12 below its first row, (a, b), and its
// rows right of it, (b, a), then subtracted row by row as above.
void update_ancestor_rows_blas(const Supernodes& sn, int32_t s, double* panels, std::vector<int64_t>& pos,
                               int64_t b_begin, int64_t b_end, bool shared) {
  const int32_t ns = sn.cols(s);
  const int64_t nr = sn.nrows(s);
  const int64_t nb = nr - ns;
  thread_local std::vector<double> lower, upper;
  const double* l21 = panels + sn.l_ptr[s] + ns;
  const double* ut = panels + sn.u_ptr[s];
  const int32_t* below = sn.rows.data() + sn.rows_ptr[s] + ns;
  TargetRows target(sn, pos);
  for (int64_t b0 = b_begin; b0 < b_end; b0 += kBlasUpdateRows) {
    const int64_t rows = std::min(b_end, b0 + kBlasUpdateRows) - b0, len = nb - b0;
    lower.resize(static_cast<size_t>(len * rows));
    upper.resize(static_cast<size_t>(rows * len));
    gemm('N', 'T', len, rows, ns, 1.0, l21 + b0, nr, ut + b0, nb, 0.0, lower.data(), len);  // (a, b) at a - b0 + (b - b0) len
    gemm('N', 'T', rows, len, ns, 1.0, l21 + b0, nr, ut + b0, nb, 0.0, upper.data(), rows);  // (b, a) at b - b0 + (a - b0) rows
    for (int64_t b = b0; b < b0 + rows; ++b)
      subtract_row(
          sn, panels, below, b, nb, target, pos,
          [&](int64_t a) { return lower[static_cast<size_t>(a - b0 + (b - b0) * len)]; },
          [&](int64_t a) { return upper[static_cast<size_t>(b - b0 + (a - b0) * rows)]; }, shared);
  }
}

// All of s's rows (update_rows_in_team), by GEMM where the supernode is wide and its update
// large enough (cpu/supernodal_blas.hpp).
void update_ancestors(const Supernodes& sn, int32_t s, double* panels, std::vector<std::vector<int64_t>>& scratch,
                      int thread, int inner, bool shared) {
  const int64_t nb = sn.nrows(s) - sn.cols(s);
  const int64_t entries = nb * (nb + 1) / 2 * sn.cols(s);
  const bool blas = sn.cols(s) >= kBlasUpdateColumns && entries >= kBlasUpdateEntries && blas_available();
  update_rows_in_team(
      nb, entries, inner, thread, scratch, sn.of_col.size(),
      [&](std::vector<int64_t>& pos, int64_t b_begin, int64_t b_end) {
        (blas ? update_ancestor_rows_blas : update_ancestor_rows)(sn, s, panels, pos, b_begin, b_end, shared);
      },
      blas ? kBlasUpdateRows : kUpdateRowChunk);
}

}  // namespace

void merge_node_stats(NumericStats& into, const NumericStats& from) {
  if (from.status != Status::ok &&
      (into.status == Status::ok || from.pivot_column < into.pivot_column)) {
    into.status = from.status;
    into.pivot_column = from.pivot_column;
    into.pivot_value = from.pivot_value;
  }
  if (from.perturbed_pivots > 0 && (into.first_perturbed < 0 || from.first_perturbed < into.first_perturbed))
    into.first_perturbed = from.first_perturbed;
  into.perturbed_pivots += from.perturbed_pivots;
  into.min_pivot_ratio = std::min(into.min_pivot_ratio, from.min_pivot_ratio);
  into.max_active = std::max(into.max_active, from.max_active);
}


NumericStats factor_supernodal(const Schedule& s, double* panels, const PivotRule& rule, int32_t threads,
                               RowPivoting pivoting) {
  const Supernodes& sn = s.supernodes;
  const int team = factor_team(threads, s.factor_flops);
  std::vector<std::vector<int64_t>> scratch(static_cast<size_t>(team));
  const BlasThreadsOne blas_threads;  // the teams split the BLAS calls themselves
  const int32_t schur = s.schur_supernode();
  return factor_by_levels(
      sn, team,
      [&](int32_t node, int inner) {
        // The Schur block only gathers its descendants' updates: S is the caller's to factor.
        if (node == schur) return NodeOutcome{};
        const bool pivoted = pivoting.pivoted && pivoting.pivoted[node] != 0;
        NodeOutcome o = factor_panel(sn, node, panels, rule, pivoted,
                                     pivoting.order ? pivoting.order + sn.first[node] : nullptr, inner);
        if (pivoting.failed) pivoting.failed[node] = o.failed ? 1 : 0;
        return o;
      },
      [&](int32_t node, int thread, int inner, bool shared) {
        update_ancestors(sn, node, panels, scratch, thread, inner, shared);
      },
      /*inner_team=*/true);
}

}  // namespace gpuglu::reference
