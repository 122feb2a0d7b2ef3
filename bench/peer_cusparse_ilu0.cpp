// cuSPARSE ILU(0) + SpSV (peer_cusparse_ilu0.hpp). csrilu02 is deprecated in CUDA 13 but
// still the library's ILU(0); the benchmark measures it as shipped.
#define DISABLE_CUSPARSE_DEPRECATED
#include "peer_cusparse_ilu0.hpp"

#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "cuda/common/cuda_check.hpp"

namespace gpuglu::bench {

namespace {

// Destructors cannot throw: a failing free or destroy is reported and the teardown goes on.
void warn_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::fprintf(stderr, "cusparse_ilu0: %s failed: %s\n", what, cudaGetErrorString(e));
}
void warn_cusparse(cusparseStatus_t e, const char* what) {
  if (e != CUSPARSE_STATUS_SUCCESS) std::fprintf(stderr, "cusparse_ilu0: %s failed: %s\n", what, cusparseGetErrorString(e));
}

}  // namespace

struct CusparseIlu0::Impl {
  int32_t n = 0;
  int64_t nnz = 0;
  bool analyzed = false, factored = false;
  cusparseHandle_t handle = nullptr;
  cusparseMatDescr_t descr = nullptr;  // csrilu02's (legacy) description of A
  csrilu02Info_t info = nullptr;
  cusparseSpMatDescr_t lower = nullptr, upper = nullptr;  // both on the in-place factor
  cusparseDnVecDescr_t vec_x = nullptr, vec_t = nullptr, vec_y = nullptr;
  cusparseSpSVDescr_t sv_lower = nullptr, sv_upper = nullptr;
  int32_t *rowptr = nullptr, *colind = nullptr;
  double *values = nullptr, *x = nullptr, *t = nullptr, *y = nullptr;
  void *ilu_buffer = nullptr, *lower_buffer = nullptr, *upper_buffer = nullptr;

  ~Impl();
  void analyze(int32_t n, const int32_t* rp, const int32_t* ci, const double* v);
  void check_zero_pivot(const char* phase);
  void make_triangle(cusparseFillMode_t fill, cusparseDiagType_t diag, cusparseSpMatDescr_t* mat,
                     cusparseSpSVDescr_t* sv, void** buffer, cusparseDnVecDescr_t in, cusparseDnVecDescr_t out);
};

CusparseIlu0::Impl::~Impl() {
  if (sv_lower) warn_cusparse(cusparseSpSV_destroyDescr(sv_lower), "cusparseSpSV_destroyDescr");
  if (sv_upper) warn_cusparse(cusparseSpSV_destroyDescr(sv_upper), "cusparseSpSV_destroyDescr");
  for (cusparseDnVecDescr_t v : {vec_x, vec_t, vec_y})
    if (v) warn_cusparse(cusparseDestroyDnVec(v), "cusparseDestroyDnVec");
  for (cusparseSpMatDescr_t m : {lower, upper})
    if (m) warn_cusparse(cusparseDestroySpMat(m), "cusparseDestroySpMat");
  if (info) warn_cusparse(cusparseDestroyCsrilu02Info(info), "cusparseDestroyCsrilu02Info");
  if (descr) warn_cusparse(cusparseDestroyMatDescr(descr), "cusparseDestroyMatDescr");
  if (handle) warn_cusparse(cusparseDestroy(handle), "cusparseDestroy");
  for (void* p : {static_cast<void*>(rowptr), static_cast<void*>(colind), static_cast<void*>(values),
                  static_cast<void*>(x), static_cast<void*>(t), static_cast<void*>(y), ilu_buffer, lower_buffer,
                  upper_buffer})
    if (p) warn_cuda(cudaFree(p), "cudaFree");
}

// cusparseXcsrilu02_zeroPivot: CUSPARSE_STATUS_ZERO_PIVOT with the position of the first
// structural (after the analysis) or numerical (after the factorization) zero pivot.
void CusparseIlu0::Impl::check_zero_pivot(const char* phase) {
  int position = -1;
  const cusparseStatus_t s = cusparseXcsrilu02_zeroPivot(handle, info, &position);
  if (s == CUSPARSE_STATUS_ZERO_PIVOT)
    throw Error(Status::numerically_singular,
                std::string("cusparseDcsrilu02") + phase + ": zero pivot in row " + std::to_string(position));
  GPUGLU_CUSPARSE_CHECK(s);
}

