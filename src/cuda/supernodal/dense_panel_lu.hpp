#pragma once
// The blocked supernodes' panels (SupernodalPlan's BlockedNode) factored by cuSOLVER's dense
// LU without pivoting (getrf with no pivot array) on the whole nr x ns L panel, with the
// static-pivot test checked afterwards: at column k's step the panel kernels see the column
// (U(0:k, k), u_kk, u_kk L(k+1:nr, k)), so its largest magnitude is known from the finished
// factor, and the test passes exactly where theirs would up to rounding. A column that fails
// it (a tiny pivot, a NaN or Inf) sets FactorState::unstable_panel; CudaSupernodalLU then
// redoes the factorization with the panel kernels, whose test perturbs or reports the pivot
// as the CPU engine does. cuSOLVER's blocked getrf runs the wide panels on the whole GPU
// (tensor-core GEMMs) where the panel kernels' one thread block per 32-64 columns did not.
// The U^T panel is SchurGemm::solve_ut's (a TRSM with the unit lower L11).
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda/common/device_memory.hpp"
#include "cuda/supernodal/supernodal_kernels.cuh"
#include "cuda/supernodal/supernodal_plan.hpp"

struct cusolverDnContext;  // cusolverDnHandle_t, without cusolverDn.h in this header

namespace gpuglu::cuda {

class DensePanelLU {
 public:
  // Workspace for the largest of plan's blocked supernodes, from mem; the handle on stream.
  DensePanelLU(const SupernodalPlan& plan, const kernels::SupernodeArgs& a, DeviceMemory& mem, cudaStream_t stream);
  ~DensePanelLU();
  DensePanelLU(const DensePanelLU&) = delete;
  DensePanelLU& operator=(const DensePanelLU&) = delete;

  // b's L panel factored (L21 and U11 in place, unit L11) and its columns' pivot test
  // checked, asynchronous on the stream; nothing when the input held a NaN/Inf.
  void factor(const kernels::SupernodeArgs& a, const BlockedNode& b);

 private:
  cusolverDnContext* handle_ = nullptr;
  cudaStream_t stream_;
  double* work_ = nullptr;
  int* info_ = nullptr;
};

}  // namespace gpuglu::cuda
