#pragma once
// CudaSupernodalLDLT: the supernodal LDL^T (FactorKind::supernodal_ldlt; cpu/supernodal_ldlt.hpp
// has the layout and the algorithm, core/bunch_kaufman.hpp the pivot rule) on the
// device-engine shell, one GPU. Plain C++ (no CUDA types).
//
// factor() scatters A's values into the L panels (DevicePanels, the supernodal LU's) and runs
// the levels of the supernodal tree (ldlt_plan.hpp): narrow supernodes batched (their diagonal
// blocks in shared memory, a block each; L21 and the Schur complements L21 D L21^T tile by
// tile), wide ones through cuBLAS (pivot blocks by a kernel and DGEMM, L21 D by TRSM, the
// complement by DGEMM), each supernode first without pivots (Options::ldlt_unpivoted: no
// pivot search in shared memory, cuSOLVER's dense LU where wide) and kept where
// // core/bunch_kaufman.hpp's tests pass, else with Bunch-Kaufman from then on. solve() runs the
// supernodal LU's panel solves (panel_solves.hpp: self-scheduled tiles; L with each
// supernode's pivot order, D, L^T) and the shell's refinement. The factor agrees
// with the CPU engine's to rounding (a pivot choice at a near tie may differ; both are valid).
#include <cstdint>
#include <vector>

#include "cuda/engine/device_engine.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

class SupernodalLdltRecipe;

class CudaSupernodalLDLT final : public BasicDeviceEngine<double> {
 public:
  // Throws Error(invalid_input) unless s is a supernodal LDL^T schedule; gpuglu::Error
  // (out_of_memory naming the bytes asked, device_error, no_device) as every device engine.
  CudaSupernodalLDLT(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern = {});

  // D's signs (its 2 x 2 blocks by their determinant), read from the device.
  bool pivot_signs(PivotSigns& out) override;
  // One factorization of a_values part by part, each timed alone (LevelProfile: panel = the
  // narrow supernodes' diagonal blocks and L21, blocked = the wide supernodes, direct = the
  // tiled complements, gemm = the narrow supernodes' DGEMM complements).
  std::vector<LevelProfile> profile_levels(const double* a_values, const PivotRule& rule) override;

  // Schur-complement mode: the shell's verbs (BasicDeviceEngine) over the recipe's block (its
  // lower triangle mirrored) and PanelSolves' sweeps short of it (D of A11 before the backward
  // one).

  struct Paths {
    int64_t narrow;       // supernodes factored by the batched kernels
    int64_t wide;         // by cuBLAS (pivot blocks, TRSM, DGEMM), one by one
    int64_t tiled_schur;  // complements formed by the batched tile kernel (the wide ones: DGEMM)
  };
  Paths paths() const;
  // Factorizations redone after a failed unpivoted attempt (core/bunch_kaufman.hpp), and the
  // supernodes that take Bunch-Kaufman now (all of them without Options::ldlt_unpivoted).
  int64_t pivot_fallbacks() const noexcept;
  int64_t pivoted_supernodes() const;
  int32_t levels() const;

 private:
  SupernodalLdltRecipe* ldlt_ = nullptr;
};

}  // namespace gpuglu::cuda
