#include "blas_threads.hpp"

#include <dlfcn.h>

#include <climits>
#include <cstdlib>
#include <thread>

namespace gpuglu::bench {

namespace {

// Looked up in the whole process: libblas.so.3 is loaded as a dependency of CHOLMOD, UMFPACK
// and PETSc, and OpenBLAS's libblas.so.3 pulls in libopenblas.so.0, which defines these.
template <class F>
F lookup(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

}  // namespace

BlasInfo blas_info() {
  BlasInfo info;
  info.library = "unknown";
  if (void* dgemm = dlsym(RTLD_DEFAULT, "dgemm_")) {
    Dl_info d{};
    if (dladdr(dgemm, &d) && d.dli_fname) {
      char resolved[PATH_MAX];
      info.library = realpath(d.dli_fname, resolved) ? resolved : d.dli_fname;
    }
  }
  using ConfigFn = char* (*)();
  const auto config = lookup<ConfigFn>("openblas_get_config");
  const auto corename = lookup<ConfigFn>("openblas_get_corename");
  info.openblas = config != nullptr;
  if (config) {
    info.config = config();
    if (corename) info.config += std::string(" core ") + corename();
  } else {
    info.config = "reference (no openblas_get_config)";
  }
  return info;
}

bool set_blas_threads(int threads) {
  using SetFn = void (*)(int);
  const auto set = lookup<SetFn>("openblas_set_num_threads");
  if (!set) return false;
  set(threads);
  return true;
}

int blas_threads() {
  using GetFn = int (*)();
  const auto get = lookup<GetFn>("openblas_get_num_threads");
  return get ? get() : 1;
}

int cpu_cores() {
  const unsigned c = std::thread::hardware_concurrency();
  return c ? static_cast<int>(c) : 1;
}

}  // namespace gpuglu::bench
