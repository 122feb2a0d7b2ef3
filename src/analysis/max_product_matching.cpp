#include "analysis/max_product_matching.hpp"

#include "analysis/dual_centering.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <utility>

namespace gpuglu::analysis {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

class AugmentingSearch {
 public:
  AugmentingSearch(int32_t n, const int32_t* colptr, const int32_t* rowind, const std::vector<double>& cost)
      : n_(n), colptr_(colptr), rowind_(rowind), cost_(cost),
        u_(static_cast<size_t>(n), kInf), v_(static_cast<size_t>(n), 0.0),
        row_match_(static_cast<size_t>(n), -1), col_match_(static_cast<size_t>(n), -1),
        dist_(static_cast<size_t>(n), kInf), pred_(static_cast<size_t>(n), -1), done_(static_cast<size_t>(n), 0) {}

  // Dual start u_i = min_j c_ij (v = 0: each column's largest entry costs 0), then a
  // greedy matching on the tight edges, which leaves few columns to augment.
  void greedy_start() {
    for (int32_t j = 0; j < n_; ++j)
      for (int32_t p = colptr_[j]; p < colptr_[j + 1]; ++p) u_[rowind_[p]] = std::min(u_[rowind_[p]], cost_[p]);
    for (int32_t i = 0; i < n_; ++i)
      if (u_[i] == kInf) u_[i] = 0.0;  // a row with only zero entries: no matching exists anyway
    for (int32_t j = 0; j < n_; ++j)
      for (int32_t p = colptr_[j]; p < colptr_[j + 1]; ++p) {
        const int32_t i = rowind_[p];
        if (row_match_[i] < 0 && cost_[p] < kInf && reduced(p, i, j) <= 0.0) {
          row_match_[i] = j;
          col_match_[j] = i;
          break;
        }
      }
  }

  // Dijkstra from the free column s over rows; augments along the shortest path to a
  // free row and updates the duals so every reduced cost stays >= 0. False: no path.
  bool augment(int32_t s) {
    touched_.clear();
    col_dist_.clear();
    using Item = std::pair<double, int32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    relax_column(s, 0.0, heap);
    int32_t free_row = -1;
    double total = kInf;
    popped_.clear();
    while (!heap.empty()) {
      const auto [d, i] = heap.top();
      heap.pop();
      if (done_[i] || d > dist_[i]) continue;
      done_[i] = 1;
      popped_.push_back(i);
      if (row_match_[i] < 0) {
        free_row = i;
        total = d;
        break;
      }
      relax_column(row_match_[i], d, heap);
    }
    if (free_row >= 0) {
      update_duals(total);
      for (int32_t i = free_row; i >= 0;) {  // flip the alternating path
        const int32_t j = pred_[i];
        const int32_t next = col_match_[j];
        col_match_[j] = i;
        row_match_[i] = j;
        i = j == s ? -1 : next;
      }
    }
    for (int32_t i : touched_) dist_[i] = kInf, pred_[i] = -1, done_[i] = 0;
    return free_row >= 0;
  }

  bool solve() {
    greedy_start();
    for (int32_t j = 0; j < n_; ++j)
      if (col_match_[j] < 0 && !augment(j)) return false;
    return true;
  }

  const std::vector<int32_t>& col_match() const { return col_match_; }
  const std::vector<double>& u() const { return u_; }
  const std::vector<double>& v() const { return v_; }

 private:
  double reduced(int32_t p, int32_t i, int32_t j) const { return cost_[p] - u_[i] - v_[j]; }

  template <class Heap>
  void relax_column(int32_t j, double dj, Heap& heap) {
    col_dist_.emplace_back(j, dj);
    for (int32_t p = colptr_[j]; p < colptr_[j + 1]; ++p) {
      if (cost_[p] == kInf) continue;
      const int32_t i = rowind_[p];
      if (done_[i]) continue;
      // Rounding can leave a reduced cost a hair below zero; Dijkstra needs >= 0.
      const double nd = dj + std::max(0.0, reduced(p, i, j));
      if (nd < dist_[i]) {
        if (dist_[i] == kInf) touched_.push_back(i);
        dist_[i] = nd;
        pred_[i] = j;
        heap.emplace(nd, i);
      }
    }
  }

  // Columns in the search tree move up by (total - their distance), finalized rows
  // down by (total - theirs): path edges become tight, all others stay >= 0.
  void update_duals(double total) {
    for (const auto& [j, dj] : col_dist_) v_[j] += total - dj;
    for (int32_t i : popped_) u_[i] -= total - dist_[i];
  }

