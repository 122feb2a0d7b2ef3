#pragma once
// A complex symmetric matrix (A = A^T) and a Hermitian one (A = A^H) share the full pattern
// and the analysis (check_symmetric_input on the magnitudes); what differs is how a value
// and its mirror relate. SparseLDLT<std::complex<double>> uses these two helpers on top of
// the pattern that check_symmetric_input built.
#include <vector>

#include "analysis/symmetric_input.hpp"
#include "core/scalar.hpp"

namespace gpuglu::api {

// Full storage: every A(i, j) equals A(j, i) (hermitian: conj(A(j, i)), and the diagonal is
// real), exactly, as the real check compares. Throws Error(invalid_input) naming the first
// pair that differs.
void check_complex_symmetry(const analysis::SymmetricInput& in, const Complex* values, bool hermitian);

// For each entry of the full pattern (CSR order), whether its value is its source's mirror
// image (one-triangle storage: the entries of the triangle not stored); a Hermitian A takes
// the conjugate there.
std::vector<char> mirrored_entries(const analysis::SymmetricInput& in);

}  // namespace gpuglu::api
