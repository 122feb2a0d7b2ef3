#pragma once
// The two triangles of a factorization F = L U (a Schedule's pattern) in the form the
// triangular-solve module takes: L unit lower (strictly lower entries only) and U upper
// with its diagonal stored first in each row, both CSR with ascending columns, and for
// every entry its position in F's values, so that a numeric factorization hands its values
// to the solves by one gather (src/cuda/trsv/lu_solves.cu).
#include <cstdint>
#include <vector>

#include "gpuglu/schedule.hpp"
#include "analysis/triangle.hpp"

namespace gpuglu::trsv {

struct FactorTriangles {
  Triangle l, u;                    // patterns only (values empty)
  std::vector<int64_t> l_pos, u_pos;  // position in F of each entry of l / u
};

FactorTriangles factor_triangles(const Schedule& s);

}  // namespace gpuglu::trsv
