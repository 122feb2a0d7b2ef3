// trsv::triangle_part: the triangle of a square CSR matrix, as Li's benchmarks and ILU(0) use it.
#include "analysis/triangle.hpp"

#include <string>

#include "gpuglu/status.hpp"

namespace gpuglu::trsv {

const char* to_string(Fill f) noexcept { return f == Fill::lower ? "lower" : "upper"; }
const char* to_string(Diag d) noexcept { return d == Diag::unit ? "unit" : "stored"; }

Triangle triangle_part(const CsrView<int32_t, double>& a, Fill fill, Diag diag) {
  if (a.nrows != a.ncols)
    throw Error(Status::not_square, "triangle_part: the matrix is " + std::to_string(a.nrows) + " x " +
                                        std::to_string(a.ncols) + ", not square");
  Triangle t;
  t.n = a.nrows;
  t.fill = fill;
  t.diag = diag;
  t.rowptr.assign(static_cast<size_t>(a.nrows) + 1, 0);
  // Unit triangles: the pivot each off-diagonal entry is divided by (a_jj for lower, a_ii for upper).
  std::vector<double> pivot(static_cast<size_t>(a.nrows), 1.0);
  if (diag == Diag::unit && a.values)
    for (int32_t i = 0; i < a.nrows; ++i)
      for (int32_t k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k)
        if (a.colind[k] == i && a.values[k] != 0.0) pivot[i] = a.values[k];
  for (int32_t i = 0; i < a.nrows; ++i) {
    for (int32_t k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      const int32_t j = a.colind[k];
      const bool keep = j == i ? diag == Diag::stored : (fill == Fill::lower ? j < i : j > i);
      if (!keep) continue;
      t.colind.push_back(j);
      const double p = diag == Diag::unit ? pivot[fill == Fill::lower ? j : i] : 1.0;
      t.values.push_back(a.values ? a.values[k] / p : 0.0);
    }
    t.rowptr[static_cast<size_t>(i) + 1] = static_cast<int64_t>(t.colind.size());
  }
  return t;
}

}  // namespace gpuglu::trsv