// One triangle of the factor for SpSV: the same CSR arrays, told which triangle to read
// and whether its diagonal is stored (U) or one (L).
void CusparseIlu0::Impl::make_triangle(cusparseFillMode_t fill, cusparseDiagType_t diag, cusparseSpMatDescr_t* mat,
                                       cusparseSpSVDescr_t* sv, void** buffer, cusparseDnVecDescr_t in,
                                       cusparseDnVecDescr_t out) {
  GPUGLU_CUSPARSE_CHECK(cusparseCreateCsr(mat, n, n, nnz, rowptr, colind, values, CUSPARSE_INDEX_32I,
                                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  GPUGLU_CUSPARSE_CHECK(cusparseSpMatSetAttribute(*mat, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
  GPUGLU_CUSPARSE_CHECK(cusparseSpMatSetAttribute(*mat, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
  GPUGLU_CUSPARSE_CHECK(cusparseSpSV_createDescr(sv));
  const double one = 1.0;
  size_t bytes = 0;
  GPUGLU_CUSPARSE_CHECK(cusparseSpSV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, *mat, in, out,
                                                CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, *sv, &bytes));
  GPUGLU_CUDA_CHECK(cudaMalloc(buffer, std::max<size_t>(bytes, 1)));
  GPUGLU_CUSPARSE_CHECK(cusparseSpSV_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, *mat, in, out,
                                              CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, *sv, *buffer));
}

void CusparseIlu0::Impl::analyze(int32_t n_, const int32_t* rp, const int32_t* ci, const double* v) {
  n = n_;
  nnz = rp[n];
  const size_t nb = static_cast<size_t>(n) * sizeof(double);
  GPUGLU_CUSPARSE_CHECK(cusparseCreate(&handle));
  GPUGLU_CUDA_CHECK(cudaMalloc(&rowptr, (static_cast<size_t>(n) + 1) * sizeof(int32_t)));
  GPUGLU_CUDA_CHECK(cudaMalloc(&colind, std::max<size_t>(static_cast<size_t>(nnz) * sizeof(int32_t), 1)));
  GPUGLU_CUDA_CHECK(cudaMalloc(&values, std::max<size_t>(static_cast<size_t>(nnz) * sizeof(double), 1)));
  for (double** p : {&x, &t, &y}) GPUGLU_CUDA_CHECK(cudaMalloc(p, std::max<size_t>(nb, 1)));
  GPUGLU_CUDA_CHECK(cudaMemcpy(rowptr, rp, (static_cast<size_t>(n) + 1) * sizeof(int32_t), cudaMemcpyHostToDevice));
  GPUGLU_CUDA_CHECK(cudaMemcpy(colind, ci, static_cast<size_t>(nnz) * sizeof(int32_t), cudaMemcpyHostToDevice));
  GPUGLU_CUDA_CHECK(cudaMemcpy(values, v, static_cast<size_t>(nnz) * sizeof(double), cudaMemcpyHostToDevice));

  GPUGLU_CUSPARSE_CHECK(cusparseCreateMatDescr(&descr));
  GPUGLU_CUSPARSE_CHECK(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO));
  GPUGLU_CUSPARSE_CHECK(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL));
  GPUGLU_CUSPARSE_CHECK(cusparseCreateCsrilu02Info(&info));
  int bytes = 0;
  GPUGLU_CUSPARSE_CHECK(cusparseDcsrilu02_bufferSize(handle, n, static_cast<int>(nnz), descr, values, rowptr, colind,
                                                     info, &bytes));
  GPUGLU_CUDA_CHECK(cudaMalloc(&ilu_buffer, std::max<size_t>(static_cast<size_t>(bytes), 1)));
  GPUGLU_CUSPARSE_CHECK(cusparseDcsrilu02_analysis(handle, n, static_cast<int>(nnz), descr, values, rowptr, colind,
                                                   info, CUSPARSE_SOLVE_POLICY_USE_LEVEL, ilu_buffer));
  check_zero_pivot("_analysis");
  analyzed = true;
}

CusparseIlu0::CusparseIlu0() : impl_(std::make_unique<Impl>()) {}
CusparseIlu0::~CusparseIlu0() = default;

int64_t CusparseIlu0::nnz() const { return impl_->nnz; }

void CusparseIlu0::factor(int32_t n, const int32_t* rowptr, const int32_t* colind, const double* values) {
  Impl& m = *impl_;
  m.factored = false;
  if (!m.analyzed) {
    try {
      m.analyze(n, rowptr, colind, values);
    } catch (...) {
      impl_ = std::make_unique<Impl>();  // the next call starts over (and frees what this one got)
      throw;
    }
  } else {
    if (n != m.n || rowptr[n] != m.nnz)
      throw Error(Status::pattern_changed, "cusparse_ilu0: the matrix changed size or pattern");
    GPUGLU_CUDA_CHECK(cudaMemcpy(m.values, values, static_cast<size_t>(m.nnz) * sizeof(double), cudaMemcpyHostToDevice));
  }
  GPUGLU_CUSPARSE_CHECK(cusparseDcsrilu02(m.handle, m.n, static_cast<int>(m.nnz), m.descr, m.values, m.rowptr,
                                          m.colind, m.info, CUSPARSE_SOLVE_POLICY_USE_LEVEL, m.ilu_buffer));
  m.check_zero_pivot("");  // blocks until the factorization is done
  if (!m.sv_lower) {
    GPUGLU_CUSPARSE_CHECK(cusparseCreateDnVec(&m.vec_x, m.n, m.x, CUDA_R_64F));
    GPUGLU_CUSPARSE_CHECK(cusparseCreateDnVec(&m.vec_t, m.n, m.t, CUDA_R_64F));
    GPUGLU_CUSPARSE_CHECK(cusparseCreateDnVec(&m.vec_y, m.n, m.y, CUDA_R_64F));
    m.make_triangle(CUSPARSE_FILL_MODE_LOWER, CUSPARSE_DIAG_TYPE_UNIT, &m.lower, &m.sv_lower, &m.lower_buffer, m.vec_x,
                    m.vec_t);
    m.make_triangle(CUSPARSE_FILL_MODE_UPPER, CUSPARSE_DIAG_TYPE_NON_UNIT, &m.upper, &m.sv_upper, &m.upper_buffer,
                    m.vec_t, m.vec_y);
  } else {
    // SpSV's analysis keeps its own copy of the values: hand it the new factor.
    GPUGLU_CUSPARSE_CHECK(cusparseSpSV_updateMatrix(m.handle, m.sv_lower, m.values, CUSPARSE_SPSV_UPDATE_GENERAL));
    GPUGLU_CUSPARSE_CHECK(cusparseSpSV_updateMatrix(m.handle, m.sv_upper, m.values, CUSPARSE_SPSV_UPDATE_GENERAL));
  }
  GPUGLU_CUDA_CHECK(cudaDeviceSynchronize());  // setup time includes all of the GPU's work
  m.factored = true;
}

void CusparseIlu0::apply(const double* x, double* y) {
  Impl& m = *impl_;
  if (!m.factored) throw Error(Status::not_factored, "cusparse_ilu0: apply before a successful factorization");
  const size_t nb = static_cast<size_t>(m.n) * sizeof(double);
  const double one = 1.0;
  GPUGLU_CUDA_CHECK(cudaMemcpy(m.x, x, nb, cudaMemcpyHostToDevice));
  GPUGLU_CUSPARSE_CHECK(cusparseSpSV_solve(m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m.lower, m.vec_x, m.vec_t,
                                           CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, m.sv_lower));
  GPUGLU_CUSPARSE_CHECK(cusparseSpSV_solve(m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m.upper, m.vec_t, m.vec_y,
                                           CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, m.sv_upper));
  GPUGLU_CUDA_CHECK(cudaMemcpy(y, m.y, nb, cudaMemcpyDeviceToHost));  // the default stream: waits for the solves
}

}  // namespace gpuglu::bench
