// The split's device path moves vectors by index maps (api/split_device.hpp's
// split_vector_maps): here they drive the device path's algorithm on the host - each half's
// right-hand side gathered by its map, condensed by a CPU SparseLU in Schur mode, the reduced
// sides summed and solved with S = S_0 + S_1, each half expanded, x scattered by the out
// maps - which must solve A x = b and A^T x = b. The out maps must also cover each of A's
// unknowns exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "analysis/input_pattern.hpp"
#include "api/dense_root.hpp"
#include "api/split_device.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::test {
namespace {

using Csr = CsrMatrix<int32_t, double>;

void expect_maps_solve(const Csr& a, const std::string& name) {
  SCOPED_TRACE(name);
  const analysis::InputPattern in = analysis::check_input(a.view(), true);
  const api::SplitPartition p = api::split_by_separator(in, true, 1);
  const std::array<api::SplitHalf, 2> h = {api::build_half(a.view(), p, 0), api::build_half(a.view(), p, 1)};
  ASSERT_GT(p.separator.size(), 0u);
  ASSERT_GT(h[0].n_part, 0);
  ASSERT_GT(h[1].n_part, 0);
  const api::SplitVectorMaps maps = api::split_vector_maps(p, h);
  const auto k = static_cast<int64_t>(p.separator.size());

  std::array<std::unique_ptr<SparseLU>, 2> lu;
  std::vector<double> s(static_cast<size_t>(k * k), 0.0), part(s.size());
  for (int d = 0; d < 2; ++d) {
    Options o;
    o.backend = Backend::cpu;
    lu[d] = std::make_unique<SparseLU>(o);
    std::vector<int32_t> schur;
    for (int32_t i = 0; i < k; ++i) schur.push_back(h[d].n_part + i);
    lu[d]->set_schur_indices(schur);
    api::SplitHalf m = h[d];
    m.gather_values(a.values.data());
    lu[d]->analyze(m.m.view());
    ASSERT_EQ(lu[d]->factor(m.m.view()).status, Status::ok);
    lu[d]->schur_complement(part.data(), k);
    for (size_t e = 0; e < s.size(); ++e) s[e] += part[e];
  }
  std::unique_ptr<api::DenseRoot> root = api::make_lapack_dense_root();
  ASSERT_LT(root->factor(s.data(), k), 0);

  const size_t n = static_cast<size_t>(a.nrows);
  std::vector<double> b(n);
  for (size_t i = 0; i < n; ++i) b[i] = 1.0 + std::sin(0.7 * static_cast<double>(i));
  for (int t = 0; t < 2; ++t) {
    SCOPED_TRACE("transpose " + std::to_string(t));
    std::vector<int> hits(n, 0);
    for (int d = 0; d < 2; ++d)
      for (int64_t v : maps.out[d][t]) ++hits[static_cast<size_t>(v)];
    EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), static_cast<long>(n));

    std::vector<double> reduced(static_cast<size_t>(k), 0.0), r(reduced.size()), x(n, 0.0);
    std::array<std::vector<double>, 2> rhs, sol;
    for (int d = 0; d < 2; ++d) {
      for (int64_t v : maps.in[d][t]) rhs[d].push_back(v >= 0 ? b[static_cast<size_t>(v)] : 0.0);
      lu[d]->condense(rhs[d].data(), r.data(), t == 1);
      for (int64_t i = 0; i < k; ++i) reduced[i] += r[i];
    }
    root->solve(reduced.data(), t == 1);
    for (int d = 0; d < 2; ++d) {
      sol[d].assign(rhs[d].size(), 0.0);
      lu[d]->expand(reduced.data(), sol[d].data(), t == 1);
      for (size_t l = 0; l < maps.out[d][t].size(); ++l) x[static_cast<size_t>(maps.out[d][t][l])] = sol[d][l];
    }
    const Csr op = t == 1 ? gpuglu::transpose(a.view()) : a;
    EXPECT_LT(relative_residual(op.view(), x.data(), b.data()), 1e-12);
  }
}

TEST(SplitVectorMaps, DriveTheDeviceAlgorithmToASolution) {
  expect_maps_solve(gen::from_spec("lap3d7:12x12x12"), "lap3d7:12^3");
  expect_maps_solve(gen::from_spec("convdiff3d:10x10x10:50"), "convdiff3d:10^3");
  gen::CircuitParams circuit;
  circuit.nodes = 3000;
  circuit.voltage_sources = 12;
  expect_maps_solve(gen::circuit_mna(circuit), "circuit:3000");
}

}  // namespace
}  // namespace gpuglu::test
