#include "analysis/max_product_matching.hpp"

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

}  // namespace

bool max_product_matching(int32_t n, const int32_t* colptr, const int32_t* rowind, const double* values,
                          ProductMatching& out) {
  std::vector<double> colmax(static_cast<size_t>(n), 0.0);
  std::vector<double> cost(static_cast<size_t>(colptr[n]), kInf);
  for (int32_t j = 0; j < n; ++j) {
    for (int32_t p = colptr[j]; p < colptr[j + 1]; ++p) colmax[j] = std::max(colmax[j], std::fabs(values[p]));
    if (colmax[j] == 0.0) return false;
    const double lmax = std::log(colmax[j]);
    for (int32_t p = colptr[j]; p < colptr[j + 1]; ++p)
      if (values[p] != 0.0) cost[p] = lmax - std::log(std::fabs(values[p]));
  }
  AugmentingSearch search(n, colptr, rowind, cost);
  if (!search.solve()) return false;
  out.row_of_col = search.col_match();
  out.row_scale.resize(static_cast<size_t>(n));
  out.col_scale.resize(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) out.row_scale[i] = std::exp(search.u()[i]);
  for (int32_t j = 0; j < n; ++j) out.col_scale[j] = std::exp(search.v()[j]) / colmax[j];
  return true;
}

}  // namespace gpuglu::analysis
