#pragma once
// How the caller's pageable host arrays reach the device and come back (Options::cuda.staging):
// through a page-locked (pinned) buffer, a host memcpy and one DMA one after the other, or
// straight from pageable memory, which the driver stages itself in pipelined chunks that
// overlap the host copy with the DMA. automatic copies arrays from kDirectCopyBytes on
// directly (the measured crossover: docs/performance.md, ILU-GMRES), and from
// kParallelStagingBytes on through the pinned buffer again, its host copy split in chunks
// over kStagingThreads threads with each chunk's DMA queued as soon as it is copied: the
// driver's staging of a large pageable array runs at one thread's memcpy speed, which made A's
// upload a third of a large split refactorization (docs/performance.md, "Several GPUs"). The
// pinned buffers (also the small ones read back after a synchronization) are owned here.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "gpuglu/options.hpp"

namespace gpuglu::cuda {

class HostStaging {
 public:
  static constexpr size_t kDirectCopyBytes = size_t{1} << 20;
  static constexpr size_t kParallelStagingBytes = size_t{32} << 20;
  static constexpr size_t kStagingChunkBytes = size_t{4} << 20;
  static constexpr int kStagingThreads = 4;

  explicit HostStaging(Staging rule) : rule_(rule) {}
  ~HostStaging() { release(); }
  HostStaging(const HostStaging&) = delete;
  HostStaging& operator=(const HostStaging&) = delete;

  // A pinned buffer of count T (at least 16 bytes), freed with this object; a failed
  // cudaMallocHost throws Error(out_of_memory) naming the bytes and `what`.
  template <class T>
  T* pinned(size_t count, const char* what) {
    return static_cast<T*>(pinned_bytes(count * sizeof(T), what));
  }

  // Whether `bytes` go without a pinned buffer (the callers allocate one where not).
  bool copies_directly(size_t bytes) const;
  // host -> dev, asynchronous on stream (host may be reused once the call returns when
  // staged; a direct copy from pageable memory returns once the driver holds the data).
  // pinned: a buffer of at least `bytes` from pinned(). Untyped: the engines stage real and
  // complex values alike.
  void upload(void* dev, const void* host, void* pinned, size_t bytes, cudaStream_t stream) const;
  // dev -> host, synchronous: host holds the values on return, and everything enqueued on
  // stream before has finished (bytes == 0: only the synchronization).
  void download(void* host, const void* dev, void* pinned, size_t bytes, cudaStream_t stream) const;

  void release() noexcept;  // frees the pinned buffers (the owner's device current)

 private:
  void* pinned_bytes(size_t bytes, const char* what);

  Staging rule_;
  std::vector<void*> buffers_;
};

}  // namespace gpuglu::cuda
