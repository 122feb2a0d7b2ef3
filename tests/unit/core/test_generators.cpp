// Generators: deterministic, well-formed (sorted, no empty rows), the promised
// symmetry and structure, and a strict spec parser.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/status.hpp"
#include "test_matrices.hpp"

namespace gpuglu {
namespace {

bool same(const CsrMatrixD& a, const CsrMatrixD& b) {
  return a.nrows == b.nrows && a.ncols == b.ncols && a.rowptr == b.rowptr && a.colind == b.colind &&
         a.values == b.values;
}

// |a_ij - sign * a_ji| == 0 for all entries, by comparing with the transpose.
bool has_symmetry(const CsrMatrixD& a, double sign, bool pattern_only) {
  const CsrMatrixD t = transpose(a.view());
  if (t.rowptr != a.rowptr || t.colind != a.colind) return false;
  if (pattern_only) return true;
  for (size_t p = 0; p < a.values.size(); ++p)
    if (a.values[p] != sign * t.values[p]) return false;
  return true;
}

double diagonal(const CsrMatrixD& a, int32_t i, bool* present) {
  for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
    if (a.colind[p] == i) {
      *present = true;
      return a.values[p];
    }
  *present = false;
  return 0.0;
}

TEST(Generators, every_shared_test_matrix_is_well_formed) {
  for (const auto& [name, a] : test::small_generated_matrices()) {
    SCOPED_TRACE(name);
    EXPECT_EQ(a.nrows, a.ncols);
    EXPECT_GE(a.nrows, 50);
    EXPECT_LE(a.nrows, 3100);
    EXPECT_NO_THROW(validate(a.view(), true));
    EXPECT_EQ(a.values.size(), a.colind.size());
    for (int32_t i = 0; i < a.nrows; ++i) EXPECT_LT(a.rowptr[i], a.rowptr[i + 1]) << "empty row " << i;
    for (double v : a.values) EXPECT_TRUE(std::isfinite(v));
  }
}

TEST(Generators, same_arguments_give_identical_arrays) {
  for (const char* spec : {"circuit:700:9:3", "powergrid:600:5:8", "randdd:300:7:2", "kkt:120:30:9",
                           "convdiff3d:5x6x7:3.5", "lap3d27:4x5x3", "elast3d:3x2x4:0.25", "shiftlap3d:4x5x3:2.5"})
    EXPECT_TRUE(same(gen::from_spec(spec), gen::from_spec(spec))) << spec;
  EXPECT_FALSE(same(gen::from_spec("circuit:700:9:3"), gen::from_spec("circuit:700:9:4")));
  EXPECT_FALSE(same(gen::from_spec("randdd:300:7:2"), gen::from_spec("randdd:300:7:3")));
}

TEST(Generators, laplacians_have_the_stencil_sizes_and_symmetry) {
  const CsrMatrixD l5 = gen::laplacian_2d(4, 3, 5);
  EXPECT_EQ(l5.nrows, 12);
  EXPECT_EQ(l5.nnz(), 12 + 2 * (3 * 3 + 4 * 2));  // diagonal + both directions of each grid edge
  const CsrMatrixD l27 = gen::laplacian_3d(3, 3, 3, 27);
  EXPECT_EQ(l27.rowptr[14] - l27.rowptr[13], 27);  // the centre point sees the whole cube
  for (const CsrMatrixD* a : {&l5, &l27}) {
    EXPECT_TRUE(has_symmetry(*a, 1.0, false));
    for (int32_t i = 0; i < a->nrows; ++i) {
      double off = 0, d = 0;
      for (int32_t p = a->rowptr[i]; p < a->rowptr[i + 1]; ++p)
        (a->colind[p] == i ? d : off) += std::abs(a->values[p]);
      EXPECT_GE(d, off);  // diagonally dominant
    }
  }
  EXPECT_TRUE(has_symmetry(gen::laplacian_2d(5, 5, 9), 1.0, false));
  EXPECT_TRUE(has_symmetry(gen::laplacian_3d(3, 4, 5, 7), 1.0, false));
}

TEST(Generators, convection_diffusion_is_pattern_symmetric_value_unsymmetric) {
  const CsrMatrixD a = gen::convection_diffusion_3d(4, 4, 4, 5.0);
  EXPECT_TRUE(has_symmetry(a, 1.0, true));
  EXPECT_FALSE(has_symmetry(a, 1.0, false));
  EXPECT_TRUE(has_symmetry(gen::convection_diffusion_3d(4, 4, 4, 0.0), 1.0, false));
}

TEST(Generators, symmetric_generators_are_symmetric) {
  EXPECT_TRUE(has_symmetry(gen::from_spec("circuit:500:0:4"), 1.0, false));  // no sources: G alone
  EXPECT_TRUE(has_symmetry(gen::from_spec("circuit:500:8:4"), 1.0, false));
  EXPECT_TRUE(has_symmetry(gen::from_spec("powergrid:500:8:4"), 1.0, false));
  EXPECT_TRUE(has_symmetry(gen::from_spec("kkt:200:50:4"), 1.0, false));
  EXPECT_TRUE(has_symmetry(gen::random_diag_dominant(300, 5, 7, true), 1.0, true));
  EXPECT_FALSE(has_symmetry(gen::random_diag_dominant(300, 5, 7, false), 1.0, true));
}

TEST(Generators, circuit_source_rows_have_no_diagonal_entry) {
  for (gen::CircuitKind kind : {gen::CircuitKind::netlist, gen::CircuitKind::power_grid}) {
    gen::CircuitParams p;
    p.kind = kind;
    p.nodes = 900;
    p.voltage_sources = 12;
    p.seed = 5;
    const CsrMatrixD a = gen::circuit_mna(p);
    ASSERT_EQ(a.nrows, 912);
    bool present = false;
    for (int32_t i = 0; i < p.nodes; ++i) {
      EXPECT_GT(diagonal(a, i, &present), 0.0);
      EXPECT_TRUE(present);
    }
    for (int32_t i = p.nodes; i < a.nrows; ++i) {
      diagonal(a, i, &present);
      EXPECT_FALSE(present) << "source row " << i;
      EXPECT_EQ(a.rowptr[i + 1] - a.rowptr[i], 1);  // one +1 coupling to its node
    }
  }
}

TEST(Generators, circuit_conductances_span_the_requested_decades) {
  gen::CircuitParams p;
  p.nodes = 3000;
  p.conductance_decades = 6;
  const CsrMatrixD a = gen::circuit_mna(p);
  double lo = 1e300, hi = 0;
  for (int32_t i = 0; i < p.nodes; ++i)
    for (int32_t q = a.rowptr[i]; q < a.rowptr[i + 1]; ++q)
      if (a.colind[q] != i && a.colind[q] < p.nodes) {
        lo = std::min(lo, -a.values[q]);
        hi = std::max(hi, -a.values[q]);
      }
  EXPECT_GT(lo, 0.0);
  EXPECT_GT(hi / lo, 1e5);
}

TEST(Generators, random_diag_dominant_is_strictly_row_dominant) {
  const CsrMatrixD a = gen::random_diag_dominant(500, 8, 3, false);
  EXPECT_NEAR(static_cast<double>(a.nnz()) / a.nrows, 8.0, 0.5);
  for (int32_t i = 0; i < a.nrows; ++i) {
    double off = 0, d = 0;
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      (a.colind[p] == i ? d : off) += std::abs(a.values[p]);
    EXPECT_GT(d, off);
  }
}

TEST(Generators, kkt_has_structurally_empty_dual_block) {
  const CsrMatrixD a = gen::kkt_system(100, 30, 2);
  ASSERT_EQ(a.nrows, 130);
  for (int32_t i = 100; i < 130; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) EXPECT_LT(a.colind[p], 100) << "row " << i;
  bool present = false;
  for (int32_t i = 0; i < 100; ++i) EXPECT_GT(diagonal(a, i, &present), 0.0);
}

// Free nodes (x = 1..nx, y = 0..ny, z = 0..nz) times their free neighbours in the
// 3x3x3 box around them, 9 entries per pair: counted directly, not via the
// separable formula the generator uses.
int64_t elasticity_nnz(int32_t nx, int32_t ny, int32_t nz) {
  auto inside = [&](int32_t x, int32_t y, int32_t z) {
    return x >= 1 && x <= nx && y >= 0 && y <= ny && z >= 0 && z <= nz;
  };
  int64_t pairs = 0;
  for (int32_t z = 0; z <= nz; ++z)
    for (int32_t y = 0; y <= ny; ++y)
      for (int32_t x = 1; x <= nx; ++x)
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) pairs += inside(x + dx, y + dy, z + dz);
  return 9 * pairs;
}

TEST(Generators, elasticity_is_symmetric_with_the_full_node_coupling) {
  for (double nu : {0.3, 0.0, 0.45}) {
    SCOPED_TRACE(nu);
    const CsrMatrixD a = gen::elasticity_3d(3, 2, 4, nu);
    ASSERT_EQ(a.nrows, 3 * 3 * 3 * 5);
    EXPECT_NO_THROW(validate(a.view(), true));
    EXPECT_EQ(a.nnz(), elasticity_nnz(3, 2, 4));
    EXPECT_TRUE(has_symmetry(a, 1.0, false));
    bool present = false;
    for (int32_t i = 0; i < a.nrows; ++i) {
      EXPECT_GT(diagonal(a, i, &present), 0.0) << "row " << i;
      EXPECT_TRUE(present);
    }
    // Node (2, 1, 2) is surrounded by free nodes: 27 neighbours x 3 components.
    const int32_t row = 3 * ((2 - 1) + 3 * (1 + 3 * 2));
    for (int d = 0; d < 3; ++d) EXPECT_EQ(a.rowptr[row + d + 1] - a.rowptr[row + d], 81);
  }
  EXPECT_EQ(gen::elasticity_3d(1, 1, 1).nnz(), elasticity_nnz(1, 1, 1));
  EXPECT_EQ(gen::elasticity_3d(5, 1, 3).nnz(), elasticity_nnz(5, 1, 3));
}

TEST(Generators, elasticity_rows_away_from_the_clamp_annihilate_translations) {
  const int32_t nx = 4, ny = 3, nz = 2;
  const CsrMatrixD a = gen::elasticity_3d(nx, ny, nz, 0.3);
  int checked = 0;
  for (int32_t z = 0; z <= nz; ++z)
    for (int32_t y = 0; y <= ny; ++y)
      for (int32_t x = 2; x <= nx; ++x)  // x = 1 couples to the removed x = 0 nodes
        for (int d = 0; d < 3; ++d) {
          const int32_t row = 3 * ((x - 1) + nx * (y + (ny + 1) * z)) + d;
          double sum[3] = {0, 0, 0};
          for (int32_t p = a.rowptr[row]; p < a.rowptr[row + 1]; ++p) sum[a.colind[p] % 3] += a.values[p];
          for (int c = 0; c < 3; ++c) EXPECT_NEAR(sum[c], 0.0, 1e-12) << "row " << row << " component " << c;
          ++checked;
        }
  EXPECT_EQ(checked, 3 * (nx - 1) * (ny + 1) * (nz + 1));
}

TEST(Generators, elasticity_rejects_bad_poisson_ratios_and_sizes) {
  for (double nu : {0.5, -1.0, 0.7, std::nan("")}) {
    try {
      gen::elasticity_3d(2, 2, 2, nu);
      ADD_FAILURE() << "accepted Poisson ratio " << nu;
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::invalid_input);
      EXPECT_EQ(std::string(e.what()).rfind("elasticity_3d: ", 0), 0u) << e.what();
    }
  }
  EXPECT_THROW(gen::elasticity_3d(0, 2, 2), Error);
  EXPECT_THROW(gen::elasticity_3d(2000, 2000, 2000), Error);
  EXPECT_THROW(gen::elasticity_3d(2147483647, 2147483647, 2147483647), Error);
}

