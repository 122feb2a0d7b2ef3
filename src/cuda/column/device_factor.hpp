#pragma once
// The factor on the device, for CudaLU and CudaLDLT (src/cuda/ldlt): F's pattern and values,
// the level schedule its kernels read, A's values of the last factorization with the map that
// scatters them into F, and the factorization state (pivot failures, statistics), read back
// once the level loop is done. A symmetric schedule's scatter adds (its value map may send
// both halves of an off-diagonal pair to one entry of L), and its update sources' columns go
// up with the rest. Scalar: double or std::complex<double> (the seam's); the device holds
// T = device_scalar_t<Scalar>, the same bytes. A Hermitian factor's scatter conjugates the
// input entries that land in C's upper triangle (one flag per entry, uploaded once).
#include <cuda_runtime.h>

#include <cstdint>
#include <complex>
#include <vector>

#include "core/numeric_engine.hpp"
#include "core/numeric_types.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/device_scalar.hpp"
#include "cuda/common/host_staging.hpp"
#include "cuda/common/state_readback.hpp"
#include "cuda/common/factor_kernels.cuh"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

template <class Scalar>
class BasicDeviceFactor {
 public:
  using T = device_scalar_t<Scalar>;
  // Uploads s's factor pattern, level schedule, value map and scaling into mem (each upload
  // synchronous); the state's pinned buffer comes from staging. input: A's values on the
  // device (the engine shell's DeviceInput), what the scatter reads. conjugate (Hermitian
  // LDL^H only; else empty): per input entry, whether the scatter conjugates it.
  BasicDeviceFactor(const Schedule& s, const T* input, DeviceMemory& mem, HostStaging& staging,
                    const std::vector<char>& conjugate = {});
  BasicDeviceFactor(const BasicDeviceFactor&) = delete;
  BasicDeviceFactor& operator=(const BasicDeviceFactor&) = delete;

  // The pointers every level kernel takes (fixed for the object's life, so a graph keeps them).
  const kernels::BasicLevelArgs<T>& level_args() const { return args_; }
  const T* values() const { return args_.f; }
  // What precedes the level loop: the state reset for rule, F = 0, A's values scattered
  // (scaled; added where they share a position) into F, rule.diagonal_shift added to the
  // diagonal.
  void enqueue_scatter(const PivotRule& rule, cudaStream_t stream);
  // What follows it: the state copied to pinned memory, readable after a synchronization.
  void enqueue_state_download(cudaStream_t stream);
  // The factorization's outcome from that copy (device_ms left 0); throws
  // Error(invalid_input) when an update found no fill entry (a broken schedule).
  EngineFactorResult result() const;
  // F's values to f_host (nnz of them), synchronous.
  void download(Scalar* f_host, cudaStream_t stream) const;

 private:
  int32_t n_ = 0;
  int64_t nnz_f_ = 0;
  int64_t input_nnz_ = 0;
  bool accumulate_ = false;  // symmetric schedule: the scatter adds
  std::vector<int64_t> f_diag_;  // host copy: the failing pivot's position
  kernels::BasicLevelArgs<T> args_{};
  int64_t* value_map_ = nullptr;
  double* value_scale_ = nullptr;
  uint8_t* conjugate_ = nullptr;  // null: no entry is conjugated
  const T* input_ = nullptr;
  StateReadback state_;
};

using DeviceFactor = BasicDeviceFactor<double>;
extern template class BasicDeviceFactor<double>;
extern template class BasicDeviceFactor<std::complex<double>>;

}  // namespace gpuglu::cuda
