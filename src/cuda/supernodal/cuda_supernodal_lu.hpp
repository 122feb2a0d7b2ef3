#pragma once
// CudaSupernodalLU: the CUDA numeric engine (core/numeric_engine.hpp) of a supernodal LU
// schedule (Schedule::supernodal; include/gpuglu/supernodes.hpp) on one GPU. Plain C++ (no
// CUDA types), so the API layer and the tests include it without nvcc.
//
// factor() scatters A's values into the panels and runs the levels of the supernodal tree:
// per level, the unpivoted LU of each supernode's panels (a block each, with the column LU's
// pivot test and perturbation, column by column), then each supernode's Schur complement
// subtracted from its ancestors - formed by a kernel for small supernodes, by cuBLAS's
// DGEMM for large ones (supernodal_plan.hpp's kGemmMinWork). F (the schedule's CSC layout)
// is then gathered from the panels, and solve() runs CudaLU's solves (LuSolves) and device
// refinement (DeviceRefinement) on it - or, with o.cuda.supernodal_panel_solve, the
// triangular solves on the panels themselves, level by level of the supernodal tree
// (PanelSolves), with the same refinement; F is then only factor_values()'. The factor agrees with the CPU reference
// (reference::factor_supernodal) to rounding, not bitwise: the Schur complements reach a
// shared ancestor through atomics, in an order that varies.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/numeric_engine.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

class CudaSupernodalLU final : public NumericEngine {
 public:
  // Checks s (Error(invalid_input) unless it is a consistent supernodal LU schedule), uploads
  // its structure once, allocates every device buffer and builds the solves' triangles from
  // s's F pattern (with o.cuda.supernodal_panel_solve: the panel solves' level plan instead).
  // Run-time choices from o: the solves' kernel and analysis (o.trsv_kernel,
  // o.trsv_analysis, o.cuda), the staging rule (o.cuda.staging). pattern: A's CSR pattern,
  // for refinement, as CudaLU takes it. device_ordinal < 0: the calling thread's current
  // device. Throws gpuglu::Error (out_of_memory naming the bytes asked, device_error, no_device).
  CudaSupernodalLU(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern = {});
  ~CudaSupernodalLU() override;
  CudaSupernodalLU(const CudaSupernodalLU&) = delete;
  CudaSupernodalLU& operator=(const CudaSupernodalLU&) = delete;

  // a_values: A's values in its CSR order (s.input_nnz of them). Synchronous (one
  // synchronization for the whole factorization). A failure (tiny pivot under report,
  // Inf/NaN during the elimination, NaN/Inf input) is a status in the result; a schedule
  // whose supernodes do not hold a Schur complement's row throws Error(invalid_input).
  EngineFactorResult factor(const double* a_values, const PivotRule& rule) override;

  // As CudaLU::solve: x = A^{-1} b or A^{-T} b (b and x may alias), then up to max_steps
  // refinement steps on the device. Throws Error(not_factored) unless the last factor()
  // succeeded.
  EngineSolveResult solve(const double* b, double* x, bool transpose, int32_t max_steps,
                          const RefineTarget& target) override;

  // Device-resident data, as CudaLU's: A's values, b and x in device memory, copied device to
  // device into the engine's own input and solution buffers. download_input(): A's values of
  // the last factor.
  bool supports_device_pointers() const noexcept override { return true; }
  EngineFactorResult factor_device(const double* d_values, const PivotRule& rule) override;
  EngineSolveResult solve_device(const double* d_b, double* d_x, bool transpose, int32_t max_steps,
                                 const RefineTarget& target) override;
  void download_input(double* a_values) override;

  const std::vector<double>& factor_values() override;  // F, downloaded once per factorization
  void download_factor(double* f_host) const;           // F values (s.f_rowind.size() of them)
  Backend backend() const noexcept override { return Backend::cuda; }
  int64_t device_bytes() const noexcept override;    // this object's device memory, its solvers' included
  // The kernel the solves through F run; TrsvKernel::automatic with the panel solves, which
  // run none of the trsv module's kernels.
  TrsvKernel trsv_kernel() const noexcept override;

  // How the Schur complements are formed (fixed by the schedule): supernodes with a
  // complement formed by the direct kernel and by cuBLAS.
  struct UpdatePaths {
    int64_t direct;   // Schur complements by the direct kernel
    int64_t gemm;     // by cuBLAS
    int64_t blocked;  // panels factored blocked (cuBLAS TRSM and GEMM)
  };
  UpdatePaths update_paths() const;
  int32_t levels() const;  // of the supernodal tree
  // Factorizations redone because a panel factored by cuSOLVER's unpivoted LU failed the pivot
  // test checked afterwards (0 or 1: the engine then keeps to its panel kernels;
  // CudaTuning::supernodal_dense_min_cols).
  int64_t pivot_fallbacks() const noexcept;

  // Where a factorization's time goes (benchmarks only): one factorization of a_values run
  // launch by launch with events around each of a level's four parts, in ms per level.
  struct LevelTiming {
    float panel = 0, blocked = 0, direct = 0, gemm = 0;
  };
  std::vector<LevelTiming> profile_levels(const double* a_values, const PivotRule& rule);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuglu::cuda
