#pragma once
// Matrices whose static pivots fail inside supernodes (core/supernode_pivoting.hpp), for the
// CPU and GPU tests of the supernodal LU's partial pivoting inside supernodes.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::test {

// A 2-D grid of nx x ny nodes with two unknowns each: node blocks [[0 1] [1 1]] (a zero pivot
// wherever the first unknown comes first and nothing is matched), neighbours coupled by full
// 2 x 2 blocks of small unsymmetric values, so that both unknowns of a node are
// indistinguishable and share a supernode. Nonsingular: the node blocks dominate.
inline CsrMatrix<int32_t, double> zero_pivots_in_pairs(int32_t nx, int32_t ny) {
  std::vector<Triplet<int32_t, double>> t;
  auto node = [nx](int32_t i, int32_t j) { return 2 * (i + j * nx); };
  for (int32_t j = 0; j < ny; ++j)
    for (int32_t i = 0; i < nx; ++i) {
      const int32_t p = node(i, j);
      t.push_back({p, p, 0.0});
      t.push_back({p, p + 1, 1.0});
      t.push_back({p + 1, p, 1.0});
      t.push_back({p + 1, p + 1, 1.0});
      const int32_t di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
      for (int d = 0; d < 4; ++d) {
        const int32_t ii = i + di[d], jj = j + dj[d];
        if (ii < 0 || ii >= nx || jj < 0 || jj >= ny) continue;
        const int32_t q = node(ii, jj);
        for (int32_t r = 0; r < 2; ++r)
          for (int32_t c = 0; c < 2; ++c)
            t.push_back({p + r, q + c, -0.05 * (1.0 + 0.5 * std::sin(1.0 + p + 3.0 * q + r - c))});
      }
    }
  return csr_from_triplets<int32_t, double>(2 * nx * ny, 2 * nx * ny, t);
}

// a with every value times f (the same pattern: a refactorization's new values).
inline CsrMatrix<int32_t, double> scaled_values(CsrMatrix<int32_t, double> a, double f) {
  for (double& v : a.values) v *= f;
  return a;
}

}  // namespace gpuglu::test
