#pragma once
// SplitLU's state (include/gpuglu/split_lu.hpp): the partition, the two halves (their block
// patterns and value maps, their SparseLUs), the root, A's pattern and values for the
// refinement, and the work vectors the solves reuse. split_lu.cpp holds analyze() and
// factor(), split_solve.cpp the solves.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/dense_root.hpp"
#include "api/split_device.hpp"
#include "api/split_halves.hpp"
#include "api/split_partition.hpp"
#include "cpu/refinement.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/split_lu.hpp"

namespace gpuglu {

struct SplitLU::Impl {
  Options options;
  std::vector<int32_t> devices;
  SplitFactorization factorization = SplitFactorization::lu;
  bool symmetric() const noexcept { return factorization == SplitFactorization::ldlt; }

  bool analyzed = false;
  bool factored = false;
  api::SplitPartition partition;
  std::array<api::SplitHalf, 2> half;
  // A half whose part is empty has no SparseLU: its Schur complement and reduced
  // right-hand side are zero (half 0's B_SS and b_S then enter on the host).
  std::array<std::unique_ptr<BasicSparseSolver<double>>, 2> lu;  // SparseLU or SparseLDLT
  std::unique_ptr<api::DenseRoot> root;
  // Both halves and the root on the CUDA backend, with a separator: the values and the solves
  // stay on the devices (api/split_device.hpp); otherwise the host path below.
  std::unique_ptr<api::SplitDevicePath> device_path;
  // B's S x S entries (dense position in S, A's value position), for S when half 0 is absent.
  std::vector<std::pair<int64_t, int64_t>> separator_block;

  // A's pattern (refinement reads it with 64-bit row pointers) and last factored values (the
  // host path's; the device path keeps them on the first device).
  std::vector<int32_t> a_rowptr, a_colind;
  std::vector<int64_t> a_rowptr64;
  std::vector<double> a_values;

  FactorStats fstats;
  FactorTimes times;
  std::array<FactorStats, 2> half_stats;
  SolveStats sstats;
  std::string failure;

  // Per-half Schur complements, the summed S, and the solves' vectors.
  std::array<std::vector<double>, 2> schur;
  std::vector<double> s_sum;
  std::array<std::vector<double>, 2> half_rhs, half_x, half_reduced;
  std::vector<double> reduced, b_of_b, x_of_b, rhs_copy;
  reference::RefineWork refine_work;

  bool present(int d) const { return static_cast<bool>(lu[d]); }
  int32_t k() const { return static_cast<int32_t>(partition.separator.size()); }
  Options half_options(int d) const;

  void require_factored() const;
  // x = op(A)^{-1} b by the halves and the root, no refinement (b and x do not alias).
  void split_solve(const double* b, double* x, bool transpose);
  EngineSolveResult solve_on_devices(const double* b, double* x, bool transpose, int32_t steps);
  const SolveStats& solve(const double* b, double* x, bool transpose);
};

}  // namespace gpuglu
