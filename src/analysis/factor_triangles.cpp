// trsv::factor_triangles: L's rows come from the schedule as they are; U's rows get their
// diagonal prepended (the schedule keeps U's strictly upper part and the diagonal apart).
#include "analysis/factor_triangles.hpp"

namespace gpuglu::trsv {

FactorTriangles factor_triangles(const Schedule& s) {
  FactorTriangles out;
  const int32_t n = s.n;
  Triangle& l = out.l;
  l.n = n;
  l.fill = Fill::lower;
  l.diag = Diag::unit;
  l.rowptr.assign(s.l_rowptr.begin(), s.l_rowptr.end());
  l.colind.assign(s.l_colind.begin(), s.l_colind.end());
  out.l_pos.assign(s.l_pos.begin(), s.l_pos.end());

  Triangle& u = out.u;
  u.n = n;
  u.fill = Fill::upper;
  u.diag = Diag::stored;
  u.rowptr.resize(static_cast<size_t>(n) + 1);
  u.colind.reserve(static_cast<size_t>(s.nnz_u));
  out.u_pos.reserve(static_cast<size_t>(s.nnz_u));
  for (int32_t j = 0; j < n; ++j) {
    u.rowptr[j] = s.u_rowptr[j] + j;
    u.colind.push_back(j);
    out.u_pos.push_back(s.f_diag[j]);
    for (int64_t e = s.u_rowptr[j]; e < s.u_rowptr[j + 1]; ++e) {
      u.colind.push_back(s.u_colind[e]);
      out.u_pos.push_back(s.u_pos[e]);
    }
  }
  u.rowptr[n] = s.u_rowptr[n] + n;
  return out;
}

}  // namespace gpuglu::trsv
