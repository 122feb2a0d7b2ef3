#include "api/complex_symmetry.hpp"

#include <algorithm>
#include <string>

#include "core/scalar.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::api {

namespace {

std::string entry_name(int32_t r, int32_t c) { return "(" + std::to_string(r) + ", " + std::to_string(c) + ")"; }

}  // namespace

void check_complex_symmetry(const analysis::SymmetricInput& in, const Complex* values, bool hermitian) {
  if (in.stored != StoredTriangle::full) return;  // one triangle: the other is its mirror by definition
  const std::string kind = hermitian ? "Hermitian" : "symmetric";
  const std::string need = hermitian ? "(a Hermitian factorization needs A = A^H; use LU)"
                                     : "(a symmetric factorization needs A = A^T; use LU)";
  // Row by row, each pair once from its upper entry: the first pair that differs is the one
  // the real check (analysis/symmetric_input.cpp) names.
  for (int32_t i = 0; i < in.n; ++i) {
    for (int32_t p = in.colptr[i]; p < in.colptr[i + 1]; ++p) {
      const int32_t j = in.rowind[p];
      if (j < i) continue;
      const Complex a = values[in.source[p]];
      if (j == i) {
        if (hermitian && a.imag() != 0.0)
          throw Error(Status::invalid_input, "the matrix is not Hermitian: A" + entry_name(i, i) + " = " +
                                                 value_text(a) + " is not real " + need);
        continue;
      }
      // The pattern is symmetric (checked): (j, i) exists in row j.
      const int32_t* row = in.rowind.data();
      const int32_t* q = std::lower_bound(row + in.colptr[j], row + in.colptr[j + 1], i);
      const Complex m = values[in.source[q - row]];
      if (a != conj_if(hermitian, m))
        throw Error(Status::invalid_input, "the matrix is not " + kind + ": A" + entry_name(i, j) + " = " +
                                               value_text(a) + " but A" + entry_name(j, i) + " = " + value_text(m) +
                                               " " + need);
    }
  }
}

std::vector<char> mirrored_entries(const analysis::SymmetricInput& in) {
  std::vector<char> out(in.source.size(), 0);
  for (int32_t i = 0; i < in.n; ++i)
    for (int32_t p = in.colptr[i]; p < in.colptr[i + 1]; ++p)
      out[static_cast<size_t>(p)] = in.entry_row[static_cast<size_t>(in.source[p])] != i ? 1 : 0;
  return out;
}

}  // namespace gpuglu::api
