#pragma once
// The split factorization's root (api/split_lu.cpp): the separator's k x k Schur complement
// S = S_0 + S_1, dense, factored with partial pivoting by cuSOLVER's getrf on one GPU. The
// halves' blocks arrive device to device (SparseLU::schur_complement_device: the root's own
// GPU's by a copy, the other's peer to peer), so S never passes through the host; the
// right-hand sides of the solves either come from the host (solve) or stay on the device
// (solve_rhs: the split's device solves).
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/common/device_memory.hpp"

struct cusolverDnContext;
struct cublasContext;

namespace gpuglu::cuda {

class DeviceDenseLU {
 public:
  // Buffers for k x k on device `device`: the matrix, one more block, the pivots and the
  // workspace. Throws Error(out_of_memory / device_error).
  DeviceDenseLU(int device, int64_t k);
  ~DeviceDenseLU();
  DeviceDenseLU(const DeviceDenseLU&) = delete;
  DeviceDenseLU& operator=(const DeviceDenseLU&) = delete;

  int device() const noexcept { return device_; }
  int64_t size() const noexcept { return k_; }
  // Column-major k x k (leading dimension k) on device(): the matrix to factor, and a block
  // add_block() adds to it.
  double* matrix() noexcept { return a_; }
  double* block() noexcept { return b_; }
  void upload(const double* s_host);  // the matrix from host memory
  void add_block();                   // matrix += block
  // getrf: -1, or the first column (0-based) whose pivot is exactly zero (cuSOLVER's info).
  // The solves are two trsv around the pivots' permutation; cuSOLVER's getrs of one
  // right-hand side was slower (docs/performance.md, two GPUs).
  int64_t factor();
  // x = S^{-1} x (transpose: S^{-T} x), x on the host (k entries).
  void solve(double* x_host, bool transpose);
  // Two device vectors of k on device() for the halves' reduced right-hand sides, and the
  // solve of S x = rhs(0) + rhs(1) (transpose: S^T), x left in rhs(0). Synchronous.
  double* rhs(int d) noexcept { return d == 0 ? x_ : y_; }
  void solve_rhs(bool transpose);

 private:
  int device_;
  int64_t k_;
  DeviceMemory mem_{"the split factorization's root"};
  cudaStream_t stream_ = nullptr;
  cusolverDnContext* solver_ = nullptr;
  cublasContext* blas_ = nullptr;
  double *a_ = nullptr, *b_ = nullptr, *work_ = nullptr, *x_ = nullptr, *y_ = nullptr;
  int *pivots_ = nullptr, *info_ = nullptr;
  int64_t* perm_ = nullptr;  // the pivots as one row permutation (factor())
  void solve_in_place(bool transpose);  // x_ = S^{-1} x_ (S^{-T}); y_ is overwritten
};

}  // namespace gpuglu::cuda
