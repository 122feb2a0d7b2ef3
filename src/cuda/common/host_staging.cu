// HostStaging (host_staging.hpp): the pinned buffers and the copy rule.
#include "cuda/common/host_staging.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cuda/common/cuda_check.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

namespace {

// dst = src over `bytes`, in kStagingChunkBytes chunks taken in order by kStagingThreads - 1
// workers and the caller; after chunk c is copied, each(c, offset, length) runs on the
// caller's thread, in chunk order (the upload queues that chunk's DMA there).
template <class Each>
void copy_in_chunks(char* dst, const char* src, size_t bytes, Each each) {
  const size_t chunk = HostStaging::kStagingChunkBytes;
  const size_t count = (bytes + chunk - 1) / chunk;
  std::unique_ptr<std::atomic<bool>[]> done(new std::atomic<bool>[count]);
  for (size_t c = 0; c < count; ++c) done[c].store(false, std::memory_order_relaxed);
  std::atomic<size_t> next{0};
  // Takes the next chunk not yet taken and copies it; false once none is left.
  auto copy_next = [&] {
    const size_t c = next.fetch_add(1, std::memory_order_relaxed);
    if (c >= count) return false;
    const size_t offset = c * chunk;
    std::memcpy(dst + offset, src + offset, std::min(chunk, bytes - offset));
    done[c].store(true, std::memory_order_release);
    return true;
  };
  auto work = [&] {
    while (copy_next()) {
    }
  };
  std::vector<std::thread> workers;
  workers.reserve(HostStaging::kStagingThreads - 1);
  for (int t = 1; t < HostStaging::kStagingThreads; ++t) workers.emplace_back(work);
  // The caller queues each chunk once it is there, copying chunks itself while it waits.
  for (size_t c = 0; c < count; ++c) {
    while (!done[c].load(std::memory_order_acquire))
      if (!copy_next()) std::this_thread::yield();
    each(c, c * chunk, std::min(chunk, bytes - c * chunk));
  }
  for (std::thread& w : workers) w.join();
}

}  // namespace

void* HostStaging::pinned_bytes(size_t bytes, const char* what) {
  bytes = std::max<size_t>(bytes, 16);
  void* p = nullptr;
  const cudaError_t err = cudaMallocHost(&p, bytes);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    throw Error(Status::out_of_memory, "cudaMallocHost of " + std::to_string(bytes) + " bytes for " + what +
                                           " failed: " + cudaGetErrorString(err));
  }
  buffers_.push_back(p);
  return p;
}

void HostStaging::release() noexcept {
  for (void* p : buffers_) cudaFreeHost(p);
  buffers_.clear();
}

bool HostStaging::copies_directly(size_t bytes) const {
  switch (rule_) {
    case Staging::pinned:
      return false;
    case Staging::direct:
      return true;
    case Staging::automatic:
    default:
      return bytes >= kDirectCopyBytes && bytes < kParallelStagingBytes;
  }
}

void HostStaging::upload(void* dev, const void* host, void* pinned, size_t bytes, cudaStream_t stream) const {
  if (bytes == 0) return;
  if (copies_directly(bytes)) {
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, stream));
    return;
  }
  if (bytes < kParallelStagingBytes) {
    std::memcpy(pinned, host, bytes);
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(dev, pinned, bytes, cudaMemcpyHostToDevice, stream));
    return;
  }
  char* d = static_cast<char*>(dev);
  char* p = static_cast<char*>(pinned);
  copy_in_chunks(p, static_cast<const char*>(host), bytes, [&](size_t, size_t offset, size_t length) {
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(d + offset, p + offset, length, cudaMemcpyHostToDevice, stream));
  });
}

void HostStaging::download(void* host, const void* dev, void* pinned, size_t bytes, cudaStream_t stream) const {
  if (bytes == 0) {
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  const bool direct = copies_directly(bytes);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(direct ? host : pinned, dev, bytes, cudaMemcpyDeviceToHost, stream));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (direct) return;
  if (bytes < kParallelStagingBytes)
    std::memcpy(host, pinned, bytes);
  else
    copy_in_chunks(static_cast<char*>(host), static_cast<const char*>(pinned), bytes, [](size_t, size_t, size_t) {});
}

}  // namespace gpuglu::cuda
