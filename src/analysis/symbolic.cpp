#include "analysis/symbolic.hpp"

#include <algorithm>

namespace gpuglu::analysis {

namespace {

// L's columns as they are discovered. Column j occupies rows[begin[j] .. end[j]); the
// search only walks rows[begin[j] .. search_end[j]) once the column has been pruned.
struct GrowingL {
  std::vector<int32_t> rows;
  std::vector<int64_t> begin, end, search_end;
};

class ReachSearch {
 public:
  explicit ReachSearch(int32_t n)
      : mark_(static_cast<size_t>(n), -1), stack_(static_cast<size_t>(n)), next_(static_cast<size_t>(n)) {}

  // Marks every row reachable from `start` for column k; rows < k go to upper
  // (they are columns of L already computed), rows > k to lower.
  void visit(int32_t start, int32_t k, const GrowingL& l, std::vector<int32_t>& upper, std::vector<int32_t>& lower) {
    if (mark_[start] == k) return;
    mark_[start] = k;
    if (start >= k) {
      if (start > k) lower.push_back(start);
      return;
    }
    int32_t top = 0;
    stack_[0] = start;
    next_[start] = l.begin[start];
    while (top >= 0) {
      const int32_t j = stack_[top];
      int64_t& p = next_[j];
      const int64_t pend = l.search_end[j];
      bool descended = false;
      while (p < pend) {
        const int32_t i = l.rows[p++];
        if (mark_[i] == k) continue;
        mark_[i] = k;
        if (i >= k) {
          if (i > k) lower.push_back(i);
          continue;
        }
        stack_[++top] = i;
        next_[i] = l.begin[i];
        descended = true;
        break;
      }
      if (!descended) {
        upper.push_back(j);
        --top;
      }
    }
  }

  void mark_diagonal(int32_t k) { mark_[k] = k; }

 private:
  std::vector<int32_t> mark_;
  std::vector<int32_t> stack_;
  std::vector<int64_t> next_;
};

// Symmetric pruning after column k: for each j in U(:, k) not yet pruned, if k is a
// row of L(:, j), keep only rows <= k in its searched prefix.
void prune(GrowingL& l, const std::vector<int32_t>& upper, int32_t k) {
  for (int32_t j : upper) {
    if (l.search_end[j] != l.end[j]) continue;
    const auto first = l.rows.begin() + l.begin[j];
    const auto last = l.rows.begin() + l.end[j];
    if (std::find(first, last, k) == last) continue;
    const auto mid = std::partition(first, last, [k](int32_t i) { return i <= k; });
    l.search_end[j] = mid - l.rows.begin();
  }
}

}  // namespace

FactorPattern symbolic_factorization(const MatchedPattern& b, const std::vector<int32_t>& q) {
  const int32_t n = b.n;
  std::vector<int32_t> qinv(static_cast<size_t>(n));
  for (int32_t k = 0; k < n; ++k) qinv[q[k]] = k;

  GrowingL l;
  l.begin.resize(static_cast<size_t>(n));
  l.end.resize(static_cast<size_t>(n));
  l.search_end.resize(static_cast<size_t>(n));
  l.rows.reserve(b.rowind.size());
  std::vector<int32_t> u_rows;
  u_rows.reserve(b.rowind.size());
  std::vector<int64_t> u_begin(static_cast<size_t>(n) + 1, 0);

  ReachSearch search(n);
  std::vector<int32_t> upper, lower;
  for (int32_t k = 0; k < n; ++k) {
    upper.clear();
    lower.clear();
    const int32_t col = q[k];
    search.mark_diagonal(k);
    for (int32_t p = b.colptr[col]; p < b.colptr[col + 1]; ++p) search.visit(qinv[b.rowind[p]], k, l, upper, lower);
    l.begin[k] = static_cast<int64_t>(l.rows.size());
    l.rows.insert(l.rows.end(), lower.begin(), lower.end());
    l.end[k] = l.search_end[k] = static_cast<int64_t>(l.rows.size());
    u_rows.insert(u_rows.end(), upper.begin(), upper.end());
    u_begin[k + 1] = static_cast<int64_t>(u_rows.size());
    prune(l, upper, k);
  }

  FactorPattern f;
  f.colptr.assign(static_cast<size_t>(n) + 1, 0);
  f.diag.resize(static_cast<size_t>(n));
  for (int32_t k = 0; k < n; ++k)
    f.colptr[k + 1] = f.colptr[k] + (u_begin[k + 1] - u_begin[k]) + 1 + (l.end[k] - l.begin[k]);
  f.rowind.resize(static_cast<size_t>(f.colptr[n]));
  for (int32_t k = 0; k < n; ++k) {
    auto out = f.rowind.begin() + f.colptr[k];
    const auto u_end = std::copy(u_rows.begin() + u_begin[k], u_rows.begin() + u_begin[k + 1], out);
    std::sort(out, u_end);
    f.diag[k] = u_end - f.rowind.begin();
    *u_end = k;
    const auto l_first = u_end + 1;
    std::copy(l.rows.begin() + l.begin[k], l.rows.begin() + l.end[k], l_first);
    std::sort(l_first, f.rowind.begin() + f.colptr[k + 1]);
    f.nnz_l += l.end[k] - l.begin[k];
    f.nnz_u += u_begin[k + 1] - u_begin[k] + 1;
  }
  return f;
}

}  // namespace gpuglu::analysis
