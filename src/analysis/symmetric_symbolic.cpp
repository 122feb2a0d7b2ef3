#include "analysis/symmetric_symbolic.hpp"

#include <cs.h>

#include <algorithm>
#include <memory>
#include <string>

#include "analysis/ilu_pattern.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

// CXSparse returns malloc'd arrays: owned here, freed with cs_di_free.
struct CsFree {
  void operator()(int* p) const { cs_di_free(p); }
};
using CsArray = std::unique_ptr<int, CsFree>;

CsArray checked(int* p, const char* what) {
  if (!p) throw Error(Status::out_of_memory, std::string("CXSparse could not allocate ") + what);
  return CsArray(p);
}

}  // namespace

SymmetricPattern symmetric_symbolic(const SymmetricInput& a, const std::vector<int32_t>& q) {
  const int32_t n = a.n;
  SymmetricPattern out;
  FactorPattern& f = out.f;
  f.colptr.assign(static_cast<size_t>(n) + 1, 0);
  f.diag.assign(static_cast<size_t>(n), 0);
  out.parent.assign(static_cast<size_t>(n), -1);
  if (n == 0) return out;

  // The upper triangle of C = P A P^T in CSC (CXSparse's convention for cs_etree and
  // cs_ereach): column j' holds the rows i' <= j' of C(:, j').
  std::vector<int32_t> pinv(static_cast<size_t>(n));
  for (int32_t k = 0; k < n; ++k) pinv[q[k]] = k;
  std::vector<int> cp(static_cast<size_t>(n) + 1, 0), ci;
  for (int32_t c = 0; c < n; ++c)
    for (int32_t p = a.colptr[c]; p < a.colptr[c + 1]; ++p) {
      const int32_t i = pinv[a.rowind[p]], j = pinv[c];
      if (i <= j) ++cp[static_cast<size_t>(j) + 1];
    }
  for (int32_t j = 0; j < n; ++j) cp[j + 1] += cp[j];
  ci.resize(static_cast<size_t>(cp[n]));
  {
    std::vector<int> next(cp.begin(), cp.end() - 1);
    for (int32_t c = 0; c < n; ++c)
      for (int32_t p = a.colptr[c]; p < a.colptr[c + 1]; ++p) {
        const int32_t i = pinv[a.rowind[p]], j = pinv[c];
        if (i <= j) ci[next[j]++] = i;
      }
  }
  cs_di c{};
  c.nzmax = cp[n];
  c.m = n;
  c.n = n;
  c.p = cp.data();
  c.i = ci.data();
  c.x = nullptr;
  c.nz = -1;

  const CsArray parent = checked(cs_di_etree(&c, 0), "the elimination tree");
  const CsArray post = checked(cs_di_post(parent.get(), n), "the tree's postorder");
  const CsArray counts = checked(cs_di_counts(&c, parent.get(), post.get(), 0), "the column counts");
  for (int32_t j = 0; j < n; ++j) {
    out.parent[j] = parent.get()[j];
    f.colptr[j + 1] = f.colptr[j] + counts.get()[j];
  }
  f.rowind.resize(static_cast<size_t>(f.colptr[n]));
  // Row k of L (cs_ereach: the columns j < k with L(k, j) != 0) lands in those columns in
  // ascending k, after each column's diagonal, so every column's rows come out sorted.
  std::vector<int64_t> next(f.colptr.begin(), f.colptr.end() - 1);
  std::vector<int> s(static_cast<size_t>(n)), w(static_cast<size_t>(n), 0);
  for (int32_t k = 0; k < n; ++k) {
    f.diag[k] = next[k];
    f.rowind[static_cast<size_t>(next[k]++)] = k;
    const int top = cs_di_ereach(&c, k, parent.get(), s.data(), w.data());
    for (int t = top; t < n; ++t) f.rowind[static_cast<size_t>(next[s[t]]++)] = k;
  }
  for (int32_t j = 0; j < n; ++j)
    if (next[j] != f.colptr[j + 1])
      throw Error(Status::invalid_input, "internal: CXSparse's column count of column " + std::to_string(j) +
                                             " does not match its row patterns");
  f.nnz_u = n;  // D
  f.nnz_l = f.colptr[n] - n;
  return out;
}

SymmetricPattern incomplete_symmetric_pattern(const SymmetricInput& a, const std::vector<int32_t>& q, int32_t levels) {
  const MatchedPattern b{a.n, a.colptr, a.rowind};
  const FactorPattern lu = ilu_pattern(b, q, levels);
  SymmetricPattern out;
  FactorPattern& f = out.f;
  f.colptr.assign(static_cast<size_t>(a.n) + 1, 0);
  f.diag.assign(static_cast<size_t>(a.n), 0);
  for (int32_t j = 0; j < a.n; ++j) f.colptr[j + 1] = f.colptr[j] + (lu.colptr[j + 1] - lu.diag[j]);
  f.rowind.reserve(static_cast<size_t>(f.colptr[a.n]));
  for (int32_t j = 0; j < a.n; ++j) {
    f.diag[j] = f.colptr[j];
    f.rowind.insert(f.rowind.end(), lu.rowind.begin() + lu.diag[j], lu.rowind.begin() + lu.colptr[j + 1]);
  }
  f.nnz_u = a.n;
  f.nnz_l = f.colptr[a.n] - a.n;
  return out;
}

