// Structured and random test matrices of gpuglu/generators.hpp (circuits live in
// circuit_generator.cpp, the spec parser in generator_spec.cpp).
#include "gpuglu/generators.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "io/prng.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::gen {
namespace {

using Csr = CsrMatrix<int32_t, double>;
using Entries = std::vector<Triplet<int32_t, double>>;
constexpr int64_t kIndexMax = std::numeric_limits<int32_t>::max();

[[noreturn]] void bad(const std::string& who, const std::string& what) {
  throw Error(Status::invalid_input, who + ": " + what);
}

struct Offset {
  int dx, dy, dz;
  double weight;
};

// Checks the grid and returns its size; entries_per_row bounds nnz so that the
// int32 row pointers cannot overflow.
int32_t grid_size(const char* who, int32_t nx, int32_t ny, int32_t nz, int64_t entries_per_row) {
  if (nx <= 0 || ny <= 0 || nz <= 0) bad(who, "grid dimensions must be positive");
  // Checked after each product: three int32 sizes can overflow even int64.
  const int64_t nxy = int64_t{nx} * ny;
  if (nxy > kIndexMax) bad(who, "grid too large for 32-bit indices");
  const int64_t n = nxy * nz;
  if (n > kIndexMax || n * entries_per_row > kIndexMax) bad(who, "grid too large for 32-bit indices");
  return static_cast<int32_t>(n);
}

// Constant-coefficient stencil on a box with Dirichlet boundaries: neighbours outside
// the box are dropped. Unknowns are numbered x fastest, so offsets sorted by
// (dz, dy, dx) give sorted column indices without a sort.
Csr stencil_matrix(const char* who, int32_t nx, int32_t ny, int32_t nz, std::vector<Offset> stencil) {
  std::sort(stencil.begin(), stencil.end(), [](const Offset& a, const Offset& b) {
    return std::tie(a.dz, a.dy, a.dx) < std::tie(b.dz, b.dy, b.dx);
  });
  const int32_t n = grid_size(who, nx, ny, nz, static_cast<int64_t>(stencil.size()));
  Csr a;
  a.nrows = a.ncols = n;
  a.rowptr.reserve(static_cast<size_t>(n) + 1);
  a.colind.reserve(static_cast<size_t>(n) * stencil.size());
  a.values.reserve(static_cast<size_t>(n) * stencil.size());
  for (int32_t z = 0; z < nz; ++z)
    for (int32_t y = 0; y < ny; ++y)
      for (int32_t x = 0; x < nx; ++x) {
        for (const Offset& o : stencil) {
          const int32_t xx = x + o.dx, yy = y + o.dy, zz = z + o.dz;
          if (xx < 0 || xx >= nx || yy < 0 || yy >= ny || zz < 0 || zz >= nz) continue;
          a.colind.push_back(xx + nx * (yy + ny * zz));
          a.values.push_back(o.weight);
        }
        a.rowptr.push_back(static_cast<int32_t>(a.colind.size()));
      }
  return a;
}

// All offsets in the cube of radius 1 (or only the axis neighbours): the diagonal
// carries the number of neighbours of an interior point, so the matrix is an
// irreducibly diagonally dominant M-matrix, hence SPD.
std::vector<Offset> laplace_stencil(bool full_box, bool three_d) {
  std::vector<Offset> s;
  const int zr = three_d ? 1 : 0;
  for (int dz = -zr; dz <= zr; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int dist = std::abs(dx) + std::abs(dy) + std::abs(dz);
        if (dist == 0 || (!full_box && dist > 1)) continue;
        s.push_back({dx, dy, dz, -1.0});
      }
  s.push_back({0, 0, 0, static_cast<double>(s.size())});
  return s;
}

}  // namespace

Csr laplacian_2d(int32_t nx, int32_t ny, int points) {
  if (points != 5 && points != 9) bad("laplacian_2d", "points must be 5 or 9, got " + std::to_string(points));
  return stencil_matrix("laplacian_2d", nx, ny, 1, laplace_stencil(points == 9, false));
}

Csr laplacian_3d(int32_t nx, int32_t ny, int32_t nz, int points) {
  if (points != 7 && points != 27) bad("laplacian_3d", "points must be 7 or 27, got " + std::to_string(points));
  return stencil_matrix("laplacian_3d", nx, ny, nz, laplace_stencil(points == 27, true));
}

