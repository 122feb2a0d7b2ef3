#pragma once
// The blocked and GEMM supernodes of one level of the supernodal tree, spread over a few
// streams ("lanes"). Each such supernode is a sequence of library calls (cuSOLVER's getrf,
// cuBLAS's TRSM and GEMM, the scatter kernel) on panels of a few hundred columns: one at a
// time, their launches and tails left most of the GPU idle (G3_circuit's blocked supernodes
// dominated its loop; docs/performance_history.md, seventh step). A level's supernodes are independent (their
// complements reach the targets by atomics), so the lanes run them side by side: lane i takes
// supernodes i, i + L, ..., after the engine's stream reaches the level (an event), and the
// engine's stream waits for every lane before the level's next part. Each lane has its own
// cuBLAS and cuSOLVER handles and workspaces. Lane 0 is the engine's stream itself.
#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "cuda/common/device_memory.hpp"
#include "cuda/supernodal/dense_panel_lu.hpp"
#include "cuda/supernodal/schur_gemm.hpp"
#include "cuda/supernodal/supernodal_kernels.cuh"
#include "cuda/supernodal/supernodal_plan.hpp"

namespace gpuglu::cuda {

class SupernodeLanes {
 public:
  // max_lanes: CudaTuning::supernodal_streams; the lanes are as many as the widest level's
  // blocked or GEMM supernodes need, at most max_lanes, none without such supernodes.
  // dense: the blocked supernodes' L panels by cuSOLVER (DensePanelLU), else by the blocked
  // kernels (SchurGemm::factor_blocked).
  SupernodeLanes(const SupernodalPlan& plan, const kernels::SupernodeArgs& a, bool dense, int max_lanes,
                 DeviceMemory& mem, cudaStream_t stream);
  ~SupernodeLanes();
  SupernodeLanes(const SupernodeLanes&) = delete;
  SupernodeLanes& operator=(const SupernodeLanes&) = delete;

  // The level's blocked supernodes factored (L and U^T panels), asynchronous on the stream.
  void factor_blocked(const kernels::SupernodeArgs& a, const std::vector<BlockedNode>& nodes);
  // The level's GEMM supernodes' complements subtracted from their targets, likewise.
  void subtract_complements(const kernels::SupernodeArgs& a, const std::vector<GemmNode>& nodes);
  // After a failed pivot check of a dense panel: the blocked kernels from now on.
  void drop_dense() noexcept;
  bool dense() const noexcept { return dense_; }
  int count() const noexcept { return static_cast<int>(lanes_.size()); }

 private:
  struct Lane {
    cudaStream_t stream = nullptr;  // lane 0: the engine's (not owned)
    cudaEvent_t done = nullptr;
    std::unique_ptr<SchurGemm> gemm;
    std::unique_ptr<DensePanelLU> dense;
  };
  // f(lane, i) for i in [0, count) on lanes i % L, between the fork and the join.
  template <class F>
  void spread(size_t count, F f);

  std::vector<Lane> lanes_;
  cudaStream_t stream_;
  cudaEvent_t fork_ = nullptr;
  bool dense_ = false;
};

}  // namespace gpuglu::cuda
