// The split's device path (api/split_device.hpp) on the CUDA backend: the buffers on both
// devices, the value loads, and the solve that DeviceRefinement refines.
#include <array>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "api/both_halves.hpp"
#include "api/split_device.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/device_solve.hpp"
#include "cuda/common/host_staging.hpp"
#include "cuda/engine/device_refinement.hpp"
#include "cuda/split/split_kernels.cuh"

namespace gpuglu::api {

namespace {

using cuda::DeviceMemory;
using cuda::DeviceScope;

// Copies between the two GPUs go straight over their link where they have one; without peer
// access the driver stages them through the host, and nothing here needs more. Access is
// enabled once per ordered pair and process: the runtime reports a second time as an error.
void enable_peer_access(int from, int to) {
  if (from == to) return;
  static std::mutex mutex;
  static std::set<std::pair<int, int>> enabled;
  std::lock_guard<std::mutex> lock(mutex);
  if (!enabled.insert({from, to}).second) return;
  int can = 0;
  GPUGLU_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, from, to));
  if (!can) return;
  DeviceScope scope(from);
  const cudaError_t err = cudaDeviceEnablePeerAccess(to, 0);
  if (err == cudaErrorPeerAccessAlreadyEnabled) {  // by another library of the process
    (void)cudaGetLastError();
    return;
  }
  GPUGLU_CUDA_CHECK(err);
}

class CudaSplitPath final : public SplitDevicePath, private cuda::DeviceSolve {
 public:
  CudaSplitPath(const SplitPartition& p, const std::array<SplitHalf, 2>& halves, PatternRef a,
                std::array<int32_t, 2> devices, Staging staging)
      : devices_(devices), n_(p.n), nnz_(a.rowptr ? a.rowptr[a.n] : 0), staging_(staging) {
    enable_peer_access(devices_[0], devices_[1]);
    enable_peer_access(devices_[1], devices_[0]);
    const SplitVectorMaps maps = split_vector_maps(p, halves);
    {
      DeviceScope scope(devices_[1]);
      m_values_[1] = mem1_.allocate<double>(halves[1].source.size(), "half 1's values");
      in_[1] = mem1_.allocate<double>(static_cast<size_t>(halves[1].size()), "half 1's right-hand side");
      out_[1] = mem1_.allocate<double>(static_cast<size_t>(halves[1].size()), "half 1's solution");
    }
    DeviceScope scope(devices_[0]);
    GPUGLU_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    a_values_ = mem0_.allocate<double>(static_cast<size_t>(nnz_), "A's values");
    for (int d = 0; d < 2; ++d) {
      half_size_[d] = halves[d].size();
      value_count_[d] = static_cast<int64_t>(halves[d].source.size());
      value_source_[d] = mem0_.upload(halves[d].source, "a half's value positions in A");
      written_[d] = static_cast<int64_t>(maps.out[d][0].size());  // either direction's
      for (int t = 0; t < 2; ++t) {
        in_map_[d][t] = mem0_.upload(maps.in[d][t], "a half's right-hand side map");
        out_map_[d][t] = mem0_.upload(maps.out[d][t], "a half's solution map");
      }
    }
    m_values_[0] = mem0_.allocate<double>(static_cast<size_t>(value_count_[0]), "half 0's values");
    in_[0] = mem0_.allocate<double>(static_cast<size_t>(half_size_[0]), "half 0's right-hand side");
    out_[0] = mem0_.allocate<double>(static_cast<size_t>(half_size_[0]), "half 0's solution");
    // Half 1's values and vectors pass through the first device on their way.
    values_stage_ = mem0_.allocate<double>(static_cast<size_t>(value_count_[1]), "half 1's values (staged)");
    vector_stage_ = mem0_.allocate<double>(static_cast<size_t>(half_size_[1]), "half 1's vectors (staged)");
    refinement_ = std::make_unique<cuda::DeviceRefinement>(n_, nnz_, a, a_values_, mem0_, staging_, stream_);
  }

  ~CudaSplitPath() override {
    {
      cuda::ReleaseScope scope(devices_[0]);
      if (stream_) cudaStreamSynchronize(stream_);
      refinement_.reset();
      staging_.release();
      mem0_.release();
      if (stream_) cudaStreamDestroy(stream_);
    }
    cuda::ReleaseScope scope(devices_[1]);
    mem1_.release();
  }

