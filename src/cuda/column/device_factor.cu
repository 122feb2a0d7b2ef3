// DeviceFactor (device_factor.hpp): uploads, the scatter before the level loop and the
// state read after it. The kernels are lu_kernels.cu's.
#include "cuda/column/device_factor.hpp"

#include "core/scalar.hpp"
#include "cuda/common/cuda_check.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

template <class Scalar>
BasicDeviceFactor<Scalar>::BasicDeviceFactor(const Schedule& s, const T* input, DeviceMemory& mem,
                                             HostStaging& staging, const std::vector<char>& conjugate)
    : n_(s.n),
      nnz_f_(static_cast<int64_t>(s.f_rowind.size())),
      input_nnz_(s.input_nnz),
      accumulate_(s.symmetric()),
      f_diag_(s.f_diag),
      input_(input),
      state_(staging) {
  args_.colptr = mem.upload(s.f_colptr, "the factor's column pointers");
  args_.rowind = mem.upload(s.f_rowind, "the factor's row indices");
  args_.diag = mem.upload(s.f_diag, "the factor's diagonal positions");
  args_.f = mem.allocate<T>(static_cast<size_t>(nnz_f_), "the factor's values");
  args_.level_cols = mem.upload(s.level_cols, "the level columns");
  args_.target_col = mem.upload(s.target_col, "the update targets");
  args_.src_ptr = mem.upload(s.target_src_ptr, "the update source pointers");
  args_.src = mem.upload(s.target_src, "the update sources");
  if (s.symmetric()) args_.src_col = mem.upload(s.target_src_col, "the update sources' columns");
  args_.state = mem.allocate<kernels::FactorState>(1, "the factorization state");
  args_.incomplete = s.incomplete;
  args_.hermitian = !conjugate.empty();
  value_map_ = mem.upload(s.value_map, "the value map");
  value_scale_ = mem.upload(s.value_scale, "the value scaling");
  if (!conjugate.empty()) {
    if (static_cast<int64_t>(conjugate.size()) != input_nnz_)
      throw Error(Status::invalid_input, "CUDA LDL^H: one conjugation flag per input entry expected");
    const std::vector<uint8_t> flags(conjugate.begin(), conjugate.end());
    conjugate_ = mem.upload(flags, "the Hermitian scatter's conjugation flags");
  }
}

template <class Scalar>
void BasicDeviceFactor<Scalar>::enqueue_scatter(const PivotRule& rule, cudaStream_t stream) {
  kernels::launch_reset(args_.state, rule, stream);
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(args_.f, 0, static_cast<size_t>(nnz_f_) * sizeof(T), stream));
  kernels::launch_scatter(input_nnz_, input_, value_map_, value_scale_, args_.f, args_.state,
                          accumulate_, conjugate_, stream);
  kernels::launch_shift_diagonal(n_, args_.diag, args_.f, rule.diagonal_shift, stream);
}

template <class Scalar>
void BasicDeviceFactor<Scalar>::enqueue_state_download(cudaStream_t stream) {
  state_.enqueue(args_.state, stream);
}

template <class Scalar>
EngineFactorResult BasicDeviceFactor<Scalar>::result() const {
  EngineFactorResult out =
      state_.result("CUDA factor(): the schedule's factor pattern lacks a fill entry an update needs");
  if (out.stats.status == Status::numerically_singular) {
    Scalar pivot{};
    GPUGLU_CUDA_CHECK(cudaMemcpy(&pivot, args_.f + f_diag_[out.stats.pivot_column], sizeof(T), cudaMemcpyDeviceToHost));
    out.stats.pivot_value = reported_value(pivot);
  }
  return out;
}

template <class Scalar>
void BasicDeviceFactor<Scalar>::download(Scalar* f_host, cudaStream_t stream) const {
  if (nnz_f_ == 0) return;
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(f_host, args_.f, static_cast<size_t>(nnz_f_) * sizeof(T),
                                    cudaMemcpyDeviceToHost, stream));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template class BasicDeviceFactor<double>;
template class BasicDeviceFactor<std::complex<double>>;

}  // namespace gpuglu::cuda
