#include "cpu/supernodal_solve.hpp"

#include <cstdint>
#include <vector>

#include "cpu/triangular_solve.hpp"

namespace gpuglu::reference {

// The supernodes the sweeps walk: all but a Schur schedule's last, which is never factored;
// so a sweep stops at the Schur block (forward: its entries then hold the reduced right-hand
// side) or starts with its entries as given (backward: the reduced system's solution).
int32_t factored_supernodes(const Schedule& s) {
  return s.schur_supernode() >= 0 ? s.supernodes.count - 1 : s.supernodes.count;
}

bool pivoted(const SupernodeRowOrder& rows, int32_t t) {
  return rows.order && (!rows.pivoted || rows.pivoted[t] != 0);
}

void reorder(double* y, const int32_t* order, int32_t ns, bool inverse, std::vector<double>& tmp) {
  tmp.assign(y, y + ns);
  for (int32_t i = 0; i < ns; ++i) {
    if (inverse)
      y[order[i]] = tmp[static_cast<size_t>(i)];
    else
      y[i] = tmp[static_cast<size_t>(order[i])];
  }
}

namespace {

struct PanelView {
  int32_t first, ns;
  int64_t nr, nb;
  const int32_t* below;
  const double* l;   // nr x ns, leading dimension nr
  const double* ut;  // nb x ns, leading dimension nb
};

PanelView view(const Schedule& s, const double* panels, int32_t t) {
  const Supernodes& sn = s.supernodes;
  PanelView p;
  p.first = sn.first[t];
  p.ns = sn.cols(t);
  p.nr = sn.nrows(t);
  p.nb = p.nr - p.ns;
  p.below = sn.rows.data() + sn.rows_ptr[t] + p.ns;
  p.l = panels + sn.l_ptr[t];
  p.ut = panels + sn.u_ptr[t];
  return p;
}

// x at the rows below p's columns, gathered once per supernode rather than once per column:
// the columns' dot products then read them contiguously, in the same order as before.
void gather_below(const PanelView& p, const double* x, std::vector<double>& below) {
  below.resize(static_cast<size_t>(p.nb));
  for (int64_t a = 0; a < p.nb; ++a) below[static_cast<size_t>(a)] = x[p.below[a]];
}

// out[k] = sum over a of cols[k][a] * v[a], k < ns, each column at stride ld: every sum runs
// over a ascending from 0.0, as one dot product per column would, but four columns at a time
// so that four independent sums are in flight instead of one latency-bound chain.
void column_dots(const double* cols, int64_t ld, int32_t ns, const double* v, int64_t len, double* out) {
  int32_t k = 0;
  static_assert(kColumnsPerPass == 4, "the passes below spell out four columns");
  for (; k + kColumnsPerPass <= ns; k += kColumnsPerPass) {
    const double* c0 = cols + static_cast<int64_t>(k) * ld;
    const double* c1 = c0 + ld;
    const double* c2 = c1 + ld;
    const double* c3 = c2 + ld;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    for (int64_t a = 0; a < len; ++a) {
      const double va = v[a];
      s0 += c0[a] * va;
      s1 += c1[a] * va;
      s2 += c2[a] * va;
      s3 += c3[a] * va;
    }
    out[k] = s0;
    out[k + 1] = s1;
    out[k + 2] = s2;
    out[k + 3] = s3;
  }
  for (; k < ns; ++k) {
    const double* c = cols + static_cast<int64_t>(k) * ld;
    double s = 0.0;
    for (int64_t a = 0; a < len; ++a) s += c[a] * v[a];
    out[k] = s;
  }
}

// sums[a] += sum over k < ns of cols[k][a] * y[k], each column at stride ld, k ascending for
// every a as one column at a time would add them, but four columns per pass over sums.
void column_axpys(const double* cols, int64_t ld, int32_t ns, const double* y, int64_t len, double* sums) {
  int32_t k = 0;
  for (; k + kColumnsPerPass <= ns; k += kColumnsPerPass) {
    const double* c0 = cols + static_cast<int64_t>(k) * ld;
    const double* c1 = c0 + ld;
    const double* c2 = c1 + ld;
    const double* c3 = c2 + ld;
    const double y0 = y[k], y1 = y[k + 1], y2 = y[k + 2], y3 = y[k + 3];
    for (int64_t a = 0; a < len; ++a) {
      double s = sums[a];
      s += c0[a] * y0;
      s += c1[a] * y1;
      s += c2[a] * y2;
      s += c3[a] * y3;
      sums[a] = s;
    }
  }
  for (; k < ns; ++k) {
    const double* c = cols + static_cast<int64_t>(k) * ld;
    const double yk = y[k];
    for (int64_t a = 0; a < len; ++a) sums[a] += c[a] * yk;
  }
}

}  // namespace

// Ascending supernodes: each one's columns are final once its descendants are done (a pivoted
// one's then put in its pivot order).
// Each below row's sum runs over k ascending from 0.0, as a dot product per row would, but
// the loops go down L21's contiguous columns into a buffer of sums (column_axpys): the same
// arithmetic entry by entry, without a strided walk per row.
void supernodal_lower_unit_solve(const Schedule& s, const double* panels, double* x, SupernodeRowOrder rows) {
  std::vector<double> tmp, sums;
  for (int32_t t = 0; t < factored_supernodes(s); ++t) {
    const PanelView p = view(s, panels, t);
    double* y = x + p.first;
    if (pivoted(rows, t)) reorder(y, rows.order + p.first, p.ns, false, tmp);
    for (int32_t k = 0; k < p.ns; ++k) {
      const double* lk = p.l + static_cast<int64_t>(k) * p.nr;
      for (int32_t i = k + 1; i < p.ns; ++i) y[i] -= lk[i] * y[k];
    }
    const double* l21 = p.l + p.ns;
    if (p.ns < kColumnsPerPass) {
      for (int64_t a = 0; a < p.nb; ++a) {
        double sum = 0.0;
        for (int32_t k = 0; k < p.ns; ++k) sum += l21[a + static_cast<int64_t>(k) * p.nr] * y[k];
        x[p.below[a]] -= sum;
      }
      continue;
    }
    sums.assign(static_cast<size_t>(p.nb), 0.0);
    column_axpys(l21, p.nr, p.ns, y, p.nb, sums.data());
    for (int64_t a = 0; a < p.nb; ++a) x[p.below[a]] -= sums[static_cast<size_t>(a)];
  }
}

// Descending supernodes: the rows below a supernode's columns are final before it.
void supernodal_upper_solve(const Schedule& s, const double* panels, double* x) {
  std::vector<double> below, sums;
  for (int32_t t = factored_supernodes(s) - 1; t >= 0; --t) {
    const PanelView p = view(s, panels, t);
    double* y = x + p.first;
    if (p.ns < kColumnsPerPass) {
      for (int32_t k = 0; k < p.ns; ++k) {
        const double* utk = p.ut + static_cast<int64_t>(k) * p.nb;
        double sum = 0.0;
        for (int64_t a = 0; a < p.nb; ++a) sum += utk[a] * x[p.below[a]];
        y[k] -= sum;
      }
    } else {
      gather_below(p, x, below);
      sums.resize(static_cast<size_t>(p.ns));
      column_dots(p.ut, p.nb, p.ns, below.data(), p.nb, sums.data());
      for (int32_t k = 0; k < p.ns; ++k) y[k] -= sums[static_cast<size_t>(k)];
    }
    for (int32_t k = p.ns - 1; k >= 0; --k) {
      const double* col = p.l + static_cast<int64_t>(k) * p.nr;  // U(0:k, k) above the pivot
      const double yk = y[k] = over_pivot(y[k], col[k]);
      for (int32_t i = 0; i < k; ++i) y[i] -= col[i] * yk;
    }
  }
}

void supernodal_upper_transpose_solve(const Schedule& s, const double* panels, double* x) {
  for (int32_t t = 0; t < factored_supernodes(s); ++t) {
    const PanelView p = view(s, panels, t);
    double* y = x + p.first;
    for (int32_t k = 0; k < p.ns; ++k) {
      const double* col = p.l + static_cast<int64_t>(k) * p.nr;
      double sum = y[k];
      for (int32_t i = 0; i < k; ++i) sum -= col[i] * y[i];  // U(i, k) y_i
      y[k] = over_pivot(sum, col[k]);
    }
    for (int32_t k = 0; k < p.ns; ++k) {
      const double* utk = p.ut + static_cast<int64_t>(k) * p.nb;
      for (int64_t a = 0; a < p.nb; ++a) x[p.below[a]] -= utk[a] * y[k];
    }
  }
}

void supernodal_lower_unit_transpose_solve(const Schedule& s, const double* panels, double* x,
                                           SupernodeRowOrder rows) {
  std::vector<double> tmp, below, sums;
  for (int32_t t = factored_supernodes(s) - 1; t >= 0; --t) {
    const PanelView p = view(s, panels, t);
    double* y = x + p.first;
    gather_below(p, x, below);
    sums.resize(static_cast<size_t>(p.ns));
    column_dots(p.l + p.ns, p.nr, p.ns, below.data(), p.nb, sums.data());
    for (int32_t k = 0; k < p.ns; ++k) y[k] -= sums[static_cast<size_t>(k)];
    // Each y[k] loses its terms L(i, k) y_i with i descending, so that a copy of the block by
    // rows (cpu/supernodal_sweep_layout.hpp) subtracts them row by row, independent updates
    // instead of one chain of dependent subtractions per column, and gives the same bits.
    for (int32_t k = p.ns - 1; k >= 0; --k) {
      double sum = y[k];
      for (int32_t i = p.ns - 1; i > k; --i) sum -= p.l[i + static_cast<int64_t>(k) * p.nr] * y[i];  // L(i, k) y_i
      y[k] = sum;
    }
    if (pivoted(rows, t)) reorder(y, rows.order + p.first, p.ns, true, tmp);
  }
}

void solve_with_panels(const Schedule& s, const double* panels, const double* b, double* x, double* work,
                       bool transpose, SupernodeRowOrder rows) {
  solve_permuted(s, b, x, work, transpose, [&](double* z) {
    if (transpose) {
      supernodal_upper_transpose_solve(s, panels, z);
      supernodal_lower_unit_transpose_solve(s, panels, z, rows);
    } else {
      supernodal_lower_unit_solve(s, panels, z, rows);
      supernodal_upper_solve(s, panels, z);
    }
  });
}

}  // namespace gpuglu::reference