namespace {

// Throws when shift is (numerically) an eigenvalue of the Dirichlet Laplacian on the
// grid dims: its eigenvalues are sums of one 1-D eigenvalue 2 - 2cos(i pi/(n+1)) per
// axis. The longest axis is binary-searched, so the cost stays below the matrix's.
// The tolerance is relative to ||A||_inf = |2d - shift| + 2d.
void reject_singular_shift(const char* who, std::vector<int32_t> dims, double shift) {
  if (!std::isfinite(shift)) bad(who, "shift must be finite");
  const double pi = std::acos(-1.0);
  std::sort(dims.begin(), dims.end());
  auto eigenvalues = [&](int32_t m) {  // increasing
    std::vector<double> ev(static_cast<size_t>(m));
    for (int32_t i = 1; i <= m; ++i) ev[i - 1] = 2.0 - 2.0 * std::cos(i * pi / (m + 1.0));
    return ev;
  };
  const double diag = 2.0 * static_cast<double>(dims.size());
  const double tol = 1e-8 * (std::abs(diag - shift) + diag);
  const std::vector<double> last = eigenvalues(dims.back());
  auto check = [&](double partial) {  // is shift - partial within tol of some entry of last?
    const double target = shift - partial;
    const auto it = std::lower_bound(last.begin(), last.end(), target - tol);
    if (it != last.end() && *it <= target + tol)
      bad(who, "shift " + std::to_string(shift) + " is an eigenvalue of the Laplacian: the matrix is singular");
  };
  if (dims.size() == 2) {
    for (double a : eigenvalues(dims[0])) check(a);
  } else {
    const std::vector<double> mid = eigenvalues(dims[1]);
    for (double a : eigenvalues(dims[0]))
      for (double b : mid) check(a + b);
  }
}

}  // namespace

Csr shifted_laplacian_2d(int32_t nx, int32_t ny, double shift) {
  const char* who = "shifted_laplacian_2d";
  grid_size(who, nx, ny, 1, 5);  // before the eigenvalue check allocates per axis
  reject_singular_shift(who, {nx, ny}, shift);
  std::vector<Offset> s = laplace_stencil(false, false);
  s.back().weight -= shift;  // the diagonal comes last
  return stencil_matrix(who, nx, ny, 1, s);
}

Csr shifted_laplacian_3d(int32_t nx, int32_t ny, int32_t nz, double shift) {
  const char* who = "shifted_laplacian_3d";
  grid_size(who, nx, ny, nz, 7);
  reject_singular_shift(who, {nx, ny, nz}, shift);
  std::vector<Offset> s = laplace_stencil(false, true);
  s.back().weight -= shift;
  return stencil_matrix(who, nx, ny, nz, s);
}

// -Laplace(u) + w . grad(u), w along (1,1,1), scaled by h^2 / diffusion. With cell
// Peclet number Pe = |w| h / (2 diffusion) each axis gets the convection coefficient
// b = 2 Pe / sqrt(3). First-order upwinding puts b on the upstream neighbour only,
// which keeps an M-matrix (nonsingular) for every Pe, unlike central differences.
Csr convection_diffusion_3d(int32_t nx, int32_t ny, int32_t nz, double peclet) {
  if (!std::isfinite(peclet)) bad("convection_diffusion_3d", "Peclet number must be finite");
  const double b = 2.0 * std::abs(peclet) / std::sqrt(3.0);
  const int up = peclet >= 0 ? -1 : 1;  // upstream side
  std::vector<Offset> s{{0, 0, 0, 6.0 + 3.0 * b}};
  for (int side : {-1, 1}) {
    const double w = side == up ? -1.0 - b : -1.0;
    s.push_back({side, 0, 0, w});
    s.push_back({0, side, 0, w});
    s.push_back({0, 0, side, w});
  }
  return stencil_matrix("convection_diffusion_3d", nx, ny, nz, s);
}

namespace {

// k distinct columns in [0, n) other than `skip`, in random order.
std::vector<int32_t> distinct_columns(detail::SplitMix64& rng, int32_t n, int32_t k, int32_t skip) {
  std::vector<int32_t> cols;
  k = std::min<int32_t>(k, n - 1);
  if (k <= 0) return cols;
  if (int64_t{k} * 4 >= n) {  // dense rows: partial Fisher-Yates over all other columns
    std::vector<int32_t> all;
    for (int32_t j = 0; j < n; ++j)
      if (j != skip) all.push_back(j);
    for (int32_t t = 0; t < k; ++t) std::swap(all[t], all[t + rng.below(static_cast<int64_t>(all.size()) - t)]);
    all.resize(k);
    return all;
  }
  while (static_cast<int32_t>(cols.size()) < k) {  // sparse rows: rejection is cheap
    const auto j = static_cast<int32_t>(rng.below(n));
    if (j != skip && std::find(cols.begin(), cols.end(), j) == cols.end()) cols.push_back(j);
  }
  return cols;
}

// Adds d_i = factor * sum_j |a_ij| + shift on the diagonal (a has no diagonal yet).
Csr with_dominant_diagonal(const Csr& off, double factor, double shift) {
  Entries e;
  e.reserve(static_cast<size_t>(off.nnz()) + static_cast<size_t>(off.nrows));
  for (int32_t i = 0; i < off.nrows; ++i) {
    double sum = 0;
    for (int32_t p = off.rowptr[i]; p < off.rowptr[i + 1]; ++p) {
      e.push_back({i, off.colind[p], off.values[p]});
      sum += std::abs(off.values[p]);
    }
    e.push_back({i, i, factor * sum + shift});
  }
  return csr_from_triplets<int32_t, double>(off.nrows, off.ncols, e);
}

}  // namespace

