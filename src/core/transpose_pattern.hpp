#pragma once
// The transpose of a CSR pattern by a counting sort, with each transposed entry's position
// in the source: the column copy of the analysis, the transposed triangles of the solves
// with A^T, and A^T for the device refinement all need the positions (to gather values
// that change after every factorization), which csr_to_csc does not keep. Rows are
// visited in ascending order, so every transposed row receives its indices ascending.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpuglu {

template <class P>
struct TransposedPattern {
  std::vector<P> ptr;        // ncols + 1 entries
  std::vector<int32_t> ind;  // the source's row of each entry
  std::vector<P> src;        // the entry's position in the source's CSR order
};

// O(nrows + ncols + nnz); colind within [0, ncols).
template <class P>
TransposedPattern<P> transpose_pattern(int32_t nrows, int32_t ncols, const P* rowptr, const int32_t* colind) {
  TransposedPattern<P> t;
  const P nnz = nrows > 0 ? rowptr[nrows] : P(0);
  t.ptr.assign(static_cast<std::size_t>(ncols) + 1, P(0));
  t.ind.resize(static_cast<std::size_t>(nnz));
  t.src.resize(static_cast<std::size_t>(nnz));
  for (P p = 0; p < nnz; ++p) ++t.ptr[static_cast<std::size_t>(colind[p]) + 1];
  for (int32_t j = 0; j < ncols; ++j) t.ptr[j + 1] += t.ptr[j];
  std::vector<P> next(t.ptr.begin(), t.ptr.end() - 1);
  for (int32_t i = 0; i < nrows; ++i)
    for (P p = rowptr[i]; p < rowptr[i + 1]; ++p) {
      const P e = next[colind[p]]++;
      t.ind[e] = i;
      t.src[e] = p;
    }
  return t;
}

}  // namespace gpuglu
