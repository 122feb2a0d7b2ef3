// gen::elasticity_3d: Q1 hexahedral linear elasticity, the classic SPD problem with
// 3x3 node blocks, near-kernel rigid modes (a cantilever clamped on one face) and
// much denser rows than a scalar Laplacian.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::gen {
namespace {

constexpr int64_t kIndexMax = std::numeric_limits<int32_t>::max();
constexpr int kDofs = 24;  // 8 nodes x 3 components
using ElementMatrix = std::array<std::array<double, kDofs>, kDofs>;

[[noreturn]] void bad(const std::string& what) { throw Error(Status::invalid_input, "elasticity_3d: " + what); }

// Stiffness of the unit cube [0,1]^3, E = 1: sum over the 2x2x2 Gauss points of
// w B^T D B. Local node a sits at corner (a & 1, a >> 1 & 1, a >> 2 & 1), the order
// assembly uses. Only the upper triangle is computed and then mirrored, so the
// matrix is exactly symmetric and so is every sum of it assembled in a fixed order.
ElementMatrix element_stiffness(double nu) {
  const double lambda = nu / ((1 + nu) * (1 - 2 * nu));
  const double mu = 1 / (2 * (1 + nu));
  // Voigt order xx, yy, zz, yz, xz, xy with engineering shear strains.
  double d[6][6] = {};
  for (int p = 0; p < 3; ++p) {
    for (int q = 0; q < 3; ++q) d[p][q] = lambda;
    d[p][p] = lambda + 2 * mu;
    d[p + 3][p + 3] = mu;
  }
  const double g = 0.5 / std::sqrt(3.0);
  const double points[2] = {0.5 - g, 0.5 + g};
  const double weight = 1.0 / 8;  // the unit cube's volume over 8 points; J = I
  ElementMatrix k{};
  for (double gx : points)
    for (double gy : points)
      for (double gz : points) {
        double b[6][kDofs] = {};  // strain of each unit nodal displacement
        for (int a = 0; a < 8; ++a) {
          const int cx = a & 1, cy = a >> 1 & 1, cz = a >> 2 & 1;
          const double fx = cx ? gx : 1 - gx, fy = cy ? gy : 1 - gy, fz = cz ? gz : 1 - gz;
          const double sx = cx ? 1 : -1, sy = cy ? 1 : -1, sz = cz ? 1 : -1;
          const double dx = sx * fy * fz, dy = fx * sy * fz, dz = fx * fy * sz;
          b[0][3 * a] = dx;
          b[1][3 * a + 1] = dy;
          b[2][3 * a + 2] = dz;
          b[3][3 * a + 1] = dz;
          b[3][3 * a + 2] = dy;
          b[4][3 * a] = dz;
          b[4][3 * a + 2] = dx;
          b[5][3 * a] = dy;
          b[5][3 * a + 1] = dx;
        }
        for (int r = 0; r < kDofs; ++r) {
          double db[6];  // D B column r
          for (int p = 0; p < 6; ++p) {
            db[p] = 0;
            for (int q = 0; q < 6; ++q) db[p] += d[p][q] * b[q][r];
          }
          for (int s = 0; s <= r; ++s) {
            double v = 0;
            for (int p = 0; p < 6; ++p) v += b[p][s] * db[p];
            k[s][r] += weight * v;
          }
        }
      }
  for (int r = 0; r < kDofs; ++r)
    for (int s = 0; s < r; ++s) k[r][s] = k[s][r];
  return k;
}

// Elements along one axis shared by nodes i and i + di (elements e cover nodes e, e+1).
void shared_range(int32_t i, int di, int32_t elements, int32_t* lo, int32_t* hi) {
  *lo = std::max(std::max(i, i + di) - 1, 0);
  *hi = std::min(std::min(i, i + di), elements - 1);
}

}  // namespace

