#pragma once
// The CUDA numeric engine: executes a Schedule on one GPU. Plain C++ (no CUDA types),
// so the API layer and the tests include it without nvcc.
//
// factor() reproduces reference::factor_levels (the CPU right-looking level executor)
// entry for entry: the same scatter, the same pivot test (reference::pivot_and_scale),
// and every F(i, k) receives its updates F(i, k) -= L(i, j) * U(j, k) in ascending source
// order, rounded as the CPU rounds them (no fused multiply-add). solve() runs the
// triangular solves through the triangular-solve module (cuda::TriangularSolver with
// s.options.trsv_kernel) with the schedule's permutations and scalings applied on the
// device, as reference::solve_with_factor / solve_transpose_with_factor do.
#include <cstdint>
#include <memory>
#include <vector>

#include "gpuglu/schedule.hpp"
#include "gpuglu/trsv_kernel.hpp"
#include "reference/numeric_types.hpp"

namespace gpuglu::cuda {

struct DeviceFactorResult {       // mirrors reference::NumericStats
  reference::NumericStats stats;  // ok / numerically_singular (or nan_or_inf, see bad_entry) and the pivot statistics
  int32_t bad_entry = -1;         // first input entry (CSR position) that is NaN/Inf, -1 if none (then stats.status = nan_or_inf)
  double max_abs_input = 0.0;     // max |scaled input value| (for the growth estimate)
  double device_ms = 0.0;         // scatter + level loop, measured with cudaEvents
};

class CudaLU {
 public:
  // Uploads the schedule's pattern arrays once, allocates every device buffer, builds the
  // CSR copies of L (unit, strictly lower) and U (with diagonal) for the solves, and
  // captures the level loop in a CUDA graph (GPUGLU_NO_GRAPH=1 in the environment: plain
  // launches instead). device_ordinal < 0: the calling thread's current device.
  // Throws gpuglu::Error (out_of_memory naming the bytes asked, device_error, no_device).
  CudaLU(const Schedule& s, int device_ordinal);
  ~CudaLU();
  CudaLU(const CudaLU&) = delete;
  CudaLU& operator=(const CudaLU&) = delete;

  // a_values: input A's values in its CSR order (s.input_nnz of them). Pinned staging copy,
  // one H2D copy, scatter kernel, then the level loop. Synchronous. A failure (tiny pivot
  // under report, Inf/NaN during the elimination, NaN/Inf input) is a status in the result;
  // a schedule whose fill pattern lacks an entry an update needs throws Error(invalid_input).
  DeviceFactorResult factor(const double* a_values, const reference::PivotRule& rule);
  void download_factor(double* f_host) const;  // F values (s.f_rowind.size() of them) to the host

  // x = A^{-1} b or A^{-T} b for the ORIGINAL A. b and x are host arrays of n (they may alias).
  // Throws Error(not_factored) unless the last factor() succeeded.
  void solve(const double* b, double* x, bool transpose);

  // A's pattern (CSR, the one the schedule was analyzed from): with it, solve_refined()
  // refines on the device with A's values of the last factor(). Copied once.
  void set_input_pattern(const int64_t* rowptr, const int32_t* colind);
  bool has_input_pattern() const;
  struct Refinement {
    int32_t steps = 0;
    double backward_error = -1.0;  // -1: not computed (max_steps 0)
  };
  // solve() followed by up to max_steps of iterative refinement, all on the device: the
  // residual and componentwise backward error of every iterate are computed there, and a
  // step is kept only while it lowers the backward error (reference::refine_with's rule);
  // it stops once the backward error is <= tolerance. Only b goes up and x comes back.
  // Needs set_input_pattern() when max_steps > 0.
  Refinement solve_refined(const double* b, double* x, bool transpose, int32_t max_steps, double tolerance);

  int64_t device_bytes() const;  // bytes of device memory this object holds (its triangular solvers' included)
  TrsvKernel trsv_kernel() const;  // the kernel the solves run (auto resolved; auto when n == 0)
  int64_t factor_bytes() const;  // bytes of F values + F pattern (colptr, rowind, diag)

  // Diagnostics of the last factor(): levels, and the level loop's time (graph_ms when it
  // was replayed as a graph, loop_ms when it was launched kernel by kernel; the other is 0).
  struct LevelTiming {
    int32_t levels;
    double graph_ms;
    double loop_ms;
  };
  LevelTiming level_timing() const;
  bool uses_graph() const;

  // One factorization launched level by level (no graph) with an event after every level:
  // the device time of each level, for tuning the kernel modes and finding where the time
  // goes. Includes the gaps of launches that could not keep ahead of the GPU. F holds the
  // factor afterwards, but the solves are not updated: call factor() before solve().
  // Returns one entry per level.
  std::vector<float> profile_levels(const double* a_values, const reference::PivotRule& rule);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuglu::cuda