TEST(Generators, shifted_laplacians_are_the_laplacian_minus_the_shift) {
  const CsrMatrixD l3 = gen::laplacian_3d(4, 3, 5, 7);
  const CsrMatrixD s3 = gen::shifted_laplacian_3d(4, 3, 5, 2.5);
  const CsrMatrixD l2 = gen::laplacian_2d(6, 4, 5);
  const CsrMatrixD s2 = gen::shifted_laplacian_2d(6, 4, 1.25);
  for (const auto& [l, s, diag] : {std::make_tuple(&l3, &s3, 6.0 - 2.5), std::make_tuple(&l2, &s2, 4.0 - 1.25)}) {
    EXPECT_TRUE(has_symmetry(*s, 1.0, false));
    ASSERT_EQ(s->rowptr, l->rowptr);
    ASSERT_EQ(s->colind, l->colind);
    for (int32_t i = 0; i < s->nrows; ++i)
      for (int32_t p = s->rowptr[i]; p < s->rowptr[i + 1]; ++p)
        EXPECT_EQ(s->values[p], s->colind[p] == i ? diag : l->values[p]);
  }
}

// The documented spectrum: the grid sines are eigenvectors with the stated eigenvalues.
TEST(Generators, shifted_laplacian_eigenpairs_match_the_header_formula) {
  const double pi = std::acos(-1.0);
  const int32_t nx = 5, ny = 4, nz = 3;
  const double shift = 3.3;
  const CsrMatrixD a = gen::shifted_laplacian_3d(nx, ny, nz, shift);
  for (const auto& [i, j, k] : {std::make_tuple(1, 1, 1), std::make_tuple(3, 2, 1), std::make_tuple(5, 4, 3)}) {
    const double lambda = 6 - 2 * std::cos(i * pi / (nx + 1)) - 2 * std::cos(j * pi / (ny + 1)) -
                          2 * std::cos(k * pi / (nz + 1)) - shift;
    std::vector<double> v(static_cast<size_t>(a.nrows)), av(v.size());
    for (int32_t z = 0; z < nz; ++z)
      for (int32_t y = 0; y < ny; ++y)
        for (int32_t x = 0; x < nx; ++x)
          v[x + nx * (y + ny * z)] = std::sin(i * pi * (x + 1) / (nx + 1)) * std::sin(j * pi * (y + 1) / (ny + 1)) *
                                     std::sin(k * pi * (z + 1) / (nz + 1));
    spmv(a.view(), v.data(), av.data());
    for (size_t r = 0; r < v.size(); ++r) EXPECT_NEAR(av[r], lambda * v[r], 1e-12) << i << j << k;
  }
  const CsrMatrixD b = gen::shifted_laplacian_2d(nx, ny, shift);
  std::vector<double> v(static_cast<size_t>(b.nrows)), bv(v.size());
  for (int32_t y = 0; y < ny; ++y)
    for (int32_t x = 0; x < nx; ++x)
      v[x + nx * y] = std::sin(2 * pi * (x + 1) / (nx + 1)) * std::sin(3 * pi * (y + 1) / (ny + 1));
  spmv(b.view(), v.data(), bv.data());
  const double lambda = 4 - 2 * std::cos(2 * pi / (nx + 1)) - 2 * std::cos(3 * pi / (ny + 1)) - shift;
  for (size_t r = 0; r < v.size(); ++r) EXPECT_NEAR(bv[r], lambda * v[r], 1e-12);
}

