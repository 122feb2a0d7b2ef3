#pragma once
// The supernodal engine's triangular solves on its panels (include/gpuglu/supernodes.hpp),
// by the supernodal tree - the GPU form of reference/supernodal_solve.cpp, for
// CudaSupernodalLU when Options::cuda.supernodal_panel_solve is set (otherwise it solves
// through F with LuSolves). A x = b: the row permutation and scaling into a work vector, L's
// sweep up the tree, U's down, the column scaling and permutation out; A^T x = b: the column
// side in, U^T up, L^T down, the row side out. For CudaSupernodalLDLT, L up (each supernode's
// entries put in its pivot order first), D, L^T down (and back in order). A sweep is one self-scheduled launch
// (Options::cuda.supernodal_self_scheduled_solve, panel_sweep_kernels.cu: its counters reset by
// one copy before the two sweeps) or a launch per level (panel_solve_kernels.cu); each
// direction's sequence on the fixed work vector is captured once as a CUDA graph (unless the
// options turn graphs off), so a solve is a gather, a graph launch and a scatter. The solves
// read the panels as the last factorization left them: nothing to gather after a
// factorization.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda/common/device_memory.hpp"
#include "cuda/common/device_solve.hpp"
#include "cuda/common/graph_capture.hpp"
#include "cuda/supernodal/panel_solve_kernels.cuh"
#include "cuda/supernodal/supernodal_kernels.cuh"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

class PanelSolves final : public DeviceSolve, public SchurSweeps {
 public:
  // s: a supernodal schedule that plan_supernodal() has checked; structure: its supernodes
  // and panels on the device (DevicePanels::args()). Uploads the permutations, scalings,
  // level order and (self-scheduled) the sweeps' dependencies into mem; with
  // tuning.level_graph, captures both directions' sweeps on stream (the device current, as
  // the engine's init() has it).
  // d: an LDL^T's D (CudaSupernodalLDLT: its panels hold L only, row_order and pivoted its
  // supernodes' pivot orders): the solves are then L up, D, L^T down, the transpose the same.
  PanelSolves(const Schedule& s, const kernels::SupernodeArgs& structure, const CudaTuning& tuning,
              DeviceMemory& mem, cudaStream_t stream, kernels::PanelSolveD d = {});
  ~PanelSolves() = default;  // the owner releases this (its graphs) before its stream, device current
  PanelSolves(const PanelSolves&) = delete;
  PanelSolves& operator=(const PanelSolves&) = delete;

  // out = A^{-1} in (transpose: A^{-T} in) with the panels' factor; in and out are device
  // vectors of n and may alias. Asynchronous on the stream.
  void solve_device(const double* in, double* out, bool transpose) override;

  bool uses_graph() const noexcept { return forward_.captured(); }
  // Schur-complement mode (Schedule::schur_size > 0; core/numeric_engine.hpp's schur_forward /
  // schur_backward): z (n entries, host, C's numbering) swept up to the last level - the Schur
  // supernode alone - or down from it, the Schur entries left as they are;
  // the forward sweeps push into the rows below them, so the Schur entries end as the reduced
  // right-hand side. Synchronous (z is uploaded and downloaded).
  void schur_sweep(double* z, bool transpose, bool forward) override;
  // The same on device vectors, with the permutations and scalings done here (as
  // solve_device's): condense gathers in (n entries, A's numbering) into the work vector,
  // sweeps forward and copies the Schur block's k entries (the last k of C, unscaled: the
  // Schur analysis puts them there) to reduced; expand puts x2 (k entries) into the block,
  // sweeps backward from the work vector condense left, and scatters all n entries to out
  // (x2's own at the Schur unknowns). in and out are the kernels' (this device's memory);
  // reduced and x2 may lie on any device of the process (copied with cudaMemcpyDefault).
  // Nothing may use the work vector in between, and an expansion consumes the condensed
  // vector (it is swept in place): one expand per condense.
  // Both synchronous: on return their results are complete.
  void schur_condense(const double* in, double* reduced, bool transpose) override;
  void schur_expand(const double* x2, double* out, bool transpose) override;

 private:
  struct Level {
    int64_t begin = 0;  // level_nodes[begin .. begin + count)
    int32_t count = 0;
    int threads = 32;
    int32_t staged_cols = 0;  // the shared memory's columns (its widest supernode's, capped)
  };
  void init_self_scheduled(const Supernodes& sn, const CudaTuning& tuning, DeviceMemory& mem);
  void init_levels(const Supernodes& sn);
  // The two sweeps of one direction on work_ (an LDL^T's: L, D, L^T whatever the direction).
  void enqueue_sweeps(bool transpose, cudaStream_t stream) const;
  // Schur-complement mode: one direction's sweep short of the Schur supernode on work_ (the
  // self-scheduled one, or level by level), as a captured graph where the tuning allows
  // (captured on first use).
  void enqueue_schur_levels(bool transpose, bool forward, cudaStream_t stream) const;
  void run_schur_levels(bool transpose, bool forward);

  int32_t n_ = 0;
  cudaStream_t stream_;
  kernels::PanelSolveArgs args_{};
  kernels::PanelSolveD d_{};
  std::vector<Level> levels_;  // empty when self-scheduled
  // Self-scheduled: the sweeps' block, and their counters (panel_solves.cu) with their initial
  // values.
  int sweep_threads_ = 0;
  size_t counters_size_ = 0;
  int32_t* counters_ = nullptr;
  const int32_t* counters_init_ = nullptr;
  kernels::PanelSweepSync forward_sync_{}, backward_sync_{};
  int32_t* row_perm_ = nullptr;
  int32_t* col_perm_ = nullptr;
  double* row_scale_ = nullptr;
  double* col_scale_ = nullptr;
  double* work_ = nullptr;
  CapturedGraph forward_, transposed_;
  int32_t schur_size_ = 0;
  bool schur_graphs_ = false;      // tuning.level_graph: the Schur sweeps are captured too
  CapturedGraph schur_graph_[4];  // [2 transpose + forward]
};

}  // namespace gpuglu::cuda
