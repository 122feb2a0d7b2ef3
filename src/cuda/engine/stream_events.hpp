#pragma once
// A few CUDA events recorded on an engine's stream to time what runs between them; created
// on the current device, destroyed with the object (best effort, under the owner's
// ReleaseScope).
#include <cuda_runtime.h>

#include <array>

#include "cuda/common/cuda_check.hpp"

namespace gpuglu::cuda {

template <size_t N>
class StreamEvents {
 public:
  StreamEvents() {
    try {
      for (cudaEvent_t& e : events_) GPUGLU_CUDA_CHECK(cudaEventCreate(&e));
    } catch (...) {
      destroy();
      throw;
    }
  }
  ~StreamEvents() { destroy(); }
  StreamEvents(const StreamEvents&) = delete;
  StreamEvents& operator=(const StreamEvents&) = delete;

  void record(size_t i, cudaStream_t stream) { GPUGLU_CUDA_CHECK(cudaEventRecord(events_[i], stream)); }
  // Milliseconds from event `from` to event `to`, both recorded and complete.
  float ms(size_t from, size_t to) const {
    float out = 0.0f;
    GPUGLU_CUDA_CHECK(cudaEventElapsedTime(&out, events_[from], events_[to]));
    return out;
  }

 private:
  void destroy() noexcept {
    for (cudaEvent_t e : events_)
      if (e) cudaEventDestroy(e);
  }
  std::array<cudaEvent_t, N> events_{};
};

}  // namespace gpuglu::cuda
