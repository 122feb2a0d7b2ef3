#include "cpu/supernodal_ldlt.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/bunch_kaufman.hpp"
#include "cpu/supernodal_blas.hpp"
#include "cpu/supernodal_numeric.hpp"
#include "cpu/supernodal_solve.hpp"
#include "cpu/triangular_solve.hpp"
#include "gpuglu/options.hpp"

namespace gpuglu::reference {

namespace {

// Supernode s's L panel, lower triangle read and written as a(i, j), i >= j.
struct Panel {
  double* l;
  int64_t nr;
  int32_t ns;
  double& operator()(int64_t i, int64_t j) const { return l[i + j * nr]; }
};

// The symmetric interchange of columns (and rows) i < j of the active matrix, rows of L's
// earlier columns included, and of their labels.
void swap_symmetric(const Panel& a, int32_t i, int32_t j, int32_t* perm) {
  std::swap(a(i, i), a(j, j));
  for (int32_t m = 0; m < i; ++m) std::swap(a(i, m), a(j, m));
  for (int32_t m = i + 1; m < j; ++m) std::swap(a(m, i), a(j, m));
  for (int64_t m = j + 1; m < a.nr; ++m) std::swap(a(m, i), a(m, j));
  std::swap(perm[i], perm[j]);
}

// max |a(i, k)| over rows from..to-1 of column k (the pivot block's: the pivot rule sees it
// alone, core/bunch_kaufman.hpp); finite says whether all were finite.
double column_max(const Panel& a, int32_t k, int64_t from, int64_t to, bool& finite_column) {
  double m = 0.0;
  finite_column = true;
  for (int64_t i = from; i < to; ++i) {
    const double v = std::fabs(a(i, k));
    m = v > m ? v : m;
    finite_column &= v <= std::numeric_limits<double>::max();
  }
  return m;
}

class NodeFactor {
 public:
  // unpivoted: the attempt of core/bunch_kaufman.hpp (no pivot search; unstable() says whether
  // the result may stand).
  // inner: the threads that may split the later columns' updates (by BLAS).
  NodeFactor(const Supernodes& sn, int32_t s, double* panels, const LdltPivots& pivots, const PivotRule& rule,
             bool unpivoted, int inner = 1)
      : a_{panels + sn.l_ptr[s], sn.nrows(s), sn.cols(s)},
        first_(sn.first[s]),
        perm_(pivots.perm + sn.first[s]),
        kind_(pivots.kind + sn.first[s]),
        off_(pivots.off + sn.first[s]),
        rule_(rule),
        unpivoted_(unpivoted),
        inner_(inner) {
    for (int32_t k = 0; k < a_.ns; ++k) perm_[k] = k;
  }

  NodeOutcome run() {
    for (int32_t j0 = 0; j0 < a_.ns && !out_.failed && !unstable_; j0 += kLdltPivotBlock) {
      const int32_t j1 = std::min(a_.ns, j0 + kLdltPivotBlock);
      if (!factor_block(j0, j1)) break;
      update_later_columns(j0, j1);
    }
    if (unpivoted_ && !unstable_ && !all_positive_ && !multipliers_stand()) unstable_ = true;
    return out_;
  }
  bool unstable() const { return unstable_; }

 private:
  // The threshold test of core/bunch_kaufman.hpp on every column of the factored panel.
  bool multipliers_stand() const {
    for (int32_t k = 0; k < a_.ns; ++k) {
      double m = 0.0;
      for (int64_t i = k + 1; i < a_.nr; ++i) m = std::max(m, std::fabs(a_(i, k)));
      if (!unpivoted_column_stands(m)) return false;
    }
    return true;
  }

  bool fail(int32_t k, double pivot) {
    out_.failed = true;
    out_.stats.status = Status::numerically_singular;
    out_.stats.pivot_column = first_ + k;
    out_.stats.pivot_value = pivot;
    return false;
  }

  void note_ratio(double size, double colmax) {
    NumericStats& st = out_.stats;
    st.max_active = std::max(st.max_active, colmax);
    st.min_pivot_ratio = std::min(st.min_pivot_ratio, colmax > 0.0 ? size / colmax : 0.0);
  }

