#pragma once
// The supernodes of a supernodal LU that pivot inside their diagonal blocks
// (core/supernode_pivoting.hpp), factored one at a time on the engine's stream:
//   getrf with partial pivoting on the diagonal block A11 (ns x ns, leading dimension nr):
//     P A11 = L11 U11, cuSOLVER's pivot rows into row_swaps at the supernode's first column;
//   U^T's columns swapped the same way and row_order composed (one kernel);
//   L21 := L21 U11^{-1}   TRSM, right, upper;
//   U^T := U^T L11^{-T}   TRSM, right, unit lower, transposed (U12 = L11^{-1} P A12);
//   the static-pivot test on the result (panel_device.cuh's factored_column): a failing
//     column marks the supernode failed and the failing column reported, as the panel
//     kernels do under PivotPolicy::report (a pivot chosen by partial pivoting is not perturbed).
// Its Schur complement is then the same direct or GEMM one as any supernode's.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda/common/device_memory.hpp"
#include "cuda/supernodal/supernodal_kernels.cuh"
#include "cuda/supernodal/supernodal_plan.hpp"

struct cusolverDnContext;  // cusolverDnHandle_t, without cusolverDn.h in this header
struct cublasContext;      // cublasHandle_t

namespace gpuglu::cuda {

class PivotedPanelLU {
 public:
  PivotedPanelLU(DeviceMemory& mem, cudaStream_t stream);
  ~PivotedPanelLU();
  PivotedPanelLU(const PivotedPanelLU&) = delete;
  PivotedPanelLU& operator=(const PivotedPanelLU&) = delete;

  // getrf's workspace large enough for every node here (grown from mem when not; synchronous).
  void reserve(const kernels::SupernodeArgs& a, const std::vector<BlockedNode>& nodes);
  // b's panels factored as above, asynchronous on the stream; nothing when the input held a
  // NaN/Inf (the check exits before marking anything).
  void factor(const kernels::SupernodeArgs& a, const BlockedNode& b);

 private:
  DeviceMemory& mem_;
  cudaStream_t stream_;
  cusolverDnContext* solver_ = nullptr;
  cublasContext* blas_ = nullptr;
  double* work_ = nullptr;
  int64_t lwork_ = 0;
  int* info_ = nullptr;
};

}  // namespace gpuglu::cuda
