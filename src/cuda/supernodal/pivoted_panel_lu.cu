// PivotedPanelLU (pivoted_panel_lu.hpp).
#include "cuda/supernodal/pivoted_panel_lu.hpp"

#include <algorithm>

#include "cuda/common/cuda_check.hpp"
#include "cuda/supernodal/cublas_check.hpp"
#include "cuda/supernodal/cublas_workspace.hpp"
#include "cuda/supernodal/cusolver_check.hpp"
#include "cuda/supernodal/panel_device.cuh"

namespace gpuglu::cuda {
namespace kernels {
namespace {

constexpr int kSwapThreads = 256;
constexpr int kCheckWarps = 8;

// After getrf on supernode s's diagonal block: U^T's columns swapped as its rows were (a thread
// per row of U^T, each applying the swaps in their order to its own row), and, by thread 0 of
// block 0, row_order composed from the swaps.
__global__ void __launch_bounds__(kSwapThreads) pivoted_rows_kernel(SupernodeArgs a, int32_t s) {
  if (input_was_bad(a.state)) return;
  const Panel p = panel_of(a, s);
  const int32_t* swaps = a.row_swaps + p.first;
  const int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < p.nu)
    for (int32_t k = 0; k < p.ns; ++k) {
      const int32_t q = swaps[k] - 1;
      if (q == k) continue;
      double* uk = p.u + static_cast<int64_t>(k) * p.nu + r;
      double* uq = p.u + static_cast<int64_t>(q) * p.nu + r;
      const double t = *uk;
      *uk = *uq;
      *uq = t;
    }
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  int32_t* order = a.row_order + p.first;
  for (int32_t i = 0; i < p.ns; ++i) order[i] = i;
  for (int32_t k = 0; k < p.ns; ++k) {
    const int32_t q = swaps[k] - 1;
    const int32_t t = order[k];
    order[k] = order[q];
    order[q] = t;
  }
}

// A column of supernode s that fails the test (check_factored_panel) marks s failed and reports
// the column (the smallest failing one wins, as in PanelPivots::publish).
__global__ void __launch_bounds__(kCheckWarps * 32) pivoted_check_kernel(SupernodeArgs a, int32_t s) {
  const int32_t first = a.first[s];
  check_factored_panel(a, s, kCheckWarps, [&](int32_t k) {
    a.failed[s] = 1;
    atomicMin(&a.state->failure_key, static_cast<unsigned long long>(first + k));
  });
}

}  // namespace
}  // namespace kernels

PivotedPanelLU::PivotedPanelLU(DeviceMemory& mem, cudaStream_t stream) : mem_(mem), stream_(stream) {
  GPUGLU_CUSOLVER_CHECK(cusolverDnCreate(&solver_));
  GPUGLU_CUSOLVER_CHECK(cusolverDnSetStream(solver_, stream_));
  GPUGLU_CUBLAS_CHECK(cublasCreate(&blas_));
  GPUGLU_CUBLAS_CHECK(cublasSetStream(blas_, stream_));
  give_cublas_workspace(blas_, mem);
  info_ = mem.allocate<int>(1, "the pivoted panels' getrf info");
}

PivotedPanelLU::~PivotedPanelLU() {
  // Best effort: nothing here may throw.
  if (blas_) cublasDestroy(blas_);
  if (solver_) cusolverDnDestroy(solver_);
}

void PivotedPanelLU::reserve(const kernels::SupernodeArgs& a, const std::vector<BlockedNode>& nodes) {
  int64_t need = 1;
  for (const BlockedNode& b : nodes) {
    int lwork = 0;
    GPUGLU_CUSOLVER_CHECK(cusolverDnDgetrf_bufferSize(solver_, b.ns, b.ns, a.panels + b.l_ptr,
                                                      static_cast<int>(b.nr), &lwork));
    need = std::max<int64_t>(need, lwork);
  }
  if (need <= lwork_) return;
  work_ = mem_.allocate<double>(static_cast<size_t>(need), "the pivoted panels' getrf workspace");
  lwork_ = need;
}

void PivotedPanelLU::factor(const kernels::SupernodeArgs& a, const BlockedNode& b) {
  const int64_t nb = b.nr - b.ns;
  double* l = a.panels + b.l_ptr;
  int32_t* swaps = a.row_swaps + b.first;
  GPUGLU_CUSOLVER_CHECK(
      cusolverDnDgetrf(solver_, b.ns, b.ns, l, static_cast<int>(b.nr), work_, swaps, info_));
  const unsigned swap_blocks =
      static_cast<unsigned>(std::max<int64_t>(1, (nb + kernels::kSwapThreads - 1) / kernels::kSwapThreads));
  kernels::pivoted_rows_kernel<<<swap_blocks, kernels::kSwapThreads, 0, stream_>>>(a, b.s);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
  if (nb > 0) {
    const double one = 1.0;
    GPUGLU_CUBLAS_CHECK(cublasDtrsm_64(blas_, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                                       CUBLAS_DIAG_NON_UNIT, nb, b.ns, &one, l, b.nr, l + b.ns, b.nr));
    GPUGLU_CUBLAS_CHECK(cublasDtrsm_64(blas_, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_UNIT,
                                       nb, b.ns, &one, l, b.nr, a.panels + b.u_ptr, nb));
  }
  const unsigned check_blocks = static_cast<unsigned>((b.ns + kernels::kCheckWarps - 1) / kernels::kCheckWarps);
  kernels::pivoted_check_kernel<<<check_blocks, kernels::kCheckWarps * 32, 0, stream_>>>(a, b.s);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda
