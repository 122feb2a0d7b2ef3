// Modified nodal analysis matrices of circuits (gen::circuit_mna). What makes
// them hard for a static-pivoting LU: conductances over many decades (bad scaling)
// and the zero diagonal of every voltage-source row (needs the matching).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "io/prng.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::gen {
namespace {

using Entries = std::vector<Triplet<int32_t, double>>;

[[noreturn]] void bad(const std::string& what) { throw Error(Status::invalid_input, "circuit_mna: " + what); }

// Accumulates element stamps; csr_from_triplets sums the duplicates.
class Stamper {
 public:
  explicit Stamper(const CircuitParams& p) : rng(p.seed), decades_(p.conductance_decades) {}

  // Log-uniform in (10^-decades, 1]: the spread real netlists have (wires vs. leakage).
  double conductance() { return std::pow(10.0, -decades_ * rng.uniform()); }

  void resistor(int32_t a, int32_t b, double g) {
    if (a == b) return;
    e.push_back({a, a, g});
    e.push_back({b, b, g});
    e.push_back({a, b, -g});
    e.push_back({b, a, -g});
  }
  // Conductance or capacitance (C/h of a backward Euler step) to ground.
  void to_ground(int32_t a, double g) { e.push_back({a, a, g}); }

  detail::SplitMix64 rng;
  Entries e;

 private:
  double decades_;
};

// A random, mostly local netlist: a spanning tree over nearby nodes keeps it
// connected, a few extra local wires and rare long wires (clock, supply nets) give
// degrees of about 2 to 4 and moderate fill. Long wires must stay rare (about one
// node in 500): a random graph with a constant fraction of them is an expander,
// whose LU fills almost completely, unlike any real circuit.
void netlist(Stamper& s, int32_t n) {
  for (int32_t i = 1; i < n; ++i) {
    const auto parent = static_cast<int32_t>(i - 1 - s.rng.below(std::min(i, 16)));
    s.resistor(i, parent, s.conductance());
    const int64_t extra = s.rng.below(3);
    for (int64_t t = 0; t < extra; ++t) {
      const int64_t j = s.rng.coin(0.998) ? i + 1 + s.rng.below(64) : s.rng.below(n);
      if (j < n) s.resistor(i, static_cast<int32_t>(j), s.conductance());
    }
  }
  for (int32_t i = 0; i < n; ++i) {
    if (i == 0 || s.rng.coin(0.05)) s.to_ground(i, s.conductance());
    if (s.rng.coin(0.2)) s.to_ground(i, s.conductance());  // capacitor C/h
  }
}

// One metal layer: a row-major mesh of `width` columns over nodes [base, base+size).
void mesh_layer(Stamper& s, int32_t base, int32_t size, int32_t width, double scale) {
  for (int32_t p = 0; p < size; ++p) {
    if (p % width + 1 < width && p + 1 < size) s.resistor(base + p, base + p + 1, scale * s.conductance());
    if (p + width < size) s.resistor(base + p, base + p + width, scale * s.conductance());
  }
}

// Power grid: two stacked meshes (thin lower metal, thick upper metal ten times
// more conductive) joined by vias at every other grid point. The vias make the
// graph 3-D-like, hence much more fill than a netlist. Loads and decoupling
// capacitors hang on the lower layer.
void power_grid(Stamper& s, int32_t n, int32_t* top_begin) {
  const int32_t lower = (n + 1) / 2, upper = n - lower;
  const auto width = static_cast<int32_t>(std::max(1.0, std::round(std::sqrt(static_cast<double>(lower)))));
  mesh_layer(s, 0, lower, width, 1.0);
  mesh_layer(s, lower, upper, width, 10.0);
  for (int32_t p = 0; p < upper; ++p)
    if ((p % width) % 2 == 0 && (p / width) % 2 == 0) s.resistor(p, lower + p, 10.0 * s.conductance());
  for (int32_t i = 0; i < lower; ++i) {
    if (i == 0 || s.rng.coin(0.3)) s.to_ground(i, s.conductance());
    if (s.rng.coin(0.2)) s.to_ground(i, s.conductance());
  }
  *top_begin = upper >= 1 ? lower : 0;
}

// Distinct nodes in [begin, end): two sources on one node would make B rank deficient.
std::vector<int32_t> source_nodes(detail::SplitMix64& rng, int32_t begin, int32_t end, int32_t m) {
  std::vector<int32_t> nodes;
  for (int32_t i = begin; i < end; ++i) nodes.push_back(i);
  for (int32_t k = 0; k < m; ++k)
    std::swap(nodes[k], nodes[k + rng.below(static_cast<int64_t>(nodes.size()) - k)]);
  nodes.resize(m);
  return nodes;
}

}  // namespace

// G is a weighted graph Laplacian of a connected graph plus a positive diagonal on
// at least one node (node 0 is always grounded), so G is SPD; B has one 1 per column
// in distinct rows (full column rank). Then [G B; B^T 0] is nonsingular.
CsrMatrix<int32_t, double> circuit_mna(const CircuitParams& p) {
  if (p.nodes <= 0) bad("nodes must be positive");
  if (p.voltage_sources < 0 || p.voltage_sources > p.nodes)
    bad("voltage_sources must be in [0, nodes], got " + std::to_string(p.voltage_sources));
  if (!std::isfinite(p.conductance_decades) || p.conductance_decades < 0 || p.conductance_decades > 200)
    bad("conductance_decades must be in [0, 200]");
  const int64_t n = p.nodes, m = p.voltage_sources;
  if ((n + m) > std::numeric_limits<int32_t>::max() / 16) bad("too many nodes for 32-bit indices");

  Stamper s(p);
  int32_t source_begin = 0;
  if (p.kind == CircuitKind::power_grid) {
    power_grid(s, p.nodes, &source_begin);
  } else {
    netlist(s, p.nodes);
  }
  // Sources go on the upper (supply) layer when it has room, else anywhere.
  if (p.nodes - source_begin < p.voltage_sources) source_begin = 0;
  const std::vector<int32_t> at = source_nodes(s.rng, source_begin, p.nodes, p.voltage_sources);
  for (int32_t k = 0; k < p.voltage_sources; ++k) {
    const int32_t row = p.nodes + k;
    s.e.push_back({at[k], row, 1.0});
    s.e.push_back({row, at[k], 1.0});  // the (row, row) entry stays structurally absent
  }
  const auto size = static_cast<int32_t>(n + m);
  return csr_from_triplets<int32_t, double>(size, size, s.e);
}

}  // namespace gpuglu::gen
