// DeviceDenseLU (device_dense_lu.hpp): cuSOLVER's getrf, cuBLAS's geam and trsv on one stream;
// the unpivoted factor's static-pivot test a warp per column, as DensePanelLU's.
#include "cuda/split/device_dense_lu.hpp"

#include <cublas_v2.h>
#include <cusolverDn.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "cuda/common/cuda_check.hpp"
#include "cuda/common/gather_kernels.cuh"
#include "cuda/split/split_kernels.cuh"
#include "cuda/supernodal/panel_device.cuh"
#include "cuda/supernodal/cublas_check.hpp"
#include "cuda/supernodal/cusolver_check.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

namespace kernels {
namespace {

constexpr int kRootCheckWarps = 8;

// Column c of the unpivoted factor (L and U in place, k x k) against the test at its pivot
// step (factored_column: the panel kernels' magnitude), a warp per column; a failure or a
// NaN/Inf sets *failed.
__global__ void __launch_bounds__(kRootCheckWarps * 32)
    root_pivot_check_kernel(const double* lu, int32_t k, double threshold, double zero_pivot, int* failed) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int32_t c = static_cast<int32_t>(blockIdx.x) * kRootCheckWarps + static_cast<int32_t>(threadIdx.x >> 5);
  if (c >= k) return;  // uniform over the warp
  const FactoredColumn col = factored_column(lu + static_cast<int64_t>(c) * k, k, c, lane);
  if (lane == 0 && (!col.finite || pivot_is_tiny(col.apiv, col.colmax, threshold, zero_pivot))) atomicExch(failed, 1);
}

}  // namespace
}  // namespace kernels

DeviceDenseLU::DeviceDenseLU(int device, int64_t k, const PivotRule& rule, bool symmetric)
    : device_(device), k_(k), rule_(rule), symmetric_(symmetric) {
  if (k > std::numeric_limits<int>::max())
    throw Error(Status::index_overflow, "the split factorization's root: k = " + std::to_string(k) +
                                            " exceeds cuSOLVER's 32-bit dense LU");
  DeviceScope scope(device_);
  GPUGLU_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  GPUGLU_CUSOLVER_CHECK(cusolverDnCreate(&solver_));
  GPUGLU_CUSOLVER_CHECK(cusolverDnSetStream(solver_, stream_));
  GPUGLU_CUBLAS_CHECK(cublasCreate(&blas_));
  GPUGLU_CUBLAS_CHECK(cublasSetStream(blas_, stream_));
  const size_t kk = static_cast<size_t>(k) * static_cast<size_t>(k);
  a_ = mem_.allocate<double>(kk, "the root's matrix");
  b_ = mem_.allocate<double>(kk, "the root's second block");
  x_ = mem_.allocate<double>(static_cast<size_t>(k), "the root's right-hand side");
  y_ = mem_.allocate<double>(static_cast<size_t>(k), "the root's second right-hand side");
  pivots_ = mem_.allocate<int>(static_cast<size_t>(k), "the root's pivots");
  perm_ = mem_.allocate<int64_t>(static_cast<size_t>(k), "the root's row permutation");
  info_ = mem_.allocate<int>(2, "the root's info and pivot test");
  int lwork = 0;
  const int n = static_cast<int>(k);
  GPUGLU_CUSOLVER_CHECK(cusolverDnDgetrf_bufferSize(solver_, n, n, a_, n > 0 ? n : 1, &lwork));
  if (symmetric_)
    GPUGLU_CUSOLVER_CHECK(
        cusolverDnDpotrf_bufferSize(solver_, CUBLAS_FILL_MODE_LOWER, n, a_, n > 0 ? n : 1, &lwork_potrf_));
  lwork = std::max(lwork, lwork_potrf_);
  work_ = mem_.allocate<double>(static_cast<size_t>(lwork > 0 ? lwork : 1), "the root's getrf / potrf workspace");
}

DeviceDenseLU::~DeviceDenseLU() {
  ReleaseScope scope(device_);
  if (blas_) cublasDestroy(blas_);
  if (solver_) cusolverDnDestroy(solver_);
  if (stream_) cudaStreamDestroy(stream_);
  mem_.release();
}

void DeviceDenseLU::upload(const double* s_host) {
  DeviceScope scope(device_);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(a_, s_host, static_cast<size_t>(k_ * k_) * sizeof(double), cudaMemcpyHostToDevice,
                                    stream_));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void DeviceDenseLU::add_block() {
  if (k_ == 0) return;
  DeviceScope scope(device_);
  const double one = 1.0;
  const int n = static_cast<int>(k_);
  GPUGLU_CUBLAS_CHECK(cublasDgeam(blas_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, &one, a_, n, &one, b_, n, a_, n));
}

// S = L L^T where S is positive definite (info 0; a NaN or Inf in S fails too, whose column
// the LU then names).
bool DeviceDenseLU::cholesky_factor() {
  const int n = static_cast<int>(k_);
  GPUGLU_CUSOLVER_CHECK(cusolverDnDpotrf(solver_, CUBLAS_FILL_MODE_LOWER, n, a_, n, work_, lwork_potrf_, info_));
  int info = 0;
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(&info, info_, sizeof(int), cudaMemcpyDeviceToHost, stream_));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
  if (info < 0) throw Error(Status::device_error, "cusolverDnDpotrf: argument " + std::to_string(-info) + " invalid");
  return info == 0;
}

