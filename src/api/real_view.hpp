#pragma once
// The analysis is scalar-free (docs/design.md, "Complex scalars"): matching and scaling
// (MC64's maximum product) and every check it makes read only |a_ij|, so a complex matrix is
// analyzed through a real view of its magnitudes. A real matrix is its own view (no copy:
// the double path is unchanged).
#include <cstdint>
#include <vector>

#include "core/scalar.hpp"
#include "gpuglu/matrix.hpp"

namespace gpuglu::api {

template <class I>
CsrView<I, double> real_view(const CsrView<I, double>& a, std::vector<double>& /*storage*/) {
  return a;
}

// |a_ij| in storage (nnz entries), viewed with a's pattern; null values stay null.
template <class I>
CsrView<I, double> real_view(const CsrView<I, Complex>& a, std::vector<double>& storage) {
  CsrView<I, double> out{a.nrows, a.ncols, a.rowptr, a.colind, nullptr};
  if (!a.values || !a.rowptr || a.nrows < 0) return out;  // the analysis names the defect
  const auto nnz = static_cast<size_t>(a.rowptr[a.nrows]);
  storage.resize(nnz);
  for (size_t p = 0; p < nnz; ++p) storage[p] = std::abs(a.values[p]);
  out.values = storage.data();
  return out;
}

}  // namespace gpuglu::api