CsrMatrix<int32_t, double> elasticity_3d(int32_t nx, int32_t ny, int32_t nz, double poisson) {
  if (nx <= 0 || ny <= 0 || nz <= 0) bad("grid dimensions must be positive");
  // Outside (-1, 1/2) the material law D is not positive definite (NaN fails too).
  if (!(poisson > -1.0 && poisson < 0.5)) bad("Poisson ratio must be in (-1, 0.5), got " + std::to_string(poisson));
  // Free nodes: x = 1..nx (x = 0 is clamped), y = 0..ny, z = 0..nz. Checked after
  // each product: three int32 sizes can overflow even int64.
  const int64_t pny = int64_t{ny} + 1, pnz = int64_t{nz} + 1;
  const int64_t nodes_xy = int64_t{nx} * pny;
  if (nodes_xy > kIndexMax || 3 * nodes_xy * pnz > kIndexMax) bad("grid too large for 32-bit indices");
  const int64_t n = 3 * nodes_xy * pnz;
  // Neighbour counts are separable: a line of m free nodes has 3m - 2 (node,
  // neighbour) pairs, and the line x = 1..nx has nx nodes (its neighbour x = 0 is gone).
  const int64_t nnz = 9 * (3 * int64_t{nx} - 2) * (3 * pny - 2) * (3 * pnz - 2);
  if (nnz > kIndexMax) bad("too many entries for 32-bit indices");

  const ElementMatrix k = element_stiffness(poisson);
  auto node = [&](int32_t x, int32_t y, int32_t z) { return (x - 1) + int64_t{nx} * (y + pny * z); };

  CsrMatrix<int32_t, double> a;
  a.nrows = a.ncols = static_cast<int32_t>(n);
  a.rowptr.reserve(static_cast<size_t>(n) + 1);
  a.colind.reserve(static_cast<size_t>(nnz));
  a.values.reserve(static_cast<size_t>(nnz));
  for (int32_t z = 0; z <= nz; ++z)
    for (int32_t y = 0; y <= ny; ++y)
      for (int32_t x = 1; x <= nx; ++x)
        for (int d = 0; d < 3; ++d) {
          // Neighbours in (dz, dy, dx) order, components innermost: sorted columns.
          for (int dz = -1; dz <= 1; ++dz) {
            if (z + dz < 0 || z + dz > nz) continue;
            for (int dy = -1; dy <= 1; ++dy) {
              if (y + dy < 0 || y + dy > ny) continue;
              for (int dx = -1; dx <= 1; ++dx) {
                if (x + dx < 1 || x + dx > nx) continue;
                int32_t ex0, ex1, ey0, ey1, ez0, ez1;
                shared_range(x, dx, nx, &ex0, &ex1);
                shared_range(y, dy, ny, &ey0, &ey1);
                shared_range(z, dz, nz, &ez0, &ez1);
                const auto col0 = static_cast<int32_t>(3 * node(x + dx, y + dy, z + dz));
                for (int c = 0; c < 3; ++c) {
                  // Elements in ascending order for both (p, q) and (q, p): the
                  // mirrored entry is the same sum of the same terms, bit for bit.
                  double v = 0;
                  for (int32_t ez = ez0; ez <= ez1; ++ez)
                    for (int32_t ey = ey0; ey <= ey1; ++ey)
                      for (int32_t ex = ex0; ex <= ex1; ++ex) {
                        const int la = (x - ex) + 2 * (y - ey) + 4 * (z - ez);
                        const int lb = (x + dx - ex) + 2 * (y + dy - ey) + 4 * (z + dz - ez);
                        v += k[3 * la + d][3 * lb + c];
                      }
                  // Kept even when 0.0: the pattern is the full node coupling.
                  a.colind.push_back(col0 + c);
                  a.values.push_back(v);
                }
              }
            }
          }
          a.rowptr.push_back(static_cast<int32_t>(a.colind.size()));
        }
  return a;
}

}  // namespace gpuglu::gen
