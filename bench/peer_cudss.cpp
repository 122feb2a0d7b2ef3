// NVIDIA cuDSS, the supported successor of cusolverRf, with its defaults (its own
// reordering, matching and pivoting). Timed like cusolverRf: analysis =
// CUDSS_PHASE_ANALYSIS, first factorization = CUDSS_PHASE_FACTORIZATION, refactorization
// = cudssMatrixSetValues (values already on the device) + CUDSS_PHASE_REFACTORIZATION,
// solve = CUDSS_PHASE_SOLVE on device vectors; each followed by a synchronization.
// run_cudss: a general matrix (LU); run_cudss_symmetric: the lower triangle of a symmetric
// one (Cholesky or LDL^T), for gpuglu_ldlt_bench; run_cudss_complex: the same on complex
// values (CUDA_C_64F), for gpuglu_complex_bench; run_cudss_first_solve: one solve from host
// data with every step timed, for gpuglu_first_solve_bench. One run for all (cudss_run).
#include <cuda_runtime.h>
#include <cudss.h>

#include <algorithm>
#include <complex>
#include <stdexcept>
#include <string>
#include <type_traits>
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

// count integers of a cuDSS statistic (INFO, NPIVOTS, INERTIA, LU_NNZ): asked as 32-bit
// integers, then as 64-bit ones (cuDSS refuses a buffer smaller than the statistic); empty
// when cuDSS answers neither.
std::vector<int64_t> data_get_ints(cudssHandle_t h, cudssData_t data, cudssDataParam_t what, size_t count) {
  std::vector<int32_t> narrow(count);
  size_t written = 0;
  if (cudssDataGet(h, data, what, narrow.data(), count * sizeof(int32_t), &written) == CUDSS_STATUS_SUCCESS &&
      written == count * sizeof(int32_t))
    return std::vector<int64_t>(narrow.begin(), narrow.end());
  std::vector<int64_t> wide(count);
  if (cudssDataGet(h, data, what, wide.data(), count * sizeof(int64_t), &written) == CUDSS_STATUS_SUCCESS &&
      written == count * sizeof(int64_t))
    return wide;
  return {};
}

// How one cuDSS run goes: the matrix m (CSR, as typed and viewed), the values of the
// refactorizations (nullptr: m's own every time, as the LU benchmark does), b. Scalar is
// double or std::complex<double> (whose layout is cuDoubleComplex's).
template <class Scalar>
struct CudssCase {
  const CsrMatrix<int32_t, Scalar>* m = nullptr;
  const std::vector<Scalar>* second_values = nullptr;
  cudssMatrixType_t mtype = CUDSS_MTYPE_GENERAL;
  cudssMatrixViewType_t mview = CUDSS_MVIEW_FULL;
  const std::vector<Scalar>* b = nullptr;
  double budget_ms = 0;
  // Bunch-Kaufman pivoting (CUDSS_PIVOT_BUNCH_KAUFMAN) with refinement_steps of cuDSS's
  // iterative refinement (CUDSS_CONFIG_IR_N_STEPS); off: cuDSS's defaults.
  bool bunch_kaufman = false;
  int refinement_steps = 2;
  // Set: the first solve only (no refactorizations, one SOLVE), the uploads, the handle's
  // creation and the download timed into it as well.
  CudssFirstSolve* first = nullptr;
  // More than 1: cuDSS's multi-GPU mode (cudssCreateMg) on devices 0 .. devices - 1, the data
  // on device 0 (the calling device must be the first one).
  int devices = 1;
};

template <class Scalar>
constexpr cudaDataType_t value_type() {
  return std::is_same_v<Scalar, double> ? CUDA_R_64F : CUDA_C_64F;
}

