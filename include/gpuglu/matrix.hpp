#pragma once
// Compressed sparse row / column containers (owning) and views (non-owning).
// Index type I is int32_t or int64_t; value type V is double today (templated so
// float and complex can follow). Conversions and checks live in matrix_ops.hpp.
#include <cstdint>
#include <vector>

namespace gpuglu {

// Non-owning CSR view. values may be null for a pattern-only view.
template <class I, class V>
struct CsrView {
  I nrows = 0;
  I ncols = 0;
  const I* rowptr = nullptr;  // nrows + 1 entries, rowptr[0] == 0
  const I* colind = nullptr;  // rowptr[nrows] entries
  const V* values = nullptr;  // rowptr[nrows] entries or null
  I nnz() const { return nrows > 0 || rowptr ? rowptr[nrows] : 0; }
};

// Non-owning CSC view. values may be null for a pattern-only view.
template <class I, class V>
struct CscView {
  I nrows = 0;
  I ncols = 0;
  const I* colptr = nullptr;
  const I* rowind = nullptr;
  const V* values = nullptr;
  I nnz() const { return ncols > 0 || colptr ? colptr[ncols] : 0; }
};

template <class I, class V>
struct CsrMatrix {
  I nrows = 0;
  I ncols = 0;
  std::vector<I> rowptr{I(0)};
  std::vector<I> colind;
  std::vector<V> values;

  I nnz() const { return static_cast<I>(colind.size()); }
  CsrView<I, V> view() const {
    return {nrows, ncols, rowptr.data(), colind.data(), values.empty() ? nullptr : values.data()};
  }
};

template <class I, class V>
struct CscMatrix {
  I nrows = 0;
  I ncols = 0;
  std::vector<I> colptr{I(0)};
  std::vector<I> rowind;
  std::vector<V> values;

  I nnz() const { return static_cast<I>(rowind.size()); }
  CscView<I, V> view() const {
    return {nrows, ncols, colptr.data(), rowind.data(), values.empty() ? nullptr : values.data()};
  }
};

// One entry of a coordinate (triplet) list, 0-based.
template <class I, class V>
struct Triplet {
  I row;
  I col;
  V value;
};

using CsrMatrixD = CsrMatrix<int32_t, double>;
using CsrViewD = CsrView<int32_t, double>;
using CscMatrixD = CscMatrix<int32_t, double>;

}  // namespace gpuglu
