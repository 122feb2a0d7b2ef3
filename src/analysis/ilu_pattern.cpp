#include "analysis/ilu_pattern.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

// Rows of C = B(q, q), each sorted, the diagonal included.
RowPattern rows_of_matched(const MatchedPattern& b, const std::vector<int32_t>& q) {
  const int32_t n = b.n;
  std::vector<int32_t> qinv(static_cast<size_t>(n));
  for (int32_t k = 0; k < n; ++k) qinv[q[k]] = k;
  RowPattern c;
  std::vector<int64_t>& ptr = c.ptr;
  std::vector<int32_t>& cols = c.cols;
  ptr.assign(static_cast<size_t>(n) + 1, 0);
  std::vector<bool> has_diag(static_cast<size_t>(n), false);
  for (int32_t l = 0; l < n; ++l)
    for (int32_t p = b.colptr[q[l]]; p < b.colptr[q[l] + 1]; ++p) {
      const int32_t k = qinv[b.rowind[p]];
      ++ptr[k + 1];
      if (k == l) has_diag[k] = true;
    }
  for (int32_t k = 0; k < n; ++k) ptr[k + 1] += ptr[k] + (has_diag[k] ? 0 : 1);
  cols.resize(static_cast<size_t>(ptr[n]));
  std::vector<int64_t> next(ptr.begin(), ptr.end() - 1);
  for (int32_t k = 0; k < n; ++k)
    if (!has_diag[k]) cols[next[k]++] = k;
  for (int32_t l = 0; l < n; ++l)
    for (int32_t p = b.colptr[q[l]]; p < b.colptr[q[l] + 1]; ++p) {
      const int32_t k = qinv[b.rowind[p]];
      cols[next[k]++] = l;
    }
  c.diag.resize(static_cast<size_t>(n));
  for (int32_t k = 0; k < n; ++k) {
    std::sort(cols.begin() + ptr[k], cols.begin() + ptr[k + 1]);
    c.diag[k] = std::lower_bound(cols.begin() + ptr[k], cols.begin() + ptr[k + 1], k) - cols.begin();
  }
  return c;
}

void check_levels(int32_t levels) {
  if (levels < 0) throw Error(Status::invalid_input, "ILU levels of fill must be >= 0, got " + std::to_string(levels));
}

// f.diag and the counts of L and U from F's sorted columns.
void find_diagonals(FactorPattern& f, int32_t n) {
  f.diag.resize(static_cast<size_t>(n));
  for (int32_t j = 0; j < n; ++j) {
    const auto first = f.rowind.begin() + f.colptr[j];
    const auto last = f.rowind.begin() + f.colptr[j + 1];
    f.diag[j] = std::lower_bound(first, last, j) - f.rowind.begin();
    f.nnz_u += f.diag[j] - f.colptr[j] + 1;
    f.nnz_l += f.colptr[j + 1] - f.diag[j] - 1;
  }
}

// ILU(0): F is C's own pattern, so its columns are B's columns renumbered, each sorted and
// given its diagonal where B lacks it; no row merge (PETSc's ILU(0) likewise copies A's
// pattern).
FactorPattern pattern_of_c(const MatchedPattern& b, const std::vector<int32_t>& q) {
  const int32_t n = b.n;
  std::vector<int32_t> qinv(static_cast<size_t>(n));
  for (int32_t k = 0; k < n; ++k) qinv[q[k]] = k;
  FactorPattern f;
  f.colptr.resize(static_cast<size_t>(n) + 1);
  f.rowind.resize(b.rowind.size() + static_cast<size_t>(n));  // at most one added diagonal per column
  int64_t at = 0;
  for (int32_t l = 0; l < n; ++l) {
    f.colptr[l] = at;
    bool has_diag = false, sorted = true;
    int32_t last = -1;
    for (int32_t p = b.colptr[q[l]]; p < b.colptr[q[l] + 1]; ++p) {
      const int32_t k = qinv[b.rowind[p]];
      has_diag = has_diag || k == l;
      sorted = sorted && k > last;
      last = k;
      f.rowind[at++] = k;
    }
    if (!has_diag) {
      f.rowind[at++] = l;
      sorted = sorted && l > last;
    }
    if (!sorted) std::sort(f.rowind.begin() + f.colptr[l], f.rowind.begin() + at);
  }
  f.colptr[n] = at;
  f.rowind.resize(static_cast<size_t>(at));
  find_diagonals(f, n);
  return f;
}

}  // namespace

