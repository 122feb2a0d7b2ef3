#pragma once
// The equivalent real form of a complex symmetric or Hermitian matrix (Day and Heroux,
// "Solving complex-valued linear systems via equivalent real formulations", SISC 2001): K of
// order 2n in which each complex entry a = ar + i ai of A becomes the 2 x 2 block of rows and
// columns (2i, 2i + 1) x (2j, 2j + 1)
//   Hermitian form  [ar -ai; ai  ar]   K (xr, xi) = (br, bi)   (A = A^H, or any A with real values)
//   symmetric form  [ar  ai; ai -ar]   K (xr, -xi) = (br, bi)  (A = A^T)
// Both are real symmetric, so the real supernodal LDL^T (CPU and GPU) factors a complex A
// through K (api/real_form_ldlt.hpp). The Hermitian form has each eigenvalue of A twice, so
// K's inertia is twice A's; the symmetric form's eigenvalues come in pairs +-s. The pairs stay
// adjacent: K's pattern is A's with every entry a dense 2 x 2 block, and an ordering of A
// expands to one of K that keeps each pair together (expand_permutation).
#include <cstdint>
#include <vector>

#include "core/numeric_engine.hpp"
#include "core/scalar.hpp"
#include "gpuglu/matrix.hpp"

namespace gpuglu::api {

class RealForm {
 public:
  // A's full pattern (both triangles, rows sorted): n rows, rowptr n + 1, colind rowptr[n].
  // Throws Error(index_overflow) when K's 4 * nnz entries exceed 32-bit indices.
  RealForm(int32_t n, const int32_t* rowptr, const int32_t* colind);

  // K's values from A's (the full pattern's order), in the Hermitian or the symmetric form.
  void expand_values(const Complex* a, bool hermitian_form);
  // K with the values of the last expand_values().
  CsrView<int32_t, double> matrix() const;
  // K's pattern for an engine's residuals (valid while this object lives).
  PatternRef pattern() const { return {2 * n_, rowptr64_.data(), colind2_.data()}; }
  // b (n) -> K's right-hand side (2n); x from K's solution (2n) -> A's (n), in the form of
  // the last expand_values().
  void expand_vector(const Complex* b, double* b2) const;
  void contract_vector(const double* x2, Complex* x) const;
  // The entry of A (full pattern) whose block holds entry e2 of K.
  int64_t complex_entry(int64_t e2) const;

  // A's ordering (new -> old, n) as K's (2n): position k's pair 2 p[k], 2 p[k] + 1.
  static std::vector<int32_t> expand_permutation(const int32_t* perm, int32_t n);

  int32_t n2() const noexcept { return 2 * n_; }
  bool hermitian_form() const noexcept { return hermitian_form_; }

 private:
  int32_t n_;
  const int32_t* rowptr_;  // A's (the caller keeps it)
  std::vector<int32_t> rowptr2_, colind2_;
  std::vector<int64_t> rowptr64_;
  std::vector<double> values2_;
  bool hermitian_form_ = true;
};

}  // namespace gpuglu::api
