#include "cpu/supernodal_solve.hpp"

#include <cstdint>
#include <vector>

#include "cpu/triangular_solve.hpp"

namespace gpuglu::reference {

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

// The supernodes the sweeps walk: all but a Schur schedule's last, which is never factored;
// so a sweep stops at the Schur block (forward: its entries then hold the reduced right-hand
// side) or starts with its entries as given (backward: the reduced system's solution).
int32_t factored_supernodes(const Schedule& s) {
  return s.schur_supernode() >= 0 ? s.supernodes.count - 1 : s.supernodes.count;
}

bool pivoted(const SupernodeRowOrder& rows, int32_t t) {
  return rows.order && (!rows.pivoted || rows.pivoted[t] != 0);
}

// y (ns entries) put in the supernode's pivot order (y[i] = y_before[order[i]]), or back
// (inverse: y[order[i]] = y_before[i]).
void reorder(double* y, const int32_t* order, int32_t ns, bool inverse, std::vector<double>& tmp) {
  tmp.assign(y, y + ns);
  for (int32_t i = 0; i < ns; ++i) {
    if (inverse)
      y[order[i]] = tmp[static_cast<size_t>(i)];
    else
      y[i] = tmp[static_cast<size_t>(order[i])];
  }
}

// x at the rows below p's columns, gathered once per supernode rather than once per column:
// the columns' dot products then read them contiguously, in the same order as before.
void gather_below(const PanelView& p, const double* x, std::vector<double>& below) {
  below.resize(static_cast<size_t>(p.nb));
  for (int64_t a = 0; a < p.nb; ++a) below[static_cast<size_t>(a)] = x[p.below[a]];
}

}  // namespace

// Ascending supernodes: each one's columns are final once its descendants are done (a pivoted
// one's then put in its pivot order).
// Each below row's sum runs over k ascending from 0.0, as a dot product per row would, but
// the loops go down L21's contiguous columns (k outermost) into a buffer of sums: the same
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
    sums.assign(static_cast<size_t>(p.nb), 0.0);
    for (int32_t k = 0; k < p.ns; ++k) {
      const double* l21k = p.l + p.ns + static_cast<int64_t>(k) * p.nr;
      const double yk = y[k];
      for (int64_t a = 0; a < p.nb; ++a) sums[static_cast<size_t>(a)] += l21k[a] * yk;
    }
    for (int64_t a = 0; a < p.nb; ++a) x[p.below[a]] -= sums[static_cast<size_t>(a)];
  }
}

// Descending supernodes: the rows below a supernode's columns are final before it.
void supernodal_upper_solve(const Schedule& s, const double* panels, double* x) {
  std::vector<double> below;
  for (int32_t t = factored_supernodes(s) - 1; t >= 0; --t) {
    const PanelView p = view(s, panels, t);
    double* y = x + p.first;
    gather_below(p, x, below);
    for (int32_t k = 0; k < p.ns; ++k) {
      const double* utk = p.ut + static_cast<int64_t>(k) * p.nb;
      double sum = 0.0;
      for (int64_t a = 0; a < p.nb; ++a) sum += utk[a] * below[static_cast<size_t>(a)];
      y[k] -= sum;
    }
    for (int32_t k = p.ns - 1; k >= 0; --k) {
      const double* col = p.l + static_cast<int64_t>(k) * p.nr;  // U(0:k, k) above the pivot
      y[k] /= col[k];
      for (int32_t i = 0; i < k; ++i) y[i] -= col[i] * y[k];
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
      y[k] = sum / col[k];
    }
    for (int32_t k = 0; k < p.ns; ++k) {
      const double* utk = p.ut + static_cast<int64_t>(k) * p.nb;
      for (int64_t a = 0; a < p.nb; ++a) x[p.below[a]] -= utk[a] * y[k];
    }
  }
}

void supernodal_lower_unit_transpose_solve(const Schedule& s, const double* panels, double* x,
                                           SupernodeRowOrder rows) {
  std::vector<double> tmp, below;
  for (int32_t t = factored_supernodes(s) - 1; t >= 0; --t) {
    const PanelView p = view(s, panels, t);
    double* y = x + p.first;
    gather_below(p, x, below);
    for (int32_t k = 0; k < p.ns; ++k) {
      const double* l21k = p.l + p.ns + static_cast<int64_t>(k) * p.nr;
      double sum = 0.0;
      for (int64_t a = 0; a < p.nb; ++a) sum += l21k[a] * below[static_cast<size_t>(a)];
      y[k] -= sum;
    }
    for (int32_t k = p.ns - 1; k >= 0; --k) {
      double sum = y[k];
      for (int32_t i = k + 1; i < p.ns; ++i) sum -= p.l[i + static_cast<int64_t>(k) * p.nr] * y[i];  // L(i, k) y_i
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
