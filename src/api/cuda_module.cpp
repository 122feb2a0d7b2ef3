// libgpuglu's side of the CUDA module (api/cuda_module.hpp): the seam's public functions,
// which load the module the first time one of them needs a device and forward to its table.
// Where it does not load (no CUDA libraries on this machine, a module from another build),
// every device is unusable with the loader's reason, as in a build without CUDA.
#include "api/cuda_module.hpp"

#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "gpuglu/status.hpp"

namespace gpuglu {

namespace {

std::atomic<bool> g_loaded{false};

struct Module {
  const CudaModuleTable* table = nullptr;
  std::string reason;  // why table is null
};

// GPUGLU_CUDA_MODULE names the module's file; else it sits beside libgpuglu, as the build
// and the installation put it.
std::string module_path() {
  if (const char* told = std::getenv("GPUGLU_CUDA_MODULE"); told && *told) return told;
  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&module_path), &self) != 0 && self.dli_fname) {
    const std::string lib = self.dli_fname;
    const size_t slash = lib.rfind('/');
    if (slash != std::string::npos) return lib.substr(0, slash + 1) + GPUGLU_CUDA_MODULE_FILE;
  }
  return GPUGLU_CUDA_MODULE_FILE;  // the dynamic loader's search path
}

Module load() {
  Module m;
  // Without NVIDIA's driver no device can be used: say so before mapping the module, whose
  // CUDA libraries take tens of milliseconds to load. The driver stays loaded (the module's
  // runtime would load it anyway).
  if (!dlopen(kCudaDriverLibrary, RTLD_LAZY | RTLD_LOCAL)) {
    const char* why = dlerror();
    m.reason = "no CUDA device (no NVIDIA driver: " + std::string(why ? why : kCudaDriverLibrary) + ")";
    return m;
  }
  const std::string path = module_path();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // never closed: CUDA's state lives on
  if (!handle) {
    const char* why = dlerror();
    m.reason = "the CUDA module did not load (" + std::string(why ? why : path) + ")";
    return m;
  }
  auto entry = reinterpret_cast<CudaModuleEntry>(dlsym(handle, kCudaModuleSymbol));
  const CudaModuleTable* t = entry ? entry() : nullptr;
  if (!t || t->abi != kCudaModuleAbi || t->options_bytes != sizeof(Options) || t->schedule_bytes != sizeof(Schedule)) {
    m.reason = "the CUDA module " + path + " is from another build of gpuglu";
    return m;
  }
  m.table = t;
  g_loaded.store(true, std::memory_order_release);
  return m;
}

const Module& module() noexcept {
  static const Module m = [] {
    try {
      return load();
    } catch (const std::exception& e) {  // a string's allocation
      Module failed;
      failed.reason = e.what();
      return failed;
    }
  }();
  return m;
}

const CudaModuleTable& table_for(const char* what) {
  const Module& m = module();
  if (!m.table) throw Error(Status::no_device, std::string(what) + ": " + m.reason);
  return *m.table;
}

}  // namespace

bool cuda_module_loaded() noexcept { return g_loaded.load(std::memory_order_acquire); }

bool cuda_running() noexcept {
  // A walk over the loaded objects: dlopen(RTLD_NOLOAD) searches the library path first, which
  // cost a small factor's analysis more than its ordering.
  auto is_driver = [](dl_phdr_info* info, size_t, void*) -> int {
    const char* name = info->dlpi_name;
    if (!name) return 0;
    const char* slash = std::strrchr(name, '/');
    const char* base = slash ? slash + 1 : name;
    return std::strncmp(base, kCudaDriverLibrary, std::strlen(kCudaDriverLibrary) - 2) == 0 ? 1 : 0;  // libcuda.so*
  };
  return dl_iterate_phdr(is_driver, nullptr) != 0;
}

bool built_with_cuda() noexcept { return true; }

DeviceInfo query_device(int32_t ordinal, int32_t local_rank) noexcept {
  const Module& m = module();
  if (m.table) return m.table->query_device(ordinal, local_rank);
  DeviceInfo info;
  info.reason = m.reason;
  return info;
}

void prepare_device(int32_t ordinal) noexcept {
  if (const CudaModuleTable* t = module().table) t->prepare_device(ordinal);
}

void copy_device_to_host(const double* d_src, double* h_dst, int64_t n) {
  if (n > 0) table_for("device arrays").copy_device_to_host(d_src, h_dst, n);
}

void copy_host_to_device(const double* h_src, double* d_dst, int64_t n) {
  if (n > 0) table_for("device arrays").copy_host_to_device(h_src, d_dst, n);
}

template <class Scalar>
std::unique_ptr<BasicNumericEngine<Scalar>> make_cuda_engine(const Schedule& s, PatternRef pattern, const Options& o,
                                                             int device_ordinal, bool hermitian) {
  const CudaModuleTable& t = table_for("the CUDA numeric backend");
  if constexpr (std::is_same_v<Scalar, double>)
    return t.make_engine(s, pattern, o, device_ordinal, hermitian);
  else
    return t.make_complex_engine(s, pattern, o, device_ordinal, hermitian);
}
template std::unique_ptr<BasicNumericEngine<double>> make_cuda_engine(const Schedule&, PatternRef, const Options&, int,
                                                                      bool);
template std::unique_ptr<BasicNumericEngine<Complex>> make_cuda_engine(const Schedule&, PatternRef, const Options&,
                                                                       int, bool);

namespace api {

std::unique_ptr<DenseRoot> make_cuda_dense_root(int32_t device, const PivotRule& rule, bool symmetric) {
  return table_for("the split factorization's GPU root").make_dense_root(device, rule, symmetric);
}

std::unique_ptr<SplitDevicePath> make_split_device_path(const SplitPartition& p, const std::array<SplitHalf, 2>& halves,
                                                        PatternRef a, std::array<int32_t, 2> devices, Staging staging) {
  return table_for("the split factorization's device path").make_split_device_path(p, halves, a, devices, staging);
}

}  // namespace api

}  // namespace gpuglu
