#pragma once
// Deterministic test and benchmark matrices (same arguments -> same matrix on every
// machine: own PRNG, no std::distribution). All return square CSR, sorted columns.
#include <cstdint>
#include <string>
#include <string_view>

#include "gpuglu/matrix.hpp"

namespace gpuglu::gen {

// 2-D Laplacian on an nx x ny grid, 5- or 9-point stencil (Dirichlet), SPD.
CsrMatrix<int32_t, double> laplacian_2d(int32_t nx, int32_t ny, int points = 5);
// 3-D Laplacian on nx x ny x nz, 7- or 27-point stencil, SPD.
CsrMatrix<int32_t, double> laplacian_3d(int32_t nx, int32_t ny, int32_t nz, int points = 7);
// 3-D convection-diffusion, 7-point, upwind convection with the given cell Peclet
// number along a fixed direction: unsymmetric values, symmetric pattern.
CsrMatrix<int32_t, double> convection_diffusion_3d(int32_t nx, int32_t ny, int32_t nz,
                                                   double peclet = 1.0);

// 3-D linear elasticity: nx*ny*nz unit-cube trilinear (Q1) hexahedra, 3 displacement
// unknowns per node (node-major: node x fastest, then y, then z; its 3 components
// consecutive), Young's modulus 1, the given Poisson ratio (in (-1, 0.5)), 2x2x2
// Gauss quadrature. The nodes of the face x = 0 are clamped and their unknowns
// removed, so the matrix is SPD with n = 3*nx*(ny+1)*(nz+1). Every pair of nodes that
// shares an element keeps its full 3x3 block, exact zeros included: each row of an
// interior node has 81 entries (27 nodes x 3 components).
CsrMatrix<int32_t, double> elasticity_3d(int32_t nx, int32_t ny, int32_t nz, double poisson = 0.3);

// The 7-point laplacian_3d (Dirichlet, diagonal 6) minus shift*I. Its eigenvalues are
//   6 - 2cos(i pi/(nx+1)) - 2cos(j pi/(ny+1)) - 2cos(k pi/(nz+1)) - shift,
//   i = 1..nx, j = 1..ny, k = 1..nz,
// so the inertia is known exactly; indefinite once shift exceeds the smallest one.
// A shift within 1e-8 * (|6 - shift| + 6) of an eigenvalue (numerically singular)
// throws Error(invalid_input).
CsrMatrix<int32_t, double> shifted_laplacian_3d(int32_t nx, int32_t ny, int32_t nz, double shift);
// The 5-point laplacian_2d minus shift*I: eigenvalues
//   4 - 2cos(i pi/(nx+1)) - 2cos(j pi/(ny+1)) - shift, i = 1..nx, j = 1..ny;
// a shift within 1e-8 * (|4 - shift| + 4) of an eigenvalue throws likewise.
CsrMatrix<int32_t, double> shifted_laplacian_2d(int32_t nx, int32_t ny, double shift);

enum class CircuitKind {
  netlist,     // random sparse resistor/capacitor netlist: little fill
  power_grid,  // mesh-like power grid with vias: much fill
};
struct CircuitParams {
  CircuitKind kind = CircuitKind::netlist;
  int32_t nodes = 1000;            // circuit nodes (MNA unknowns = nodes + voltage sources)
  int32_t voltage_sources = 10;    // each adds a row/column with a zero diagonal
  uint64_t seed = 1;
  double conductance_decades = 6;  // conductances spread over this many decades (ill-scaling)
};
// Modified nodal analysis matrix [G B; B^T 0] (+ capacitor stamps as C/h): zero
// diagonal entries in the source rows, so static pivoting needs the matching.
CsrMatrix<int32_t, double> circuit_mna(const CircuitParams& params);

// Random sparse matrix with about nnz_per_row entries per row, strictly row
// diagonally dominant; unsymmetric pattern unless symmetric_pattern.
CsrMatrix<int32_t, double> random_diag_dominant(int32_t n, int32_t nnz_per_row, uint64_t seed,
                                                bool symmetric_pattern = false);

// Symmetric indefinite KKT system [H A^T; A 0]: H SPD (n_primal), A full row rank (n_dual).
CsrMatrix<int32_t, double> kkt_system(int32_t n_primal, int32_t n_dual, uint64_t seed);

// Builds a matrix from a textual spec, for CLIs and benchmarks:
//   lap2d5:NXxNY  lap2d9:NXxNY  lap3d7:NXxNYxNZ  lap3d27:NXxNYxNZ  convdiff3d:NXxNYxNZ[:PECLET]
//   circuit:NODES[:SOURCES[:SEED]]  powergrid:NODES[:SOURCES[:SEED]]
//   randdd:N:NNZ_PER_ROW[:SEED]  kkt:NPRIMAL:NDUAL[:SEED]
//   elast3d:NXxNYxNZ[:POISSON]  shiftlap2d:NXxNY:SHIFT  shiftlap3d:NXxNYxNZ:SHIFT
// Throws Error(invalid_input) on an unknown or malformed spec.
CsrMatrix<int32_t, double> from_spec(std::string_view spec);

}  // namespace gpuglu::gen
