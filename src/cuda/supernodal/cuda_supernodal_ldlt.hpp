#pragma once
// CudaSupernodalLDLT: the supernodal LDL^T (FactorKind::supernodal_ldlt; cpu/supernodal_ldlt.hpp
// has the layout and the algorithm, core/bunch_kaufman.hpp the pivot rule) on the
// device-engine shell, one GPU. Plain C++ (no CUDA types).
//
// factor() scatters A's values into the L panels (DevicePanels, the supernodal LU's) and runs
// the levels of the supernodal tree: per level, the supernodes factored whole by one block each
// (Bunch-Kaufman inside each pivot block, the later columns updated in the kernel), the wide
// ones blocked (a pivot block by one block, then cuBLAS's DGEMM on the supernode's later
// columns), then the Schur complements L21 D L21^T: by one block each for small supernodes,
// by DGEMM into a workspace and a scatter for large ones. solve() runs the panel solves level
// by level (forward with D, then backward) and the shell's refinement. The factor agrees with
// the CPU engine's to rounding (a pivot choice at a near tie may differ; both are valid).
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

  struct Paths {
    int64_t whole;    // supernodes factored whole by one block
    int64_t blocked;  // factored blocked (cuBLAS on the later columns)
    int64_t direct;   // Schur complements by one block
    int64_t gemm;     // by cuBLAS
  };
  Paths paths() const;
  int32_t levels() const;

 private:
  SupernodalLdltRecipe* ldlt_ = nullptr;
};

}  // namespace gpuglu::cuda
