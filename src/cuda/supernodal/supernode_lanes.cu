// SupernodeLanes (supernode_lanes.hpp).
#include "cuda/supernodal/supernode_lanes.hpp"

#include <algorithm>

#include "cuda/common/cuda_check.hpp"

namespace gpuglu::cuda {

SupernodeLanes::SupernodeLanes(const SupernodalPlan& plan, const kernels::SupernodeArgs& a, bool dense, int max_lanes,
                               DeviceMemory& mem, cudaStream_t stream)
    : stream_(stream), dense_(dense && plan.blocked_nodes > 0) {
  if (plan.gemm_nodes == 0 && plan.blocked_nodes == 0) return;
  size_t widest = 1;
  for (const SupernodalPlan::Level& lv : plan.levels) widest = std::max({widest, lv.blocked.size(), lv.gemm.size()});
  const size_t count = std::min(widest, static_cast<size_t>(std::max(max_lanes, 1)));
  lanes_.resize(count);
  // Each lane's GEMM workspace for the complements spread() deals it (i % used): a lane that
  // never takes the root does not hold the root's chunk.
  std::vector<int64_t> workspace(count, 0);
  for (const SupernodalPlan::Level& lv : plan.levels) {
    const size_t used = std::min(lv.gemm.size(), count);
    for (size_t i = 0; i < lv.gemm.size(); ++i) {
      const GemmNode& g = lv.gemm[i];
      workspace[i % used] = std::max(workspace[i % used], (g.nr - g.ns) * g.chunk);
    }
  }
  for (size_t i = 0; i < count; ++i) {
    Lane& l = lanes_[i];
    if (i == 0) {
      l.stream = stream;
    } else {
      GPUGLU_CUDA_CHECK(cudaStreamCreateWithFlags(&l.stream, cudaStreamNonBlocking));
      GPUGLU_CUDA_CHECK(cudaEventCreateWithFlags(&l.done, cudaEventDisableTiming));
    }
    l.gemm = std::make_unique<SchurGemm>(workspace[i], mem, l.stream);
    if (dense_) l.dense = std::make_unique<DensePanelLU>(plan, a, mem, l.stream);
  }
  if (count > 1) GPUGLU_CUDA_CHECK(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming));
}

SupernodeLanes::~SupernodeLanes() {
  // Best effort, nothing may throw: the handles go before the streams they run on.
  for (size_t i = 0; i < lanes_.size(); ++i) {
    Lane& l = lanes_[i];
    if (l.stream) cudaStreamSynchronize(l.stream);
    l.dense.reset();
    l.gemm.reset();
    if (i > 0) {
      if (l.done) cudaEventDestroy(l.done);
      if (l.stream) cudaStreamDestroy(l.stream);
    }
  }
  if (fork_) cudaEventDestroy(fork_);
}

template <class F>
void SupernodeLanes::spread(size_t count, F f) {
  const size_t used = std::min(count, lanes_.size());
  if (used <= 1) {
    for (size_t i = 0; i < count; ++i) f(lanes_[0], i);
    return;
  }
  GPUGLU_CUDA_CHECK(cudaEventRecord(fork_, stream_));
  for (size_t k = 1; k < used; ++k) GPUGLU_CUDA_CHECK(cudaStreamWaitEvent(lanes_[k].stream, fork_, 0));
  for (size_t i = 0; i < count; ++i) f(lanes_[i % used], i);
  for (size_t k = 1; k < used; ++k) {
    GPUGLU_CUDA_CHECK(cudaEventRecord(lanes_[k].done, lanes_[k].stream));
    GPUGLU_CUDA_CHECK(cudaStreamWaitEvent(stream_, lanes_[k].done, 0));
  }
}

void SupernodeLanes::factor_blocked(const kernels::SupernodeArgs& a, const std::vector<BlockedNode>& nodes) {
  spread(nodes.size(), [&](Lane& l, size_t i) {
    if (dense_) {
      l.dense->factor(a, nodes[i]);
      l.gemm->solve_ut(a, nodes[i]);
    } else {
      l.gemm->factor_blocked(a, nodes[i]);
    }
  });
}

void SupernodeLanes::subtract_complements(const kernels::SupernodeArgs& a, const std::vector<GemmNode>& nodes) {
  spread(nodes.size(), [&](Lane& l, size_t i) { l.gemm->enqueue(a, nodes[i]); });
}

void SupernodeLanes::drop_dense() noexcept {
  for (Lane& l : lanes_) {
    if (l.stream) cudaStreamSynchronize(l.stream);
    l.dense.reset();
  }
  dense_ = false;
}

}  // namespace gpuglu::cuda
