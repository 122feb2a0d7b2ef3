// DevicePanels (device_panels.hpp): uploads, the scatter before the levels, the gather of F
// and the state read after them. The scatter, reset and diagonal shift are the LU engine's
// launchers (common/factor_kernels.cuh) pointed at the panels: the value map points into
// them and the pivot positions play f_diag's part, so NaN/Inf detection and max |C| behave
// as CudaLU's.
#include "cuda/supernodal/device_panels.hpp"

#include "cuda/common/cuda_check.hpp"
#include "cuda/common/gather_kernels.cuh"
#include "cuda/common/factor_kernels.cuh"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

DevicePanels::DevicePanels(const Schedule& s, const SupernodalPlan& plan, const double* input, DeviceMemory& mem,
                           HostStaging& staging, bool with_factor, bool row_pivoting)
    : s_(s),
      n_(s.n),
      nnz_f_(with_factor ? static_cast<int64_t>(s.f_rowind.size()) : 0),
      input_nnz_(s.input_nnz),
      values_(s.supernodes.values),
      count_(s.supernodes.count),
      input_(input),
      state_(staging),
      pivot_pos_host_(plan.pivot_pos) {
  const Supernodes& sn = s.supernodes;
  args_.first = mem.upload(sn.first, "the supernodes' first columns");
  args_.of_col = mem.upload(sn.of_col, "the supernode of each column");
  args_.rows_ptr = mem.upload(sn.rows_ptr, "the supernodes' row pointers");
  args_.rows = mem.upload(sn.rows, "the supernodes' rows");
  args_.l_ptr = mem.upload(sn.l_ptr, "the L panels' offsets");
  args_.u_ptr = mem.upload(sn.u_ptr, "the U^T panels' offsets");
  args_.panels = mem.allocate<double>(static_cast<size_t>(values_), "the panels");
  args_.failed = mem.allocate<uint8_t>(static_cast<size_t>(count_), "the supernodes' failure flags");
  args_.state = mem.allocate<kernels::FactorState>(1, "the factorization state");
  if (row_pivoting) {
    pivoted_ = mem.upload(std::vector<uint8_t>(static_cast<size_t>(count_), 0), "the supernodes' pivoting flags");
    args_.pivoted = pivoted_;
    args_.row_swaps = mem.allocate<int32_t>(static_cast<size_t>(n_), "the pivoting supernodes' row swaps");
    args_.row_order = mem.allocate<int32_t>(static_cast<size_t>(n_), "the pivoting supernodes' row orders");
  }
  panel_nodes_ = mem.upload(plan.panel_nodes, "the supernodes of the panel kernel");
  direct_nodes_ = mem.upload(plan.direct_nodes, "the supernodes of the direct Schur kernel");
  panel_map_ = mem.upload(s.value_map, "the input's positions in the panels");
  value_scale_ = mem.upload(s.value_scale, "the value scaling");
  pivot_pos_ = mem.upload(plan.pivot_pos, "the pivots' positions in the panels");
  if (with_factor) {
    if (!s.factor_spelled_out())
      throw Error(Status::invalid_input, "CudaSupernodalLU: the solves through F need F spelled out (spell_out_factor)");
    f_pos_ = mem.upload(sn.f_pos, "F's positions in the panels");
    f_ = mem.allocate<double>(static_cast<size_t>(nnz_f_), "the factor's values");
  }
}

void DevicePanels::enqueue_scatter(const PivotRule& rule, cudaStream_t stream) {
  kernels::launch_reset(args_.state, rule, stream);
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(args_.panels, 0, static_cast<size_t>(values_) * sizeof(double), stream));
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(args_.failed, 0, static_cast<size_t>(count_), stream));
  // An LDL^T's full storage scatters both halves of an off-diagonal pair to one position.
  kernels::launch_scatter(input_nnz_, input_, panel_map_, value_scale_, args_.panels,
                          args_.state, s_.symmetric(), nullptr, stream);
  kernels::launch_shift_diagonal(n_, pivot_pos_, args_.panels, rule.diagonal_shift, stream);
}

void DevicePanels::enqueue_gather_factor(cudaStream_t stream) {
  if (f_) launch_gather(nnz_f_, f_pos_, args_.panels, f_, stream);
}

void DevicePanels::enqueue_state_download(cudaStream_t stream) { state_.enqueue(args_.state, stream); }

EngineFactorResult DevicePanels::result() const {
  EngineFactorResult out =
      state_.result("CudaSupernodalLU: a Schur complement row is missing from its target supernode's rows");
  // Nothing writes a failed column's pivot after its test: its supernode stopped there, and
  // the other supernodes update their ancestors only.
  if (out.stats.status == Status::numerically_singular)
    GPUGLU_CUDA_CHECK(cudaMemcpy(&out.stats.pivot_value, args_.panels + pivot_pos_host_[out.stats.pivot_column],
                                 sizeof(double), cudaMemcpyDeviceToHost));
  return out;
}

void DevicePanels::set_pivoted(const std::vector<uint8_t>& flags) {
  if (!pivoted_ || count_ == 0) return;
  GPUGLU_CUDA_CHECK(cudaMemcpy(pivoted_, flags.data(), static_cast<size_t>(count_), cudaMemcpyHostToDevice));
}

void DevicePanels::download_failed(std::vector<uint8_t>& flags, cudaStream_t stream) const {
  flags.resize(static_cast<size_t>(count_));
  if (count_ == 0) return;
  GPUGLU_CUDA_CHECK(
      cudaMemcpyAsync(flags.data(), args_.failed, static_cast<size_t>(count_), cudaMemcpyDeviceToHost, stream));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void DevicePanels::download_factor(double* f_host, cudaStream_t stream) const {
  if (f_) {
    if (nnz_f_ == 0) return;
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(f_host, f_, static_cast<size_t>(nnz_f_) * sizeof(double),
                                      cudaMemcpyDeviceToHost, stream));
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  // No F on the device: the panels come over and F is gathered from them here.
  if (!s_.factor_spelled_out())
    throw Error(Status::invalid_input, "CudaSupernodalLU: F's values asked of a schedule without F (spell_out_factor)");
  if (s_.supernodes.f_pos.empty()) return;
  std::vector<double> panels(static_cast<size_t>(values_));
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(panels.data(), args_.panels, panels.size() * sizeof(double),
                                    cudaMemcpyDeviceToHost, stream));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
  s_.supernodes.copy_factor_out(panels.data(), f_host);
}

}  // namespace gpuglu::cuda
