// SchurGemm (schur_gemm.hpp). U12 is stored transposed (the U^T panel, nb x ns, leading
// dimension nb), so W = L21 U12 is DGEMM(N, T) of the two panels as they lie: no copies.
#include "cuda/supernodal/schur_gemm.hpp"

#include "cuda/common/cuda_check.hpp"
#include "cuda/supernodal/cublas_check.hpp"

namespace gpuglu::cuda {
namespace {

// cuBLAS's own workspace (its default on Hopper), given to it from the engine's memory.
constexpr size_t kCublasWorkspaceBytes = size_t{32} << 20;

}  // namespace

SchurGemm::SchurGemm(int64_t workspace_doubles, DeviceMemory& mem, cudaStream_t stream) : stream_(stream) {
  w_ = mem.allocate<double>(static_cast<size_t>(workspace_doubles), "the Schur complement's GEMM workspace");
  void* blas_ws = mem.allocate_bytes(kCublasWorkspaceBytes, "cuBLAS's workspace");
  GPUGLU_CUBLAS_CHECK(cublasCreate(&handle_));
  GPUGLU_CUBLAS_CHECK(cublasSetStream(handle_, stream_));
  GPUGLU_CUBLAS_CHECK(cublasSetWorkspace(handle_, blas_ws, kCublasWorkspaceBytes));
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
