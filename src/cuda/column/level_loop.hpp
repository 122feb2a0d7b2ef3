#pragma once
// The level loop of CudaLU and CudaLDLT (src/cuda/ldlt): the launch plan of every level,
// fixed at construction, and how the loop is enqueued - replayed as one CUDA graph (the
// default), launched level by level, or as one persistent, self-scheduled kernel
// (modes.persistent_kernel). The engine names its update kernels (kernels::UpdateKernels:
// the LU's F(i, k) -= L(i, j) U(j, k), or the LDL^T's F(i, j) -= L(i, k) d_k L(j, k)); the
// pivot kernels, the modes, the graph and the persistent tasks are the same for both.
//
// Kernel modes per level (GLU3.0 Sec. III-B2, s.level_mode / s.level_warps). Every level
// is two launches: the pivot kernel (a warp per column for short columns, a block per
// column for long ones) and the update kernel over the level's target columns:
//   small_block  one WARP per target, s.level_warps[l] warps (targets) per block: many
//                short targets in flight at once.
//   large_block  one BLOCK per target, its threads splitting the rows of each source's L
//                column, about modes.rows_per_thread rows per thread, at most
//                min(modes.max_block_threads, 32 x s.level_warps[l]) threads.
//   stream       the same, at most modes.max_block_threads threads. GLU3.0 launched a
//                kernel per column and spread those launches over 16 CUDA streams; with
//                the target-grouped update lists a single launch per level already covers
//                all of the level's targets concurrently, so no streams are needed.
// Small blocks keep all targets of a level resident at once, where 1024-thread blocks ran
// a level in waves (the sweep is in docs/performance.md). With modes.programmatic_launch
// each kernel overlaps the end of the previous one. A target applies its sources one after
// the other (the group synchronizes in between): no atomics, deterministic, and the same
// rounding as reference::factor_levels (reference::factor_ldlt_levels for the LDL^T).
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda/common/device_memory.hpp"
#include "cuda/common/graph_capture.hpp"
#include "cuda/common/factor_kernels.cuh"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

// One level of the loop: launch shapes fixed at construction.
struct LevelLaunch {
  int32_t level;
  int64_t col_begin;
  int32_t ncols;
  int pivot_threads;  // 32: a warp per column
  int64_t t_begin;
  int64_t ntargets;
  bool update_by_warps;
  int update_width;   // warps per block (by warps) or threads per block (by blocks)
  bool programmatic;  // programmatic dependent launch
};

// The launch of every level of s under modes (GLU3.0's modes as above).
std::vector<LevelLaunch> plan_levels(const Schedule& s, const KernelModeThresholds& modes);

// T: the kernels' scalar (double or DComplex); the plan does not depend on it.
template <class T>
class BasicLevelLoop {
 public:
  // Plans s's levels on `device` for args (the factor's device pointers), phase 2 run by
  // `updates`. With modes.persistent_kernel, uploads the persistent kernel's tasks into mem;
  // otherwise, when level_graph, captures the loop on stream as a CUDA graph (synchronized).
  BasicLevelLoop(const Schedule& s, const KernelModeThresholds& modes, bool level_graph,
                 const kernels::BasicLevelArgs<T>& args, const kernels::BasicUpdateKernels<T>& updates, int device,
                 DeviceMemory& mem, cudaStream_t stream);
  BasicLevelLoop(const BasicLevelLoop&) = delete;
  BasicLevelLoop& operator=(const BasicLevelLoop&) = delete;

  // The whole loop on st (after the scatter): the persistent kernel, the graph, or the
  // plain launches.
  void enqueue(cudaStream_t st);
  // The loop launched level by level on st with an event after every level; synchronizes
  // and returns each level's device time (ms).
  std::vector<float> profile(cudaStream_t st) const;
  bool uses_graph() const { return graph_.captured(); }
  int32_t levels() const { return levels_; }

 private:
  void enqueue_level(const LevelLaunch& ll, cudaStream_t st) const;
  void enqueue_levels(cudaStream_t st) const;
  void init_persistent(const Schedule& s, DeviceMemory& mem);

  int device_ = 0;
  int32_t n_ = 0;
  int32_t levels_ = 0;
  kernels::BasicLevelArgs<T> args_{};
  kernels::BasicUpdateKernels<T> updates_{};
  std::vector<LevelLaunch> plan_;
  CapturedGraph graph_;
  // modes.persistent_kernel: the level loop as one self-scheduled launch instead
  bool persistent_ = false;
  kernels::PersistentArgs pargs_{};
  int persistent_grid_ = 0;
  int32_t* col_done_dev_ = nullptr;
  int32_t* level_done_dev_ = nullptr;
  unsigned long long* ticket_dev_ = nullptr;
};

using LevelLoop = BasicLevelLoop<double>;
extern template class BasicLevelLoop<double>;
extern template class BasicLevelLoop<DComplex>;

}  // namespace gpuglu::cuda
