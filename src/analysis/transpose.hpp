#pragma once
// The transpose of a triangle, for solves with A^T (PETSc's MatSolveTranspose) on the same
// kernels: lower becomes upper and back, and the diagonal rule of triangle.hpp survives
// (a lower row's diagonal is its last entry; in the transpose it is the first entry of an
// upper row, because every other entry of that column lies below it).
#include <cstdint>
#include <vector>

#include "analysis/triangle.hpp"

namespace gpuglu::trsv {

struct TransposedTriangle {
  Triangle t;                   // values filled only when the input has values
  std::vector<int64_t> source;  // per entry of t, its position in the input's CSR order
};

// O(n + nnz). t must satisfy triangle.hpp's storage rules (it is not re-checked: analyze()
// of the result names any violation).
TransposedTriangle transpose(const TriangleView& t);

}  // namespace gpuglu::trsv
