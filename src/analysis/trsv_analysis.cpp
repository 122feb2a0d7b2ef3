// trsv::analyze: checks, dependency counts and the CSC map (analyze_dependencies), then
// levels and jlev (compute_levels), each one pass over the pattern (Li, Sec. 4.4: the
// row-wise level loop of Sec. 4.1).
#include "analysis/trsv_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "gpuglu/status.hpp"

namespace gpuglu::trsv {
namespace {

[[noreturn]] void reject(Status s, const std::string& what) { throw Error(s, "triangular solve analysis: " + what); }

std::string entry(int32_t i, int32_t j) { return "(" + std::to_string(i) + ", " + std::to_string(j) + ")"; }

void check_pattern(const TriangleView& t) {
  if (t.n < 0) reject(Status::invalid_input, "negative size " + std::to_string(t.n));
  if (!t.rowptr) reject(Status::invalid_input, "no row pointers");
  if (t.rowptr[0] != 0) reject(Status::invalid_input, "rowptr[0] is " + std::to_string(t.rowptr[0]) + ", not 0");
  if (t.nnz() > 0 && !t.colind) reject(Status::invalid_input, "no column indices");
  const bool lower = t.fill == Fill::lower;
  for (int32_t i = 0; i < t.n; ++i) {
    const int64_t b = t.rowptr[i], e = t.rowptr[i + 1];
    if (e < b) reject(Status::invalid_input, "row pointers decrease at row " + std::to_string(i));
    for (int64_t k = b; k < e; ++k) {
      const int32_t j = t.colind[k];
      if (j < 0 || j >= t.n)
        reject(Status::invalid_input, "column index " + std::to_string(j) + " out of range in row " + std::to_string(i));
      if (k > b && j <= t.colind[k - 1])
        reject(Status::invalid_input, "row " + std::to_string(i) + " is not sorted or repeats column " +
                                          std::to_string(j) + " (columns must strictly increase)");
      if (lower ? j > i : j < i)
        reject(Status::invalid_input, std::string("entry ") + entry(i, j) + " is not in the " + to_string(t.fill) +
                                          " triangle");
      if (j == i && t.diag == Diag::unit)
        reject(Status::invalid_input, "row " + std::to_string(i) +
                                          " stores a diagonal entry, but the diagonal is declared unit (implied)");
    }
    if (t.diag == Diag::stored && (e == b || t.colind[t.diag_position(i)] != i))
      reject(Status::structurally_singular, "row " + std::to_string(i) + " has no stored diagonal entry");
  }
}

}  // namespace

void check_values(const TriangleView& t) {
  if (!t.values) return;
  for (int32_t i = 0; i < t.n; ++i) {
    for (int64_t k = t.rowptr[i]; k < t.rowptr[i + 1]; ++k)
      if (!std::isfinite(t.values[k]))
        reject(Status::nan_or_inf, "entry " + entry(i, t.colind[k]) + " is " + std::to_string(t.values[k]));
    if (t.diag == Diag::stored && t.values[t.diag_position(i)] == 0.0)
      reject(Status::numerically_singular, "diagonal entry " + entry(i, i) + " is zero");
  }
}

TrsvAnalysis analyze_dependencies(const TriangleView& t) {
  check_pattern(t);
  check_values(t);
  TrsvAnalysis a;
  const int32_t n = t.n;
  a.n = n;
  a.fill = t.fill;
  a.diag = t.diag;
  a.nnz = t.nnz();
  a.dep_count.assign(n, 0);
  for (int32_t i = 0; i < n; ++i) {
    const int64_t deps = t.offdiag_end(i) - t.offdiag_begin(i);
    a.dep_count[i] = static_cast<int32_t>(deps);
    a.offdiag_nnz += deps;
    a.max_row_offdiag = std::max(a.max_row_offdiag, a.dep_count[i]);
  }

  // CSC of the off-diagonal part: rows ascending within each column, and the CSR position
  // of every entry (csc_map) for gathering new values.
  a.csc_colptr.assign(static_cast<size_t>(n) + 1, 0);
  for (int32_t i = 0; i < n; ++i)
    for (int64_t k = t.offdiag_begin(i); k < t.offdiag_end(i); ++k) ++a.csc_colptr[t.colind[k] + 1];
  for (int32_t j = 0; j < n; ++j) {
    a.max_col_offdiag = std::max<int32_t>(a.max_col_offdiag, static_cast<int32_t>(a.csc_colptr[j + 1]));
    a.csc_colptr[j + 1] += a.csc_colptr[j];
  }
  a.csc_rowind.resize(a.offdiag_nnz);
  a.csc_map.resize(a.offdiag_nnz);
  {
    std::vector<int64_t> next(a.csc_colptr.begin(), a.csc_colptr.end() - 1);
    for (int32_t i = 0; i < n; ++i)
      for (int64_t k = t.offdiag_begin(i); k < t.offdiag_end(i); ++k) {
        const int64_t p = next[t.colind[k]]++;
        a.csc_rowind[p] = i;
        a.csc_map[p] = k;
      }
  }
  return a;
}

void compute_levels(const TriangleView& t, TrsvAnalysis& a) {
  const int32_t n = t.n;
  a.level.assign(n, 0);
  a.num_levels = 0;

  // Levels in solve order (ascending rows for L, descending for U): every row a row depends
  // on comes earlier in that order, so its level is final when it is read.
  const bool lower = t.fill == Fill::lower;
  for (int32_t s = 0; s < n; ++s) {
    const int32_t i = lower ? s : n - 1 - s;
    int32_t lev = 0;
    for (int64_t k = t.offdiag_begin(i); k < t.offdiag_end(i); ++k) lev = std::max(lev, a.level[t.colind[k]] + 1);
    a.level[i] = lev;
    a.num_levels = std::max(a.num_levels, lev + 1);
  }

  // jlev: a counting sort of the rows by level (stable: ascending rows within a level).
  a.level_ptr.assign(static_cast<size_t>(a.num_levels) + 1, 0);
  for (int32_t i = 0; i < n; ++i) ++a.level_ptr[a.level[i] + 1];
  for (int32_t l = 0; l < a.num_levels; ++l) a.level_ptr[l + 1] += a.level_ptr[l];
  a.max_level_rows = widest_level(a.level_ptr);
  a.jlev.resize(n);
  std::vector<int32_t> next(a.level_ptr.begin(), a.level_ptr.end() - 1);
  for (int32_t i = 0; i < n; ++i) a.jlev[next[a.level[i]]++] = i;
}

void check_dependencies(const TriangleView& t, const TrsvAnalysis& a) {
  if (a.n != t.n || a.nnz != t.nnz() || a.fill != t.fill || a.diag != t.diag)
    reject(Status::invalid_input, "the analysis is not of this triangle (size, fill or diagonal differ)");
  const size_t n = static_cast<size_t>(a.n);
  if (a.dep_count.size() != n || a.csc_colptr.size() != n + 1 ||
      static_cast<int64_t>(a.csc_rowind.size()) != a.offdiag_nnz || a.csc_colptr.back() != a.offdiag_nnz)
    reject(Status::invalid_input, "the analysis holds no dependency counts and CSC of " + std::to_string(a.n) +
                                      " rows (not trsv::analyze_dependencies() of this triangle)");
}

int32_t widest_level(const std::vector<int32_t>& level_ptr) {
  int32_t widest = 0;
  for (size_t l = 1; l < level_ptr.size(); ++l) widest = std::max(widest, level_ptr[l] - level_ptr[l - 1]);
  return widest;
}

TrsvAnalysis analyze(const TriangleView& t) {
  TrsvAnalysis a = analyze_dependencies(t);
  compute_levels(t, a);
  return a;
}

}  // namespace gpuglu::trsv
