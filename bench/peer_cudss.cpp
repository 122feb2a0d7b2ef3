// NVIDIA cuDSS, the supported successor of cusolverRf, with its defaults for a general
// matrix (its own reordering, matching and pivoting). Timed like cusolverRf: analysis =
// CUDSS_PHASE_ANALYSIS, first factorization = CUDSS_PHASE_FACTORIZATION, refactorization
// = cudssMatrixSetValues (values already on the device) + CUDSS_PHASE_REFACTORIZATION,
// solve = CUDSS_PHASE_SOLVE on device vectors; each followed by a synchronization.
#include <cuda_runtime.h>
#include <cudss.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "gpuglu/matrix_ops.hpp"
#include "peer_cudss.hpp"
#include "timing.hpp"

namespace gpuglu::bench {

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("cuDSS peer: ") + what + ": " + cudaGetErrorString(e));
}
void check(cudssStatus_t s, const char* what) {
  if (s != CUDSS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuDSS peer: ") + what + " failed, status " + std::to_string(s));
}

template <class T>
T* to_device(const std::vector<T>& h, std::vector<void*>& owned) {
  T* d = nullptr;
  check(cudaMalloc(&d, std::max<size_t>(1, h.size()) * sizeof(T)), "cudaMalloc");
  owned.push_back(d);
  check(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  return d;
}

}  // namespace

PeerTimes run_cudss(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r) {
  const int64_t n = a.nrows;
  PeerTimes t;
  std::vector<void*> owned;
  cudssHandle_t h = nullptr;
  cudssConfig_t cfg = nullptr;
  cudssData_t data = nullptr;
  cudssMatrix_t ma = nullptr, mx = nullptr, mb = nullptr;
  auto release = [&] {
    if (ma) cudssMatrixDestroy(ma);
    if (mx) cudssMatrixDestroy(mx);
    if (mb) cudssMatrixDestroy(mb);
    if (data) cudssDataDestroy(h, data);
    if (cfg) cudssConfigDestroy(cfg);
    if (h) cudssDestroy(h);
    for (void* p : owned) cudaFree(p);
  };
  try {
    int* d_rowptr = to_device(a.rowptr, owned);
    int* d_colind = to_device(a.colind, owned);
    double* d_val = to_device(a.values, owned);
    double* d_b = to_device(b, owned);
    std::vector<double> x(static_cast<size_t>(n), 0.0);
    double* d_x = to_device(x, owned);
    check(cudssCreate(&h), "cudssCreate");
    check(cudssConfigCreate(&cfg), "cudssConfigCreate");
    check(cudssDataCreate(h, &data), "cudssDataCreate");
    check(cudssMatrixCreateCsr(&ma, n, n, a.nnz(), d_rowptr, nullptr, d_colind, d_val, CUDA_R_32I, CUDA_R_32I, CUDA_R_64F,
                               CUDSS_MTYPE_GENERAL, CUDSS_MVIEW_FULL, CUDSS_BASE_ZERO),
          "cudssMatrixCreateCsr");
    check(cudssMatrixCreateDn(&mb, n, 1, n, d_b, CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR), "cudssMatrixCreateDn(b)");
    check(cudssMatrixCreateDn(&mx, n, 1, n, d_x, CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR), "cudssMatrixCreateDn(x)");
    auto phase = [&](int ph, const char* what) {
      check(cudssExecute(h, ph, cfg, data, ma, mx, mb), what);
      check(cudaDeviceSynchronize(), "synchronize");
    };
    double t0 = now_ms();
    phase(CUDSS_PHASE_ANALYSIS, "cudssExecute(ANALYSIS)");
    t.analyze_ms = now_ms() - t0;
    t0 = now_ms();
    phase(CUDSS_PHASE_FACTORIZATION, "cudssExecute(FACTORIZATION)");
    t.factor_ms = now_ms() - t0;
    t.refactor_ms = median_ms(r.warmup, r.repeat, [&] {
      check(cudssMatrixSetValues(ma, d_val), "cudssMatrixSetValues");
      phase(CUDSS_PHASE_REFACTORIZATION, "cudssExecute(REFACTORIZATION)");
    });
    t.solve_ms = median_ms(r.warmup, r.repeat, [&] { phase(CUDSS_PHASE_SOLVE, "cudssExecute(SOLVE)"); });
    int64_t lu_nnz = -1;
    size_t written = 0;
    if (cudssDataGet(h, data, CUDSS_DATA_LU_NNZ, &lu_nnz, sizeof lu_nnz, &written) == CUDSS_STATUS_SUCCESS)
      t.nnz_factor = lu_nnz;
    check(cudaMemcpy(x.data(), d_x, static_cast<size_t>(n) * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy");
    t.residual = relative_residual(a.view(), x.data(), b.data());
  } catch (...) {
    release();
    throw;
  }
  release();
  return t;
}

}  // namespace gpuglu::bench