TEST(Generators, shifted_laplacian_rejects_singular_shifts) {
  const double pi = std::acos(-1.0);
  const double lowest3 = 6 - 6 * std::cos(pi / 5);  // 4x4x4: i = j = k = 1
  auto rejects = [](auto make, const char* who) {
    try {
      make();
      ADD_FAILURE() << who << " accepted a singular shift";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::invalid_input);
      EXPECT_EQ(std::string(e.what()).rfind(std::string(who) + ": ", 0), 0u) << e.what();
    }
  };
  rejects([&] { return gen::shifted_laplacian_3d(4, 4, 4, lowest3); }, "shifted_laplacian_3d");
  rejects([&] { return gen::shifted_laplacian_3d(4, 4, 4, lowest3 * (1 + 1e-10)); }, "shifted_laplacian_3d");
  rejects([] { return gen::shifted_laplacian_3d(3, 5, 7, 6.0); }, "shifted_laplacian_3d");  // i, j, k midpoints
  rejects([] { return gen::shifted_laplacian_2d(3, 3, 4.0); }, "shifted_laplacian_2d");
  rejects([&] { return gen::shifted_laplacian_2d(9, 4, 4 - 2 * std::cos(7 * pi / 10) - 2 * std::cos(pi / 5)); },
          "shifted_laplacian_2d");
  rejects([] { return gen::shifted_laplacian_2d(3, 3, std::nan("")); }, "shifted_laplacian_2d");
  EXPECT_NO_THROW(gen::shifted_laplacian_3d(4, 4, 4, lowest3 + 1e-4));
  EXPECT_NO_THROW(gen::shifted_laplacian_3d(3, 5, 7, 6.001));
  EXPECT_NO_THROW(gen::shifted_laplacian_2d(3, 3, 0.0));
  EXPECT_NO_THROW(gen::shifted_laplacian_2d(3, 3, -2.0));
}