  // Columns j0 .. j1 - 1, right-looking inside the block.
  bool factor_block(int32_t j0, int32_t j1) {
    int32_t k = j0;
    while (k < j1) {
      double omega1 = 0.0;
      int32_t r = -1;
      for (int32_t i = k + 1; i < j1 && !unpivoted_; ++i) {  // no pivot search in the unpivoted attempt
        const double v = std::fabs(a_(i, k));
        if (v > omega1) omega1 = v, r = i;
      }
      PivotChoice choice = PivotChoice::one_at_k;
      if (r >= 0) {
        double omega_r = 0.0;
        for (int32_t m = k; m < r; ++m) omega_r = std::max(omega_r, std::fabs(a_(r, m)));
        for (int64_t i = r + 1; i < j1; ++i) omega_r = std::max(omega_r, std::fabs(a_(i, r)));
        choice = bunch_kaufman_choice(std::fabs(a_(k, k)), omega1, std::fabs(a_(r, r)), omega_r);
      }
      if (choice == PivotChoice::one_at_r) swap_symmetric(a_, k, r, perm_);
      if (choice == PivotChoice::two_with_r) {
        if (r != k + 1) swap_symmetric(a_, k + 1, r, perm_);
        if (two_by_two(k, j1)) {
          k += 2;
          continue;
        }
        if (out_.failed) return false;
      }
      if (!one_by_one(k, j1)) return false;
      ++k;
    }
    return true;
  }

  bool one_by_one(int32_t k, int32_t j1) {
    bool fin = true;
    const double colmax = column_max(a_, k, k, j1, fin);
    const double pivot0 = a_(k, k);
    note_ratio(std::fabs(pivot0), colmax);
    if (unpivoted_ && (!fin || rule_.tiny(std::fabs(pivot0), colmax))) {
      unstable_ = true;  // the pivoted steps decide (perturb or report)
      return false;
    }
    all_positive_ = all_positive_ && pivot0 > 0.0;
    if (!fin) return fail(k, pivot0);
    double d = pivot0;
    if (rule_.tiny(std::fabs(pivot0), colmax)) {
      if (rule_.policy == PivotPolicy::report) return fail(k, pivot0);
      d = rule_.perturbed(pivot0, colmax);
      if (out_.stats.perturbed_pivots++ == 0) out_.stats.first_perturbed = first_ + k;
    }
    a_(k, k) = d;
    kind_[k] = kPivotOne;
    w_.assign(static_cast<size_t>(j1 - k - 1), 0.0);
    for (int32_t c = k + 1; c < j1; ++c) w_[c - k - 1] = a_(c, k);
    for (int64_t i = k + 1; i < a_.nr; ++i) a_(i, k) /= d;
    for (int32_t c = k + 1; c < j1; ++c) {
      const double v = w_[c - k - 1];
      if (v != 0.0)
        for (int64_t i = c; i < a_.nr; ++i) a_(i, c) -= a_(i, k) * v;
    }
    return true;
  }

  // False (nothing changed) when the 2 x 2 pivot fails its test; then the caller takes a
  // 1 x 1 step at k.
  bool two_by_two(int32_t k, int32_t j1) {
    bool fin0 = true, fin1 = true;
    const double colmax = std::max(column_max(a_, k, k, j1, fin0), column_max(a_, k + 1, k + 1, j1, fin1));
    const double d1 = a_(k, k), e = a_(k + 1, k), d2 = a_(k + 1, k + 1);
    const double det = d1 * d2 - e * e;
    if (!fin0 || !fin1 || !two_by_two_usable(det, e, colmax, rule_.threshold, rule_.zero_pivot)) return false;
    note_ratio(std::fabs(det) / std::fabs(e), colmax);
    kind_[k] = kPivotFirstOfTwo;
    kind_[k + 1] = kPivotSecondOfTwo;
    off_[k] = e;
    a_(k + 1, k) = 0.0;  // L11 stays unit lower triangular; e lives in off
    const int32_t nw = j1 - k - 2;
    w_.assign(static_cast<size_t>(2 * std::max(nw, 0)), 0.0);
    for (int32_t c = k + 2; c < j1; ++c) {
      w_[2 * (c - k - 2)] = a_(c, k);
      w_[2 * (c - k - 2) + 1] = a_(c, k + 1);
    }
    for (int64_t i = k + 2; i < a_.nr; ++i) {
      const double v1 = a_(i, k), v2 = a_(i, k + 1);
      a_(i, k) = (v1 * d2 - v2 * e) / det;
      a_(i, k + 1) = (v2 * d1 - v1 * e) / det;
    }
    for (int32_t c = k + 2; c < j1; ++c) {
      const double w1 = w_[2 * (c - k - 2)], w2 = w_[2 * (c - k - 2) + 1];
      for (int64_t i = c; i < a_.nr; ++i) a_(i, c) -= a_(i, k) * w1 + a_(i, k + 1) * w2;
    }
    return true;
  }

