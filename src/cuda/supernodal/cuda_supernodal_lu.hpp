#pragma once
// CudaSupernodalLU: the supernodal LU engine on the device-engine shell, for a supernodal LU
// schedule (Schedule::supernodal; include/gpuglu/supernodes.hpp) on one GPU. Plain C++ (no
// CUDA types), so the API layer and the tests include it without nvcc.
//
// factor() scatters A's values into the panels and runs the levels of the supernodal tree:
// per level, the unpivoted LU of each supernode's panels (a block each, with the column LU's
// pivot test and perturbation, column by column), then each supernode's Schur complement
// subtracted from its ancestors - formed by a kernel for small supernodes, by cuBLAS's
// DGEMM for large ones (supernodal_plan.hpp's kGemmMinWork). F (the schedule's CSC layout)
// is then gathered from the panels, and solve() runs the solves through F (LuSolves) and the
// shell's device refinement on it - or, with o.cuda.supernodal_panel_solve, the
// triangular solves on the panels themselves, level by level of the supernodal tree
// (PanelSolves), with the same refinement; F is then only factor_values()'. The factor agrees with the CPU reference
// (reference::factor_supernodal) to rounding, not bitwise: the Schur complements reach a
// shared ancestor through atomics, in an order that varies.
#include <cstdint>
#include <vector>

#include "cuda/engine/device_engine.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

class SupernodalRecipe;

class CudaSupernodalLU final : public BasicDeviceEngine<double> {
 public:
  // Checks s (Error(invalid_input) unless it is a consistent supernodal LU schedule), uploads
  // its structure once, allocates every device buffer and builds the solves' triangles from
  // s's F pattern (with o.cuda.supernodal_panel_solve: the panel solves' level plan instead).
  // Run-time choices from o: the solves' kernel and analysis (o.trsv_kernel,
  // o.trsv_analysis, o.cuda), the staging rule (o.cuda.staging). pattern: A's CSR pattern,
  // for refinement, as CudaLU takes it. device_ordinal < 0: the calling thread's current
  // device. Throws gpuglu::Error (out_of_memory naming the bytes asked, device_error, no_device).
  // A failure of factor() (tiny pivot under report, Inf/NaN during the elimination, NaN/Inf
  // input) is a status in the result; a schedule whose supernodes do not hold a Schur
  // complement's row throws Error(invalid_input). trsv_kernel() is TrsvKernel::automatic with
  // the panel solves, which run none of the trsv module's kernels.
  CudaSupernodalLU(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern = {});

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
  // Supernodes that pivot inside their diagonal blocks (core/supernode_pivoting.hpp): those
  // whose static pivot failed in a factorization so far.
  int64_t pivoted_supernodes() const noexcept;

  // Where a factorization's time goes: one factorization of a_values run launch by launch
  // with events around each of a level's four parts (LevelProfile's panel, blocked, direct,
  // gemm; ms their sum).
  std::vector<LevelProfile> profile_levels(const double* a_values, const PivotRule& rule) override;

  // Schur-complement mode: the shell's verbs (BasicDeviceEngine) over the recipe's Schur block,
  // read from its supernode's panel on the device, and PanelSolves' sweeps short of it.


 private:
  SupernodalRecipe* supernodal_ = nullptr;  // the recipe, owned by the shell
};

}  // namespace gpuglu::cuda
