#include "api/real_form.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "gpuglu/status.hpp"

namespace gpuglu::api {

// Row 2i of K holds row i's entries as pairs of columns (2j, 2j + 1), row 2i + 1 the same
// pairs again: row i's 4 * len entries start at 4 * rowptr[i].
RealForm::RealForm(int32_t n, const int32_t* rowptr, const int32_t* colind) : n_(n), rowptr_(rowptr) {
  const int64_t nnz = rowptr[n];
  if (4 * nnz > std::numeric_limits<int32_t>::max() || n > std::numeric_limits<int32_t>::max() / 2)
    throw Error(Status::index_overflow, "complex LDL^T in real form: 4 x " + std::to_string(nnz) +
                                            " entries of order " + std::to_string(2 * static_cast<int64_t>(n)) +
                                            " exceed 32-bit indices; use ldlt_engine column");
  rowptr2_.resize(2 * static_cast<size_t>(n) + 1);
  colind2_.resize(static_cast<size_t>(4 * nnz));
  values2_.assign(colind2_.size(), 0.0);
  rowptr2_[0] = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t len = rowptr[i + 1] - rowptr[i];
    const int32_t top = 4 * rowptr[i];
    rowptr2_[2 * i + 1] = top + 2 * len;
    rowptr2_[2 * i + 2] = top + 4 * len;
    for (int32_t t = 0; t < len; ++t) {
      const int32_t j = colind[rowptr[i] + t];
      for (int32_t half : {0, 1}) {
        int32_t* row = colind2_.data() + top + half * 2 * len + 2 * t;
        row[0] = 2 * j;
        row[1] = 2 * j + 1;
      }
    }
  }
  rowptr64_.assign(rowptr2_.begin(), rowptr2_.end());
}

void RealForm::expand_values(const Complex* a, bool hermitian_form) {
  hermitian_form_ = hermitian_form;
  const double sign = hermitian_form ? 1.0 : -1.0;
  for (int32_t i = 0; i < n_; ++i) {
    const int32_t len = rowptr_[i + 1] - rowptr_[i];
    double* upper = values2_.data() + 4 * static_cast<int64_t>(rowptr_[i]);
    double* lower = upper + 2 * len;
    for (int32_t t = 0; t < len; ++t) {
      const Complex v = a[rowptr_[i] + t];
      upper[2 * t] = v.real();
      upper[2 * t + 1] = -sign * v.imag();
      lower[2 * t] = v.imag();
      lower[2 * t + 1] = sign * v.real();
    }
  }
}

CsrView<int32_t, double> RealForm::matrix() const {
  return {2 * n_, 2 * n_, rowptr2_.data(), colind2_.data(), values2_.data()};
}

void RealForm::expand_vector(const Complex* b, double* b2) const {
  for (int32_t i = 0; i < n_; ++i) {
    b2[2 * i] = b[i].real();
    b2[2 * i + 1] = b[i].imag();
  }
}

void RealForm::contract_vector(const double* x2, Complex* x) const {
  const double sign = hermitian_form_ ? 1.0 : -1.0;
  for (int32_t i = 0; i < n_; ++i) x[i] = Complex(x2[2 * i], sign * x2[2 * i + 1]);
}

int64_t RealForm::complex_entry(int64_t e2) const {
  const auto row2 = static_cast<int32_t>(std::upper_bound(rowptr2_.begin(), rowptr2_.end(), e2) - rowptr2_.begin()) - 1;
  const int32_t i = row2 / 2;
  const int64_t len = rowptr_[i + 1] - rowptr_[i];
  const int64_t offset = (e2 - 4 * static_cast<int64_t>(rowptr_[i])) % (2 * len);
  return rowptr_[i] + offset / 2;
}

std::vector<int32_t> RealForm::expand_permutation(const int32_t* perm, int32_t n) {
  std::vector<int32_t> p2(2 * static_cast<size_t>(n));
  for (int32_t k = 0; k < n; ++k) {
    p2[2 * k] = 2 * perm[k];
    p2[2 * k + 1] = 2 * perm[k] + 1;
  }
  return p2;
}

}  // namespace gpuglu::api
