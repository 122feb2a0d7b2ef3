#include "cpu/supernodal_numeric.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

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
  for (int32_t k = 0; k < ns; ++k) {
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
    const int64_t entries = static_cast<int64_t>(ns - k - 1) * (nr - k - 1 + nb);
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
      for (int32_t j = k + 1; j < ns; ++j) update_column(j);
    } else {
      for (int32_t j = k + 1; j < ns; ++j) update_column(j);
    }
  }
  return out;
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
    const int32_t rb = below[b];
    const int32_t t = sn.of_col[rb];
    const int32_t nst = sn.cols(t);
    const int64_t nrt = sn.nrows(t);
    target.point(t);
    double* lt = panels + sn.l_ptr[t];
    double* utt = panels + sn.u_ptr[t];
    const int64_t cb = rb - sn.first[t];
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
    for (int64_t a = b; a < nb; ++a) {
      const int64_t p = pos[below[a]];
      subtract_from(lt + p + cb * nrt, lsum[a - b], shared);
      if (a == b) continue;
      subtract_from(p >= nst ? utt + (p - nst) + cb * (nrt - nst) : lt + cb + p * nrt, usum[a - b], shared);
    }
  }
}

// All of s's rows (update_rows_in_team).
void update_ancestors(const Supernodes& sn, int32_t s, double* panels, std::vector<std::vector<int64_t>>& scratch,
                      int thread, int inner, bool shared) {
  const int64_t nb = sn.nrows(s) - sn.cols(s);
  update_rows_in_team(nb, nb * (nb + 1) / 2 * sn.cols(s), inner, thread, scratch, sn.of_col.size(),
                      [&](std::vector<int64_t>& pos, int64_t b_begin, int64_t b_end) {
                        update_ancestor_rows(sn, s, panels, pos, b_begin, b_end, shared);
                      });
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
