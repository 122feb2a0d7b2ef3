// DeviceRefinement (device_refinement.hpp): the solve, the residuals and the refinement loop.
#include "cuda/engine/device_refinement.hpp"

#include <string>
#include <utility>

#include "core/transpose_pattern.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/factor_kernels.cuh"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

template <class Scalar>
BasicDeviceRefinement<Scalar>::BasicDeviceRefinement(int32_t n, int64_t input_nnz, PatternRef pattern,
                                                     const T* a_values, DeviceMemory& mem, HostStaging& staging,
                                                     cudaStream_t stream)
    : n_(n),
      input_nnz_(input_nnz),
      pattern_(pattern),
      a_values_(a_values),
      mem_(mem),
      staging_(staging),
      stream_(stream) {
  const size_t un = static_cast<size_t>(n_);
  auto vector = [&](const char* what) { return reinterpret_cast<Scalar*>(mem.allocate<T>(un, what)); };
  x_dev_ = vector("the solution");
  b_dev_ = vector("the solve's right-hand side");
  r_dev_ = vector("the refinement's residual");
  r_next_ = vector("the refinement's next residual");
  d_dev_ = vector("the refinement's correction");
  x_next_ = vector("the refinement's next iterate");
  berr_bits_ = mem.allocate<unsigned long long>(4, "the backward error");  // ||x||, omega1, omega2, componentwise
  v_pinned_ = staging.pinned<Scalar>(un, "the solve's staging buffer");
  berr_pinned_ = staging.pinned<unsigned long long>(3, "the backward error's staging buffer");
}

template <class Scalar>
void BasicDeviceRefinement<Scalar>::set_equilibration(const std::vector<double>& row_scale,
                                                      const std::vector<double>& col_scale) {
  const size_t un = static_cast<size_t>(n_);
  if (n_ == 0 || row_scale.size() != un || col_scale.size() != un) return;
  row_scale_ = mem_.upload(row_scale.data(), un, "the row scaling (backward error)");
  col_scale_ = mem_.upload(col_scale.data(), un, "the column scaling (backward error)");
}

// A's pattern, once: the first refined solve needs it.
template <class Scalar>
void BasicDeviceRefinement<Scalar>::upload_pattern() {
  if (!pattern_.rowptr)
    throw Error(Status::invalid_input, "CUDA solve(): refinement needs A's pattern, which the engine was not given");
  if (pattern_.n != n_ || pattern_.rowptr[n_] != input_nnz_)
    throw Error(Status::invalid_input, "CUDA solve(): A's pattern has " + std::to_string(pattern_.n) + " rows and " +
                                           std::to_string(pattern_.n == n_ ? pattern_.rowptr[n_] : -1) +
                                           " entries, the schedule " + std::to_string(n_) + " and " +
                                           std::to_string(input_nnz_));
  a_rowptr_ = mem_.upload(pattern_.rowptr, static_cast<size_t>(n_) + 1, "A's row pointers (refinement)");
  a_colind_ = mem_.upload(pattern_.colind, static_cast<size_t>(input_nnz_), "A's column indices (refinement)");
}

// A^T by rows = A by columns, with each entry's position in A's values: built on the host
// once, on the first transposed refinement.
template <class Scalar>
void BasicDeviceRefinement<Scalar>::build_transpose() {
  const TransposedPattern<int64_t> t = transpose_pattern(n_, n_, pattern_.rowptr, pattern_.colind);
  at_rowptr_ = mem_.upload(t.ptr, "A^T's row pointers (refinement)");
  at_colind_ = mem_.upload(t.ind, "A^T's column indices (refinement)");
  at_value_of_ = mem_.upload(t.src, "A^T's value positions (refinement)");
}

