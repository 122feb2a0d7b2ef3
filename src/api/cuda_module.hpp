#pragma once
// The CUDA backend is a module of its own (libgpuglu_cuda: src/cuda, with cuBLAS, cuSOLVER
// and cuSPARSE), loaded by libgpuglu the first time a device is asked for: a process whose
// factors all stay on the CPU (small ones under `auto`, -mat_gpuglu_backend cpu, a machine
// without CUDA) maps none of CUDA's libraries, which take longer to load than such a run's
// solves (docs/design.md, "The CUDA module"). This is the seam's one table: the module fills
// it (src/cuda/module_entry.cpp), libgpuglu's loader (api/cuda_module.cpp) calls through it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "api/dense_root.hpp"
#include "api/split_device.hpp"
#include "core/numeric_engine.hpp"
#include "core/scalar.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/options.hpp"

namespace gpuglu {

// Raised with any change to the table or to the types it passes; the loader also compares
// the sizes below, so that a module from another build is refused, not called.
inline constexpr int32_t kCudaModuleAbi = 1;
// The module's one exported C symbol: a function returning its table.
inline constexpr const char* kCudaModuleSymbol = "gpuglu_cuda_module_table";

struct CudaModuleTable {
  int32_t abi = 0;
  size_t options_bytes = 0;
  size_t schedule_bytes = 0;
  DeviceInfo (*query_device)(int32_t ordinal, int32_t local_rank) noexcept = nullptr;
  void (*prepare_device)(int32_t ordinal) noexcept = nullptr;
  void (*copy_device_to_host)(const double* d_src, double* h_dst, int64_t n) = nullptr;
  void (*copy_host_to_device)(const double* h_src, double* d_dst, int64_t n) = nullptr;
  std::unique_ptr<BasicNumericEngine<double>> (*make_engine)(const Schedule&, PatternRef, const Options&, int,
                                                             bool) = nullptr;
  std::unique_ptr<BasicNumericEngine<Complex>> (*make_complex_engine)(const Schedule&, PatternRef, const Options&,
                                                                      int, bool) = nullptr;
  std::unique_ptr<api::DenseRoot> (*make_dense_root)(int32_t device, const PivotRule&, bool symmetric) = nullptr;
  std::unique_ptr<api::SplitDevicePath> (*make_split_device_path)(const api::SplitPartition&,
                                                                  const std::array<api::SplitHalf, 2>&, PatternRef,
                                                                  std::array<int32_t, 2>, Staging) = nullptr;
};

using CudaModuleEntry = const CudaModuleTable* (*)();

// NVIDIA's driver library, which the CUDA runtime loads: where it does not load there is no
// device, and the module is not loaded either.
inline constexpr const char* kCudaDriverLibrary = "libcuda.so.1";

// Whether this process has mapped the module yet (tests); loads nothing.
bool cuda_module_loaded() noexcept;
// Whether CUDA's driver is in this process already (libcuda mapped: by a device query of
// ours, a CUDA PETSc, the application), so that a factor would not pay its start-up alone
// (api::cold_start_keeps_cpu); loads nothing.
bool cuda_running() noexcept;

// The module's implementations of the seam (src/cuda), which its table points at; libgpuglu
// declares the public names (gpuglu/device.hpp, core/numeric_engine.hpp, api/dense_root.hpp,
// api/split_device.hpp) and forwards.
namespace cuda_entry {
DeviceInfo query_device(int32_t ordinal, int32_t local_rank) noexcept;
void prepare_device(int32_t ordinal) noexcept;
void copy_device_to_host(const double* d_src, double* h_dst, int64_t n);
void copy_host_to_device(const double* h_src, double* d_dst, int64_t n);
template <class Scalar>
std::unique_ptr<BasicNumericEngine<Scalar>> make_engine(const Schedule& s, PatternRef pattern, const Options& o,
                                                        int device_ordinal, bool hermitian);
std::unique_ptr<api::DenseRoot> make_dense_root(int32_t device, const PivotRule& rule, bool symmetric);
std::unique_ptr<api::SplitDevicePath> make_split_device_path(const api::SplitPartition& p,
                                                             const std::array<api::SplitHalf, 2>& halves,
                                                             PatternRef a, std::array<int32_t, 2> devices,
                                                             Staging staging);
}  // namespace cuda_entry

}  // namespace gpuglu