  int32_t n_;
  const int32_t* colptr_;
  const int32_t* rowind_;
  const std::vector<double>& cost_;
  std::vector<double> u_, v_;
  std::vector<int32_t> row_match_, col_match_;
  std::vector<double> dist_;
  std::vector<int32_t> pred_;
  std::vector<char> done_;
  std::vector<int32_t> touched_, popped_;
  std::vector<std::pair<int32_t, double>> col_dist_;
};

// Bound on every log-scale (natural log): e^+-700 (about 1e+-304) stays a factor e^8
// (about 3000) inside the normal doubles (e^-708.4 .. e^709.8), so a scale, its reciprocal
// and its product with any O(1) number are normal, never subnormal or infinite.
constexpr double kMaxLogScale = 700.0;
// Each sweep is O(nnz); the row-scaled circuit matrices that need centering settle in a few.
constexpr int32_t kCenteringSweeps = 50;

// Scales exp(log_row[i] + t) and exp(log_col[j] - t): every product row * col, hence C, is
// the same for any t. The largest |exponent| is max(t + a, b - t) (the two increasing and
// the two decreasing bounds merged), smallest at t = (b - a) / 2. An exponent still beyond
// kMaxLogScale is clamped alone rather than dropping all scaling: the other scales still
// equilibrate their rows and columns. Returns the number clamped.
int32_t balanced_scales(const std::vector<double>& log_row, const std::vector<double>& log_col,
                        std::vector<double>& row_scale, std::vector<double>& col_scale) {
  row_scale.resize(log_row.size());
  col_scale.resize(log_col.size());
  if (log_row.empty()) return 0;
  const auto [row_min, row_max] = std::minmax_element(log_row.begin(), log_row.end());
  const auto [col_min, col_max] = std::minmax_element(log_col.begin(), log_col.end());
  const double a = std::max(*row_max, -*col_min);
  const double b = std::max(*col_max, -*row_min);
  const double t = 0.5 * (b - a);
  int32_t clamped = 0;
  const auto scale = [&](double e) {
    clamped += std::fabs(e) > kMaxLogScale;
    return std::exp(std::clamp(e, -kMaxLogScale, kMaxLogScale));
  };
  for (size_t i = 0; i < log_row.size(); ++i) row_scale[i] = scale(log_row[i] + t);
  for (size_t j = 0; j < log_col.size(); ++j) col_scale[j] = scale(log_col[j] - t);
  return clamped;
}

}  // namespace

bool max_product_matching(int32_t n, const int32_t* colptr, const int32_t* rowind, const double* values,
                          ProductMatching& out) {
  std::vector<double> log_colmax(static_cast<size_t>(n));
  std::vector<double> cost(static_cast<size_t>(colptr[n]), kInf);
  for (int32_t j = 0; j < n; ++j) {
    double colmax = 0.0;
    for (int32_t p = colptr[j]; p < colptr[j + 1]; ++p) colmax = std::max(colmax, std::fabs(values[p]));
    if (colmax == 0.0) return false;
    log_colmax[j] = std::log(colmax);
    for (int32_t p = colptr[j]; p < colptr[j + 1]; ++p)
      if (values[p] != 0.0) cost[p] = log_colmax[j] - std::log(std::fabs(values[p]));
  }
  AugmentingSearch search(n, colptr, rowind, cost);
  if (!search.solve()) return false;
  out.row_of_col = search.col_match();
  std::vector<double> u = search.u(), log_col(static_cast<size_t>(n));
  for (int32_t j = 0; j < n; ++j) log_col[j] = search.v()[j] - log_colmax[j];
  out.scales_clamped = balanced_scales(u, log_col, out.row_scale, out.col_scale);
  if (out.scales_clamped > 0) {
    // The search's duals left the double range: move them toward the balanced point of their
    // polytope (dual_centering.hpp). Only then, so that every representable scaling stays the
    // one the search found.
    center_row_duals(n, colptr, rowind, cost, log_colmax, out.row_of_col, u, kCenteringSweeps);
    for (int32_t j = 0; j < n; ++j) {
      const int32_t k = out.row_of_col[j];
      for (int32_t p = colptr[j]; p < colptr[j + 1]; ++p)
        if (rowind[p] == k) log_col[j] = cost[p] - u[k] - log_colmax[j];
    }
    out.scales_clamped = balanced_scales(u, log_col, out.row_scale, out.col_scale);
  }
  return true;
}

}  // namespace gpuglu::analysis
