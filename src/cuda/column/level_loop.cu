// LevelLoop (level_loop.hpp): the plan, the graph, the persistent kernel's tasks, and the
// launches. The pivot kernels are lu_kernels.cu's, the update kernels the engine's.
#include "cuda/column/level_loop.hpp"

#include <algorithm>

#include "cuda/common/cuda_check.hpp"

namespace gpuglu::cuda {
namespace {

int pow2_clamped(int64_t x, int lo, int hi) {
  int p = lo;
  while (p < hi && p < x) p *= 2;
  return std::min(p, hi);
}

}  // namespace

std::vector<LevelLaunch> plan_levels(const Schedule& s, const KernelModeThresholds& m) {
  std::vector<LevelLaunch> plan;
  plan.reserve(static_cast<size_t>(s.num_levels()));
  for (int32_t l = 0; l < s.num_levels(); ++l) {
    LevelLaunch ll{};
    ll.level = l;
    ll.col_begin = s.level_ptr[l];
    ll.ncols = static_cast<int32_t>(s.level_ptr[l + 1] - s.level_ptr[l]);
    int64_t max_col = 0, max_l = 0;
    for (int64_t c = s.level_ptr[l]; c < s.level_ptr[l + 1]; ++c) {
      const int32_t j = s.level_cols[c];
      max_col = std::max(max_col, s.f_colptr[j + 1] - s.f_colptr[j]);
      max_l = std::max(max_l, s.f_colptr[j + 1] - s.f_diag[j] - 1);
    }
    ll.pivot_threads = max_col <= 256 ? 32 : (max_col <= 4096 ? 256 : 512);
    ll.t_begin = s.level_target_ptr[l];
    ll.ntargets = s.level_target_ptr[l + 1] - s.level_target_ptr[l];
    ll.programmatic = m.programmatic_launch;
    // Block per target: about rows_per_thread rows of the longest L column per thread.
    const int64_t rows = (max_l + m.rows_per_thread - 1) / std::max(1, m.rows_per_thread);
    switch (s.level_mode[l]) {
      case KernelMode::small_block:
        ll.update_by_warps = true;
        ll.update_width = std::clamp(s.level_warps[l], 1, 32);
        break;
      case KernelMode::large_block:
        ll.update_by_warps = false;
        ll.update_width =
            pow2_clamped(rows, 64, std::min(m.max_block_threads, 32 * std::clamp(s.level_warps[l], 2, 32)));
        break;
      case KernelMode::stream:
      default:
        ll.update_by_warps = false;
        ll.update_width = pow2_clamped(rows, 64, m.max_block_threads);
        break;
    }
    plan.push_back(ll);
  }
  return plan;
}

template <class T>
BasicLevelLoop<T>::BasicLevelLoop(const Schedule& s, const KernelModeThresholds& modes, bool level_graph,
                                  const kernels::BasicLevelArgs<T>& args, const kernels::BasicUpdateKernels<T>& updates,
                                  int device, DeviceMemory& mem, cudaStream_t stream)
    : device_(device),
      n_(s.n),
      levels_(s.num_levels()),
      args_(args),
      updates_(updates),
      plan_(plan_levels(s, modes)) {
  if (!kernels::programmatic_launch_supported(device_))
    for (LevelLaunch& ll : plan_) ll.programmatic = false;
  persistent_ = modes.persistent_kernel;
  if (persistent_) {
    init_persistent(s, mem);
    return;
  }
  // Thousands of levels, two launches each: captured once, replayed per factorization.
  // The graph keeps only fixed pointers; the pivot rule lives in the device state.
  if (level_graph && !plan_.empty()) {
    graph_.capture(stream, [this](cudaStream_t st) { enqueue_levels(st); });
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
}

// Tasks in level order (each level's pivots, then its targets), with the counts they wait
// for: a pivot of j all updates of j, a target of k the updates of k scheduled before it.
template <class T>
void BasicLevelLoop<T>::init_persistent(const Schedule& s, DeviceMemory& mem) {
  std::vector<uint8_t> is_pivot;
  std::vector<int64_t> arg;
  std::vector<int32_t> level_of_task, count;
  std::vector<int32_t> updates_of(static_cast<size_t>(n_), 0);
  for (int32_t l = 0; l < levels_; ++l)
    for (int64_t t = s.level_target_ptr[l]; t < s.level_target_ptr[l + 1]; ++t) ++updates_of[s.target_col[t]];
  std::vector<int32_t> seen(static_cast<size_t>(n_), 0);
  const size_t ntasks = static_cast<size_t>(n_) + s.target_col.size();
  is_pivot.reserve(ntasks);
  arg.reserve(ntasks);
  level_of_task.reserve(ntasks);
  count.reserve(ntasks);
  for (int32_t l = 0; l < levels_; ++l) {
    for (int64_t c = s.level_ptr[l]; c < s.level_ptr[l + 1]; ++c) {
      is_pivot.push_back(1);
      arg.push_back(c);
      level_of_task.push_back(l);
      count.push_back(updates_of[s.level_cols[c]]);
    }
    for (int64_t t = s.level_target_ptr[l]; t < s.level_target_ptr[l + 1]; ++t) {
      is_pivot.push_back(0);
      arg.push_back(t);
      level_of_task.push_back(l);
      count.push_back(seen[s.target_col[t]]++);
    }
  }
  pargs_.task_is_pivot = mem.upload(is_pivot, "the persistent loop's task kinds");
  pargs_.task_arg = mem.upload(arg, "the persistent loop's tasks");
  pargs_.task_level = mem.upload(level_of_task, "the persistent loop's task levels");
  pargs_.task_count = mem.upload(count, "the persistent loop's task counts");
  pargs_.level_ptr = mem.upload(s.level_ptr, "the level pointers");
  pargs_.ntasks = static_cast<int64_t>(is_pivot.size());
  ticket_dev_ = mem.allocate<unsigned long long>(1, "the persistent loop's ticket");
  col_done_dev_ = mem.allocate<int32_t>(static_cast<size_t>(n_), "the persistent loop's column counters");
  level_done_dev_ = mem.allocate<int32_t>(static_cast<size_t>(levels_), "the persistent loop's level counters");
  pargs_.ticket = ticket_dev_;
  pargs_.col_done = col_done_dev_;
  pargs_.level_pivots_done = level_done_dev_;
  persistent_grid_ = updates_.persistent_blocks(device_);
}

template <class T>
void BasicLevelLoop<T>::enqueue(cudaStream_t st) {
  if (persistent_) {
    GPUGLU_CUDA_CHECK(cudaMemsetAsync(ticket_dev_, 0, sizeof(unsigned long long), st));
    GPUGLU_CUDA_CHECK(cudaMemsetAsync(col_done_dev_, 0, static_cast<size_t>(n_) * sizeof(int32_t), st));
    GPUGLU_CUDA_CHECK(
        cudaMemsetAsync(level_done_dev_, 0, static_cast<size_t>(std::max(levels_, 1)) * sizeof(int32_t), st));
    updates_.persistent(args_, pargs_, persistent_grid_, st);
  } else if (graph_.captured()) {
    graph_.launch(st);
  } else {
    enqueue_levels(st);
  }
}

template <class T>
void BasicLevelLoop<T>::enqueue_level(const LevelLaunch& ll, cudaStream_t st) const {
  kernels::launch_pivot(args_, ll.level, ll.col_begin, ll.ncols, ll.pivot_threads, ll.programmatic, st);
  if (ll.ntargets == 0) return;
  if (ll.update_by_warps)
    updates_.by_warps(args_, ll.level, ll.t_begin, ll.ntargets, ll.update_width, ll.programmatic, st);
  else
    updates_.by_blocks(args_, ll.level, ll.t_begin, ll.ntargets, ll.update_width, ll.programmatic, st);
}

template <class T>
void BasicLevelLoop<T>::enqueue_levels(cudaStream_t st) const {
  for (const LevelLaunch& ll : plan_) enqueue_level(ll, st);
}

template <class T>
std::vector<float> BasicLevelLoop<T>::profile(cudaStream_t st) const {
  std::vector<cudaEvent_t> events(plan_.size() + 1, nullptr);
  std::vector<float> ms(plan_.size(), 0.0f);
  auto destroy = [&] {
    for (cudaEvent_t& e : events)
      if (e) cudaEventDestroy(e), e = nullptr;
  };
  try {
    for (cudaEvent_t& e : events) GPUGLU_CUDA_CHECK(cudaEventCreate(&e));
    GPUGLU_CUDA_CHECK(cudaEventRecord(events[0], st));
    for (size_t l = 0; l < plan_.size(); ++l) {
      enqueue_level(plan_[l], st);
      GPUGLU_CUDA_CHECK(cudaEventRecord(events[l + 1], st));
    }
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(st));
    for (size_t l = 0; l < plan_.size(); ++l) GPUGLU_CUDA_CHECK(cudaEventElapsedTime(&ms[l], events[l], events[l + 1]));
  } catch (...) {
    destroy();
    throw;
  }
  destroy();
  return ms;
}

template class BasicLevelLoop<double>;
template class BasicLevelLoop<DComplex>;

}  // namespace gpuglu::cuda
