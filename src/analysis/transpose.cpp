// trsv::transpose: the pattern's counting-sort transpose (core/transpose_pattern.hpp), whose
// rows come out ascending, with the values gathered through its source positions.
#include "analysis/transpose.hpp"

#include <cstddef>
#include <utility>

#include "core/transpose_pattern.hpp"

namespace gpuglu::trsv {

TransposedTriangle transpose(const TriangleView& t) {
  TransposedPattern<int64_t> p = transpose_pattern(t.n, t.n, t.rowptr, t.colind);
  TransposedTriangle out;
  Triangle& r = out.t;
  r.n = t.n;
  r.fill = t.fill == Fill::lower ? Fill::upper : Fill::lower;
  r.diag = t.diag;
  r.rowptr = std::move(p.ptr);
  r.colind = std::move(p.ind);
  out.source = std::move(p.src);
  if (t.values) {
    r.values.resize(out.source.size());
    for (std::size_t e = 0; e < out.source.size(); ++e) r.values[e] = t.values[out.source[e]];
  }
  return out;
}

}  // namespace gpuglu::trsv
