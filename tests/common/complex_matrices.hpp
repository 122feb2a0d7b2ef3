#pragma once
// Complex matrices made from the real generators (gpuglu/generators.hpp): the pattern
// and the magnitudes stay those of a generated matrix, the phases are deterministic
// functions of (i, j), so the matrices are reproducible and their kind (unsymmetric,
// complex symmetric, Hermitian) is exact, not approximate. Shared by the complex tests
// (complex_test_support.hpp) and gpuglu_complex_bench, so that both measure the same matrices.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "gpuglu/matrix.hpp"

namespace gpuglu::test {

using Cplx = std::complex<double>;
using CsrZ = CsrMatrix<int32_t, Cplx>;

// A phase in [0, 2 pi) from (i, j) and a seed (a multiplicative hash; no PRNG state).
inline double phase_of(int64_t i, int64_t j, uint64_t seed) {
  const uint64_t h = (static_cast<uint64_t>(i) * 2654435761u) ^ (static_cast<uint64_t>(j) * 40503u + seed * 97u);
  return 6.283185307179586 * static_cast<double>(h % 100003u) / 100003.0;
}

// Each entry rotated by its own phase: |a_ij| kept, symmetry of values gone.
inline CsrZ rotated(const CsrMatrixD& a, uint64_t seed) {
  CsrZ z{a.nrows, a.ncols, a.rowptr, a.colind, std::vector<Cplx>(a.values.size())};
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      z.values[p] = std::polar(a.values[p], phase_of(i, a.colind[p], seed));
  return z;
}

// A complex symmetric (A = A^T) shifted Helmholtz-like operator: a real symmetric a (a
// Laplacian) minus (shift_re + i shift_im) on the diagonal, the absorbing-layer shift of
// frequency-domain wave problems.
inline CsrZ shifted(const CsrMatrixD& a, double shift_re, double shift_im) {
  CsrZ z{a.nrows, a.ncols, a.rowptr, a.colind, std::vector<Cplx>(a.values.begin(), a.values.end())};
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] == i) z.values[p] -= Cplx(shift_re, shift_im);
  return z;
}

// A Hermitian (A = A^H) "magnetic" version of a real symmetric a: a_ij e^{i phi_ij} with
// phi_ji = -phi_ij, the diagonal real and lowered by shift (indefinite for shift > 0).
inline CsrZ hermitian_of(const CsrMatrixD& a, double shift, uint64_t seed) {
  CsrZ z{a.nrows, a.ncols, a.rowptr, a.colind, std::vector<Cplx>(a.values.size())};
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const int32_t j = a.colind[p];
      if (j == i) {
        z.values[p] = Cplx(a.values[p] - shift, 0.0);
      } else {
        const double phi = phase_of(std::min(i, j), std::max(i, j), seed);
        z.values[p] = std::polar(a.values[p], i < j ? phi : -phi);
      }
    }
  return z;
}

// A deterministic complex vector with components of magnitude in [1, 2).
inline std::vector<Cplx> complex_vector(int32_t n, uint64_t seed) {
  std::vector<Cplx> x(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i)
    x[i] = std::polar(1.0 + static_cast<double>((i * 2654435761u + seed) % 1024) / 1024.0, phase_of(i, i, seed));
  return x;
}

}  // namespace gpuglu::test
