// PanelSolves (panel_solves.hpp): the launch plan per level, the graphs, and the
// permute-and-scale around the sweeps (common/solve_kernels.cu's gather_scaled/scatter_scaled,
// as LuSolves applies them).
#include "cuda/supernodal/panel_solves.hpp"

#include <algorithm>
#include <string>

#include "analysis/supernode_targets.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/engine/device_facts.hpp"
#include "cuda/common/factor_kernels.cuh"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

namespace {

// A level with at least as many supernodes as the device has SMs fills the GPU with blocks:
// its blocks stay small. Fewer, wider supernodes (the top of the tree) get larger blocks. An
// estimate, not yet measured.
constexpr int kManyNodesMaxThreads = 128;

// The self-scheduled sweeps' block: every task gets the same. 256 threads: the best or close
// to it on most matrices measured (wide supernodes' products with the rows below want the
// threads; docs/performance_history.md, supernodal sixth step).
constexpr int kSweepThreads = 256;

int round_up_32(int64_t v) { return static_cast<int>(std::max<int64_t>(32, (v + 31) / 32 * 32)); }

// A x = b: L ascending (forward), U descending. A^T x = b: U^T ascending, L^T descending.
// An LDL^T (symmetric): L ascending, L^T descending, either way.
kernels::PanelSweep sweep_kind(bool transpose, bool forward, bool symmetric = false) {
  if (symmetric) transpose = false;
  if (forward) return transpose ? kernels::PanelSweep::upper_transpose : kernels::PanelSweep::lower;
  return transpose || symmetric ? kernels::PanelSweep::lower_transpose : kernels::PanelSweep::upper;
}

}  // namespace

PanelSolves::PanelSolves(const Schedule& s, const kernels::SupernodeArgs& structure, const CudaTuning& tuning,
                         DeviceMemory& mem, cudaStream_t stream, kernels::PanelSolveD d)
    : n_(s.n), stream_(stream), d_(d), schur_size_(s.schur_size), schur_graphs_(tuning.level_graph) {
  const Supernodes& sn = s.supernodes;
  args_.structure = structure;
  args_.level_nodes = mem.upload(sn.level_nodes, "the supernodes in level order");
  if (structure.pivoted) args_.stage = mem.allocate<double>(static_cast<size_t>(n_), "the pivoted supernodes' staging");
  row_perm_ = mem.upload(s.row_perm, "the row permutation");
  col_perm_ = mem.upload(s.col_perm, "the column permutation");
  row_scale_ = mem.upload(s.row_scale, "the row scaling");
  col_scale_ = mem.upload(s.col_scale, "the column scaling");
  work_ = mem.allocate<double>(static_cast<size_t>(n_), "the panel solves' work vector");
  if (n_ == 0) return;
  if (tuning.supernodal_self_scheduled_solve)
    init_self_scheduled(sn, tuning, mem);
  else
    init_levels(sn);
  // A Schur factor solves no system with A (SparseLU refuses it): only its Schur sweeps,
  // captured on first use (run_schur_levels).
  if (tuning.level_graph && schur_size_ == 0) {
    forward_.capture(stream_, [this](cudaStream_t st) { enqueue_sweeps(false, st); });
    if (!d_.kind) transposed_.capture(stream_, [this](cudaStream_t st) { enqueue_sweeps(true, st); });
  }
}