void build_symmetric_levels(Schedule& s, const std::vector<int32_t>& parent) {
  const int32_t n = s.n;
  // A column sits one level above its highest child (Chen & Wang, Algorithm 2): every
  // column it depends on - its descendants - lies in a lower level. Without a tree (an
  // incomplete L) the columns of row j of L are exactly what column j depends on.
  s.level_of.assign(static_cast<size_t>(n), 0);
  int32_t levels = n > 0 ? 1 : 0;
  int64_t edges = 0;
  if (!parent.empty()) {
    for (int32_t k = 0; k < n; ++k) {  // children have smaller numbers than their parents
      const int32_t p = parent[k];
      if (p < 0) continue;
      ++edges;
      s.level_of[p] = std::max(s.level_of[p], s.level_of[k] + 1);
      levels = std::max(levels, s.level_of[p] + 1);
    }
  } else {
    for (int32_t j = 0; j < n; ++j)
      for (int64_t e = s.l_rowptr[j]; e < s.l_rowptr[j + 1]; ++e) {
        ++edges;
        s.level_of[j] = std::max(s.level_of[j], s.level_of[s.l_colind[e]] + 1);
        levels = std::max(levels, s.level_of[j] + 1);
      }
  }
  s.num_dependencies = edges;
  s.level_ptr.assign(static_cast<size_t>(levels) + 1, 0);
  for (int32_t k = 0; k < n; ++k) ++s.level_ptr[s.level_of[k] + 1];
  for (int32_t l = 0; l < levels; ++l) s.level_ptr[l + 1] += s.level_ptr[l];
  s.level_cols.resize(static_cast<size_t>(n));
  {
    std::vector<int64_t> next(s.level_ptr.begin(), s.level_ptr.end() - 1);
    for (int32_t k = 0; k < n; ++k) s.level_cols[next[s.level_of[k]]++] = k;
  }
  s.level_max_subcols.assign(static_cast<size_t>(levels), 0);
  for (int32_t k = 0; k < n; ++k) {
    int32_t& m = s.level_max_subcols[s.level_of[k]];
    m = static_cast<int32_t>(std::max<int64_t>(m, s.f_colptr[k + 1] - s.f_diag[k] - 1));
  }

  // Target j of level l receives from the columns k of level l with L(j, k) != 0: row j of
  // L, by level of k. Rows in ascending j and, within a row, ascending k give each level's
  // targets ascending and each target's sources ascending (the order the engines apply
  // them in), with two counting passes and no sort.
  std::vector<int64_t> targets(static_cast<size_t>(levels) + 1, 0), pairs(static_cast<size_t>(levels) + 1, 0);
  std::vector<int32_t> last(static_cast<size_t>(levels), -1);
  for (int32_t j = 0; j < n; ++j)
    for (int64_t e = s.l_rowptr[j]; e < s.l_rowptr[j + 1]; ++e) {
      const int32_t l = s.level_of[s.l_colind[e]];
      ++pairs[static_cast<size_t>(l) + 1];
      if (last[l] != j) last[l] = j, ++targets[static_cast<size_t>(l) + 1];
    }
  for (int32_t l = 0; l < levels; ++l) {
    targets[l + 1] += targets[l];
    pairs[l + 1] += pairs[l];
  }
  s.level_target_ptr = targets;
  s.target_col.resize(static_cast<size_t>(targets[levels]));
  s.target_src_ptr.resize(static_cast<size_t>(targets[levels]) + 1);
  s.target_src.resize(static_cast<size_t>(pairs[levels]));
  s.target_src_col.resize(static_cast<size_t>(pairs[levels]));
  std::vector<int64_t> next_target(targets.begin(), targets.end() - 1), next_pair(pairs.begin(), pairs.end() - 1);
  std::fill(last.begin(), last.end(), -1);
  for (int32_t j = 0; j < n; ++j)
    for (int64_t e = s.l_rowptr[j]; e < s.l_rowptr[j + 1]; ++e) {
      const int32_t l = s.level_of[s.l_colind[e]];
      if (last[l] != j) {
        last[l] = j;
        const int64_t t = next_target[l]++;
        s.target_col[t] = j;
        s.target_src_ptr[t] = next_pair[l];
      }
      s.target_src_col[next_pair[l]] = s.l_colind[e];
      s.target_src[next_pair[l]++] = s.l_pos[e];
    }
  s.target_src_ptr[targets[levels]] = pairs[levels];
}

double symmetric_factor_flops(const Schedule& s) {
  double flops = 0.0;
  for (int32_t k = 0; k < s.n; ++k) {
    const double l = static_cast<double>(s.f_colptr[k + 1] - s.f_diag[k] - 1);
    flops += 2.0 * l + l * (l + 1.0);
  }
  return flops;
}

}  // namespace gpuglu::analysis