Csr random_diag_dominant(int32_t n, int32_t nnz_per_row, uint64_t seed, bool symmetric_pattern) {
  if (n <= 0) bad("random_diag_dominant", "n must be positive");
  if (nnz_per_row < 0) bad("random_diag_dominant", "nnz_per_row must not be negative");
  const int64_t off_per_row = std::min<int64_t>(std::max(nnz_per_row - 1, 0), n - 1);
  if (n * (1 + off_per_row * (symmetric_pattern ? 2 : 1)) > kIndexMax)
    bad("random_diag_dominant", "too many entries for 32-bit indices");
  detail::SplitMix64 rng(seed);
  Entries e;
  e.reserve(static_cast<size_t>(n * off_per_row * (symmetric_pattern ? 2 : 1)));
  // Magnitudes in [0.1, 1) with random signs: no accidental M-matrix structure.
  auto value = [&] { return rng.sign() * rng.uniform(0.1, 1.0); };
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j : distinct_columns(rng, n, static_cast<int32_t>(off_per_row), i)) {
      e.push_back({i, j, value()});
      if (symmetric_pattern) e.push_back({j, i, value()});
    }
  // Mirrored pairs can sum; the diagonal is computed after that, so dominance holds.
  const Csr off = csr_from_triplets<int32_t, double>(n, n, e);
  return with_dominant_diagonal(off, 1.1, 1.0);
}

// H: symmetric, strictly diagonally dominant with positive diagonal (so SPD): a 1-D
// Laplacian coupling plus a few random symmetric long-range couplings. A: row i has
// a 1 in pivot column c_i = i * np / nd (distinct, increasing) and extras only in
// non-pivot columns, so A restricted to the pivot columns is I: full row rank.
Csr kkt_system(int32_t n_primal, int32_t n_dual, uint64_t seed) {
  const char* who = "kkt_system";
  if (n_primal <= 0) bad(who, "n_primal must be positive");
  if (n_dual < 0 || n_dual > n_primal) bad(who, "n_dual must be in [0, n_primal] for A to have full row rank");
  const int64_t n = int64_t{n_primal} + n_dual;
  if (n * 12 > kIndexMax) bad(who, "too many entries for 32-bit indices");
  detail::SplitMix64 rng(seed);

  Entries h;
  for (int32_t i = 0; i + 1 < n_primal; ++i) {
    h.push_back({i, i + 1, -1.0});
    h.push_back({i + 1, i, -1.0});
  }
  for (int32_t i = 0; i < n_primal && n_primal > 2; ++i) {
    const auto j = static_cast<int32_t>(rng.below(n_primal));
    if (std::abs(int64_t{j} - i) <= 1) continue;
    const double v = rng.sign() * rng.uniform(0.1, 0.5);
    h.push_back({i, j, v});
    h.push_back({j, i, v});
  }
  const Csr hd = csr_from_triplets<int32_t, double>(n_primal, n_primal, h);
  Csr hm = with_dominant_diagonal(hd, 1.0, 0.0);
  for (int32_t i = 0; i < n_primal; ++i)  // positive shift: strict dominance, so SPD
    for (int32_t p = hm.rowptr[i]; p < hm.rowptr[i + 1]; ++p)
      if (hm.colind[p] == i) hm.values[p] += rng.uniform(0.1, 1.1);

  std::vector<char> pivot(static_cast<size_t>(n_primal), 0);
  std::vector<int32_t> pivot_col(static_cast<size_t>(n_dual));
  for (int32_t i = 0; i < n_dual; ++i) {
    pivot_col[i] = static_cast<int32_t>(int64_t{i} * n_primal / n_dual);
    pivot[pivot_col[i]] = 1;
  }
  Entries e;
  for (int32_t i = 0; i < n_primal; ++i)
    for (int32_t p = hm.rowptr[i]; p < hm.rowptr[i + 1]; ++p) e.push_back({i, hm.colind[p], hm.values[p]});
  for (int32_t i = 0; i < n_dual; ++i) {
    const int32_t r = n_primal + i;
    auto add = [&](int32_t c, double v) {
      e.push_back({r, c, v});  // A
      e.push_back({c, r, v});  // A^T
    };
    add(pivot_col[i], 1.0);
    for (int t = 0; t < 2; ++t) {
      const auto c = static_cast<int32_t>(rng.below(n_primal));
      if (!pivot[c]) add(c, rng.sign() * rng.uniform(0.1, 0.5));
    }
  }
  // The (2,2) block stays structurally empty: no explicit zeros on the dual diagonal.
  return csr_from_triplets<int32_t, double>(static_cast<int32_t>(n), static_cast<int32_t>(n), e);
}

}  // namespace gpuglu::gen
