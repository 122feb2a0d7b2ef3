#include "cpu/supernodal_sweep_layout.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu/supernodal_solve.hpp"
#include "cpu/triangular_solve.hpp"
#include "gpuglu/options.hpp"

namespace gpuglu::reference {

namespace {

constexpr int32_t kGroup = kColumnsPerPass;
// A wide supernode of the top shares its rectangle out by kShare rows (forward) or columns
// (backward), where it holds kShareFromEntries entries and at least two shares.
constexpr int32_t kShare = 16 * kGroup;
constexpr int64_t kShareFromEntries = int64_t{1} << 15;
// A supernode that shares its columns is at least kGroup wide: its sums read the gathered rows,
// as the plain sweep's do.
static_assert(2 * kShare >= kGroup);

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

void SweepLayout::build(const Schedule& s, const double* panels, const LdltPivots* ldlt, int32_t threads) {
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

  // Each supernode's entries have their own places in either copy.
#pragma omp parallel for schedule(dynamic, 16) num_threads(teamed(s, threads) ? threads_of(threads) : 1)
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
  cut(s);
  built_ = true;
}

void SweepLayout::cut(const Schedule& s) {
  const Supernodes& sn = s.supernodes;
  const int32_t count = factored_supernodes(s);
  piece_first_.clear(), piece_last_.clear(), walk_.clear(), ext_rows_.clear(), ext_at_.clear();
  forward_runs_.clear(), backward_runs_.clear();
  internal_.resize(static_cast<size_t>(count));
  widest_ = 0;
  for (int32_t t = 0; t < count; ++t) {
    internal_[static_cast<size_t>(t)] = sn.nrows(t) - sn.cols(t);
    widest_ = std::max(widest_, sn.nrows(t));  // a supernode's columns or its below rows
  }
  auto entries = [&](int32_t t) {
    const size_t u = static_cast<size_t>(t);
    const int64_t forward_end = t + 1 < count ? forward_at_[u + 1] : static_cast<int64_t>(forward_.size());
    const int64_t backward_end = t > 0 ? backward_at_[u - 1] : static_cast<int64_t>(backward_.size());
    return forward_end - forward_at_[u] + backward_end - backward_at_[u];
  };
  // Subtree sums in postorder: entries, supernodes, the lowest supernode; a parent outside the
  // factored ones (a Schur schedule's last) makes a root.
  std::vector<int64_t> below(static_cast<size_t>(count), 0);
  std::vector<int32_t> size(static_cast<size_t>(count), 0), lowest(static_cast<size_t>(count));
  std::vector<std::vector<int32_t>> children(static_cast<size_t>(count));
  std::vector<int32_t> roots;
  int64_t total = 0;
  for (int32_t t = 0; t < count; ++t) {
    const size_t u = static_cast<size_t>(t);
    if (size[u] == 0) lowest[u] = t;
    below[u] += entries(t);
    size[u] += 1;
    // The cut needs each subtree contiguous and ending at its root; the supernodes are in
    // postorder, which this checks rather than assumes.
    if (size[u] != t - lowest[u] + 1) return;
    const int32_t parent = sn.parent[u];
    if (parent < 0 || parent >= count) {
      roots.push_back(t);
      total += below[u];
      continue;
    }
    const size_t v = static_cast<size_t>(parent);
    if (size[v] == 0) lowest[v] = lowest[u];
    lowest[v] = std::min(lowest[v], lowest[u]);
    below[v] += below[u];
    size[v] += size[u];
    children[v].push_back(t);
  }
  if (total < kPiecesFromEntries) return;
  const int64_t cap = (total + kPieces - 1) / kPieces;
  // From the roots down: a subtree within the cap is a piece; a larger one's root is the top's.
  std::vector<std::pair<int32_t, int32_t>> subtrees;  // first, last
  std::vector<int32_t> stack(roots);
  while (!stack.empty()) {
    const int32_t t = stack.back();
    stack.pop_back();
    const size_t u = static_cast<size_t>(t);
    if (below[u] <= cap) {
      subtrees.emplace_back(lowest[u], t);
      continue;
    }
    for (const int32_t c : children[u]) stack.push_back(c);
  }
  std::sort(subtrees.begin(), subtrees.end());
  // Neighbouring pieces (siblings' subtrees) join while they stay within the cap.
  int64_t joined = 0;
  for (const auto& [first, last] : subtrees) {
    int64_t held = 0;
    for (int32_t t = first; t <= last; ++t) held += entries(t);
    if (!piece_first_.empty() && piece_last_.back() + 1 == first && joined + held <= cap) {
      piece_last_.back() = last;
      joined += held;
    } else {
      piece_first_.push_back(first), piece_last_.push_back(last);
      joined = held;
    }
  }
  // Each piece's below rows past its own columns are the top's (or a Schur supernode's).
  for (size_t p = 0; p < piece_first_.size(); ++p) {
    ext_at_.push_back(static_cast<int64_t>(ext_rows_.size()));
    const int32_t end = sn.first[piece_last_[p] + 1];
    for (int32_t t = piece_first_[p]; t <= piece_last_[p]; ++t) {
      const int32_t* rows = sn.rows.data() + sn.rows_ptr[t] + sn.cols(t);
      const int64_t nb = sn.nrows(t) - sn.cols(t);
      const int64_t inside = std::lower_bound(rows, rows + nb, end) - rows;
      internal_[static_cast<size_t>(t)] = inside;
      ext_rows_.insert(ext_rows_.end(), rows + inside, rows + nb);
    }
  }
  ext_at_.push_back(static_cast<int64_t>(ext_rows_.size()));
  ext_values_.resize(ext_rows_.size());
  for (int32_t t = 0, p = 0; t < count; ++t) {
    if (p < pieces() && t == piece_first_[static_cast<size_t>(p)]) {
      walk_.push_back(-(p + 1));
      t = piece_last_[static_cast<size_t>(p++)];
    } else {
      walk_.push_back(t);
    }
  }
  // The top's walk in runs for one thread, and its wide supernodes alone, whose rectangles the
  // team shares: by rows forward, by columns backward (each sum still one thread's).
  auto runs = [&](auto shared) {
    std::vector<Run> out;
    for (int32_t i = 0; i < static_cast<int32_t>(walk_.size()); ++i) {
      const int32_t w = walk_[static_cast<size_t>(i)];
      if (w >= 0 && shared(w)) {
        out.push_back({i, i + 1, true});
      } else if (!out.empty() && !out.back().shared) {
        out.back().end = i + 1;
      } else {
        out.push_back({i, i + 1, false});
      }
    }
    return out;
  };
  auto wide = [&](int32_t t, int64_t shared_out) {
    return shared_out >= 2 * kShare && (sn.nrows(t) - sn.cols(t)) * sn.cols(t) >= kShareFromEntries;
  };
  forward_runs_ = runs([&](int32_t t) { return wide(t, sn.nrows(t) - sn.cols(t)); });
  backward_runs_ = runs([&](int32_t t) { return wide(t, sn.cols(t)); });
}

bool SweepLayout::reorders(SupernodeRowOrder rows, int32_t t) const {
  return pivoted(rows, t) && (moved_.empty() || moved_[static_cast<size_t>(t)] != 0);
}

// cpu/supernodal_solve.cpp's supernodal_lower_unit_solve: each below row's sum over k from 0.0,
// here read along the row. The diagonal block's triangle first (after the supernode's reorder),
// then the rectangle's rows (forward_rectangle).
void SweepLayout::lower_triangle(const Schedule& s, int32_t t, double* x, SupernodeRowOrder rows,
                                 std::vector<double>& tmp) const {
  const Supernodes& sn = s.supernodes;
  const int32_t first = sn.first[t], ns = sn.cols(t);
  const double* f = forward_.data() + forward_at_[static_cast<size_t>(t)];
  double* y = x + first;
  if (reorders(rows, t)) reorder(y, rows.order + first, ns, false, tmp);
  for (int32_t k = 0; k < ns; ++k) {
    const double yk = y[k];
    for (int32_t i = k + 1; i < ns; ++i) y[i] -= *f++ * yk;
  }
}

const double* SweepLayout::forward_rectangle(const Schedule& s, int32_t t) const {
  return forward_.data() + forward_at_[static_cast<size_t>(t)] + triangle(s.supernodes.cols(t) - 1);
}

void SweepLayout::lower_rows(const Schedule& s, int32_t t, double* x, const double* rect, int64_t a0, int64_t a1,
                             int64_t internal, double* ext) const {
  const Supernodes& sn = s.supernodes;
  const int32_t ns = sn.cols(t);
  const int32_t* below = sn.rows.data() + sn.rows_ptr[t] + ns;
  const double* y = x + sn.first[t];
  const double* f = rect + a0 * ns;
  // Row a's sum: subtracted here, or kept for the piece's replay.
  auto subtract = [&](int64_t a, double sum) {
    if (a < internal)
      x[below[a]] -= sum;
    else
      ext[a - internal] = sum;
  };
  int64_t a = a0;
  for (; a + kGroup <= a1; a += kGroup, f += kGroup * ns) {
    double sums[kGroup];
    interleaved_dots(f, y, ns, sums);
    for (int32_t j = 0; j < kGroup; ++j) subtract(a + j, sums[j]);
  }
  for (; a < a1; ++a, f += ns) {
    double sum = 0.0;
    for (int32_t k = 0; k < ns; ++k) sum += f[k] * y[k];
    subtract(a, sum);
  }
}

void SweepLayout::lower_step(const Schedule& s, int32_t t, double* x, SupernodeRowOrder rows, int64_t internal,
                             double* ext, std::vector<double>& tmp) const {
  lower_triangle(s, t, x, rows, tmp);
  lower_rows(s, t, x, forward_rectangle(s, t), 0, below_rows(s, t), internal, ext);
}

void SweepLayout::replay(int32_t piece, double* x) const {
  const size_t u = static_cast<size_t>(piece);
  for (int64_t e = ext_at_[u]; e < ext_at_[u + 1]; ++e)
    x[ext_rows_[static_cast<size_t>(e)]] -= ext_values_[static_cast<size_t>(e)];
}

void SweepLayout::lower(const Schedule& s, double* x, SupernodeRowOrder rows, int32_t team) const {
  if (team == 1) {  // the pieces' order gives the same bits
    std::vector<double> tmp;
    for (int32_t t = 0; t < factored_supernodes(s); ++t) lower_step(s, t, x, rows, below_rows(s, t), nullptr, tmp);
    return;
  }
  std::vector<std::vector<double>>& scratch = team_scratch(team);
#pragma omp parallel num_threads(team)
  {
    std::vector<double>& tmp = scratch[static_cast<size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 1)
    for (int32_t p = 0; p < pieces(); ++p) {
      const size_t u = static_cast<size_t>(p);
      double* ext = ext_values_.data() + ext_at_[u];
      for (int32_t t = piece_first_[u]; t <= piece_last_[u]; ++t) {
        const int64_t internal = internal_[static_cast<size_t>(t)];
        lower_step(s, t, x, rows, internal, ext, tmp);
        ext += below_rows(s, t) - internal;
      }
    }
    for (const Run& r : forward_runs_) {
      if (!r.shared) {
#pragma omp single
        for (int32_t i = r.begin; i < r.end; ++i) {
          const int32_t w = walk_[static_cast<size_t>(i)];
          if (w >= 0)
            lower_step(s, w, x, rows, below_rows(s, w), nullptr, tmp);
          else
            replay(-w - 1, x);
        }
        continue;
      }
      // A wide supernode of the top: its triangle, then its rows shared out.
      const int32_t t = walk_[static_cast<size_t>(r.begin)];
#pragma omp single
      lower_triangle(s, t, x, rows, tmp);
      const double* rect = forward_rectangle(s, t);
      const int64_t nb = below_rows(s, t);
#pragma omp for schedule(static)
      for (int64_t a = 0; a < nb; a += kShare) lower_rows(s, t, x, rect, a, std::min(nb, a + kShare), nb, nullptr);
    }
  }
}

// cpu/supernodal_solve.cpp's supernodal_upper_solve (or supernodal_lower_unit_transpose_solve
// for an LDL^T): each column's sum over the below rows from 0.0, kGroup columns per pass where
// the supernode is that wide. Columns k0..k1 of the rectangle (k0 a multiple of kGroup, k1 one
// too or the supernode's width); g: x's below rows gathered, or null (a supernode narrower than
// kGroup reads them through the rows).
void SweepLayout::upper_columns(const Schedule& s, int32_t t, double* x, int32_t k0, int32_t k1,
                                const double* g) const {
  const Supernodes& sn = s.supernodes;
  const int64_t nb = below_rows(s, t);
  const int32_t* below = backward_rows_.data() + backward_rows_at_[static_cast<size_t>(t)];
  const double* u = backward_.data() + backward_at_[static_cast<size_t>(t)] + k0 * nb;
  double* y = x + sn.first[t];
  int32_t k = k0;
  if (!g) {
    for (; k < k1; ++k, u += nb) {
      double sum = 0.0;
      for (int64_t a = 0; a < nb; ++a) sum += u[a] * x[below[a]];
      y[k] -= sum;
    }
    return;
  }
  for (; k + kGroup <= k1; k += kGroup, u += kGroup * nb) {
    double sums[kGroup];
    interleaved_dots(u, g, nb, sums);
    for (int32_t j = 0; j < kGroup; ++j) y[k + j] -= sums[j];
  }
  for (; k < k1; ++k, u += nb) {
    double sum = 0.0;
    for (int64_t a = 0; a < nb; ++a) sum += u[a] * g[a];
    y[k] -= sum;
  }
}

// x's below rows of supernode t, for its columns' sums.
void SweepLayout::gather_below(const Schedule& s, int32_t t, const double* x, std::vector<double>& gathered) const {
  const int64_t nb = below_rows(s, t);
  const int32_t* below = backward_rows_.data() + backward_rows_at_[static_cast<size_t>(t)];
  gathered.resize(static_cast<size_t>(nb));
  for (int64_t a = 0; a < nb; ++a) gathered[static_cast<size_t>(a)] = x[below[a]];
}

void SweepLayout::upper_triangle(const Schedule& s, int32_t t, double* x, SupernodeRowOrder rows,
                                 std::vector<double>& tmp) const {
  const Supernodes& sn = s.supernodes;
  const int32_t ns = sn.cols(t);
  const double* u = backward_.data() + backward_at_[static_cast<size_t>(t)] + ns * below_rows(s, t);
  double* y = x + sn.first[t];
  if (ldlt_) {
    for (int32_t c = ns - 1; c > 0; --c) {  // y[c] is final: L(c, 0..c-1) y_c leaves the rows above
      const double yc = y[c];
      for (int32_t k = 0; k < c; ++k) y[k] -= u[k] * yc;
      u += c;
    }
    if (reorders(rows, t)) reorder(y, rows.order + sn.first[t], ns, true, tmp);
    return;
  }
  for (int32_t c = ns - 1; c >= 0; --c) {
    const double* col = u;  // U(0..c, c)
    u += c + 1;
    const double yc = y[c] = over_pivot(y[c], col[c]);
    for (int32_t i = 0; i < c; ++i) y[i] -= col[i] * yc;
  }
}

void SweepLayout::upper_step(const Schedule& s, int32_t t, double* x, SupernodeRowOrder rows,
                             std::vector<double>& gathered, std::vector<double>& tmp) const {
  const int32_t ns = s.supernodes.cols(t);
  if (ns >= kGroup) gather_below(s, t, x, gathered);
  upper_columns(s, t, x, 0, ns, ns >= kGroup ? gathered.data() : nullptr);
  upper_triangle(s, t, x, rows, tmp);
}

void SweepLayout::upper(const Schedule& s, double* x, SupernodeRowOrder rows, int32_t team) const {
  if (team == 1) {
    std::vector<double> gathered, tmp;
    for (int32_t t = factored_supernodes(s) - 1; t >= 0; --t) upper_step(s, t, x, rows, gathered, tmp);
    return;
  }
  // Per thread its tmp (scratch[me]) and gathered rows (scratch[team + me]); the last one holds a
  // wide supernode's gathered rows, read by the whole team.
  std::vector<std::vector<double>>& scratch = team_scratch(team);
  std::vector<double>& shared_gathered = scratch.back();
#pragma omp parallel num_threads(team)
  {
    const size_t me = static_cast<size_t>(omp_get_thread_num());
    std::vector<double>& tmp = scratch[me];
    std::vector<double>& gathered = scratch[static_cast<size_t>(team) + me];
    for (auto r = backward_runs_.rbegin(); r != backward_runs_.rend(); ++r) {
      if (!r->shared) {
#pragma omp single
        for (int32_t i = r->end - 1; i >= r->begin; --i) {
          const int32_t w = walk_[static_cast<size_t>(i)];
          if (w >= 0) upper_step(s, w, x, rows, gathered, tmp);
        }
        continue;
      }
      // A wide supernode of the top: its columns shared out, then its triangle.
      const int32_t t = walk_[static_cast<size_t>(r->begin)];
#pragma omp single
      gather_below(s, t, x, shared_gathered);
      const int32_t ns = s.supernodes.cols(t);
#pragma omp for schedule(static)
      for (int32_t k = 0; k < ns; k += kShare)
        upper_columns(s, t, x, k, std::min<int32_t>(ns, k + kShare), shared_gathered.data());
#pragma omp single
      upper_triangle(s, t, x, rows, tmp);
    }
#pragma omp for schedule(dynamic, 1)
    for (int32_t p = 0; p < pieces(); ++p)
      for (int32_t t = piece_last_[static_cast<size_t>(p)]; t >= piece_first_[static_cast<size_t>(p)]; --t)
        upper_step(s, t, x, rows, gathered, tmp);
  }
}

// Two vectors per thread and one more, each reserved for any supernode before the team starts:
// nothing inside a parallel region allocates (an exception there would end the process). Kept
// between solves, so that a team of the same size allocates nothing.
std::vector<std::vector<double>>& SweepLayout::team_scratch(int32_t team) const {
  const size_t wanted = 2 * static_cast<size_t>(team) + 1;
  if (scratch_.size() != wanted || scratch_.front().capacity() < static_cast<size_t>(widest_)) {
    scratch_.assign(wanted, {});
    for (std::vector<double>& v : scratch_) v.reserve(static_cast<size_t>(widest_));
  }
  return scratch_;
}

int32_t SweepLayout::team_of(int32_t threads) const {
  return std::max(1, std::min(threads_of(threads), pieces()));
}

void SweepLayout::solve(const Schedule& s, const double* b, double* x, double* work, SupernodeRowOrder rows,
                        int32_t threads) const {
  const int32_t team = team_of(threads);
  solve_permuted(s, b, x, work, false, [&](double* z) {
    lower(s, z, rows, team);
    upper(s, z, {}, team);
  });
}

// cpu/supernodal_ldlt.cpp's solve_supernodal_ldlt: L, D and L^T, each supernode's entries in
// its pivot order.
void SweepLayout::solve_ldlt(const Schedule& s, const double* b, double* x, double* work,
                             const LdltPivots& pivots, int32_t threads) const {
  const SupernodeRowOrder rows{nullptr, pivots.perm};
  const int32_t team = team_of(threads);
  solve_permuted(s, b, x, work, false, [&](double* z) {
    lower(s, z, rows, team);
    ldlt_diagonal_solve_with([&](int32_t j) { return diagonal_[static_cast<size_t>(j)]; }, pivots, z, s.n);
    upper(s, z, rows, team);
  });
}

}  // namespace gpuglu::reference