TEST(Generators, from_spec_matches_the_direct_calls) {
  EXPECT_TRUE(same(gen::from_spec("lap2d9:7x5"), gen::laplacian_2d(7, 5, 9)));
  EXPECT_TRUE(same(gen::from_spec("lap3d7:3x4x5"), gen::laplacian_3d(3, 4, 5, 7)));
  EXPECT_TRUE(same(gen::from_spec("convdiff3d:3x4x5"), gen::convection_diffusion_3d(3, 4, 5, 1.0)));
  EXPECT_TRUE(same(gen::from_spec("randdd:100:4"), gen::random_diag_dominant(100, 4, 1)));
  EXPECT_TRUE(same(gen::from_spec("kkt:50:10:3"), gen::kkt_system(50, 10, 3)));
  EXPECT_TRUE(same(gen::from_spec("elast3d:2x3x4"), gen::elasticity_3d(2, 3, 4, 0.3)));
  EXPECT_TRUE(same(gen::from_spec("elast3d:2x3x4:0.25"), gen::elasticity_3d(2, 3, 4, 0.25)));
  EXPECT_TRUE(same(gen::from_spec("shiftlap3d:4x5x6:2.5"), gen::shifted_laplacian_3d(4, 5, 6, 2.5)));
  EXPECT_TRUE(same(gen::from_spec("shiftlap2d:7x5:-0.5"), gen::shifted_laplacian_2d(7, 5, -0.5)));
  gen::CircuitParams p;
  p.kind = gen::CircuitKind::power_grid;
  p.nodes = 400;
  p.voltage_sources = 6;
  p.seed = 9;
  EXPECT_TRUE(same(gen::from_spec("powergrid:400:6:9"), gen::circuit_mna(p)));
  EXPECT_EQ(gen::from_spec("circuit:5").nrows, 10);  // default sources capped at the node count
}

