// trsv::transpose: a counting sort of the entries by column. Rows are visited in ascending
// order, so every transposed row receives its columns ascending without a sort.
#include "trsv/transpose.hpp"

#include <cstddef>

namespace gpuglu::trsv {

TransposedTriangle transpose(const TriangleView& t) {
  TransposedTriangle out;
  const int32_t n = t.n;
  const int64_t nnz = t.nnz();
  Triangle& r = out.t;
  r.n = n;
  r.fill = t.fill == Fill::lower ? Fill::upper : Fill::lower;
  r.diag = t.diag;
  r.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  r.colind.resize(static_cast<std::size_t>(nnz));
  out.source.resize(static_cast<std::size_t>(nnz));
  if (t.values) r.values.resize(static_cast<std::size_t>(nnz));
  for (int64_t k = 0; k < nnz; ++k) ++r.rowptr[static_cast<std::size_t>(t.colind[k]) + 1];
  for (int32_t j = 0; j < n; ++j) r.rowptr[j + 1] += r.rowptr[j];
  std::vector<int64_t> next(r.rowptr.begin(), r.rowptr.end() - 1);
  for (int32_t i = 0; i < n; ++i)
    for (int64_t k = t.rowptr[i]; k < t.rowptr[i + 1]; ++k) {
      const int64_t e = next[t.colind[k]]++;
      r.colind[e] = i;
      out.source[e] = k;
      if (t.values) r.values[e] = t.values[k];
    }
  return out;
}

}  // namespace gpuglu::trsv
