#pragma once
// Symmetric test matrices and the dense oracle of inertia that the LDL^T tests share (the
// column and supernodal engines, on the CPU and the GPU).
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "gpuglu/ldlt.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "reference_test_support.hpp"

extern "C" void dsyev_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
                       double* work, const int* lwork, int* info);

namespace gpuglu::test {

// Eigenvalue signs of a small symmetric A (dense, LAPACK dsyev), zero within tol * max|lambda|.
inline Inertia dense_inertia(const CsrMatrix<int32_t, double>& a, double tol = 1e-10) {
  const int n = a.nrows;
  std::vector<double> d(static_cast<size_t>(n) * n, 0.0), w(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) d[static_cast<size_t>(a.colind[p]) * n + i] = a.values[p];
  int lwork = -1, info = 0;
  double query = 0.0;
  dsyev_("N", "L", &n, d.data(), &n, w.data(), &query, &lwork, &info);
  lwork = static_cast<int>(query);
  std::vector<double> work(static_cast<size_t>(lwork));
  dsyev_("N", "L", &n, d.data(), &n, w.data(), work.data(), &lwork, &info);
  EXPECT_EQ(info, 0);
  double big = 0.0;
  for (double v : w) big = std::max(big, std::fabs(v));
  Inertia in;
  for (double v : w) (v > tol * big ? in.positive : v < -tol * big ? in.negative : in.zero)++;
  return in;
}

// The lower (or upper) triangle of a symmetric A, as PETSc's SBAIJ stores the upper one (real
// or complex values).
template <class V>
CsrMatrix<int32_t, V> triangle_of(const CsrMatrix<int32_t, V>& a, StoredTriangle t) {
  std::vector<Triplet<int32_t, V>> e;
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const int32_t c = a.colind[p];
      if ((t == StoredTriangle::lower && c <= i) || (t == StoredTriangle::upper && c >= i))
        e.push_back({i, c, a.values[p]});
    }
  return csr_from_triplets<int32_t, V>(a.nrows, a.ncols, e);
}

// A random sparse symmetric matrix with diagonal signs mixed: indefinite, and - with
// diag_weight small - pivots that a static order meets small.
inline CsrMatrix<int32_t, double> random_symmetric(int32_t n, int32_t per_row, uint64_t seed, double diag_weight) {
  Rng rng(seed);
  std::vector<Triplet<int32_t, double>> e;
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t k = 0; k < per_row; ++k) {
      const int32_t j = rng.below(n);
      if (j == i) continue;
      const double v = rng.symmetric();
      e.push_back({i, j, v});
      e.push_back({j, i, v});
    }
    const double d = diag_weight * (1.0 + rng.uniform()) * per_row;
    e.push_back({i, i, rng.uniform() < 0.5 ? -d : d});
  }
  return csr_from_triplets<int32_t, double>(n, n, e);  // duplicates add up: still symmetric
}

// Blocks a (J - I) of order 3 (ones off the diagonal, zeros on it; eigenvalues 2a, -a, -a):
// the first pivot of each block is an exact zero that no fill rescues - static 1 x 1 pivots
// can only perturb it, a 2 x 2 pivot takes it exactly.
inline CsrMatrix<int32_t, double> zero_diagonal_blocks(int32_t blocks) {
  std::vector<Triplet<int32_t, double>> e;
  for (int32_t k = 0; k < blocks; ++k)
    for (int32_t i = 0; i < 3; ++i)
      for (int32_t j = 0; j < 3; ++j)
        if (i != j) e.push_back({3 * k + i, 3 * k + j, 1.0 + k});
  return csr_from_triplets<int32_t, double>(3 * blocks, 3 * blocks, e);
}

// A dense symmetric matrix with an empty diagonal: every unpivoted first pivot is 0, which
// 2 x 2 pivots take exactly.
inline CsrMatrix<int32_t, double> dense_zero_diagonal(int32_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.5, 1.5);
  std::vector<Triplet<int32_t, double>> e;
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = 0; j < i; ++j) {
      const double v = (i + j) % 2 ? u(rng) : -u(rng);
      e.push_back({i, j, v});
      e.push_back({j, i, v});
    }
  return csr_from_triplets<int32_t, double>(n, n, e);
}

}  // namespace gpuglu::test
