// DensePanelLU (dense_panel_lu.hpp): cuSOLVER's unpivoted getrf on a blocked supernode's L
// panel, then the static-pivot test of the panel kernels (panel_device.cuh's PanelPivots)
// checked on the result, a warp per column.
#include "cuda/supernodal/dense_panel_lu.hpp"

#include <algorithm>
#include <cfloat>

#include "cuda/common/cuda_check.hpp"
#include "cuda/supernodal/cusolver_check.hpp"
#include "cuda/supernodal/panel_device.cuh"

namespace gpuglu::cuda {
namespace kernels {
namespace {

constexpr int kCheckWarps = 8;

// A column of supernode s that fails the test (check_factored_panel) marks the factorization
// unstable, to be redone by the panel kernels, which perturb or report as the CPU engine does.
__global__ void __launch_bounds__(kCheckWarps * 32) dense_pivot_check_kernel(SupernodeArgs a, int32_t s) {
  check_factored_panel(a, s, kCheckWarps, [&](int32_t) { atomicExch(&a.state->unstable_panel, 1); });
}

}  // namespace
}  // namespace kernels

DensePanelLU::DensePanelLU(const SupernodalPlan& plan, const kernels::SupernodeArgs& a, DeviceMemory& mem,
                           cudaStream_t stream)
    : stream_(stream) {
  GPUGLU_CUSOLVER_CHECK(cusolverDnCreate(&handle_));
  GPUGLU_CUSOLVER_CHECK(cusolverDnSetStream(handle_, stream_));
  int lwork = 1;
  for (const SupernodalPlan::Level& lv : plan.levels)
    for (const BlockedNode& b : lv.blocked) {
      int need = 0;
      GPUGLU_CUSOLVER_CHECK(cusolverDnDgetrf_bufferSize(handle_, static_cast<int>(b.nr), b.ns, a.panels + b.l_ptr,
                                                        static_cast<int>(b.nr), &need));
      lwork = std::max(lwork, need);
    }
  work_ = mem.allocate<double>(static_cast<size_t>(lwork), "the dense panel LU's workspace");
  info_ = mem.allocate<int>(1, "the dense panel LU's info");
}

DensePanelLU::~DensePanelLU() {
  if (handle_) cusolverDnDestroy(handle_);  // best effort: nothing here may throw
}

void DensePanelLU::factor(const kernels::SupernodeArgs& a, const BlockedNode& b) {
  // A NaN/Inf input leaves the panels unfactored (the panel kernels' early exit); getrf on
  // them is harmless work whose result nothing reads, and the check exits before marking.
  GPUGLU_CUSOLVER_CHECK(cusolverDnDgetrf(handle_, static_cast<int>(b.nr), b.ns, a.panels + b.l_ptr,
                                         static_cast<int>(b.nr), work_, nullptr, info_));
  const unsigned blocks = static_cast<unsigned>((b.ns + kernels::kCheckWarps - 1) / kernels::kCheckWarps);
  kernels::dense_pivot_check_kernel<<<blocks, kernels::kCheckWarps * 32, 0, stream_>>>(a, b.s);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda
