#pragma once
// The supernodal engine's cuBLAS work: the Schur complements of the large supernodes
// (SupernodalPlan's GemmNode): W = L21 U12 by DGEMM into a workspace, in column chunks that
// fit it, each followed by the scatter kernel that subtracts W from the targets; and the
// blocked factorization of the widest supernodes' panels (BlockedNode). The handle runs on the engine's stream, with its
// workspace taken from the engine's DeviceMemory (so device_bytes() counts it).
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/common/device_memory.hpp"
#include "cuda/supernodal/supernodal_kernels.cuh"
#include "cuda/supernodal/supernodal_plan.hpp"

struct cublasContext;  // cublasHandle_t, without cublas_v2.h in this header

namespace gpuglu::cuda {

class SchurGemm {
 public:
  // workspace_doubles: the largest complement chunk (nb x chunk) of the GemmNodes this one takes
  // (SupernodeLanes deals them; 0 when none).
  SchurGemm(int64_t workspace_doubles, DeviceMemory& mem, cudaStream_t stream);
  ~SchurGemm();
  SchurGemm(const SchurGemm&) = delete;
  SchurGemm& operator=(const SchurGemm&) = delete;

  // Node g's complement subtracted from its targets, asynchronous on the stream.
  void enqueue(const kernels::SupernodeArgs& a, const GemmNode& g);
  // Node b's panels factored blocked (supernodal_plan.hpp), asynchronous on the stream.
  void factor_blocked(const kernels::SupernodeArgs& a, const BlockedNode& b);
  // Node b's U^T panel after DensePanelLU factored its L panel: U^T := U^T L11^{-T} (a TRSM
  // with the unit lower L11), asynchronous on the stream.
  void solve_ut(const kernels::SupernodeArgs& a, const BlockedNode& b);

 private:
  cublasContext* handle_ = nullptr;
  cudaStream_t stream_;
  double* w_ = nullptr;
};

}  // namespace gpuglu::cuda