template <class Scalar>
PeerTimes cudss_run(const CudssCase<Scalar>& c, const PeerRun& r0, std::vector<Scalar>& x, Extras* extra) {
  const CsrMatrix<int32_t, Scalar>& a = *c.m;
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
    double t0 = now_ms();
    int* d_rowptr = to_device(a.rowptr, owned);
    int* d_colind = to_device(a.colind, owned);
    Scalar* d_val[2] = {to_device(a.values, owned), nullptr};
    d_val[1] = c.second_values ? to_device(*c.second_values, owned) : d_val[0];
    Scalar* d_b = to_device(*c.b, owned);
    x.assign(static_cast<size_t>(n), Scalar(0));
    Scalar* d_x = to_device(x, owned);
    if (c.first) {
      check(cudaDeviceSynchronize(), "synchronize");
      c.first->upload_ms = now_ms() - t0;
      t0 = now_ms();
    }
    if (c.devices > 1)
      check(cudssCreateMg(&h, c.devices, nullptr), "cudssCreateMg");
    else
      check(cudssCreate(&h), "cudssCreate");
    check(cudssConfigCreate(&cfg), "cudssConfigCreate");
    if (c.bunch_kaufman) {
      const cudssPivotType_t pivot = CUDSS_PIVOT_BUNCH_KAUFMAN;
      check(cudssConfigSet(cfg, CUDSS_CONFIG_PIVOT_TYPE, &pivot, sizeof pivot), "cudssConfigSet(PIVOT_TYPE)");
      const int steps = c.refinement_steps;
      check(cudssConfigSet(cfg, CUDSS_CONFIG_IR_N_STEPS, &steps, sizeof steps), "cudssConfigSet(IR_N_STEPS)");
    }
    check(cudssDataCreate(h, &data), "cudssDataCreate");
    check(cudssMatrixCreateCsr(&ma, n, n, a.nnz(), d_rowptr, nullptr, d_colind, d_val[0], CUDA_R_32I, CUDA_R_32I,
                               value_type<Scalar>(), c.mtype, c.mview, CUDSS_BASE_ZERO),
          "cudssMatrixCreateCsr");
    check(cudssMatrixCreateDn(&mb, n, 1, n, d_b, value_type<Scalar>(), CUDSS_LAYOUT_COL_MAJOR),
          "cudssMatrixCreateDn(b)");
    check(cudssMatrixCreateDn(&mx, n, 1, n, d_x, value_type<Scalar>(), CUDSS_LAYOUT_COL_MAJOR),
          "cudssMatrixCreateDn(x)");
    if (c.first) c.first->setup_ms = now_ms() - t0;
    auto phase = [&](int ph, const char* what) {
      check(cudssExecute(h, ph, cfg, data, ma, mx, mb), what);
      check(cudaDeviceSynchronize(), "synchronize");
    };
    t0 = now_ms();
    phase(CUDSS_PHASE_ANALYSIS, "cudssExecute(ANALYSIS)");
    t.analyze_ms = now_ms() - t0;
    t0 = now_ms();
    phase(CUDSS_PHASE_FACTORIZATION, "cudssExecute(FACTORIZATION)");
    t.factor_ms = now_ms() - t0;
    PeerRun r = r0;
    if (c.first) {
      t0 = now_ms();
      phase(CUDSS_PHASE_SOLVE, "cudssExecute(SOLVE)");
      t.solve_ms = now_ms() - t0;
    } else {
      r = fit_to_budget(r0, t.factor_ms, c.budget_ms);
      t.refactor_ms = time_refactor(r, nullptr, [&](int set) {
        check(cudssMatrixSetValues(ma, d_val[set]), "cudssMatrixSetValues");
        phase(CUDSS_PHASE_REFACTORIZATION, "cudssExecute(REFACTORIZATION)");
      });
      t.solve_ms = median_ms(r.warmup, r.repeat, [&] { phase(CUDSS_PHASE_SOLVE, "cudssExecute(SOLVE)"); });
    }
    int64_t lu_nnz = -1;
    size_t written = 0;
    if (cudssDataGet(h, data, CUDSS_DATA_LU_NNZ, &lu_nnz, sizeof lu_nnz, &written) == CUDSS_STATUS_SUCCESS)
      t.nnz_factor = lu_nnz;
    if (extra) {
      Extras& e = *extra;
      if (!c.first) e["peer_repeat"] = static_cast<double>(r.repeat);
      // INFO: > 0 after a factorization that met a zero pivot (SPD: a non-positive one) there.
      const std::vector<int64_t> info = data_get_ints(h, data, CUDSS_DATA_INFO, 1);
      if (!info.empty()) e["peer_info"] = static_cast<double>(info[0]);
      // Its memory estimates: [0] permanent, [1] peak device bytes (after the analysis).
      const std::vector<int64_t> memory = data_get_ints(h, data, CUDSS_DATA_MEMORY_ESTIMATES, 16);
      if (memory.size() > 1) e["peer_device_peak_bytes"] = static_cast<double>(memory[1]);
      const std::vector<int64_t> npivots = data_get_ints(h, data, CUDSS_DATA_NPIVOTS, 1);
      if (!npivots.empty()) e["peer_perturbed_pivots"] = static_cast<double>(npivots[0]);
      // Inertia: of a real symmetric or a Hermitian A (a complex symmetric one has none).
      if ((c.mtype == CUDSS_MTYPE_SYMMETRIC && std::is_same_v<Scalar, double>) || c.mtype == CUDSS_MTYPE_HERMITIAN) {
        const std::vector<int64_t> inertia = data_get_ints(h, data, CUDSS_DATA_INERTIA, 2);  // positive, negative
        if (!inertia.empty()) {
          e["peer_inertia_positive"] = static_cast<double>(inertia[0]);
          e["peer_inertia_negative"] = static_cast<double>(inertia[1]);
        }
      }
    }
    t0 = now_ms();
    check(cudaMemcpy(x.data(), d_x, static_cast<size_t>(n) * sizeof(Scalar), cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (c.first) c.first->download_ms = now_ms() - t0;
  } catch (...) {
    release();
    throw;
  }
  release();
  return t;
}

}  // namespace

