// SchurGemm (schur_gemm.hpp). U12 is stored transposed (the U^T panel, nb x ns, leading
// dimension nb), so W = L21 U12 is DGEMM(N, T) of the two panels as they lie: no copies.
#include "cuda/supernodal/schur_gemm.hpp"

#include "cuda/common/cuda_check.hpp"
#include "cuda/supernodal/cublas_check.hpp"
#include "cuda/supernodal/cublas_workspace.hpp"

namespace gpuglu::cuda {
SchurGemm::SchurGemm(int64_t workspace_doubles, DeviceMemory& mem, cudaStream_t stream) : stream_(stream) {
  if (workspace_doubles > 0)
    w_ = mem.allocate<double>(static_cast<size_t>(workspace_doubles), "the Schur complement's GEMM workspace");
  GPUGLU_CUBLAS_CHECK(cublasCreate(&handle_));
  GPUGLU_CUBLAS_CHECK(cublasSetStream(handle_, stream_));
  give_cublas_workspace(handle_, mem);
}

SchurGemm::~SchurGemm() {
  if (handle_) cublasDestroy(handle_);  // best effort: nothing here may throw
}

void SchurGemm::enqueue(const kernels::SupernodeArgs& a, const GemmNode& g) {
  const int64_t nb = g.nr - g.ns;
  const double one = 1.0, zero = 0.0;
  const double* l21 = a.panels + g.l_ptr + g.ns;
  const double* ut = a.panels + g.u_ptr;
  for (int64_t y0 = 0; y0 < nb; y0 += g.chunk) {
    const int64_t cols = nb - y0 < g.chunk ? nb - y0 : g.chunk;
    // W(:, 0 .. cols) = L21 (nb x ns, ld nr) * (rows y0 .. y0 + cols of U^T)^T.
    GPUGLU_CUBLAS_CHECK(cublasDgemm_64(handle_, CUBLAS_OP_N, CUBLAS_OP_T, nb, cols, g.ns, &one, l21, g.nr, ut + y0, nb,
                                       &zero, w_, nb));
    kernels::launch_schur_scatter(a, g.s, nb, w_, y0, cols, stream_);
  }
}

}  // namespace gpuglu::cuda

namespace gpuglu::cuda {

// Right-looking blocked LU without pivoting of the panels of one supernode, b.width
// columns at a time (the unblocked kernel's arithmetic, reordered as LAPACK's getrf does):
// with the block's columns k0 .. k1 factored by the tall-skinny kernel (all L panel rows
// from k0 down, so the pivot test sees the same column as the unblocked kernel),
//   U(k0:k1, k1:ns)  = L11^{-1} U(k0:k1, k1:ns)                 TRSM, left, unit lower
//   L(k1:nr, k1:ns) -= L(k1:nr, k0:k1) U(k0:k1, k1:ns)           GEMM
//   U^T(:, k0:k1)    = U^T(:, k0:k1) L11^{-T}                    TRSM, right, unit lower, transposed
//   U^T(:, k1:ns)   -= U^T(:, k0:k1) L(k1:ns, k0:k1)^T           GEMM
// (L11 = L(k0:k1, k0:k1), unit lower; the panels' leading dimensions nr and nb = nr - ns).
void SchurGemm::factor_blocked(const kernels::SupernodeArgs& a, const BlockedNode& b) {
  const double one = 1.0, minus_one = -1.0;
  const int64_t nr = b.nr;
  const int64_t nb = nr - b.ns;
  double* l = a.panels + b.l_ptr;
  double* u = a.panels + b.u_ptr;
  for (int32_t k0 = 0; k0 < b.ns; k0 += b.width) {
    const int32_t k1 = k0 + b.width < b.ns ? k0 + b.width : b.ns;
    const int64_t w = k1 - k0;
    if (b.resident)
      kernels::launch_panel_block_resident(a, b.s, k0, k1, b.threads, b.smem, stream_);
    else
      kernels::launch_panel_block(a, b.s, k0, k1, b.threads, b.smem, stream_);
    const double* l11 = l + k0 + static_cast<int64_t>(k0) * nr;
    const int64_t rest = b.ns - k1;
    if (rest > 0) {
      double* u12 = l + k0 + static_cast<int64_t>(k1) * nr;
      GPUGLU_CUBLAS_CHECK(cublasDtrsm_64(handle_, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                         CUBLAS_DIAG_UNIT, w, rest, &one, l11, nr, u12, nr));
      GPUGLU_CUBLAS_CHECK(cublasDgemm_64(handle_, CUBLAS_OP_N, CUBLAS_OP_N, nr - k1, rest, w, &minus_one,
                                         l + k1 + static_cast<int64_t>(k0) * nr, nr, u12, nr, &one,
                                         l + k1 + static_cast<int64_t>(k1) * nr, nr));
    }
    if (nb > 0) {
      double* ut_block = u + static_cast<int64_t>(k0) * nb;
      GPUGLU_CUBLAS_CHECK(cublasDtrsm_64(handle_, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                                         CUBLAS_DIAG_UNIT, nb, w, &one, l11, nr, ut_block, nb));
      if (rest > 0)
        GPUGLU_CUBLAS_CHECK(cublasDgemm_64(handle_, CUBLAS_OP_N, CUBLAS_OP_T, nb, rest, w, &minus_one, ut_block, nb,
                                           l + k1 + static_cast<int64_t>(k0) * nr, nr, &one,
                                           u + static_cast<int64_t>(k1) * nb, nb));
    }
  }
}

void SchurGemm::solve_ut(const kernels::SupernodeArgs& a, const BlockedNode& b) {
  const int64_t nb = b.nr - b.ns;
  if (nb == 0) return;
  const double one = 1.0;
  GPUGLU_CUBLAS_CHECK(cublasDtrsm_64(handle_, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_UNIT,
                                     nb, b.ns, &one, a.panels + b.l_ptr, b.nr, a.panels + b.u_ptr, nb));
}

}  // namespace gpuglu::cuda
