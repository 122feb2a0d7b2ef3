// Kahn's algorithm for the levels of a sparse triangular solve, in one cooperative kernel
// (R. Li, Sec. 4.4.1, whose FIND_LEVEL0 / FIND_LEVEL pair this keeps: in-degree counters,
// a queue that is the concatenation of the frontiers, a counter that appends to it).
//
// Li launches FIND_LEVEL once per level and copies the queue's end back to the host to
// size the next launch: a launch plus a device-to-host round trip per level. Here the grid
// stays resident (a cooperative launch) and the frontier's bounds stay on the device: a
// grid barrier separates two frontiers, and a narrow frontier is processed by block 0
// alone, levels separated by __syncthreads(), while the other blocks wait at the next grid
// barrier (kahn_shape.hpp says when). The host sees one launch and one copy of the result.
//
// Correctness. Each row's counter starts at its dependency count and is decremented once
// per dependency, when that dependency's frontier is processed; the decrement that reaches
// zero (atomicSub returns 1) happens exactly once, in the frontier of the row's last
// dependency, so the row joins the next frontier exactly once with level = 1 + the largest
// level among its dependencies: the longest-path level trsv::compute_levels computes. The
// order within a frontier depends on atomics and is not used: jlev comes from a stable
// sort of the rows by level (sort_rows_by_level), so it is identical to the CPU's.
//
// Memory ordering. Frontier entries and level counts written before a grid barrier are read
// after it by other blocks with __ldcg (L2, never a stale L1 line); grid.sync() releases and
// acquires at GPU scope. Within block 0's narrow levels, __syncthreads() orders the shared
// frontier and counter.
#include <cooperative_groups.h>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>

#include "cuda/common/cuda_check.hpp"
#include "cuda/trsv/kahn_kernels.cuh"

