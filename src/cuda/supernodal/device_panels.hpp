#pragma once
// The supernodal factor on the device, for CudaSupernodalLU and CudaSupernodalLDLT (whose
// plan gives only pivot_pos, its panels L only): the panels (supernodes.hpp's
// value array) with the structure the kernels read, A's values of the last factorization with
// the value map that scatters them into the panels, and the factorization state (the LU
// engine's FactorState), read back once per factorization. F entry by entry (the
// schedule's CSC layout) is gathered from the panels on the device only for the solves
// through F (with_factor); factor_values() otherwise copies the panels and gathers F on
// the host.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "core/numeric_engine.hpp"
#include "core/numeric_types.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/host_staging.hpp"
#include "cuda/common/state_readback.hpp"
#include "cuda/supernodal/supernodal_kernels.cuh"
#include "cuda/supernodal/supernodal_plan.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

class DevicePanels {
 public:
  // Uploads s's supernodal structure and plan's maps into mem (each upload synchronous); the
  // state's pinned buffer comes from staging. input: A's values on the device (the engine
  // shell's DeviceInput), what the scatter reads.
  // with_factor: F is kept on the device, gathered after each factorization (s spelled out).
  // row_pivoting: the arrays of partial pivoting inside supernodes (SupernodeArgs::pivoted,
  // row_swaps, row_order; none pivoted until set_pivoted).
  DevicePanels(const Schedule& s, const SupernodalPlan& plan, const double* input, DeviceMemory& mem,
               HostStaging& staging, bool with_factor, bool row_pivoting = false);
  DevicePanels(const DevicePanels&) = delete;
  DevicePanels& operator=(const DevicePanels&) = delete;

  const kernels::SupernodeArgs& args() const { return args_; }
  const int32_t* panel_nodes() const { return panel_nodes_; }    // the plan's (the panel kernel's)
  const int32_t* direct_nodes() const { return direct_nodes_; }  // the plan's
  const double* factor() const { return f_; }  // F (with_factor), after enqueue_gather_factor()
  // What precedes the levels: the state and the failure flags reset, the panels zeroed, A's values
  // scattered (scaled) into them, rule.diagonal_shift added to every pivot.
  void enqueue_scatter(const PivotRule& rule, cudaStream_t stream);
  // F[i] = panels[f_pos[i]] (with_factor; nothing otherwise).
  void enqueue_gather_factor(cudaStream_t stream);
  // The state to pinned memory, readable after a synchronization.
  void enqueue_state_download(cudaStream_t stream);
  // The factorization's outcome from that copy (device_ms left 0); throws
  // Error(invalid_input) when a Schur complement found no target (a broken schedule).
  EngineFactorResult result() const;
  // From the same copy: a dense panel failed its pivot test (FactorState::unstable_panel).
  bool unstable_panel() const { return state_.state().unstable_panel != 0; }
  // The supernodes that pivot from now on (count flags), synchronous.
  void set_pivoted(const std::vector<uint8_t>& flags);
  // Which supernodes failed in the last factorization (count flags), synchronous.
  void download_failed(std::vector<uint8_t>& flags, cudaStream_t stream) const;
  // F's values to f_host (nnz(F) of them: the schedule spelled out), synchronous.
  void download_factor(double* f_host, cudaStream_t stream) const;

 private:
  const Schedule& s_;
  int32_t n_ = 0;
  int64_t nnz_f_ = 0;  // entries of F on the device (0 without with_factor)
  int64_t input_nnz_ = 0;
  int64_t values_ = 0;
  int32_t count_ = 0;
  kernels::SupernodeArgs args_{};
  uint8_t* pivoted_ = nullptr;  // args_.pivoted, written here
  int32_t *panel_nodes_ = nullptr, *direct_nodes_ = nullptr;
  int64_t* panel_map_ = nullptr;  // the schedule's value map
  double* value_scale_ = nullptr;
  int64_t* pivot_pos_ = nullptr;
  int64_t* f_pos_ = nullptr;
  double* f_ = nullptr;
  const double* input_ = nullptr;
  StateReadback state_;
  std::vector<int64_t> pivot_pos_host_;  // the failing pivot's position
};

}  // namespace gpuglu::cuda