// The tasks and groups: sweep_tasks (analysis/supernode_targets.hpp). The counters in one
// array: [forward ticket, backward ticket, then per supernode: forward pending, backward
// pending, forward done, backward done]. A tile of a supernode releases its targets forward,
// its sources backward, so a supernode waits forward on its sources' tiles, backward on its
// targets'.
void PanelSolves::init_self_scheduled(const Supernodes& sn, const CudaTuning& tuning, DeviceMemory& mem) {
  const int32_t count = sn.count;
  sweep_threads_ = tuning.supernodal_solve_threads > 0 ? tuning.supernodal_solve_threads : kSweepThreads;
  auto tiles = [&sn](int32_t t) { return SweepTasks::tiles(sn, t, kernels::kPanelSolveTile); };
  const SweepTasks w = sweep_tasks(sn, kernels::kPanelSolveTile, kernels::kPanelSolveSmallCols,
                                   kernels::kPanelSolveSmallRows, sweep_threads_ / 32);
  std::vector<int2> tasks(w.node.size());
  for (size_t i = 0; i < tasks.size(); ++i) tasks[i] = make_int2(w.node[i], w.tile[i]);
  const SupernodeTargets d = supernode_targets(sn);
  // Schur-complement mode: the sweeps stop at the Schur supernode, the last level's only one,
  // whose tasks are the last groups: they are left out of both sweeps (the backward sweep's
  // ticket i takes group num_groups - 1 - i, so the others keep their order), and no
  // supernode waits backward on its tiles (x2 is in place before the sweep starts).
  const int32_t schur_node = schur_size_ > 0 && count > 0 ? sn.level_nodes.back() : -1;
  if (schur_node >= 0 && (sn.cols(schur_node) != schur_size_ || sn.level_ptr[sn.num_levels() - 1] != count - 1))
    throw Error(Status::invalid_input, "PanelSolves: the Schur unknowns (" + std::to_string(schur_size_) +
                                           ") are not the last level's only supernode");
  counters_size_ = 2 + 4 * static_cast<size_t>(count);
  std::vector<int32_t> init(counters_size_, 0);
  int32_t* pending_forward = init.data() + 2;
  int32_t* pending_backward = pending_forward + count;
  for (int32_t t = 0; t < count; ++t) {
    for (int64_t i = d.source_ptr[t]; i < d.source_ptr[t + 1]; ++i) pending_forward[t] += tiles(d.source[i]);
    for (int64_t i = d.target_ptr[t]; i < d.target_ptr[t + 1]; ++i)
      if (d.target[i] != schur_node) pending_backward[t] += tiles(d.target[i]);
  }
  counters_init_ = mem.upload(init, "the panel solves' initial counters");
  counters_ = mem.allocate<int32_t>(init.size(), "the panel solves' counters");
  const int2* dev_tasks = mem.upload(tasks, "the panel solves' tasks");
  const int32_t* dev_groups = mem.upload(w.group_ptr, "the panel solves' task groups");
  const int8_t* dev_by_warps = mem.upload(w.by_warps, "the panel solves' task groups");
  const int32_t num_groups = static_cast<int32_t>(w.by_warps.size());
  int32_t* pending = counters_ + 2;
  int32_t* done = pending + 2 * static_cast<size_t>(count);
  const int64_t* target_ptr = mem.upload(d.target_ptr, "the supernodes' targets");
  const int32_t* target = mem.upload(d.target, "the supernodes' targets");
  const int64_t* source_ptr = mem.upload(d.source_ptr, "the supernodes' sources");
  const int32_t* source = mem.upload(d.source, "the supernodes' sources");
  forward_sync_ = {dev_tasks, dev_groups, dev_by_warps, num_groups, counters_, pending, done, target_ptr, target};
  backward_sync_ = {dev_tasks,    dev_groups, dev_by_warps, num_groups, counters_ + 1, pending + count,
                    done + count, source_ptr, source};
  if (schur_node >= 0) {
    int32_t kept = num_groups;
    while (kept > 0 && w.node[static_cast<size_t>(w.group_ptr[kept - 1])] == schur_node) --kept;
    forward_sync_.num_groups = backward_sync_.num_groups = kept;
  }
}

void PanelSolves::init_levels(const Supernodes& sn) {
  // A block per supernode: threads for its rows below (the products) or a warp per column
  // (the backward sweeps' reductions), whichever is more, a multiple of 32.
  const int32_t many_nodes = current_device_facts().sm_count;
  const int32_t levels = sn.num_levels();
  levels_.reserve(static_cast<size_t>(levels));
  for (int32_t l = 0; l < levels; ++l) {
    Level lv;
    lv.begin = sn.level_ptr[l];
    lv.count = static_cast<int32_t>(sn.level_ptr[l + 1] - sn.level_ptr[l]);
    int64_t need = 32;
    int32_t widest = 0;
    for (int64_t i = lv.begin; i < lv.begin + lv.count; ++i) {
      const int32_t t = sn.level_nodes[static_cast<size_t>(i)];
      const int32_t ns = sn.cols(t);
      need = std::max({need, sn.nrows(t) - ns, int64_t{32} * ns});
      widest = std::max(widest, ns);
    }
    const int cap = lv.count >= many_nodes ? kManyNodesMaxThreads : kernels::kPanelSolveMaxThreads;
    lv.threads = std::min(round_up_32(need), cap);
    lv.staged_cols = std::min(widest, kernels::kPanelSolveMaxStagedCols);
    levels_.push_back(lv);
  }
}

// An LDL^T's D between its two sweeps.
void PanelSolves::enqueue_sweeps(bool transpose, cudaStream_t stream) const {
  const bool symmetric = d_.kind != nullptr;
  const kernels::PanelSweep up = sweep_kind(transpose, /*forward=*/true, symmetric);
  const kernels::PanelSweep down = sweep_kind(transpose, /*forward=*/false, symmetric);
  if (counters_ != nullptr) {  // self-scheduled
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(counters_, counters_init_, counters_size_ * sizeof(int32_t),
                                      cudaMemcpyDeviceToDevice, stream));
    kernels::launch_panel_sweep(up, args_, forward_sync_, sweep_threads_, work_, stream);
    if (symmetric) kernels::launch_panel_d_solve(args_, d_, n_, work_, stream);
    kernels::launch_panel_sweep(down, args_, backward_sync_, sweep_threads_, work_, stream);
    return;
  }
  for (const Level& lv : levels_)
    kernels::launch_panel_solve(up, args_, lv.begin, lv.count, lv.threads, lv.staged_cols, work_, stream);
  if (symmetric) kernels::launch_panel_d_solve(args_, d_, n_, work_, stream);
  for (auto it = levels_.rbegin(); it != levels_.rend(); ++it)
    kernels::launch_panel_solve(down, args_, it->begin, it->count, it->threads, it->staged_cols, work_, stream);
}

