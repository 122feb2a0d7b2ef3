#pragma once
// SplitLU's device path (include/gpuglu/split_lu.hpp; docs/design.md, "One factorization over
// two GPUs"), taken when both halves and the root are on the CUDA backend. A's values go up
// once per factorization, to the first device, where each half's values are gathered (half
// 1's then cross to its GPU peer to peer), and each half factors from device memory. A solve
// stays on the devices from b's upload to x's download: each half condenses and expands on
// its own GPU (condense_device / expand_device: solver.hpp), the root sums the reduced
// right-hand sides and solves on the first, and iterative refinement against A runs on the
// first device as a one-GPU factor's does (cuda/engine/device_refinement.hpp).
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "api/dense_root.hpp"
#include "api/split_halves.hpp"
#include "api/split_partition.hpp"
#include "core/numeric_engine.hpp"
#include "core/numeric_types.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/split_lu.hpp"

namespace gpuglu::api {

// Where each half's vectors come from and go to, per direction t (0: A x = b, 1: A^T x = b):
// half d's right-hand side is rhs[l] = b[in[d][t][l]] (-1: zero: half 1's separator, whose b
// half 0 carries), and its solution goes back as x[out[d][t][l]] = sol[l] for the first
// out[d][t].size() unknowns (half 0: its part and the separator, half 1: its part). A x = b
// is B x = c with c_k = b[row_of_col[k]]; A^T x = b is B^T y = b with x[row_of_col[k]] = y_k.
struct SplitVectorMaps {
  std::array<std::array<std::vector<int64_t>, 2>, 2> in, out;
};
SplitVectorMaps split_vector_maps(const SplitPartition& p, const std::array<SplitHalf, 2>& halves);

using SplitSolveTimes = SplitLU::SolveTimes;

class SplitDevicePath {
 public:
  virtual ~SplitDevicePath() = default;
  // A's values (host memory, A's CSR order, the analyzed nnz): up to the first device, then
  // M_d's values gathered through SplitHalf::source onto device d. Synchronous.
  virtual void load(const double* a_values) = 0;
  // M_d's values on device d (its SplitHalf::m order), after load().
  virtual const double* half_values(int d) const = 0;
  // x = op(A)^{-1} b (host arrays of n; they may alias) with the halves' last factors and the
  // root's, then up to max_steps refinement steps while target is not met (max_steps 0: no
  // backward error is measured). Synchronous.
  virtual EngineSolveResult solve(const std::array<BasicSparseSolver<double>*, 2>& halves, DenseRoot& root,
                                  const double* b, double* x,
                                  bool transpose, int32_t max_steps, const RefineTarget& target) = 0;
  // Where the last solve's passes (the first, and one per refinement step) spent their time.
  virtual SplitSolveTimes solve_times() const = 0;
};

// For p's halves on devices[0] and devices[1] (equal or not; peer access between them is
// enabled where the GPUs allow it). a: A's pattern (64-bit row pointers), which outlives the
// path (the refinement's residuals read it). Throws Error (out_of_memory, device_error), or
// Error(unsupported) in a build without CUDA (cuda_absent.cpp).
std::unique_ptr<SplitDevicePath> make_split_device_path(const SplitPartition& p,
                                                        const std::array<SplitHalf, 2>& halves, PatternRef a,
                                                        std::array<int32_t, 2> devices, Staging staging);

}  // namespace gpuglu::api
