#pragma once
// Stream capture into an instantiated, uploaded CUDA graph, shared by the LU level loop and
// the level-scheduled triangular solves: both enqueue a launch per level (thousands) and
// replay them as one graph; and by the supernodal LDL^T's factorization (ReplayedLaunches). A
// failure while capturing ends the capture and throws.
#include <cuda_runtime.h>

#include "cuda/common/cuda_check.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

// enqueue(stream) puts the work on stream; *graph and *exec receive the result (the caller
// destroys them; CapturedGraph below does).
template <class Enqueue>
void capture_graph(cudaStream_t stream, Enqueue&& enqueue, cudaGraph_t* graph, cudaGraphExec_t* exec) {
  GPUGLU_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  try {
    enqueue(stream);
  } catch (...) {
    cudaGraph_t broken = nullptr;
    cudaStreamEndCapture(stream, &broken);
    if (broken) cudaGraphDestroy(broken);
    (void)cudaGetLastError();  // the capture's error is not the caller's next call's
    throw;
  }
  GPUGLU_CUDA_CHECK(cudaStreamEndCapture(stream, graph));
  GPUGLU_CUDA_CHECK(cudaGraphInstantiate(exec, *graph, 0));
  GPUGLU_CUDA_CHECK(cudaGraphUpload(*exec, stream));
}

// A captured graph and its instantiation, owned: destroyed with this object (or by
// reset(), which an owner calls while its device is current).
class CapturedGraph {
 public:
  CapturedGraph() = default;
  ~CapturedGraph() { reset(); }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  template <class Enqueue>
  void capture(cudaStream_t stream, Enqueue&& enqueue) {
    reset();
    capture_graph(stream, enqueue, &graph_, &exec_);
  }
  void launch(cudaStream_t stream) const { GPUGLU_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }
  bool captured() const noexcept { return exec_ != nullptr; }
  void reset() noexcept {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    exec_ = nullptr;
    graph_ = nullptr;
  }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// A factorization's launches (kernels, cuBLAS and cuSOLVER calls, forks to other streams
// joined back) replayed as one CUDA graph from their second enqueue under the same key on: a
// one-shot factorization pays no capture, a refactorization loop pays one. The graph is
// captured again when the key changes or the owner says what it launches changed
// (invalidate()); a capture that fails (a call that cannot be captured) leaves the plain
// launches for good. Key: what the launches' arguments depend on (a PivotRule).
template <class Key>
class ReplayedLaunches {
 public:
  explicit ReplayedLaunches(bool enabled) : enabled_(enabled) {}

  template <class Enqueue>
  void run(cudaStream_t stream, const Key& key, Enqueue&& enqueue) {
    const bool again = seen_ && key == key_;
    if (!enabled_ || !again) {
      if (!again) graph_.reset();
      key_ = key;
      seen_ = true;
      enqueue(stream);
      return;
    }
    if (!graph_.captured()) {
      try {
        graph_.capture(stream, [&](cudaStream_t s) { enqueue(s); });
      } catch (const Error&) {
        graph_.reset();
        enabled_ = false;
        enqueue(stream);
        return;
      }
    }
    graph_.launch(stream);
  }
  // What the launches do changed (not their key): the next run goes plain, then captures.
  void invalidate() noexcept {
    graph_.reset();
    seen_ = false;
  }

 private:
  bool enabled_;
  bool seen_ = false;
  Key key_{};
  CapturedGraph graph_;
};

}  // namespace gpuglu::cuda