bool DeviceDenseLU::unpivoted_factor() {
  const int n = static_cast<int>(k_);
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(info_, 0, 2 * sizeof(int), stream_));
  GPUGLU_CUSOLVER_CHECK(cusolverDnDgetrf(solver_, n, n, a_, n, work_, nullptr, info_));
  const unsigned blocks = static_cast<unsigned>((k_ + kernels::kRootCheckWarps - 1) / kernels::kRootCheckWarps);
  kernels::root_pivot_check_kernel<<<blocks, kernels::kRootCheckWarps * 32, 0, stream_>>>(a_, n, rule_.threshold,
                                                                                           rule_.zero_pivot, info_ + 1);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
  int info[2] = {0, 0};
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(info, info_, sizeof(info), cudaMemcpyDeviceToHost, stream_));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
  if (info[0] < 0) throw Error(Status::device_error, "cusolverDnDgetrf: argument " + std::to_string(-info[0]) + " invalid");
  return info[0] == 0 && info[1] == 0;
}

void DeviceDenseLU::restore_s() {
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(a_, b_, static_cast<size_t>(k_ * k_) * sizeof(double), cudaMemcpyDeviceToDevice,
                                    stream_));
}

int64_t DeviceDenseLU::factor() {
  how_ = RootFactorization::lu_unpivoted;
  if (k_ == 0) return -1;
  DeviceScope scope(device_);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(b_, a_, static_cast<size_t>(k_ * k_) * sizeof(double), cudaMemcpyDeviceToDevice,
                                    stream_));
  if (symmetric_) {
    if (cholesky_factor()) {
      how_ = RootFactorization::cholesky;
      return -1;
    }
    restore_s();
  }
  if (unpivoted_factor()) return -1;
  restore_s();
  how_ = RootFactorization::lu_pivoted;
  const int n = static_cast<int>(k_);
  GPUGLU_CUSOLVER_CHECK(cusolverDnDgetrf(solver_, n, n, a_, n, work_, pivots_, info_));
  // info and the pivots come back together: P S = L U with P as LAPACK's swaps, turned into
  // (P v)[i] = v[perm[i]], applied by one gather.
  int info = 0;
  std::vector<int> swaps(static_cast<size_t>(k_));
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(&info, info_, sizeof(int), cudaMemcpyDeviceToHost, stream_));
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(swaps.data(), pivots_, swaps.size() * sizeof(int), cudaMemcpyDeviceToHost, stream_));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
  if (info < 0) throw Error(Status::device_error, "cusolverDnDgetrf: argument " + std::to_string(-info) + " invalid");
  if (info > 0) return info - 1;
  std::vector<int64_t> perm(swaps.size());
  std::iota(perm.begin(), perm.end(), int64_t{0});
  for (size_t i = 0; i < swaps.size(); ++i) std::swap(perm[i], perm[static_cast<size_t>(swaps[i] - 1)]);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(perm_, perm.data(), perm.size() * sizeof(int64_t), cudaMemcpyHostToDevice, stream_));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return -1;
}

// S x = v: L U x = P v; S^T x = v: U^T L^T (P x) = v. Two triangular solves of one vector
// (cuBLAS's trsv) around the permutation; x_ in, x_ out, y_ the work vector.
void DeviceDenseLU::solve_in_place(bool transpose) {
  const int n = static_cast<int>(k_);
  if (how_ == RootFactorization::cholesky) {  // S = L L^T: L y = x, L^T x = y (either way)
    GPUGLU_CUBLAS_CHECK(cublasDtrsv(blas_, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, a_, n, x_, 1));
    GPUGLU_CUBLAS_CHECK(cublasDtrsv(blas_, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, n, a_, n, x_, 1));
    return;
  }
  if (how_ == RootFactorization::lu_unpivoted) {
    lu_triangles(x_, transpose);
    return;
  }
  if (transpose) {
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(y_, x_, static_cast<size_t>(k_) * sizeof(double), cudaMemcpyDeviceToDevice, stream_));
    lu_triangles(y_, true);
    kernels::launch_scatter(k_, perm_, y_, x_, stream_);
    return;
  }
  launch_gather(k_, perm_, x_, y_, stream_);
  lu_triangles(y_, false);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(x_, y_, static_cast<size_t>(k_) * sizeof(double), cudaMemcpyDeviceToDevice, stream_));
}

// L (unit diagonal) then U; transposed, U^T then L^T.
void DeviceDenseLU::lu_triangles(double* v, bool transpose) {
  const int n = static_cast<int>(k_);
  const cublasOperation_t op = transpose ? CUBLAS_OP_T : CUBLAS_OP_N;
  for (const bool lower : {!transpose, transpose})
    GPUGLU_CUBLAS_CHECK(cublasDtrsv(blas_, lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER, op,
                                    lower ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, n, a_, n, v, 1));
}

void DeviceDenseLU::solve(double* x_host, bool transpose) {
  if (k_ == 0) return;
  DeviceScope scope(device_);
  const size_t bytes = static_cast<size_t>(k_) * sizeof(double);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(x_, x_host, bytes, cudaMemcpyHostToDevice, stream_));
  solve_in_place(transpose);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(x_host, x_, bytes, cudaMemcpyDeviceToHost, stream_));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void DeviceDenseLU::solve_rhs(bool transpose) {
  if (k_ == 0) return;
  DeviceScope scope(device_);
  const int n = static_cast<int>(k_);
  const double one = 1.0;
  GPUGLU_CUBLAS_CHECK(cublasDaxpy(blas_, n, &one, y_, 1, x_, 1));
  solve_in_place(transpose);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

}  // namespace gpuglu::cuda