  // Columns j1 .. ns - 1 (their lower part) lose L(:, blk) D_blk L(c, blk)^T: by GEMM where an
  // optimized BLAS answers (cpu/supernodal_blas.hpp; in pieces of columns, each from its own
  // first row down, so that its square's upper part - never read - takes the product too).
  void update_later_columns(int32_t j0, int32_t j1) {
    const int32_t width = j1 - j0;
    const int64_t later = a_.ns - j1;
    if (later > 0 && blas_available()) {
      wt_.resize(static_cast<size_t>(later * width));  // W(c - j1, k) = (D_blk L(c, blk)^T)_k, ld later
      w_.resize(static_cast<size_t>(width));
      for (int64_t c = 0; c < later; ++c) {
        d_times_row(j0, j1, j1 + c, w_.data());
        for (int32_t k = 0; k < width; ++k) wt_[static_cast<size_t>(c + k * later)] = w_[static_cast<size_t>(k)];
      }
      over_column_pieces(later, inner_, later * width * (a_.nr - j1), [&](int64_t c0, int64_t c1) {
        const int64_t top = j1 + c0;
        gemm('N', 'T', a_.nr - top, c1 - c0, width, -1.0, &a_(top, j0), a_.nr, wt_.data() + c0, later, 1.0,
             &a_(top, top), a_.nr);
      });
      return;
    }
    for (int32_t c = j1; c < a_.ns; ++c) {
      w_.assign(static_cast<size_t>(width), 0.0);
      d_times_row(j0, j1, c, w_.data());
      for (int32_t k = 0; k < width; ++k) {
        const double v = w_[k];
        if (v != 0.0)
          for (int64_t i = c; i < a_.nr; ++i) a_(i, c) -= a_(i, j0 + k) * v;
      }
    }
  }

 public:
  // w = D_blk L(row, blk)^T for the block's columns j0 .. j1 - 1 (factored).
  void d_times_row(int32_t j0, int32_t j1, int64_t row, double* w) const {
    d_times_row(a_, kind_, off_, j0, j1, row, w);
  }
  static void d_times_row(const Panel& a, const int8_t* kind, const double* off, int32_t j0, int32_t j1, int64_t row,
                          double* w) {
    for (int32_t k = j0; k < j1; ++k) {
      if (kind[k] == kPivotFirstOfTwo) {
        const double l1 = a(row, k), l2 = a(row, k + 1), e = off[k];
        w[k - j0] = l1 * a(k, k) + l2 * e;
        w[k - j0 + 1] = l1 * e + l2 * a(k + 1, k + 1);
        ++k;
      } else {
        w[k - j0] = a(row, k) * a(k, k);
      }
    }
  }

