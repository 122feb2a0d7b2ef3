// cuda::compute_levels_on_device: uploads what Kahn's algorithm reads, runs it
// (kahn_kernels.cu), sorts jlev, and brings the levels back (the split and its costs are
// explained in trsv_levels.hpp).
#include "cuda/trsv/trsv_levels.hpp"

#include <cuda_runtime.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/engine/device_facts.hpp"
#include "cuda/trsv/kahn_kernels.cuh"
#include "cuda/trsv/kahn_shape.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {
namespace {

// The call's stream and the events that split its time; released on every path.
class Timeline {
 public:
  static constexpr int kMarks = 5;  // start, uploaded, levels found, sorted, downloaded
  Timeline() {
    try {
      GPUGLU_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
      for (cudaEvent_t& e : events_) GPUGLU_CUDA_CHECK(cudaEventCreate(&e));
    } catch (...) {
      release();
      throw;
    }
  }
  ~Timeline() { release(); }
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  cudaStream_t stream() const { return stream_; }
  void mark(int i) { GPUGLU_CUDA_CHECK(cudaEventRecord(events_[i], stream_)); }
  double ms(int from, int to) const {
    float t = 0;
    GPUGLU_CUDA_CHECK(cudaEventElapsedTime(&t, events_[from], events_[to]));
    return t;
  }
  void synchronize() { GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  void release() noexcept {
    for (cudaEvent_t& e : events_) {
      if (e) cudaEventDestroy(e);
      e = nullptr;
    }
    if (stream_) cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }

  cudaStream_t stream_ = nullptr;
  cudaEvent_t events_[kMarks] = {};
};

template <class T>
T* upload(DeviceMemory& mem, const std::vector<T>& v, const char* what, cudaStream_t stream) {
  T* p = mem.allocate<T>(v.size(), what);
  if (!v.empty()) GPUGLU_CUDA_CHECK(cudaMemcpyAsync(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
  return p;
}

template <class T>
void download(std::vector<T>& v, const T* p, size_t count, cudaStream_t stream) {
  v.resize(count);
  if (count > 0) GPUGLU_CUDA_CHECK(cudaMemcpyAsync(v.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
}

[[noreturn]] void reject(const std::string& what) {
  throw Error(Status::invalid_input, "GPU level analysis: " + what);
}

// The device to run on; no_device (not a generic CUDA error) where there is none.
int resolve_device(int ordinal) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    throw Error(Status::no_device, std::string("GPU level analysis: no CUDA device (") +
                                       (err != cudaSuccess ? cudaGetErrorString(err) : "none present") + ")");
  }
  if (ordinal >= count)
    throw Error(Status::no_device, "GPU level analysis: CUDA device " + std::to_string(ordinal) +
                                       " requested but only " + std::to_string(count) + " present");
  int device = ordinal;
  if (device < 0) GPUGLU_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

// Bits that hold every value in [0, max_value]; at least 1.
int32_t bits_for(int32_t max_value) {
  int32_t bits = 1;
  while (bits < 31 && (max_value >> bits) != 0) ++bits;
  return bits;
}

}  // namespace

void compute_levels_on_device(const trsv::TriangleView& t, trsv::TrsvAnalysis& a, int device_ordinal,
                              DeviceLevelStats* stats, const KahnTuning& tuning) {
  const auto started = std::chrono::steady_clock::now();
  trsv::check_dependencies(t, a);  // the kernel trusts a's counts and CSC
  const int32_t n = a.n;
  if (stats) *stats = DeviceLevelStats{};
  if (n == 0) {  // no levels to find: the device is not needed
    trsv::compute_levels(t, a);
    return;
  }
  int device = resolve_device(device_ordinal);
  DeviceScope scope(device);
  const DeviceFacts& facts = device_facts(device);
  if (!facts.cooperative_launch)
    throw Error(Status::unsupported, "GPU level analysis: CUDA device " + std::to_string(device) +
                                         " does not support cooperative launches; use the CPU level analysis");
  const kahn::Shape shape =
      kahn::choose_shape(n, a.offdiag_nnz, facts.sm_count, kahn::max_blocks_per_sm(), tuning.blocks_per_sm,
                         tuning.narrow_rows);

  DeviceMemory mem("the GPU level analysis");
  Timeline tl;
  const cudaStream_t stream = tl.stream();
  const size_t un = static_cast<size_t>(n);
  kahn::Graph g;
  kahn::Work w;
  g.n = n;
  // Everything but the sort's buffer (its size depends on the level count) is allocated
  // before the first copy.
  w.indegree = mem.allocate<int32_t>(un, "the in-degree counters");
  w.queue = mem.allocate<int32_t>(un, "the frontier queue");
  w.level = mem.allocate<int32_t>(un, "the levels");
  w.level_ptr = mem.allocate<int32_t>(un + 2, "the level pointers");
  w.level_count = mem.allocate<int32_t>(un + 2, "the per-level row counts");
  w.state = mem.allocate<int32_t>(kahn::kStateWords, "the level kernel's state");
  int32_t* jlev = mem.allocate<int32_t>(un, "the rows by level (jlev)");

  tl.mark(0);
  g.colptr = upload(mem, a.csc_colptr, "the column pointers", stream);
  g.rowind = upload(mem, a.csc_rowind, "the column row indices", stream);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(w.indegree, a.dep_count.data(), un * sizeof(int32_t), cudaMemcpyHostToDevice,
                                    stream));
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(w.level_count, 0, (un + 2) * sizeof(int32_t), stream));
  // Levels and level pointers start as -1, so an entry the kernel failed to write can never
  // pass for a right one left in recycled memory (a few microseconds against milliseconds).
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(w.level, 0xFF, un * sizeof(int32_t), stream));
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(w.level_ptr, 0xFF, (un + 2) * sizeof(int32_t), stream));
  tl.mark(1);
  kahn::launch_levels(g, w, shape, stream);
  tl.mark(2);
  int32_t state[kahn::kStateWords] = {};
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(state, w.state, sizeof(state), cudaMemcpyDeviceToHost, stream));
  tl.synchronize();
  const int32_t levels = state[kahn::kStateLevels];
  const int32_t placed = state[kahn::kStatePlaced];
  if (placed != n || levels < 1 || levels > n)
    reject("Kahn's algorithm placed " + std::to_string(placed) + " of " + std::to_string(n) + " rows in " +
           std::to_string(levels) + " levels: the dependency counts and CSC do not describe an acyclic graph "
           "(not trsv::analyze_dependencies() of this triangle?)");

  // The queue (no longer needed) becomes the sort's 0..n-1 and the counters (all zero now)
  // its sorted keys.
  const int32_t level_bits = bits_for(levels - 1);
  size_t temp_bytes = 0;
  kahn::sort_rows_by_level(n, w.level, level_bits, w.queue, w.indegree, jlev, nullptr, temp_bytes, stream);
  void* temp = mem.allocate_bytes(temp_bytes, "the level sort's buffer");
  kahn::sort_rows_by_level(n, w.level, level_bits, w.queue, w.indegree, jlev, temp, temp_bytes, stream);
  tl.mark(3);
  download(a.level, w.level, un, stream);
  download(a.jlev, jlev, un, stream);
  download(a.level_ptr, w.level_ptr, static_cast<size_t>(levels) + 1, stream);
  tl.mark(4);
  tl.synchronize();
  a.num_levels = levels;
  a.max_level_rows = trsv::widest_level(a.level_ptr);

  if (stats) {
    stats->upload_ms = tl.ms(0, 1);
    stats->kahn_ms = tl.ms(1, 2);
    stats->sort_ms = tl.ms(2, 3);
    stats->download_ms = tl.ms(3, 4);
    stats->blocks = shape.blocks;
    stats->group = shape.group;
    stats->narrow_rows = shape.narrow_rows;
    stats->device_bytes = mem.bytes();
    stats->total_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  }
}

trsv::TrsvAnalysis analyze_with_device_levels(const trsv::TriangleView& t, int device_ordinal,
                                              DeviceLevelStats* stats, const KahnTuning& tuning) {
  trsv::TrsvAnalysis a = trsv::analyze_dependencies(t);
  compute_levels_on_device(t, a, device_ordinal, stats, tuning);
  return a;
}

}  // namespace gpuglu::cuda
