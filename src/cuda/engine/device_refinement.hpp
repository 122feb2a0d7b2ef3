#pragma once
// The CUDA engines' solve with iterative refinement on the device (reference::refine_with's
// rule): b goes up, x = op(A)^{-1} b through the engine's DeviceSolve (CudaLU's LuSolves,
// CudaLDLT's LdltSolves), then the residual r = b - op(A) x and the
// componentwise and Arioli-Demmel-Duff backward errors of every iterate are computed on the device with A's values
// of the last factorization (refine_kernels.cu), and a correction is kept only while it
// lowers the backward error. The backward error of the first solve is copied to pinned
// memory behind x and read after x's download: the check costs one residual kernel and no
// extra synchronization; only a solve that needs refinement synchronizes per step.
// A's pattern goes up on the first refined solve, A^T's (a transpose with positions into
// A's values) on the first refined transposed one. Scalar: double or std::complex<double>;
// the backward errors are real either way.
#include <cuda_runtime.h>

#include <complex>
#include <cstdint>
#include <vector>

#include "core/numeric_engine.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/device_scalar.hpp"
#include "cuda/common/host_staging.hpp"
#include "cuda/common/device_solve.hpp"

namespace gpuglu::cuda {

template <class Scalar>
class BasicDeviceRefinement {
 public:
  using T = device_scalar_t<Scalar>;
  using Solve = BasicDeviceSolve<Scalar>;
  // pattern: A's CSR pattern (it outlives this object; rowptr null: no refinement);
  // a_values: A's values on the device, as the last factorization received them.
  BasicDeviceRefinement(int32_t n, int64_t input_nnz, PatternRef pattern, const T* a_values, DeviceMemory& mem,
                        HostStaging& staging, cudaStream_t stream);
  BasicDeviceRefinement(const BasicDeviceRefinement&) = delete;
  BasicDeviceRefinement& operator=(const BasicDeviceRefinement&) = delete;

  // x = op(A)^{-1} b (host arrays of n; they may alias) through solves, then up to
  // max_steps refinement steps until the target is met (core/numeric_types.hpp). Synchronous.
  // Throws Error(invalid_input) when max_steps > 0 and no pattern was given (or it does not
  // have the schedule's input_nnz entries).
  EngineSolveResult solve(Solve& solves, const Scalar* b, Scalar* x, bool transpose, int32_t max_steps,
                          const RefineTarget& target);
  // The same with b and x in device memory (any device of this process; they must not
  // overlap): b is copied device to device, x comes back the same way. Synchronous.
  EngineSolveResult solve_device(Solve& solves, const Scalar* d_b, Scalar* d_x, bool transpose, int32_t max_steps,
                                 const RefineTarget& target);

  // The factorization's equilibration (schedule.hpp's row_scale and col_scale, n each; other
  // sizes: none), uploaded once, for the backward error's noise test (core/backward_error.hpp).
  void set_equilibration(const std::vector<double>& row_scale, const std::vector<double>& col_scale);

 private:
  // The solve of b_dev_ with refinement; deliver_x() puts x_dev_ where the caller wants it
  // and synchronizes the stream (the first backward error is read after it).
  template <class Deliver>
  EngineSolveResult solve_staged(Solve& solves, bool transpose, int32_t max_steps, const RefineTarget& target,
                                 Deliver deliver_x);
  void upload_pattern();
  void build_transpose();
  // r = b_dev - op(A) x; the backward error is copied to berr_pinned, readable once the
  // stream has been synchronized.
  void enqueue_residual(bool transpose, const Scalar* x, Scalar* r);
  double residual(bool transpose, const Scalar* x, Scalar* r);  // the same, synchronized: the backward error
  double backward_error() const;  // componentwise, of the last residual, once synchronized
  double normwise_error() const;  // omega1 + omega2 of the last residual, likewise

  int32_t n_;
  int64_t input_nnz_;
  PatternRef pattern_;
  const T* a_values_;
  DeviceMemory& mem_;
  const HostStaging& staging_;
  cudaStream_t stream_;
  int64_t* a_rowptr_ = nullptr;
  int32_t* a_colind_ = nullptr;
  int64_t* at_rowptr_ = nullptr;
  int32_t* at_colind_ = nullptr;
  int64_t* at_value_of_ = nullptr;  // A^T's entry e holds A's value at_value_of_[e]
  // The vectors as the seam's scalar (the solves take those); allocated as T, 16-byte aligned.
  Scalar *b_dev_ = nullptr, *x_dev_ = nullptr, *x_next_ = nullptr;
  Scalar *r_dev_ = nullptr, *r_next_ = nullptr, *d_dev_ = nullptr;
  double *row_scale_ = nullptr, *col_scale_ = nullptr;  // null: no equilibration
  unsigned long long* berr_bits_ = nullptr;
  Scalar* v_pinned_ = nullptr;
  unsigned long long* berr_pinned_ = nullptr;
};

using DeviceRefinement = BasicDeviceRefinement<double>;
extern template class BasicDeviceRefinement<double>;
extern template class BasicDeviceRefinement<std::complex<double>>;

}  // namespace gpuglu::cuda