namespace gpuglu::cuda::kahn {
namespace {

namespace cg = cooperative_groups;

constexpr unsigned kFullWarp = 0xffffffffu;
constexpr int kHandLevel = 2, kHandFirst = 3, kHandLast = 4;  // state words of block 0's hand-over

// The warp's rows that became ready go to queue[base + count .. ), one atomicAdd per warp.
// Every lane of the warp calls it (a ballot).
__device__ __forceinline__ void append_ready(bool ready, int32_t row, int32_t row_level, int32_t base,
                                             int32_t* count, const Work& w) {
  const unsigned mask = __ballot_sync(kFullWarp, ready);
  if (mask == 0) return;
  const unsigned lane = threadIdx.x & 31u;
  const int leader = __ffs(mask) - 1;
  int32_t offset = 0;
  if (static_cast<int>(lane) == leader) offset = atomicAdd(count, __popc(mask));
  offset = __shfl_sync(kFullWarp, offset, leader);
  if (ready) {
    const int32_t pos = base + offset + __popc(mask & ((1u << lane) - 1u));
    w.queue[pos] = row;
    w.level[row] = row_level;
  }
}

// Frontier queue[first, last) (level lev) on the whole grid: `group` lanes per row walk its
// column and decrement the dependents' counters; the rows that reach zero form level lev + 1.
__device__ void wide_level(const Graph& g, const Work& w, int32_t group, int32_t lev, int32_t first, int32_t last) {
  const int32_t lane = static_cast<int32_t>(threadIdx.x & 31u);
  const int64_t warp = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int64_t warps = (static_cast<int64_t>(gridDim.x) * blockDim.x) >> 5;
  const int32_t per_warp = 32 / group;
  const int32_t slot = lane / group;
  const int32_t sub = lane % group;
  int32_t* const count = &w.level_count[lev + 1];
  for (int64_t p0 = first + warp * per_warp; p0 < last; p0 += warps * per_warp) {  // warp-uniform
    const int64_t p = p0 + slot;
    int64_t k = 0, e = 0;
    if (p < last) {
      const int32_t r = __ldcg(&w.queue[p]);
      k = g.colptr[r] + sub;
      e = g.colptr[r + 1];
    }
    while (__any_sync(kFullWarp, k < e)) {
      bool ready = false;
      int32_t d = 0;
      if (k < e) {
        d = g.rowind[k];
        ready = atomicSub(&w.indegree[d], 1) == 1;
        k += group;
      }
      append_ready(ready, d, lev + 1, last, count, w);
    }
  }
}

// Block 0 alone: frontiers of at most narrow_rows rows, one after another, from shared
// memory, until one is wider (or none is left). Updates lev / first / last and level_ptr,
// and leaves them in w.state for the other blocks.
//
// A narrow level is a chain of dependent memory round trips (column range, its row indices,
// the decrement), so the shared frontier holds each row's column range rather than the row,
// and the lanes load a dependent's range in flight with its decrement: a row that becomes
// ready brings its range along, one round trip fewer per level. The range is stored whether
// or not the row became ready (into the thread's own spare slot when not): a range used
// only when ready is loaded after the decrement returns (ptxas sinks the loads into that
// branch; measured: no gain), which is the round trip this is meant to save.
__device__ void narrow_levels(const Graph& g, const Work& w, int32_t group, int32_t narrow_rows, int32_t& lev,
                              int32_t& first, int32_t& last) {
  constexpr int32_t kSlots = kNarrowCapacity + kBlock;  // the frontier, then one spare slot a thread
  __shared__ int64_t col_begin[2][kSlots];
  __shared__ int32_t col_len[2][kSlots];
  __shared__ int32_t found_count;  // rows found so far in the next frontier
  __shared__ int32_t found_final;
  for (int32_t p = threadIdx.x; p < last - first; p += blockDim.x) {
    const int32_t r = __ldcg(&w.queue[first + p]);
    const int64_t b = g.colptr[r];
    col_begin[0][p] = b;
    col_len[0][p] = static_cast<int32_t>(g.colptr[r + 1] - b);
  }
  if (threadIdx.x == 0) found_count = 0;
  __syncthreads();
  const int32_t slots = static_cast<int32_t>(blockDim.x) / group;
  const int32_t sub = static_cast<int32_t>(threadIdx.x) % group;
  const int32_t spare = kNarrowCapacity + static_cast<int32_t>(threadIdx.x);
  int cur = 0;
  while (true) {
    const int32_t width = last - first;
    for (int32_t p = static_cast<int32_t>(threadIdx.x) / group; p < width; p += slots) {
      const int64_t b = col_begin[cur][p];
      const int32_t len = col_len[cur][p];
      for (int32_t j = sub; j < len; j += group) {
        const int32_t d = g.rowind[b + j];
        const int64_t d_begin = __ldg(&g.colptr[d]);
        const int64_t d_end = __ldg(&g.colptr[d + 1]);
        int32_t slot = spare;
        if (atomicSub(&w.indegree[d], 1) == 1) {
          const int32_t q = atomicAdd(&found_count, 1);
          w.queue[last + q] = d;
          w.level[d] = lev + 1;
          if (q < kNarrowCapacity) slot = q;
        }
        col_begin[cur ^ 1][slot] = d_begin;
        col_len[cur ^ 1][slot] = static_cast<int32_t>(d_end - d_begin);
      }
    }
    __syncthreads();  // the next frontier is complete
    if (threadIdx.x == 0) {
      found_final = found_count;
      found_count = 0;
      w.level_ptr[lev + 2] = last + found_final;
    }
    __syncthreads();  // everyone sees found_final; the counter is reset before new appends
    const int32_t found = found_final;
    first = last;
    last += found;
    ++lev;
    cur ^= 1;
    if (found == 0 || last == g.n || found > narrow_rows) break;
  }
  if (threadIdx.x == 0) {
    w.state[kHandLevel] = lev;
    w.state[kHandFirst] = first;
    w.state[kHandLast] = last;
  }
}

__global__ void __launch_bounds__(kBlock) levels_kernel(Graph g, Work w, int32_t group, int32_t narrow_rows) {
  cg::grid_group grid = cg::this_grid();
  const int32_t n = g.n;
  // Level 0 (Li's FIND_LEVEL0): the rows that depend on nothing.
  {
    const int64_t lanes = static_cast<int64_t>(gridDim.x) * blockDim.x;
    const int64_t warp_base = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) & ~int64_t{31};
    for (int64_t base = warp_base; base < n; base += lanes) {  // warp-uniform
      const int64_t i = base + (threadIdx.x & 31u);
      const bool root = i < n && w.indegree[i] == 0;
      append_ready(root, static_cast<int32_t>(i), 0, 0, &w.level_count[0], w);
    }
  }
  grid.sync();
  int32_t lev = 0, first = 0, last = __ldcg(&w.level_count[0]);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    w.level_ptr[0] = 0;
    w.level_ptr[1] = last;
  }
  // Every block holds the same lev / first / last, so all take the same branches and
  // arrive at every grid barrier.
  while (last > first && last < n) {
    if (last - first <= narrow_rows) {
      if (blockIdx.x == 0) narrow_levels(g, w, group, narrow_rows, lev, first, last);
      grid.sync();
      lev = __ldcg(&w.state[kHandLevel]);
      first = __ldcg(&w.state[kHandFirst]);
      last = __ldcg(&w.state[kHandLast]);
    } else {
      wide_level(g, w, group, lev, first, last);
      grid.sync();
      first = last;
      last += __ldcg(&w.level_count[lev + 1]);
      ++lev;
      if (blockIdx.x == 0 && threadIdx.x == 0) w.level_ptr[lev + 1] = last;
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    w.state[kStateLevels] = last > first ? lev + 1 : lev;
    w.state[kStatePlaced] = last;
  }
}

__global__ void iota_kernel(int32_t n, int32_t* out) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<int32_t>(i);
}

}  // namespace

int32_t max_blocks_per_sm() {
  int blocks = 0;
  GPUGLU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, levels_kernel, kBlock, 0));
  return blocks;
}

void launch_levels(const Graph& g, const Work& w, const Shape& shape, cudaStream_t stream) {
  Graph graph = g;
  Work work = w;
  int32_t group = shape.group;
  int32_t narrow = std::clamp(shape.narrow_rows, 0, kNarrowCapacity);
  void* args[] = {&graph, &work, &group, &narrow};
  GPUGLU_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(levels_kernel), dim3(shape.blocks),
                                                dim3(kBlock), args, 0, stream));
}

void sort_rows_by_level(int32_t n, const int32_t* level, int32_t level_bits, int32_t* iota, int32_t* keys_out,
                        int32_t* jlev, void* temp, size_t& temp_bytes, cudaStream_t stream) {
  // Levels are >= 0: sorted as unsigned keys over their low level_bits bits. CUB's radix
  // sort is stable, so rows (0..n-1 in) stay ascending within a level.
  const auto* keys_in = reinterpret_cast<const uint32_t*>(level);
  auto* keys = reinterpret_cast<uint32_t*>(keys_out);
  const int end_bit = std::clamp(level_bits, 1, 32);
  if (temp == nullptr) {
    GPUGLU_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys_in, keys, iota, jlev, n, 0, end_bit,
                                                      stream));
    return;
  }
  if (n == 0) return;
  iota_kernel<<<static_cast<unsigned>((static_cast<int64_t>(n) + 255) / 256), 256, 0, stream>>>(n, iota);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
  GPUGLU_CUDA_CHECK(
      cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys, iota, jlev, n, 0, end_bit, stream));
}

}  // namespace gpuglu::cuda::kahn