  void load(const double* a_values) override {
    DeviceScope scope(devices_[0]);
    const size_t bytes = static_cast<size_t>(nnz_) * sizeof(double);
    if (!staging_.copies_directly(bytes) && !values_pinned_)
      values_pinned_ = staging_.pinned<double>(static_cast<size_t>(nnz_), "A's values (staging)");
    staging_.upload(a_values_, a_values, values_pinned_, bytes, stream_);
    cuda::kernels::launch_gather_or_zero(value_count_[0], value_source_[0], a_values_, m_values_[0], stream_);
    cuda::kernels::launch_gather_or_zero(value_count_[1], value_source_[1], a_values_, values_stage_, stream_);
    to_half_1(m_values_[1], values_stage_, value_count_[1]);
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  const double* half_values(int d) const override { return m_values_[d]; }
  SplitSolveTimes solve_times() const override { return times_; }

  EngineSolveResult solve(const std::array<BasicSparseSolver<double>*, 2>& halves, DenseRoot& root, const double* b,
                          double* x,
                          bool transpose, int32_t max_steps, const RefineTarget& target) override {
    halves_ = halves;
    root_ = &root;
    times_ = SplitSolveTimes();
    DeviceScope scope(devices_[0]);
    return refinement_->solve(*this, b, x, transpose, max_steps, target);
  }

 private:
  void to_half_1(double* dst, const double* src, int64_t count) {
    if (count > 0)
      GPUGLU_CUDA_CHECK(
          cudaMemcpyAsync(dst, src, static_cast<size_t>(count) * sizeof(double), cudaMemcpyDefault, stream_));
  }

  // out = op(A)^{-1} in, both on the first device: the refinement's solve. The halves run on
  // their own streams and threads, so the caller's stream is drained first and the last
  // step (the scatter into out) is left on it.
  void solve_device(const double* in, double* out, bool transpose) override {
    const int t = transpose ? 1 : 0;
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
    auto last = std::chrono::steady_clock::now();
    auto lap = [&last](double& into) {
      const auto now = std::chrono::steady_clock::now();
      into += std::chrono::duration<double, std::milli>(now - last).count();
      last = now;
    };
    ++times_.passes;
    cuda::kernels::launch_gather_or_zero(half_size_[0], in_map_[0][t], in, in_[0], stream_);
    cuda::kernels::launch_gather_or_zero(half_size_[1], in_map_[1][t], in, vector_stage_, stream_);
    to_half_1(in_[1], vector_stage_, half_size_[1]);
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
    lap(times_.move_ms);
    run_both_halves([&](int d) { halves_[d]->condense_device(in_[d], root_->device_rhs(d), transpose); });
    lap(times_.condense_ms);
    root_->solve_device_rhs(transpose);
    lap(times_.root_ms);
    const double* x_s = root_->device_rhs(0);
    run_both_halves([&](int d) { halves_[d]->expand_device(x_s, out_[d], transpose); });
    lap(times_.expand_ms);
    if (written_[1] > 0)
      GPUGLU_CUDA_CHECK(cudaMemcpyAsync(vector_stage_, out_[1], static_cast<size_t>(written_[1]) * sizeof(double),
                                        cudaMemcpyDefault, stream_));
    cuda::kernels::launch_scatter(written_[0], out_map_[0][t], out_[0], out, stream_);
    cuda::kernels::launch_scatter(written_[1], out_map_[1][t], vector_stage_, out, stream_);
  }

  std::array<int32_t, 2> devices_;
  int32_t n_;
  int64_t nnz_;
  DeviceMemory mem0_{"the split's first device"}, mem1_{"the split's second device"};
  cuda::HostStaging staging_;
  cudaStream_t stream_ = nullptr;  // the first device's
  double* a_values_ = nullptr;
  double* values_pinned_ = nullptr;
  std::array<int32_t, 2> half_size_{};
  std::array<int64_t, 2> value_count_{}, written_{};
  std::array<const int64_t*, 2> value_source_{};
  std::array<std::array<const int64_t*, 2>, 2> in_map_{}, out_map_{};
  std::array<double*, 2> m_values_{}, in_{}, out_{};
  double* values_stage_ = nullptr;
  double* vector_stage_ = nullptr;
  std::unique_ptr<cuda::DeviceRefinement> refinement_;
  std::array<BasicSparseSolver<double>*, 2> halves_{};
  DenseRoot* root_ = nullptr;
  SplitSolveTimes times_;
};

}  // namespace

}  // namespace gpuglu::api

namespace gpuglu::cuda_entry {

std::unique_ptr<api::SplitDevicePath> make_split_device_path(const api::SplitPartition& p,
                                                             const std::array<api::SplitHalf, 2>& halves,
                                                             PatternRef a, std::array<int32_t, 2> devices,
                                                             Staging staging) {
  return std::make_unique<api::CudaSplitPath>(p, halves, a, devices, staging);
}

}  // namespace gpuglu::cuda_entry
