#pragma once
// A factorization's state (FactorState, on the device) read back once per factorization
// through a pinned buffer, and turned into the seam's result the same way for every engine:
// the statistics, then the status - nan_or_inf with the first bad input entry, or
// numerically_singular with the failing column (whose pivot value the engine reads from its
// own storage: F or the panels).
#include <cuda_runtime.h>

#include <cstdint>

#include "core/numeric_engine.hpp"
#include "cuda/common/factor_kernels.cuh"
#include "cuda/common/host_staging.hpp"

namespace gpuglu::cuda {

class StateReadback {
 public:
  explicit StateReadback(HostStaging& staging);
  StateReadback(const StateReadback&) = delete;
  StateReadback& operator=(const StateReadback&) = delete;

  // The state to the pinned buffer, readable after the stream's synchronization.
  void enqueue(const kernels::FactorState* state, cudaStream_t stream);
  const kernels::FactorState& state() const { return *pinned_; }
  // The result of that copy (device_ms left 0). When the status is numerically_singular,
  // stats.pivot_column is the failing column and stats.pivot_value is for the caller to
  // read. Throws Error(invalid_input, missing_fill) when an update found no target entry
  // (a broken schedule).
  EngineFactorResult result(const char* missing_fill) const;

 private:
  kernels::FactorState* pinned_ = nullptr;
};

}  // namespace gpuglu::cuda