template <class Scalar>
void BasicDeviceRefinement<Scalar>::enqueue_residual(bool transpose, const Scalar* x, Scalar* r) {
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(berr_bits_, 0, 4 * sizeof(unsigned long long), stream_));
  if (transpose)
    kernels::launch_residual(n_, at_rowptr_, at_colind_, a_values_, at_value_of_, row_scale_,
                             device_cast(static_cast<const Scalar*>(b_dev_)), device_cast(x), device_cast(r),
                             berr_bits_, stream_);
  else
    kernels::launch_residual(n_, a_rowptr_, a_colind_, a_values_, nullptr, col_scale_,
                             device_cast(static_cast<const Scalar*>(b_dev_)), device_cast(x), device_cast(r),
                             berr_bits_, stream_);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(berr_pinned_, berr_bits_ + 1, 3 * sizeof(unsigned long long),
                                    cudaMemcpyDeviceToHost, stream_));
}

template <class Scalar>
double BasicDeviceRefinement<Scalar>::backward_error() const { return kernels::double_from_bits(berr_pinned_[2]); }

template <class Scalar>
double BasicDeviceRefinement<Scalar>::normwise_error() const {
  return kernels::double_from_bits(berr_pinned_[0]) + kernels::double_from_bits(berr_pinned_[1]);
}

template <class Scalar>
double BasicDeviceRefinement<Scalar>::residual(bool transpose, const Scalar* x, Scalar* r) {
  enqueue_residual(transpose, x, r);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return backward_error();
}

template <class Scalar>
EngineSolveResult BasicDeviceRefinement<Scalar>::solve(Solve& solves, const Scalar* b, Scalar* x, bool transpose,
                                                       int32_t max_steps, const RefineTarget& target) {
  const size_t bytes = static_cast<size_t>(n_) * sizeof(Scalar);
  staging_.upload(b_dev_, b, v_pinned_, bytes, stream_);
  return solve_staged(solves, transpose, max_steps, target,
                      [&] { staging_.download(x, x_dev_, v_pinned_, bytes, stream_); });
}

template <class Scalar>
EngineSolveResult BasicDeviceRefinement<Scalar>::solve_device(Solve& solves, const Scalar* d_b, Scalar* d_x,
                                                              bool transpose, int32_t max_steps,
                                                              const RefineTarget& target) {
  const size_t bytes = static_cast<size_t>(n_) * sizeof(Scalar);
  // b_dev_ also keeps b for the residuals; x_dev_ is where the refinement iterates.
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(b_dev_, d_b, bytes, cudaMemcpyDefault, stream_));
  return solve_staged(solves, transpose, max_steps, target, [&] {
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(d_x, x_dev_, bytes, cudaMemcpyDefault, stream_));
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
  });
}

template <class Scalar>
template <class Deliver>
EngineSolveResult BasicDeviceRefinement<Scalar>::solve_staged(Solve& solves, bool transpose, int32_t max_steps,
                                                              const RefineTarget& target, Deliver deliver_x) {
  EngineSolveResult out;
  if (max_steps > 0 && !a_rowptr_) upload_pattern();
  solves.solve_device(b_dev_, x_dev_, transpose);
  if (max_steps > 0) {
    if (transpose && !at_rowptr_) build_transpose();
    enqueue_residual(transpose, x_dev_, r_dev_);
  }
  // x and the backward error come back with one synchronization.
  deliver_x();
  if (max_steps == 0) return out;
  double berr = backward_error();
  double normwise = normwise_error();
  while (out.refine_steps < max_steps && !target.met(berr, normwise)) {
    solves.solve_device(r_dev_, d_dev_, transpose);
    kernels::launch_add(n_, device_cast(static_cast<const Scalar*>(x_dev_)),
                        device_cast(static_cast<const Scalar*>(d_dev_)), device_cast(x_next_), stream_);
    const double next = residual(transpose, x_next_, r_next_);
    if (!(next < berr)) break;
    normwise = normwise_error();
    std::swap(x_dev_, x_next_);
    std::swap(r_dev_, r_next_);
    berr = next;
    ++out.refine_steps;
  }
  out.backward_error = berr;
  out.normwise_error = normwise;
  if (out.refine_steps > 0) deliver_x();
  return out;
}

template class BasicDeviceRefinement<double>;
template class BasicDeviceRefinement<std::complex<double>>;

}  // namespace gpuglu::cuda