// An LDL^T's D (of A11's unknowns alone) before its backward sweep: z1 := L11^{-T}
// (D11^{-1} z1 - L21^T x2).
void PanelSolves::enqueue_schur_levels(bool transpose, bool forward, cudaStream_t stream) const {
  const bool symmetric = d_.kind != nullptr;
  const kernels::PanelSweep kind = sweep_kind(transpose, forward, symmetric);
  if (symmetric && !forward) kernels::launch_panel_d_solve(args_, d_, n_ - schur_size_, work_, stream);
  if (counters_ != nullptr) {  // self-scheduled, the Schur supernode's groups left out (init_self_scheduled)
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(counters_, counters_init_, counters_size_ * sizeof(int32_t),
                                      cudaMemcpyDeviceToDevice, stream));
    kernels::launch_panel_sweep(kind, args_, forward ? forward_sync_ : backward_sync_, sweep_threads_, work_, stream);
    return;
  }
  const size_t levels = levels_.empty() ? 0 : levels_.size() - 1;  // the last: the Schur supernode
  for (size_t i = 0; i < levels; ++i) {
    const Level& lv = levels_[forward ? i : levels - 1 - i];
    kernels::launch_panel_solve(kind, args_, lv.begin, lv.count, lv.threads, lv.staged_cols, work_, stream);
  }
}

void PanelSolves::run_schur_levels(bool transpose, bool forward) {
  if (!schur_graphs_) {
    enqueue_schur_levels(transpose, forward, stream_);
    return;
  }
  CapturedGraph& graph = schur_graph_[2 * static_cast<int>(transpose) + static_cast<int>(forward)];
  if (!graph.captured())
    graph.capture(stream_, [&](cudaStream_t st) { enqueue_schur_levels(transpose, forward, st); });
  graph.launch(stream_);
}

void PanelSolves::schur_sweep(double* z, bool transpose, bool forward) {
  if (n_ == 0) return;
  const size_t bytes = static_cast<size_t>(n_) * sizeof(double);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(work_, z, bytes, cudaMemcpyHostToDevice, stream_));
  run_schur_levels(transpose, forward);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(z, work_, bytes, cudaMemcpyDeviceToHost, stream_));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

// As solve_device's gather, with the Schur block left where the analysis put it.
void PanelSolves::schur_condense(const double* in, double* reduced, bool transpose) {
  if (n_ == 0) return;
  kernels::launch_gather_scaled(n_, transpose ? col_perm_ : row_perm_, transpose ? col_scale_ : row_scale_, in, work_,
                                stream_);
  run_schur_levels(transpose, /*forward=*/true);
  if (schur_size_ > 0)
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(reduced, work_ + (n_ - schur_size_),
                                      static_cast<size_t>(schur_size_) * sizeof(double), cudaMemcpyDefault, stream_));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void PanelSolves::schur_expand(const double* x2, double* out, bool transpose) {
  if (n_ == 0) return;
  if (schur_size_ > 0)
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(work_ + (n_ - schur_size_), x2, static_cast<size_t>(schur_size_) * sizeof(double),
                                      cudaMemcpyDefault, stream_));
  run_schur_levels(transpose, /*forward=*/false);
  kernels::launch_scatter_scaled(n_, transpose ? row_perm_ : col_perm_, transpose ? row_scale_ : col_scale_, work_,
                                 out, stream_);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void PanelSolves::solve_device(const double* in, double* out, bool transpose) {
  if (n_ == 0) return;
  // work[k] = rs[rp[k]] in[rp[k]] (A^T: work[l] = cs[cp[l]] in[cp[l]]); in is read in full
  // before out is written, so they may alias.
  kernels::launch_gather_scaled(n_, transpose ? col_perm_ : row_perm_, transpose ? col_scale_ : row_scale_, in, work_,
                                stream_);
  if (d_.kind) transpose = false;  // symmetric: one direction
  const CapturedGraph& graph = transpose ? transposed_ : forward_;
  if (graph.captured())
    graph.launch(stream_);
  else
    enqueue_sweeps(transpose, stream_);
  // out[cp[l]] = cs[cp[l]] work[l] (A^T: out[rp[k]] = rs[rp[k]] work[k]).
  kernels::launch_scatter_scaled(n_, transpose ? row_perm_ : col_perm_, transpose ? row_scale_ : col_scale_, work_,
                                 out, stream_);
}

}  // namespace gpuglu::cuda
