#include "cpu/supernodal_sweep_layout.hpp"

#include <cstdint>
#include <vector>

#include "cpu/supernodal_solve.hpp"
#include "cpu/triangular_solve.hpp"

namespace gpuglu::reference {

namespace {

constexpr int32_t kGroup = kColumnsPerPass;

int64_t triangle(int64_t ns) { return ns * (ns + 1) / 2; }

// s[j] = sum over i < len of group[kGroup i + j] v[i], j < kGroup, each sum over i ascending from
// 0.0: a group's kGroup rows (forward) or columns (backward), interleaved, with their sums in
// flight together.
inline void interleaved_dots(const double* group, const double* v, int64_t len, double* s) {
  static_assert(kGroup == 4, "the pass below spells out four sums");
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  for (int64_t i = 0; i < len; ++i) {
    const double vi = v[i];
    s0 += group[4 * i] * vi;
    s1 += group[4 * i + 1] * vi;
    s2 += group[4 * i + 2] * vi;
    s3 += group[4 * i + 3] * vi;
  }
  s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
}

}  // namespace

void SweepLayout::build(const Schedule& s, const double* panels, const LdltPivots* ldlt) {
  const Supernodes& sn = s.supernodes;
  const int32_t count = factored_supernodes(s);
  ldlt_ = ldlt != nullptr;
  // The backward sweep's diagonal block: U's upper triangle (ns (ns + 1) / 2 entries), or the
  // LDL^T's strict lower one.
  auto block = [&](int64_t ns) { return ldlt_ ? triangle(ns - 1) : triangle(ns); };
  forward_at_.resize(static_cast<size_t>(count));
  backward_at_.resize(static_cast<size_t>(count));
  backward_rows_at_.resize(static_cast<size_t>(count));
  int64_t forward = 0, backward = 0, rows = 0;
  for (int32_t t = 0; t < count; ++t) {
    const int64_t ns = sn.cols(t), nb = sn.nrows(t) - ns;
    forward_at_[static_cast<size_t>(t)] = forward;
    forward += triangle(ns - 1) + nb * ns;
  }
  for (int32_t t = count - 1; t >= 0; --t) {
    const int64_t ns = sn.cols(t), nb = sn.nrows(t) - ns;
    backward_at_[static_cast<size_t>(t)] = backward;
    backward_rows_at_[static_cast<size_t>(t)] = rows;
    backward += nb * ns + block(ns);
    rows += nb;
  }
  forward_.resize(static_cast<size_t>(forward));
  backward_.resize(static_cast<size_t>(backward));
  backward_rows_.resize(static_cast<size_t>(rows));

  for (int32_t t = 0; t < count; ++t) {
    const int32_t ns = sn.cols(t);
    const int64_t nr = sn.nrows(t), nb = nr - ns;
    const double* l = panels + sn.l_ptr[t];
    // The off-diagonal block the backward sweep reads by columns: U12^T (leading dimension nb)
    // or the LDL^T's L21 (nr).
    const double* off = ldlt_ ? l + ns : panels + sn.u_ptr[t];
    const int64_t ld = ldlt_ ? nr : nb;
    double* f = forward_.data() + forward_at_[static_cast<size_t>(t)];
    for (int32_t k = 0; k < ns; ++k)
      for (int32_t i = k + 1; i < ns; ++i) *f++ = l[i + static_cast<int64_t>(k) * nr];
    int64_t a = 0;
    for (; a + kGroup <= nb; a += kGroup)
      for (int32_t k = 0; k < ns; ++k)
        for (int32_t j = 0; j < kGroup; ++j) *f++ = l[ns + a + j + static_cast<int64_t>(k) * nr];
    for (; a < nb; ++a)
      for (int32_t k = 0; k < ns; ++k) *f++ = l[ns + a + static_cast<int64_t>(k) * nr];

    double* u = backward_.data() + backward_at_[static_cast<size_t>(t)];
    int32_t k = 0;
    for (; k + kGroup <= ns; k += kGroup)
      for (int64_t a = 0; a < nb; ++a)
        for (int32_t j = 0; j < kGroup; ++j) *u++ = off[a + static_cast<int64_t>(k + j) * ld];
    for (; k < ns; ++k)
      for (int64_t a = 0; a < nb; ++a) *u++ = off[a + static_cast<int64_t>(k) * ld];
    for (int32_t c = ns - 1; c >= 0; --c) {
      if (ldlt_)  // row c of L11's strict lower triangle: L(c, 0..c-1)
        for (int32_t k = 0; k < c; ++k) *u++ = l[c + static_cast<int64_t>(k) * nr];
      else
        for (int32_t i = 0; i <= c; ++i) *u++ = l[i + static_cast<int64_t>(c) * nr];
    }
    const int32_t* below = sn.rows.data() + sn.rows_ptr[t] + ns;
    int32_t* r = backward_rows_.data() + backward_rows_at_[static_cast<size_t>(t)];
    for (int64_t a = 0; a < nb; ++a) r[a] = below[a];
  }
  diagonal_.resize(ldlt_ ? static_cast<size_t>(s.n) : 0);
  for (size_t j = 0; j < diagonal_.size(); ++j) diagonal_[j] = panels[sn.pivot_position(static_cast<int32_t>(j))];
  moved_.assign(ldlt_ ? static_cast<size_t>(count) : 0, 0);
  for (size_t t = 0; t < moved_.size(); ++t)
    for (int32_t k = 0; k < sn.cols(static_cast<int32_t>(t)); ++k)
      moved_[t] |= ldlt->perm[sn.first[t] + k] != k ? 1 : 0;
  built_ = true;
}

bool SweepLayout::reorders(SupernodeRowOrder rows, int32_t t) const {
  return pivoted(rows, t) && (moved_.empty() || moved_[static_cast<size_t>(t)] != 0);
}

// cpu/supernodal_solve.cpp's supernodal_lower_unit_solve: each below row's sum over k from 0.0,
// here read along the row.
void SweepLayout::lower(const Schedule& s, double* x, SupernodeRowOrder rows) const {
  const Supernodes& sn = s.supernodes;
  std::vector<double> tmp;
  const int32_t count = factored_supernodes(s);
  for (int32_t t = 0; t < count; ++t) {
    const int32_t first = sn.first[t], ns = sn.cols(t);
    const int64_t nb = sn.nrows(t) - ns;
    const int32_t* below = sn.rows.data() + sn.rows_ptr[t] + ns;
    const double* f = forward_.data() + forward_at_[static_cast<size_t>(t)];
    double* y = x + first;
    if (reorders(rows, t)) reorder(y, rows.order + first, ns, false, tmp);
    for (int32_t k = 0; k < ns; ++k)
      for (int32_t i = k + 1; i < ns; ++i) y[i] -= *f++ * y[k];
    int64_t a = 0;
    for (; a + kGroup <= nb; a += kGroup, f += kGroup * ns) {
      double s[kGroup];
      interleaved_dots(f, y, ns, s);
      for (int32_t j = 0; j < kGroup; ++j) x[below[a + j]] -= s[j];
    }
    for (; a < nb; ++a, f += ns) {
      double sum = 0.0;
      for (int32_t k = 0; k < ns; ++k) sum += f[k] * y[k];
      x[below[a]] -= sum;
    }
  }
}

// cpu/supernodal_solve.cpp's supernodal_upper_solve (or supernodal_lower_unit_transpose_solve
// for an LDL^T): each column's sum over the below rows from 0.0, kGroup columns per pass where
// the supernode is that wide.
void SweepLayout::upper(const Schedule& s, double* x, SupernodeRowOrder rows) const {
  const Supernodes& sn = s.supernodes;
  std::vector<double> gathered, tmp;
  for (int32_t t = factored_supernodes(s) - 1; t >= 0; --t) {
    const int32_t ns = sn.cols(t);
    const int64_t nb = sn.nrows(t) - ns;
    const int32_t* below = backward_rows_.data() + backward_rows_at_[static_cast<size_t>(t)];
    const double* u = backward_.data() + backward_at_[static_cast<size_t>(t)];
    double* y = x + sn.first[t];
    int32_t k = 0;
    if (ns < kGroup) {  // narrow: each column's sum reads x through the row indices
      for (; k < ns; ++k, u += nb) {
        double sum = 0.0;
        for (int64_t a = 0; a < nb; ++a) sum += u[a] * x[below[a]];
        y[k] -= sum;
      }
    } else {
      gathered.resize(static_cast<size_t>(nb));
      for (int64_t a = 0; a < nb; ++a) gathered[static_cast<size_t>(a)] = x[below[a]];
      const double* g = gathered.data();
      for (; k + kGroup <= ns; k += kGroup, u += kGroup * nb) {
        double s[kGroup];
        interleaved_dots(u, g, nb, s);
        for (int32_t j = 0; j < kGroup; ++j) y[k + j] -= s[j];
      }
      for (; k < ns; ++k, u += nb) {
        double sum = 0.0;
        for (int64_t a = 0; a < nb; ++a) sum += u[a] * g[a];
        y[k] -= sum;
      }
    }
    if (ldlt_) {
      for (int32_t c = ns - 1; c > 0; --c) {  // y[c] is final: L(c, 0..c-1) y_c leaves the rows above
        const double yc = y[c];
        for (int32_t k = 0; k < c; ++k) y[k] -= u[k] * yc;
        u += c;
      }
      if (reorders(rows, t)) reorder(y, rows.order + sn.first[t], ns, true, tmp);
      continue;
    }
    for (int32_t c = ns - 1; c >= 0; --c) {
      const double* col = u;  // U(0..c, c)
      u += c + 1;
      y[c] /= col[c];
      for (int32_t i = 0; i < c; ++i) y[i] -= col[i] * y[c];
    }
  }
}

void SweepLayout::solve(const Schedule& s, const double* b, double* x, double* work, SupernodeRowOrder rows) const {
  solve_permuted(s, b, x, work, false, [&](double* z) {
    lower(s, z, rows);
    upper(s, z, {});
  });
}

// cpu/supernodal_ldlt.cpp's solve_supernodal_ldlt: L, D and L^T, each supernode's entries in
// its pivot order.
void SweepLayout::solve_ldlt(const Schedule& s, const double* b, double* x, double* work,
                             const LdltPivots& pivots) const {
  const SupernodeRowOrder rows{nullptr, pivots.perm};
  solve_permuted(s, b, x, work, false, [&](double* z) {
    lower(s, z, rows);
    ldlt_diagonal_solve_with([&](int32_t j) { return diagonal_[static_cast<size_t>(j)]; }, pivots, z, s.n);
    upper(s, z, rows);
  });
}

}  // namespace gpuglu::reference
