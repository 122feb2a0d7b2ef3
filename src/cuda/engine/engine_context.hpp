#pragma once
// What the device-engine shell (device_engine.hpp) owns and lends its recipe: the device,
// one non-blocking stream, every device allocation in one DeviceMemory, the pinned staging,
// A's values on the device and the refinement that reads them. Built in this order, torn
// down in the reverse one with the device current (ReleaseScope: nothing here may throw).
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>

#include "core/numeric_engine.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/host_staging.hpp"
#include "cuda/engine/device_input.hpp"
#include "cuda/engine/device_refinement.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

template <class Scalar>
struct BasicEngineContext {
  using T = device_scalar_t<Scalar>;
  int device = 0;
  int32_t n = 0;
  int64_t nnz_f = 0;  // entries of F (the schedule's f_rowind) when the engine was built
  // The schedule the engine factors (its owner keeps it alive): a supernodal one may have F
  // spelled out after the engine was built (spell_out_factor), for factor_values().
  const Schedule* schedule = nullptr;
  DeviceMemory mem;
  cudaStream_t stream = nullptr;
  std::unique_ptr<HostStaging> staging;
  std::unique_ptr<BasicDeviceInput<Scalar>> input;
  std::unique_ptr<BasicDeviceRefinement<Scalar>> refinement;

  // device_ordinal < 0: the calling thread's current device (it is current on return).
  BasicEngineContext(const char* owner, const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern)
      : mem(owner) {
    if (device_ordinal < 0)
      GPUGLU_CUDA_CHECK(cudaGetDevice(&device));
    else
      device = device_ordinal;
    DeviceScope scope(device);
    n = s.n;
    nnz_f = static_cast<int64_t>(s.f_rowind.size());
    schedule = &s;
    try {
      // The largest buffer first: a device that cannot hold the factor says so by the bytes
      // asked, before anything smaller fails for want of memory.
      staging = std::make_unique<HostStaging>(o.cuda.staging);
      input = std::make_unique<BasicDeviceInput<Scalar>>(s.input_nnz, mem, *staging);
      create_stream(owner);
      refinement = std::make_unique<BasicDeviceRefinement<Scalar>>(n, s.input_nnz, pattern, input->values(), mem,
                                                                   *staging, stream);
      refinement->set_equilibration(s.row_scale, s.col_scale);
    } catch (...) {
      release();
      throw;
    }
  }
  ~BasicEngineContext() { release(); }
  BasicEngineContext(const BasicEngineContext&) = delete;
  BasicEngineContext& operator=(const BasicEngineContext&) = delete;

  const T* input_values() const { return input->values(); }

  // A stream takes device memory too: on a full device its failure says how much is free.
  void create_stream(const char* owner) {
    const cudaError_t err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (err == cudaSuccess) return;
    (void)cudaGetLastError();
    size_t free_bytes = 0, total_bytes = 0;
    (void)cudaMemGetInfo(&free_bytes, &total_bytes);
    throw Error(status_of(err), std::string("cudaStreamCreateWithFlags for ") + owner + " failed: " +
                                    cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + "); " +
                                    std::to_string(free_bytes) + " bytes of device memory free, " +
                                    std::to_string(mem.bytes()) + " bytes already held by " + owner);
  }

  void release() noexcept {
    ReleaseScope scope(device);
    if (stream) cudaStreamSynchronize(stream);
    refinement.reset();
    input.reset();
    if (stream) cudaStreamDestroy(stream);
    stream = nullptr;
    if (staging) staging->release();
    staging.reset();
    mem.release();
  }
};

using EngineContext = BasicEngineContext<double>;

}  // namespace gpuglu::cuda
