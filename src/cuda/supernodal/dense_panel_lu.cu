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

// Column k = blockIdx.x * kCheckWarps + warp of supernode s, factored: its magnitude at its
// pivot step is max(max_{i<k} |U(i, k)|, |u_kk|, |u_kk| max_{i>k} |L(i, k)|). A pass folds
// the pivot ratio and the column's magnitude into the statistics as the panel kernels do; a
// failure (the panel kernels would perturb or report, or the factor is not finite) marks the
// factorization unstable, to be redone.
__global__ void __launch_bounds__(kCheckWarps * 32) dense_pivot_check_kernel(SupernodeArgs a, int32_t s) {
  if (input_was_bad(a.state)) return;
  const Panel p = panel_of(a, s);
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int32_t k = static_cast<int32_t>(blockIdx.x) * kCheckWarps + static_cast<int32_t>(threadIdx.x >> 5);
  if (k >= p.ns) return;  // uniform over the warp
  const double* col = p.l + static_cast<int64_t>(k) * p.nr;
  double upper = 0.0, lower = 0.0;
  bool finite = true;
  for (int64_t i = lane; i < p.nr; i += 32) {
    const double v = fabs(col[i]);
    finite &= v <= DBL_MAX;
    if (i < k) upper = v > upper ? v : upper;
    if (i > k) lower = v > lower ? v : lower;
  }
  upper = warp_max(upper);
  lower = warp_max(lower);
  finite = __all_sync(kFullMask, finite) != 0;
  if (lane != 0) return;
  const double apiv = fabs(col[k]);
  const double below = __dmul_rn(apiv, lower);
  double colmax = upper > apiv ? upper : apiv;
  colmax = below > colmax ? below : colmax;
  const bool pass = finite && colmax <= DBL_MAX && PanelPivots(a.state).passes(apiv, colmax);
  if (!pass) {
    atomicExch(&a.state->unstable_panel, 1);
    return;
  }
  atomic_min_nonneg(&a.state->min_ratio_bits, __ddiv_rn(apiv, colmax));
  atomic_max_nonneg(&a.state->max_active_bits, colmax);
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
