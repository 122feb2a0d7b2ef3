// gen::from_spec: the textual matrix specs of CLIs, tests and benchmarks, e.g.
// "lap3d27:40x40x40" or "circuit:100000:50:7". Strict on purpose: a typo must not
// quietly produce a different matrix than the one a benchmark claims to use.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::gen {
namespace {

using Csr = CsrMatrix<int32_t, double>;

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t p = s.find(sep, start);
    parts.push_back(s.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start));
    if (p == std::string_view::npos) return parts;
    start = p + 1;
  }
}

[[noreturn]] void reject(const std::string& what) { throw Error(Status::invalid_input, what); }

// A positive size (min 1) or count (min 0) that fits int32.
int32_t parse_int32(std::string_view tok, const char* what, int64_t min) {
  int64_t v = 0;
  const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (tok.empty() || r.ec == std::errc::invalid_argument || r.ptr != tok.data() + tok.size())
    reject(std::string(what) + " '" + std::string(tok) + "' is not an integer");
  if (r.ec == std::errc::result_out_of_range || v > std::numeric_limits<int32_t>::max())
    reject(std::string(what) + " '" + std::string(tok) + "' does not fit 32-bit indices");
  if (v < min) reject(std::string(what) + " must be at least " + std::to_string(min) + ", got " + std::string(tok));
  return static_cast<int32_t>(v);
}

uint64_t parse_seed(std::string_view tok) {
  uint64_t v = 0;
  const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (tok.empty() || r.ec != std::errc() || r.ptr != tok.data() + tok.size())
    reject("seed '" + std::string(tok) + "' is not an unsigned 64-bit integer");
  return v;
}

double parse_real(std::string_view tok, const char* what) {
  double v = 0;
  const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (tok.empty() || r.ec != std::errc() || r.ptr != tok.data() + tok.size() || !std::isfinite(v))
    reject(std::string(what) + " '" + std::string(tok) + "' is not a finite number");
  return v;
}

// "NXxNY" or "NXxNYxNZ".
std::vector<int32_t> parse_dims(std::string_view tok, size_t count) {
  const std::vector<std::string_view> parts = split(tok, 'x');
  if (parts.size() != count)
    reject("grid '" + std::string(tok) + "' must have " + std::to_string(count) + " sizes joined by 'x'");
  std::vector<int32_t> dims;
  for (std::string_view p : parts) dims.push_back(parse_int32(p, "grid size", 1));
  return dims;
}

void expect_fields(const std::vector<std::string_view>& f, size_t min, size_t max, const char* form) {
  if (f.size() < min || f.size() > max) reject(std::string("expected ") + form);
}

Csr laplacian(const std::vector<std::string_view>& f, bool three_d, int points) {
  expect_fields(f, 2, 2, three_d ? "KIND:NXxNYxNZ" : "KIND:NXxNY");
  const std::vector<int32_t> d = parse_dims(f[1], three_d ? 3 : 2);
  return three_d ? laplacian_3d(d[0], d[1], d[2], points) : laplacian_2d(d[0], d[1], points);
}

Csr convdiff(const std::vector<std::string_view>& f) {
  expect_fields(f, 2, 3, "convdiff3d:NXxNYxNZ[:PECLET]");
  const std::vector<int32_t> d = parse_dims(f[1], 3);
  return convection_diffusion_3d(d[0], d[1], d[2], f.size() > 2 ? parse_real(f[2], "Peclet number") : 1.0);
}

Csr elast(const std::vector<std::string_view>& f) {
  expect_fields(f, 2, 3, "elast3d:NXxNYxNZ[:POISSON]");
  const std::vector<int32_t> d = parse_dims(f[1], 3);
  return elasticity_3d(d[0], d[1], d[2], f.size() > 2 ? parse_real(f[2], "Poisson ratio") : 0.3);
}

// The shift is required: a default would just be the plain Laplacian, lap2d5/lap3d7.
Csr shiftlap(const std::vector<std::string_view>& f, bool three_d) {
  expect_fields(f, 3, 3, three_d ? "shiftlap3d:NXxNYxNZ:SHIFT" : "shiftlap2d:NXxNY:SHIFT");
  const std::vector<int32_t> d = parse_dims(f[1], three_d ? 3 : 2);
  const double shift = parse_real(f[2], "shift");
  return three_d ? shifted_laplacian_3d(d[0], d[1], d[2], shift) : shifted_laplacian_2d(d[0], d[1], shift);
}

Csr circuit(const std::vector<std::string_view>& f, CircuitKind kind) {
  expect_fields(f, 2, 4, "KIND:NODES[:SOURCES[:SEED]]");
  CircuitParams p;
  p.kind = kind;
  p.nodes = parse_int32(f[1], "node count", 1);
  p.voltage_sources = f.size() > 2 ? parse_int32(f[2], "source count", 0) : std::min(p.voltage_sources, p.nodes);
  if (f.size() > 3) p.seed = parse_seed(f[3]);
  if (p.voltage_sources > p.nodes) reject("more voltage sources than nodes");
  return circuit_mna(p);
}

Csr randdd(const std::vector<std::string_view>& f) {
  expect_fields(f, 3, 4, "randdd:N:NNZ_PER_ROW[:SEED]");
  const int32_t n = parse_int32(f[1], "n", 1);
  const int32_t k = parse_int32(f[2], "entries per row", 1);
  return random_diag_dominant(n, k, f.size() > 3 ? parse_seed(f[3]) : 1);
}

Csr kkt(const std::vector<std::string_view>& f) {
  expect_fields(f, 3, 4, "kkt:NPRIMAL:NDUAL[:SEED]");
  const int32_t np = parse_int32(f[1], "primal size", 1);
  const int32_t nd = parse_int32(f[2], "dual size", 1);
  if (nd > np) reject("dual size exceeds primal size (A would not have full row rank)");
  return kkt_system(np, nd, f.size() > 3 ? parse_seed(f[3]) : 1);
}

Csr build(std::string_view spec) {
  const std::vector<std::string_view> f = split(spec, ':');
  const std::string_view kind = f[0];
  if (kind == "lap2d5") return laplacian(f, false, 5);
  if (kind == "lap2d9") return laplacian(f, false, 9);
  if (kind == "lap3d7") return laplacian(f, true, 7);
  if (kind == "lap3d27") return laplacian(f, true, 27);
  if (kind == "convdiff3d") return convdiff(f);
  if (kind == "circuit") return circuit(f, CircuitKind::netlist);
  if (kind == "powergrid") return circuit(f, CircuitKind::power_grid);
  if (kind == "randdd") return randdd(f);
  if (kind == "kkt") return kkt(f);
  if (kind == "elast3d") return elast(f);
  if (kind == "shiftlap2d") return shiftlap(f, false);
  if (kind == "shiftlap3d") return shiftlap(f, true);
  reject("unknown kind '" + std::string(kind) +
         "' (lap2d5, lap2d9, lap3d7, lap3d27, convdiff3d, circuit, powergrid, randdd, kkt, elast3d, shiftlap2d, "
         "shiftlap3d)");
}

}  // namespace

CsrMatrix<int32_t, double> from_spec(std::string_view spec) {
  try {
    return build(spec);
  } catch (const Error& e) {
    // Generator errors (sizes too large for int32) get the spec prefix too.
    if (e.status() != Status::invalid_input) throw;
    throw Error(Status::invalid_input, "bad matrix spec '" + std::string(spec) + "': " + e.what());
  }
}

}  // namespace gpuglu::gen