TEST(Generators, from_spec_rejects_malformed_specs) {
  for (const char* spec :
       {"", "lap2d5", "lap2d5:", "lap2d5:10", "lap2d5:10x", "lap2d5:10x10x10", "lap2d5:0x5", "lap2d5:-3x5",
        "lap2d5:10x10:3", "lap3d7:4x4", "lap3d27:2000x2000x2000", "lap3d7:99999999999x1x1", "lap2d5:1e3x5",
        "convdiff3d:4x4x4:fast", "convdiff3d:4x4x4:inf", "circuit:", "circuit:abc", "circuit:0",
        "circuit:10:11", "circuit:10:-1", "circuit:10:2:-5", "circuit:10:2:3:4", "powergrid:10:2:x",
        "randdd:100", "randdd:100:0", "randdd:100:3:1:1", "kkt:10", "kkt:10:20", "kkt:10:0", "Lap2d5:4x4",
        "unknown:3", " lap2d5:4x4", "elast3d", "elast3d:4x4", "elast3d:0x2x2", "elast3d:2x2x2:0.5",
        "elast3d:2x2x2:-1", "elast3d:2x2x2:soft", "elast3d:2x2x2:0.3:1", "elast3d:2000x2000x2000",
        "shiftlap3d:4x4x4", "shiftlap3d:4x4:1", "shiftlap3d:3x3x3:6", "shiftlap3d:4x4x4:nan",
        "shiftlap3d:4x4x4:1:2", "shiftlap2d:4x4x4:1", "shiftlap2d:3x3:4", "shiftlap2d:3x3:", "shiftlap2d:3x3"}) {
    try {
      gen::from_spec(spec);
      ADD_FAILURE() << "accepted '" << spec << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::invalid_input) << spec;
      EXPECT_EQ(std::string(e.what()).rfind("bad matrix spec '" + std::string(spec) + "': ", 0), 0u) << e.what();
    }
  }
}

}  // namespace
}  // namespace gpuglu
