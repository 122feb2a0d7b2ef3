#pragma once
// CudaLU: the CUDA numeric engine (core/numeric_engine.hpp) - one Schedule executed on one
// GPU. Plain C++ (no CUDA types), so the API layer and the tests include it without nvcc.
//
// factor() reproduces reference::factor_levels (the CPU right-looking level executor)
// entry for entry: the same scatter, the same pivot test (reference::pivot_and_scale), and
// every F(i, k) receives its updates F(i, k) -= L(i, j) * U(j, k) in ascending source order,
// rounded as the CPU rounds them (no fused multiply-add). solve() runs the triangular
// solves through the triangular-solve module (cuda::TriangularSolver with
// Options::trsv_kernel) with the schedule's permutations and scalings applied on the
// device, as reference::solve_with_factor / solve_transpose_with_factor do, and refines on
// the device with A's values of the last factor(). Scalar: double or std::complex<double>
// (complex factors agree with the CPU engine's to rounding, common/device_scalar.cuh).
#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/numeric_engine.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

template <class Scalar>
class BasicCudaLU final : public BasicNumericEngine<Scalar> {
 public:
  // Uploads the schedule's pattern arrays once, allocates every device buffer, builds the
  // solves' CSR triangles L (unit, strictly lower) and U (with diagonal), and captures the
  // level loop as a CUDA graph (unless o.cuda.level_graph is false, or
  // o.modes.persistent_kernel). Run-time choices come from o: kernel modes and launch
  // shapes (o.modes), the solves' kernel and level analysis (o.trsv_kernel,
  // o.trsv_analysis), and o.cuda. pattern: A's CSR pattern, which refinement needs (it is
  // uploaded on the first refined solve; without it, solve() with max_steps > 0 throws).
  // device_ordinal < 0: the calling thread's current device. Throws gpuglu::Error
  // (out_of_memory naming the bytes asked, device_error, no_device).
  BasicCudaLU(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern = {});
  ~BasicCudaLU() override;
  BasicCudaLU(const BasicCudaLU&) = delete;
  BasicCudaLU& operator=(const BasicCudaLU&) = delete;

  // a_values: A's values in its CSR order (s.input_nnz of them): one copy up, the scatter,
  // then the level loop. Synchronous. A failure (tiny pivot under report, Inf/NaN during the
  // elimination, NaN/Inf input) is a status in the result; a schedule whose fill pattern
  // lacks an entry an update needs throws Error(invalid_input).
  EngineFactorResult factor(const Scalar* a_values, const PivotRule& rule) override;

  // x = A^{-1} b or A^{-T} b for the original A, b and x host arrays of n (here they may
  // even alias), then up to max_steps refinement steps on the device: the residual and
  // componentwise backward error of every iterate are computed there, and a step is kept
  // only while it lowers the backward error (reference::refine_with's rule). The first
  // backward error comes back with x in the same synchronization; only a solve that needs
  // refinement synchronizes per step. Throws Error(not_factored) unless the last factor()
  // succeeded.
  EngineSolveResult solve(const Scalar* b, Scalar* x, bool transpose, int32_t max_steps,
                          const RefineTarget& target) override;
  // The bare solve (no refinement, no backward error).
  void solve(const Scalar* b, Scalar* x, bool transpose) { solve(b, x, transpose, 0, 0.0); }

  // Device-resident data: the same factor() and solve() with A's values, b and x in device
  // memory (copied device to device into the engine's own input, right-hand side and
  // solution buffers; no host copy). download_input(): A's values of the last factor.
  bool supports_device_pointers() const noexcept override { return true; }
  EngineFactorResult factor_device(const Scalar* d_values, const PivotRule& rule) override;
  EngineSolveResult solve_device(const Scalar* d_b, Scalar* d_x, bool transpose, int32_t max_steps,
                                 const RefineTarget& target) override;
  void download_input(Scalar* a_values) override;

  const std::vector<Scalar>& factor_values() override;  // downloaded once per factorization
  void download_factor(Scalar* f_host) const;           // F values (s.f_rowind.size() of them)
  Backend backend() const noexcept override { return Backend::cuda; }
  int64_t device_bytes() const noexcept override;  // this object's device memory, its triangular solvers' included
  TrsvKernel trsv_kernel() const noexcept override;  // the kernel the solves run (auto resolved; auto when n == 0)
  int64_t factor_bytes() const;                      // bytes of F values + F pattern (colptr, rowind, diag)

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
  std::vector<float> profile_levels(const Scalar* a_values, const PivotRule& rule);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

using CudaLU = BasicCudaLU<double>;
extern template class BasicCudaLU<double>;
extern template class BasicCudaLU<std::complex<double>>;

}  // namespace gpuglu::cuda
