#pragma once
// Conversions, validation and the few kernels every layer needs (SpMV, norms,
// residuals). Header-only templates, implemented in src/core/matrix_ops_impl.hpp.
#include <cstdint>
#include <vector>

#include "gpuglu/matrix.hpp"

namespace gpuglu {

// Builds CSR from triplets (any order); duplicates are summed; column indices sorted.
template <class I, class V>
CsrMatrix<I, V> csr_from_triplets(I nrows, I ncols, const std::vector<Triplet<I, V>>& entries);

// CSR <-> CSC (the transpose of the storage); indices come out sorted.
template <class I, class V>
CscMatrix<I, V> csr_to_csc(const CsrView<I, V>& a);
template <class I, class V>
CsrMatrix<I, V> csc_to_csr(const CscView<I, V>& a);
template <class I, class V>
CsrMatrix<I, V> transpose(const CsrView<I, V>& a);

// Converts the index type; throws Error(index_overflow) when a value does not fit.
template <class J, class I, class V>
CsrMatrix<J, V> convert_indices(const CsrView<I, V>& a);

// Throws Error(invalid_input) naming the first defect: negative sizes, rowptr not
// monotone, column index out of range, (if require_sorted) unsorted or duplicate
// column indices in a row.
template <class I, class V>
void validate(const CsrView<I, V>& a, bool require_sorted);

// y = A x, y = A^T x.
template <class I, class V>
void spmv(const CsrView<I, V>& a, const V* x, V* y);
template <class I, class V>
void spmv_transpose(const CsrView<I, V>& a, const V* x, V* y);

// ||b - A x||_2 / ||b||_2 (0 when b == 0 and the residual is 0).
template <class I, class V>
double relative_residual(const CsrView<I, V>& a, const V* x, const V* b);

// Componentwise (Oettli-Prager) backward error: max_i |b - A x|_i / (|A| |x| + |b|)_i.
template <class I, class V>
double backward_error(const CsrView<I, V>& a, const V* x, const V* b);

// max_i |x_i - y_i| / max_i |y_i|.
double relative_difference_inf(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace gpuglu

#include "gpuglu/detail/matrix_ops_impl.hpp"
