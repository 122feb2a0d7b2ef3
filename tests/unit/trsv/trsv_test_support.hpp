#pragma once
// Triangles and helpers shared by the CPU tests of src/analysis (trsv) and the GPU tests of
// src/cuda/cuda_trsv (tests/gpu/test_cuda_trsv.cpp): random sparse triangles, a chain
// (n levels), a diagonal, Laplacian parts, random right-hand sides, the relative error.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "analysis/triangle.hpp"

namespace gpuglu::test {

// Deterministic uniform numbers (no std::distribution: the same on every machine).
class Lcg {
 public:
  explicit Lcg(uint64_t seed) : s_(seed * 6364136223846793005ull + 1442695040888963407ull) {}
  uint64_t next() {
    s_ = s_ * 6364136223846793005ull + 1442695040888963407ull;
    return s_ >> 11;
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(next()) / 9007199254740992.0); }
  int32_t below(int32_t n) { return static_cast<int32_t>(next() % static_cast<uint64_t>(n)); }

 private:
  uint64_t s_;
};

inline std::vector<double> random_vector(int64_t n, uint64_t seed) {
  Lcg r(seed);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = r.uniform(-1.0, 1.0);
  return v;
}

// ||x - ref||_2 / ||ref||_2 (0 when both are 0).
inline double relative_error(const std::vector<double>& x, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    num += (x[i] - ref[i]) * (x[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  if (den == 0) return std::sqrt(num);
  return std::sqrt(num / den);
}

// About per_row off-diagonal entries per row at random columns on the fill's side, values
// in [-1, 1] / per_row and a diagonal in [1.5, 2.5] (well conditioned), sorted rows.
inline trsv::Triangle random_triangle(int32_t n, int32_t per_row, trsv::Fill fill, trsv::Diag diag, uint64_t seed) {
  Lcg r(seed);
  trsv::Triangle t;
  t.n = n;
  t.fill = fill;
  t.diag = diag;
  t.rowptr.assign(static_cast<size_t>(n) + 1, 0);
  std::vector<int32_t> cols;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t side = fill == trsv::Fill::lower ? i : n - 1 - i;  // candidates on the fill's side
    cols.clear();
    for (int32_t e = 0; e < per_row && side > 0; ++e) {
      const int32_t c = r.below(side);
      cols.push_back(fill == trsv::Fill::lower ? c : i + 1 + c);
    }
    if (diag == trsv::Diag::stored) cols.push_back(i);
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (int32_t c : cols) {
      t.colind.push_back(c);
      t.values.push_back(c == i ? r.uniform(1.5, 2.5) : r.uniform(-1.0, 1.0) / std::max(per_row, 1));
    }
    t.rowptr[static_cast<size_t>(i) + 1] = static_cast<int64_t>(t.colind.size());
  }
  return t;
}

// Row i depends on its neighbour only (i - 1 for lower, i + 1 for upper): n levels, the
// worst case of level scheduling and the longest chain of waits for self-scheduling.
inline trsv::Triangle chain_triangle(int32_t n, trsv::Fill fill, trsv::Diag diag) {
  trsv::Triangle t;
  t.n = n;
  t.fill = fill;
  t.diag = diag;
  t.rowptr.assign(static_cast<size_t>(n) + 1, 0);
  for (int32_t i = 0; i < n; ++i) {
    const bool lower = fill == trsv::Fill::lower;
    const bool has_dep = lower ? i > 0 : i < n - 1;
    if (!lower && diag == trsv::Diag::stored) { t.colind.push_back(i); t.values.push_back(2.0 + (i % 7) * 0.1); }
    if (has_dep) { t.colind.push_back(lower ? i - 1 : i + 1); t.values.push_back(-0.5 - (i % 5) * 0.05); }
    if (lower && diag == trsv::Diag::stored) { t.colind.push_back(i); t.values.push_back(2.0 + (i % 7) * 0.1); }
    t.rowptr[static_cast<size_t>(i) + 1] = static_cast<int64_t>(t.colind.size());
  }
  return t;
}

// Only the diagonal (one level); with Diag::unit it is the identity with no entries.
inline trsv::Triangle diagonal_triangle(int32_t n, trsv::Diag diag) {
  trsv::Triangle t;
  t.n = n;
  t.fill = trsv::Fill::lower;
  t.diag = diag;
  t.rowptr.assign(static_cast<size_t>(n) + 1, 0);
  Lcg r(99);
  for (int32_t i = 0; i < n; ++i) {
    if (diag == trsv::Diag::stored) { t.colind.push_back(i); t.values.push_back(r.uniform(0.5, 4.0)); }
    t.rowptr[static_cast<size_t>(i) + 1] = static_cast<int64_t>(t.colind.size());
  }
  return t;
}

// The lower / upper part of a generated matrix (gen::from_spec), as Li's Eq. (3) uses it.
inline trsv::Triangle spec_triangle(const std::string& spec, trsv::Fill fill, trsv::Diag diag) {
  const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
  return trsv::triangle_part(a.view(), fill, diag);
}

}  // namespace gpuglu::test