FactorPattern ilu_pattern(const MatchedPattern& b, const std::vector<int32_t>& q, int32_t levels) {
  check_levels(levels);
  if (levels == 0) return pattern_of_c(b, q);
  const int32_t n = b.n;
  const RowPattern rows = ilu_rows(rows_of_matched(b, q), levels);

  // By columns, as the schedule stores F.
  FactorPattern f;
  f.colptr.assign(static_cast<size_t>(n) + 1, 0);
  for (int32_t j : rows.cols) ++f.colptr[j + 1];
  for (int32_t j = 0; j < n; ++j) f.colptr[j + 1] += f.colptr[j];
  f.rowind.resize(rows.cols.size());
  std::vector<int64_t> fill(f.colptr.begin(), f.colptr.end() - 1);
  for (int32_t i = 0; i < n; ++i)
    for (int64_t p = rows.ptr[i]; p < rows.ptr[i + 1]; ++p) f.rowind[fill[rows.cols[p]]++] = i;  // rows ascend
  find_diagonals(f, n);
  return f;
}

RowPattern rows_of_c(const InputPattern& a, const std::vector<int32_t>& q) {
  const int32_t n = a.n;
  bool moved = false;
  for (int32_t k = 0; k < n && !moved; ++k) moved = q[k] != k;
  std::vector<int32_t> qinv;
  if (moved) {
    qinv.resize(static_cast<size_t>(n));
    for (int32_t k = 0; k < n; ++k) qinv[q[k]] = k;
  }
  RowPattern c;
  c.ptr.resize(static_cast<size_t>(n) + 1);
  c.cols.resize(static_cast<size_t>(a.nnz()) + static_cast<size_t>(n));  // at most one added diagonal per row
  c.diag.resize(static_cast<size_t>(n));
  int64_t at = 0;
  c.ptr[0] = 0;
  for (int32_t k = 0; k < n; ++k) {
    const int32_t r = moved ? q[k] : k;
    const int64_t first = at;
    bool has_diag = false;
    for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
      const int32_t l = moved ? qinv[a.colind[p]] : a.colind[p];
      has_diag = has_diag || l == k;
      c.cols[at++] = l;
    }
    if (!has_diag) c.cols[at++] = k;
    if (moved || !has_diag) std::sort(c.cols.begin() + first, c.cols.begin() + at);  // A's rows are sorted
    c.ptr[k + 1] = at;
    c.diag[k] = std::lower_bound(c.cols.begin() + first, c.cols.begin() + at, k) - c.cols.begin();
  }
  c.cols.resize(static_cast<size_t>(at));
  return c;
}

RowPattern ilu_rows(RowPattern c, int32_t levels) {
  check_levels(levels);
  if (levels == 0) return c;
  const auto n = static_cast<int32_t>(c.ptr.size()) - 1;
  const std::vector<int64_t>& cptr = c.ptr;
  const std::vector<int32_t>& ccols = c.cols;

  // The factor by rows as it grows: columns and levels, and where each row's U part starts.
  RowPattern f;
  std::vector<int64_t>& fptr = f.ptr;
  std::vector<int64_t>& udiag = f.diag;
  std::vector<int32_t>& fcols = f.cols;
  fptr.assign(static_cast<size_t>(n) + 1, 0);
  udiag.assign(static_cast<size_t>(n), 0);
  std::vector<int32_t> flev;
  fcols.reserve(ccols.size() * 2);
  flev.reserve(ccols.size() * 2);
  constexpr int32_t kEnd = std::numeric_limits<int32_t>::max();
  std::vector<int32_t> next(static_cast<size_t>(n) + 1), lev(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) {
    // Sorted linked list of row i's columns: head at next[n], terminated by kEnd.
    int32_t* head = &next[n];
    *head = kEnd;
    int32_t tail = n;
    for (int64_t p = cptr[i]; p < cptr[i + 1]; ++p) {
      const int32_t j = ccols[p];
      next[tail] = j;
      next[j] = kEnd;
      lev[j] = 0;
      tail = j;
    }
    // Pivots k < i in ascending order; fill enters behind k, so the walk never misses it.
    for (int32_t k = *head; k < i; k = next[k]) {
      const int32_t lik = lev[k];
      int32_t at = k;  // insertion point: the list position before the next candidate
      for (int64_t p = udiag[k] + 1; p < fptr[k + 1]; ++p) {
        const int32_t j = fcols[p];
        const int32_t l = lik + flev[p] + 1;
        if (l > levels) continue;
        while (next[at] < j) at = next[at];
        if (next[at] == j) {
          lev[j] = std::min(lev[j], l);
        } else {
          next[j] = next[at];
          next[at] = j;
          lev[j] = l;
        }
        at = j;
      }
    }
    for (int32_t j = *head; j != kEnd; j = next[j]) {
      if (j == i) udiag[i] = static_cast<int64_t>(fcols.size());
      fcols.push_back(j);
      flev.push_back(lev[j]);
    }
    fptr[i + 1] = static_cast<int64_t>(fcols.size());
  }
  return f;
}

}  // namespace gpuglu::analysis