 private:
  Panel a_;
  int32_t first_;
  int32_t* perm_;
  int8_t* kind_;
  double* off_;
  const PivotRule& rule_;
  bool unpivoted_;
  int inner_;
  bool unstable_ = false;
  bool all_positive_ = true;  // over the unpivoted attempt's pivots
  NodeOutcome out_;
  std::vector<double> w_;
  std::vector<double> wt_;  // the later columns' D_blk L(c, blk)^T, for the GEMM
};

// Column b of s's Schur complement L21 D L21^T, its entries (a, b), a >= b, given by value(a),
// subtracted from its ancestor (the target rule of supernodes.hpp, L panels only); below: s's
// rows under its diagonal block, nb of them. pos: the target's position map (TargetRows).
template <class Value>
void subtract_column(const Supernodes& sn, double* panels, const int32_t* below, int64_t b, int64_t nb,
                     TargetRows& target, const std::vector<int64_t>& pos, const Value& value, bool shared) {
  const int32_t rb = below[b];
  const int32_t t = sn.of_col[rb];
  target.point(t);
  double* lt = panels + sn.l_ptr[t] + (rb - sn.first[t]) * sn.nrows(t);
  with_sharing(shared, [&](auto atomic) {
    for (int64_t a = b; a < nb; ++a) subtract_from(lt + pos[below[a]], value(a), atomic);
  });
}

// Rows [b_begin, b_end) of s's Schur complement L21 D L21^T, lower triangle, subtracted from
// its ancestors (the target rule of supernodes.hpp, L panels only); w: D L21^T by rows (nb x
// ns, row-major). pos: n entries of -1 (restored). One supernode's rows reach distinct
// entries, so a team may split them; supernodes of one level may share targets (shared:
// atomic).
void update_ancestor_rows(const Supernodes& sn, int32_t s, double* panels, const double* w, std::vector<int64_t>& pos,
                          int64_t b_begin, int64_t b_end, bool shared) {
  const int32_t ns = sn.cols(s);
  const int64_t nr = sn.nrows(s);
  const int64_t nb = nr - ns;
  const Panel a{panels + sn.l_ptr[s], nr, ns};
  thread_local std::vector<double> sums;
  if (sums.size() < static_cast<size_t>(nb)) sums.resize(static_cast<size_t>(nb));
  const int32_t* below = sn.rows.data() + sn.rows_ptr[s] + ns;
  TargetRows target(sn, pos);
  for (int64_t b = b_begin; b < b_end; ++b) {
    const double* wb = w + b * ns;
    // Every a >= b at once, k outermost: each sum adds its k terms in order, as one dot
    // product per entry did, down contiguous columns of L21 instead of across them.
    const int64_t len = nb - b;
    std::fill(sums.begin(), sums.begin() + len, 0.0);
    for (int32_t k = 0; k < ns; ++k) {
      const double* ak = &a(ns + b, k);
      const double wk = wb[k];
      for (int64_t i = 0; i < len; ++i) sums[static_cast<size_t>(i)] += ak[i] * wk;
    }
    subtract_column(
        sn, panels, below, b, nb, target, pos, [&](int64_t aa) { return sums[static_cast<size_t>(aa - b)]; }, shared);
  }
}

// update_ancestor_rows by GEMM (cpu/supernodal_blas.hpp), kBlasUpdateRows rows b at a time from
// b_begin (a multiple of it): the block's columns of L21 D L21^T below its first row.
void update_ancestor_rows_blas(const Supernodes& sn, int32_t s, double* panels, const double* w,
                               std::vector<int64_t>& pos, int64_t b_begin, int64_t b_end, bool shared) {
  const int32_t ns = sn.cols(s);
  const int64_t nr = sn.nrows(s);
  const int64_t nb = nr - ns;
  const Panel a{panels + sn.l_ptr[s], nr, ns};
  thread_local std::vector<double> lower;
  const int32_t* below = sn.rows.data() + sn.rows_ptr[s] + ns;
  TargetRows target(sn, pos);
  for (int64_t b0 = b_begin; b0 < b_end; b0 += kBlasUpdateRows) {
    const int64_t rows = std::min(b_end, b0 + kBlasUpdateRows) - b0, len = nb - b0;
    lower.resize(static_cast<size_t>(len * rows));
    // (aa, b) at aa - b0 + (b - b0) len: L21(aa, :) . w(b, :), w being D L21^T by rows
    gemm('N', 'N', len, rows, ns, 1.0, &a(ns + b0, 0), nr, w + b0 * ns, ns, 0.0, lower.data(), len);
    for (int64_t b = b0; b < b0 + rows; ++b) {
      const double* column = lower.data() + (b - b0) * len;  // (aa, b) at column[aa - b0]
      subtract_column(sn, panels, below, b, nb, target, pos, [&](int64_t aa) { return column[aa - b0]; }, shared);
    }
  }
}

// All of s's rows (update_rows_in_team), after w = D L21^T (work[thread], the calling
// thread's).
void update_ancestors(const Supernodes& sn, int32_t s, double* panels, const LdltPivots& pivots,
                      std::vector<std::vector<int64_t>>& scratch, std::vector<double>& w, int thread, int inner,
                      bool shared) {
  const int32_t ns = sn.cols(s);
  const int64_t nb = sn.nrows(s) - ns;
  if (nb == 0) return;
  const Panel a{panels + sn.l_ptr[s], sn.nrows(s), ns};
  const int8_t* kinds = pivots.kind + sn.first[s];
  const double* off = pivots.off + sn.first[s];
  // w(b, :) = D L21(b, :)^T, row by row (nb x ns, row-major).
  w.resize(static_cast<size_t>(nb * ns));
  for (int64_t b = 0; b < nb; ++b) NodeFactor::d_times_row(a, kinds, off, 0, ns, ns + b, w.data() + b * ns);
  const int64_t entries = nb * (nb + 1) / 2 * ns;
  const bool blas = ns >= kBlasUpdateColumns && entries >= kBlasUpdateEntries && blas_available();
  update_rows_in_team(
      nb, entries, inner, thread, scratch, sn.of_col.size(),
      [&](std::vector<int64_t>& pos, int64_t b_begin, int64_t b_end) {
        (blas ? update_ancestor_rows_blas : update_ancestor_rows)(sn, s, panels, w.data(), pos, b_begin, b_end, shared);
      },
      blas ? kBlasUpdateRows : kUpdateRowChunk);
}

}  // namespace

NumericStats factor_supernodal_ldlt(const Schedule& s, double* panels, const LdltPivots& pivots, const PivotRule& rule,
                                    int32_t threads, int8_t* pivoted, bool* unpivoted_failed) {
  const Supernodes& sn = s.supernodes;
  const int team = factor_team(threads, s.factor_flops);
  std::vector<std::vector<int64_t>> scratch(static_cast<size_t>(team));
  std::vector<std::vector<double>> work(static_cast<size_t>(team));
  const BlasThreadsOne blas_threads;  // the teams split the BLAS calls themselves
  std::atomic<bool> unstable{false};
  const int32_t schur = s.schur_supernode();
  NumericStats stats = factor_by_levels(
      sn, team,
      [&](int32_t node, int inner) {
        if (node == schur) {
          // The Schur block only gathers its descendants' updates: S is the caller's to factor.
          // Its columns keep their order, as 1 x 1 "pivots" that nothing reads as D.
          for (int32_t j = sn.first[node]; j < sn.first[node + 1]; ++j) {
            pivots.perm[j] = j - sn.first[node];
            pivots.kind[j] = kPivotOne;
          }
          return NodeOutcome{};
        }
        NodeFactor f(sn, node, panels, pivots, rule, pivoted != nullptr && pivoted[node] == 0, inner);
        NodeOutcome o = f.run();
        if (f.unstable()) {
          pivoted[node] = 1;  // each supernode is one thread's (a team only updates)
          unstable = true;
          o.failed = true;  // nothing to send on: the factorization is redone
        }
        return o;
      },
      [&](int32_t node, int thread, int inner, bool shared) {
        update_ancestors(sn, node, panels, pivots, scratch, work[static_cast<size_t>(thread)], thread, inner, shared);
      },
      /*inner_team=*/true);
  if (unpivoted_failed) *unpivoted_failed = unstable;
  return stats;
}

void ldlt_diagonal_solve(const Schedule& s, const double* panels, const LdltPivots& pivots, double* y, int32_t count) {
  const Supernodes& sn = s.supernodes;
  ldlt_diagonal_solve_with([&](int32_t j) { return panels[sn.pivot_position(j)]; }, pivots, y, count);
}

// The supernodal LU's L sweeps on the L panels (supernodal_solve.hpp), each supernode's
// entries of x in its pivot order, and D between them: the GPU's order of work
// (cuda/supernodal/panel_solves.hpp).
void solve_supernodal_ldlt(const Schedule& s, const double* panels, const LdltPivots& pivots, const double* b,
                           double* x, double* work) {
  const SupernodeRowOrder rows{nullptr, pivots.perm};
  solve_permuted(s, b, x, work, false, [&](double* y) {
    supernodal_lower_unit_solve(s, panels, y, rows);
    ldlt_diagonal_solve(s, panels, pivots, y, s.n);
    supernodal_lower_unit_transpose_solve(s, panels, y, rows);
  });
}

PivotSigns supernodal_ldlt_inertia(const Schedule& s, const double* panels, const LdltPivots& pivots) {
  std::vector<double> d(static_cast<size_t>(s.n));
  for (int32_t j = 0; j < s.n; ++j) d[j] = panels[s.supernodes.pivot_position(j)];
  return count_pivot_signs(d.data(), pivots.off, pivots.kind, s.n);
}

}  // namespace gpuglu::reference