PeerTimes run_cudss(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r,
                    int devices) {
  CudssCase<double> c;
  c.m = &a;
  c.b = &b;
  c.devices = devices;
  std::vector<double> x;
  PeerTimes t = cudss_run(c, r, x, nullptr);
  t.residual = relative_residual(a.view(), x.data(), b.data());
  return t;
}

CudssFirstSolve run_cudss_first_solve(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b,
                                      std::vector<double>& x, Extras& extra) {
  CudssFirstSolve f;
  CudssCase<double> c;
  c.m = &a;
  c.b = &b;
  c.first = &f;
  const PeerTimes t = cudss_run(c, PeerRun{}, x, &extra);
  f.analysis_ms = t.analyze_ms;
  f.factor_ms = t.factor_ms;
  f.solve_ms = t.solve_ms;
  f.nnz_factor = t.nnz_factor > 0 ? t.nnz_factor : -1;
  return f;
}

PeerTimes run_cudss_symmetric(const CsrMatrix<int32_t, double>& lower, const std::vector<double>& second_values,
                              bool spd, const std::vector<double>& b, const PeerRun& r, double budget_ms,
                              std::vector<double>& x, Extras& extra, bool bunch_kaufman, int devices) {
  CudssCase<double> c;
  c.devices = devices;
  c.bunch_kaufman = bunch_kaufman && !spd;
  if (c.bunch_kaufman) extra["peer_pivot"] = std::string("bunch-kaufman, 2 refinement steps");
  c.m = &lower;
  c.second_values = &second_values;
  c.mtype = spd ? CUDSS_MTYPE_SPD : CUDSS_MTYPE_SYMMETRIC;
  c.mview = CUDSS_MVIEW_LOWER;
  c.b = &b;
  c.budget_ms = budget_ms;
  extra["peer_mtype"] = std::string(spd ? "spd" : "symmetric");
  return cudss_run(c, r, x, &extra);
}

PeerTimes run_cudss_complex(const CsrMatrix<int32_t, std::complex<double>>& m,
                            const std::vector<std::complex<double>>& second_values, CudssComplexType type,
                            const std::vector<std::complex<double>>& b, const PeerRun& r,
                            std::vector<std::complex<double>>& x, Extras& extra) {
  CudssCase<std::complex<double>> c;
  c.m = &m;
  c.second_values = &second_values;
  c.mtype = type == CudssComplexType::general     ? CUDSS_MTYPE_GENERAL
            : type == CudssComplexType::symmetric ? CUDSS_MTYPE_SYMMETRIC
                                                  : CUDSS_MTYPE_HERMITIAN;
  c.mview = type == CudssComplexType::general ? CUDSS_MVIEW_FULL : CUDSS_MVIEW_LOWER;
  c.b = &b;
  extra["peer_mtype"] = std::string(type == CudssComplexType::general     ? "general"
                                    : type == CudssComplexType::symmetric ? "symmetric"
                                                                          : "hermitian");
  return cudss_run(c, r, x, &extra);
}

}  // namespace gpuglu::bench
