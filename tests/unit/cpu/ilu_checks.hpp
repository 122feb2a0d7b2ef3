#pragma once
// ILU(k) by the textbook IKJ loop on a dense copy (Saad's ILU(p), levels of fill), the oracle for the incomplete factorizations of the CPU and CUDA backends: same
// pattern, same drops, so the factors must agree to rounding.
#include <algorithm>
#include <limits>
#include <vector>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix.hpp"

namespace gpuglu::test {

// The CPU's three ways to factor an ILU: the column engine's left-looking (gather) and
// right-looking executors under a column pivot threshold, and the row ILU
// (FactorKind::row_ilu) under PETSc's rule, no relative threshold.
enum class CpuIlu { gather, right_looking, rows };
inline constexpr CpuIlu kCpuIlus[] = {CpuIlu::gather, CpuIlu::right_looking, CpuIlu::rows};
inline const char* name_of(CpuIlu e) {
  return e == CpuIlu::gather ? " gather" : e == CpuIlu::right_looking ? " right" : " rows";
}
inline void use_cpu_ilu(Options& o, CpuIlu e) {
  o.backend = Backend::cpu;
  o.cpu_right_looking = e == CpuIlu::right_looking;
  o.pivot_threshold = e == CpuIlu::rows ? 0.0 : Options{}.pivot_threshold;
}
inline FactorKind kind_of(CpuIlu e) { return e == CpuIlu::rows ? FactorKind::row_ilu : FactorKind::column_lu; }

struct DenseIlu {
  int32_t n = 0;
  std::vector<double> a;     // row-major, L (unit, strictly lower) and U in place
  std::vector<int32_t> lev;  // level of each entry; > k: not in the pattern
  double& at(int32_t i, int32_t j) { return a[static_cast<size_t>(i) * n + j]; }
  int32_t& level(int32_t i, int32_t j) { return lev[static_cast<size_t>(i) * n + j]; }
};

inline DenseIlu dense_ilu(const CsrMatrix<int32_t, double>& m, int32_t k) {
  DenseIlu d;
  const int32_t n = d.n = m.nrows;
  constexpr int32_t inf = std::numeric_limits<int32_t>::max() / 4;
  d.a.assign(static_cast<size_t>(n) * n, 0.0);
  d.lev.assign(static_cast<size_t>(n) * n, inf);
  for (int32_t i = 0; i < n; ++i) {
    d.level(i, i) = 0;
    for (int32_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p) {
      d.at(i, m.colind[p]) = m.values[p];
      d.level(i, m.colind[p]) = 0;
    }
  }
  // The pattern first (final levels), then the numeric loop on it: the static-pattern ILU(k)
  // that PETSc's MatILUFactorSymbolic + MatLUFactorNumeric compute. (Updating levels during
  // the numeric loop instead drops early updates to entries whose level drops later.)
  for (int32_t i = 1; i < n; ++i)
    for (int32_t c = 0; c < i; ++c) {
      if (d.level(i, c) > k) continue;
      for (int32_t j = c + 1; j < n; ++j)
        if (d.level(c, j) <= k) d.level(i, j) = std::min(d.level(i, j), d.level(i, c) + d.level(c, j) + 1);
    }
  for (int32_t i = 1; i < n; ++i)
    for (int32_t c = 0; c < i; ++c) {
      if (d.level(i, c) > k) continue;
      d.at(i, c) /= d.at(c, c);
      for (int32_t j = c + 1; j < n; ++j)
        if (d.level(c, j) <= k && d.level(i, j) <= k) d.at(i, j) -= d.at(i, c) * d.at(c, j);
    }
  return d;
}

// max |F(i, j) - ILU(i, j)| / max |ILU| over the pattern, after checking the patterns agree.
inline double ilu_difference(const SparseLU& lu, DenseIlu& d, int32_t k) {
  const Schedule& s = lu.schedule();
  const std::vector<double>& f = lu.factor_values();
  double worst = 0.0, scale = 0.0;
  int64_t count = 0;
  for (int32_t j = 0; j < s.n; ++j)
    for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p) {
      const int32_t i = s.f_rowind[p];
      if (d.level(i, j) > k) return std::numeric_limits<double>::infinity();  // not in the pattern
      worst = std::max(worst, std::abs(f[p] - d.at(i, j)));
      scale = std::max(scale, std::abs(d.at(i, j)));
      ++count;
    }
  int64_t expected = 0;
  for (int32_t v : d.lev) expected += v <= k;
  if (count != expected) return std::numeric_limits<double>::infinity();
  return scale > 0 ? worst / scale : worst;
}

}  // namespace gpuglu::test
