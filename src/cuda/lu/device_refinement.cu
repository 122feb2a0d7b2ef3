// DeviceRefinement (device_refinement.hpp): the solve, the residuals and the refinement loop.
#include "cuda/lu/device_refinement.hpp"

#include <string>
#include <utility>

#include "core/transpose_pattern.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/lu/lu_kernels.cuh"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

DeviceRefinement::DeviceRefinement(int32_t n, int64_t input_nnz, PatternRef pattern, const double* a_values,
                                   DeviceMemory& mem, HostStaging& staging, cudaStream_t stream)
    : n_(n),
      input_nnz_(input_nnz),
      pattern_(pattern),
      a_values_(a_values),
      mem_(mem),
      staging_(staging),
      stream_(stream) {
  const size_t un = static_cast<size_t>(n_);
  x_dev_ = mem.allocate<double>(un, "the solution");
  b_dev_ = mem.allocate<double>(un, "the solve's right-hand side");
  r_dev_ = mem.allocate<double>(un, "the refinement's residual");
  r_next_ = mem.allocate<double>(un, "the refinement's next residual");
  d_dev_ = mem.allocate<double>(un, "the refinement's correction");
  x_next_ = mem.allocate<double>(un, "the refinement's next iterate");
  berr_bits_ = mem.allocate<unsigned long long>(4, "the backward error");  // ||x||, omega1, omega2, componentwise
  v_pinned_ = staging.pinned<double>(un, "the solve's staging buffer");
  berr_pinned_ = staging.pinned<unsigned long long>(3, "the backward error's staging buffer");
}

void DeviceRefinement::set_equilibration(const std::vector<double>& row_scale, const std::vector<double>& col_scale) {
  const size_t un = static_cast<size_t>(n_);
  if (n_ == 0 || row_scale.size() != un || col_scale.size() != un) return;
  row_scale_ = mem_.upload(row_scale.data(), un, "the row scaling (backward error)");
  col_scale_ = mem_.upload(col_scale.data(), un, "the column scaling (backward error)");
}

// A's pattern, once: the first refined solve needs it.
void DeviceRefinement::upload_pattern() {
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
void DeviceRefinement::build_transpose() {
  const TransposedPattern<int64_t> t = transpose_pattern(n_, n_, pattern_.rowptr, pattern_.colind);
  at_rowptr_ = mem_.upload(t.ptr, "A^T's row pointers (refinement)");
  at_colind_ = mem_.upload(t.ind, "A^T's column indices (refinement)");
  at_value_of_ = mem_.upload(t.src, "A^T's value positions (refinement)");
}

void DeviceRefinement::enqueue_residual(bool transpose, const double* x, double* r) {
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(berr_bits_, 0, 4 * sizeof(unsigned long long), stream_));
  if (transpose)
    kernels::launch_residual(n_, at_rowptr_, at_colind_, a_values_, at_value_of_, row_scale_, b_dev_, x, r,
                             berr_bits_, stream_);
  else
    kernels::launch_residual(n_, a_rowptr_, a_colind_, a_values_, nullptr, col_scale_, b_dev_, x, r, berr_bits_,
                             stream_);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(berr_pinned_, berr_bits_ + 1, 3 * sizeof(unsigned long long),
                                    cudaMemcpyDeviceToHost, stream_));
}

double DeviceRefinement::backward_error() const { return kernels::double_from_bits(berr_pinned_[2]); }

double DeviceRefinement::normwise_error() const {
  return kernels::double_from_bits(berr_pinned_[0]) + kernels::double_from_bits(berr_pinned_[1]);
}

double DeviceRefinement::residual(bool transpose, const double* x, double* r) {
  enqueue_residual(transpose, x, r);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return backward_error();
}

EngineSolveResult DeviceRefinement::solve(DeviceSolve& solves, const double* b, double* x, bool transpose,
                                          int32_t max_steps, const RefineTarget& target) {
  const size_t bytes = static_cast<size_t>(n_) * sizeof(double);
  staging_.upload(b_dev_, b, v_pinned_, bytes, stream_);
  return solve_staged(solves, transpose, max_steps, target,
                      [&] { staging_.download(x, x_dev_, v_pinned_, bytes, stream_); });
}

EngineSolveResult DeviceRefinement::solve_device(DeviceSolve& solves, const double* d_b, double* d_x, bool transpose,
                                                 int32_t max_steps, const RefineTarget& target) {
  const size_t bytes = static_cast<size_t>(n_) * sizeof(double);
  // b_dev_ also keeps b for the residuals; x_dev_ is where the refinement iterates.
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(b_dev_, d_b, bytes, cudaMemcpyDefault, stream_));
  return solve_staged(solves, transpose, max_steps, target, [&] {
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(d_x, x_dev_, bytes, cudaMemcpyDefault, stream_));
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
  });
}

template <class Deliver>
EngineSolveResult DeviceRefinement::solve_staged(DeviceSolve& solves, bool transpose, int32_t max_steps,
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
    kernels::launch_add(n_, x_dev_, d_dev_, x_next_, stream_);
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

}  // namespace gpuglu::cuda
