#pragma once
// The supernodal form of an LU schedule (Options::engine == Engine::supernodal; issue 14).
//
// C (the matched, scaled, ordered matrix of schedule.hpp) is factored on the pattern of
// C + C^T: L and U^T then have one structure, and columns with equal (or, relaxed, nearly
// equal) structure below the diagonal form supernodes - dense panels that dense kernels
// factor and update. CHOLMOD's supernodal analysis of C + C^T finds them (relaxed
// amalgamation admits a bounded number of explicit zeros); the elimination order is the
// ordering's, postordered so that each supernode's columns are consecutive.
//
// Supernode s holds the columns first[s] .. first[s+1] - 1 (ns of them) and the sorted
// rows rows[rows_ptr[s] .. rows_ptr[s+1]) (nr of them): first its own ns columns, then the
// rows below. Its numbers live in one value array:
//   L panel, at l_ptr[s]: nr x ns, column-major (leading dimension nr). Rows 0..ns-1 hold
//     the diagonal block - U's upper triangle with the pivots, L's strict lower triangle
//     (L's unit diagonal implicit) - and rows ns..nr-1 hold L21 = L(below rows, columns).
//   U^T panel, at u_ptr[s]: (nr - ns) x ns, column-major (leading dimension nr - ns):
//     entry (a, k) is U(first[s] + k, rows[rows_ptr[s] + ns + a]), i.e. U12 transposed.
// Eliminating s subtracts the Schur complement L21 U12 (rows and columns: s's below rows)
// from its ancestors: for below rows r_a >= r_b of s, with t = of_col[r_b] and p the
// position of r_a in t's rows,
//   L(r_a, r_b) -= sum_k L21(a, k) U12(k, b): L panel of t at (p, r_b - first[t])
//   U(r_b, r_a) -= sum_k L21(b, k) U12(k, a), for r_a > r_b: the U^T panel of t at
//     (p - ns_t, r_b - first[t]) when r_a is below t's columns (p >= ns_t), else t's
//     diagonal block, i.e. the L panel of t at (r_b - first[t], p)
// (every r_a >= r_b of s is in t's rows: the supernodal structure guarantees it). A
// supernode's own factorization is the unpivoted LU of its panels: for k = 0..ns-1, the
// static-pivot test of column k (its pivot against max |L panel(:, k)|, rows 0..nr-1),
// L(:, k) /= pivot below it, and the rank-1 update of the rest of its L panel and its
// U^T panel.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpuglu {

struct Supernodes {
  int32_t count = 0;
  std::vector<int32_t> first;     // count + 1
  std::vector<int32_t> of_col;    // n: the supernode of each column
  std::vector<int32_t> parent;    // count: the supernodal elimination tree's parent, -1 for a root
  std::vector<int64_t> rows_ptr;  // count + 1
  std::vector<int32_t> rows;      // ascending within a supernode; its own columns first
  std::vector<int64_t> l_ptr;     // count + 1 (l_ptr[count] == u_ptr[0])
  std::vector<int64_t> u_ptr;     // count + 1 (u_ptr[count] == values)
  int64_t values = 0;             // size of the value array
  // Levels of the supernodal tree: a supernode's level is one more than its children's
  // highest (leaves: 0), so a level's supernodes are independent and every descendant of
  // a level lies in an earlier one.
  std::vector<int64_t> level_ptr;    // num_levels + 1
  std::vector<int32_t> level_nodes;  // count, ascending within a level
  // For each entry of the schedule's F (its CSC layout), its position in the value array:
  // the engines' factor_values() copy F out of the panels through it. Empty until F is
  // spelled out (spell_out_factor, gpuglu/analysis.hpp).
  std::vector<int64_t> f_pos;
  // Entries of the panels that the pattern of C + C^T does not hold (relaxed amalgamation's
  // explicit zeros and the symmetrization's), for the record.
  int64_t explicit_zeros = 0;

  int32_t num_levels() const { return static_cast<int32_t>(level_ptr.empty() ? 0 : level_ptr.size() - 1); }
  int32_t cols(int32_t s) const { return first[s + 1] - first[s]; }
  int64_t nrows(int32_t s) const { return rows_ptr[s + 1] - rows_ptr[s]; }
  // F's values (the schedule's CSC layout, spelled out) copied out of the value array.
  void copy_factor_out(const double* panels, double* f) const {
    for (size_t i = 0; i < f_pos.size(); ++i) f[i] = panels[static_cast<size_t>(f_pos[i])];
  }
  // Where row `row` sits among the rows of column col's supernode (col <= row): its index
  // there, searched from col's own row on; -1 when the supernode does not hold it.
  int64_t row_position(int32_t col, int32_t row) const {
    const int32_t t = of_col[col];
    const int32_t* begin = rows.data() + rows_ptr[t];
    const int32_t* end = rows.data() + rows_ptr[t + 1];
    const int32_t* it = std::lower_bound(begin + (col - first[t]), end, row);
    return it == end || *it != row ? -1 : it - begin;
  }
  // Where column j's pivot lies in the value array: its L panel's diagonal.
  int64_t pivot_position(int32_t j) const {
    const int32_t s = of_col[j];
    const int64_t k = j - first[s];
    return l_ptr[s] + k * nrows(s) + k;
  }
};

}  // namespace gpuglu
