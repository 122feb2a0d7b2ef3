#pragma once
// Helpers of the reference-backend tests: a deterministic PRNG and random matrices,
// a KLU wrapper (the peer every accuracy test compares with), vector comparisons.
#include <klu.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuglu/matrix.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/options.hpp"

namespace gpuglu::test {

// The column pipeline (GLU3.0's analysis, which these tests check): the automatic engine is
// the supernodal LU's (core/automatic_options.hpp).
inline Options column_analysis(Options o = Options()) {
  o.lu_engine = LuEngine::column;
  return o;
}

// splitmix64: the same numbers on every platform (no std::distribution).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double symmetric() { return 2.0 * uniform() - 1.0; }                         // [-1, 1)
  int32_t below(int32_t m) { return static_cast<int32_t>(next() % static_cast<uint64_t>(m)); }

 private:
  uint64_t state_;
};

// Random n x n matrix, about per_row off-diagonal entries per row (unsymmetric pattern).
// diag_boost > 0 makes it row diagonally dominant by that factor; 0 leaves the diagonal
// random like the rest; zero_diag_every > 0 removes every such diagonal (needs matching).
inline CsrMatrix<int32_t, double> random_matrix(int32_t n, int32_t per_row, uint64_t seed, double diag_boost = 1.5,
                                                int32_t zero_diag_every = 0) {
  Rng rng(seed);
  std::vector<Triplet<int32_t, double>> t;
  std::vector<double> rowsum(static_cast<size_t>(n), 0.0);
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t e = 0; e < per_row; ++e) {
      const int32_t j = rng.below(n);
      if (j == i) continue;
      const double v = rng.symmetric();
      t.push_back({i, j, v});
      rowsum[i] += std::fabs(v);
    }
  }
  for (int32_t i = 0; i < n; ++i) {
    if (zero_diag_every > 0 && i % zero_diag_every == zero_diag_every - 1) continue;
    const double d = diag_boost > 0 ? diag_boost * rowsum[i] + 1.0 : rng.symmetric();
    t.push_back({i, i, rng.uniform() < 0.5 ? -d : d});
  }
  return csr_from_triplets<int32_t, double>(n, n, t);
}

// B with B(pi[i], :) = A(i, :): a row-scrambled matrix whose strong diagonal a
// matching (row_perm[k] = pi[k] for identity columns) recovers.
inline CsrMatrix<int32_t, double> scramble_rows(const CsrMatrix<int32_t, double>& a, const std::vector<int32_t>& pi) {
  std::vector<Triplet<int32_t, double>> t;
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) t.push_back({pi[i], a.colind[p], a.values[p]});
  return csr_from_triplets<int32_t, double>(a.nrows, a.ncols, t);
}

// D_r A D_c with D_r = diag(10^row_exp[i]) and D_c = diag(10^col_exp[j]): entries anywhere
// in the double range, yet as easy as A for a solver whose scaling undoes D_r and D_c.
inline CsrMatrix<int32_t, double> scaled_by_powers_of_ten(const CsrMatrix<int32_t, double>& a,
                                                          const std::vector<int32_t>& row_exp,
                                                          const std::vector<int32_t>& col_exp) {
  CsrMatrix<int32_t, double> b = a;
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      b.values[p] *= std::pow(10.0, row_exp[i] + col_exp[a.colind[p]]);
  return b;
}

// n exponents drawn uniformly from [lo, hi].
inline std::vector<int32_t> random_exponents(int32_t n, int32_t lo, int32_t hi, Rng& rng) {
  std::vector<int32_t> e(static_cast<size_t>(n));
  for (int32_t& v : e) v = lo + rng.below(hi - lo + 1);
  return e;
}

inline std::vector<int32_t> random_permutation(int32_t n, Rng& rng) {
  std::vector<int32_t> p(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) p[i] = i;
  for (int32_t i = n - 1; i > 0; --i) std::swap(p[i], p[rng.below(i + 1)]);
  return p;
}

// x and y hold the same doubles, bit for bit (a NaN equals itself here).
inline bool same_bits(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

inline double rel_diff_inf(const std::vector<double>& x, const std::vector<double>& ref) {
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double d = std::fabs(x[i] - ref[i]);
    num = !(d <= num) ? d : num;  // a NaN makes the difference NaN, never small
    den = std::max(den, std::fabs(ref[i]));
  }
  return den > 0 ? num / den : num;
}

inline std::vector<double> rhs_for_known_solution(const CsrMatrix<int32_t, double>& a, uint64_t seed) {
  // b = A x_true with a known x_true in [1, 2): keeps b away from zero rows.
  Rng rng(seed);
  std::vector<double> x(static_cast<size_t>(a.nrows)), b(x.size());
  for (double& v : x) v = 1.0 + rng.uniform();
  spmv(a.view(), x.data(), b.data());
  return b;
}

// KLU on the same matrix: the peer of every accuracy comparison.
class Klu {
 public:
  explicit Klu(const CsrMatrix<int32_t, double>& a) : csc_(csr_to_csc(a.view())) {
    klu_defaults(&common_);
    symbolic_ = klu_analyze(csc_.ncols, csc_.colptr.data(), csc_.rowind.data(), &common_);
    if (!symbolic_) throw std::runtime_error("klu_analyze failed, status " + std::to_string(common_.status));
    numeric_ = klu_factor(csc_.colptr.data(), csc_.rowind.data(), csc_.values.data(), symbolic_, &common_);
    if (!numeric_ || common_.status != KLU_OK)
      throw std::runtime_error("klu_factor failed, status " + std::to_string(common_.status));
  }
  ~Klu() {
    if (numeric_) klu_free_numeric(&numeric_, &common_);
    if (symbolic_) klu_free_symbolic(&symbolic_, &common_);
  }
  Klu(const Klu&) = delete;
  Klu& operator=(const Klu&) = delete;

  std::vector<double> solve(const std::vector<double>& b, bool transpose = false) {
    std::vector<double> x = b;
    const int ok = transpose ? klu_tsolve(symbolic_, numeric_, csc_.ncols, 1, x.data(), &common_)
                             : klu_solve(symbolic_, numeric_, csc_.ncols, 1, x.data(), &common_);
    if (!ok) throw std::runtime_error("klu_solve failed");
    return x;
  }
  // 1-norm condition estimate (Hager / Higham, as MATLAB's condest).
  double condest() {
    klu_condest(csc_.colptr.data(), csc_.values.data(), symbolic_, numeric_, &common_);
    return common_.condest;
  }

 private:
  CscMatrix<int32_t, double> csc_;
  klu_common common_;
  klu_symbolic* symbolic_ = nullptr;
  klu_numeric* numeric_ = nullptr;
};

}  // namespace gpuglu::test
