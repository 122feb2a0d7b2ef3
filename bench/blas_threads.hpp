#pragma once
// The BLAS this process runs with (libblas.so.3 is whatever Debian's alternatives point at:
// reference BLAS or OpenBLAS) and its thread count. CHOLMOD's and MUMPS's parallelism on one
// node is the BLAS's, so the benchmark sets the threads per peer and records both. OpenBLAS's
// functions are looked up at run time: with the reference BLAS the benchmark still runs,
// single-threaded, and says so.
#include <string>

namespace gpuglu::bench {

struct BlasInfo {
  std::string library;  // the file dgemm_ comes from (links resolved), or "unknown"
  std::string config;   // openblas_get_config() and the core it runs on; "reference" without OpenBLAS
  bool openblas = false;
};

BlasInfo blas_info();
// Sets the BLAS's threads (OpenBLAS: openblas_set_num_threads); false when the BLAS has no such
// control (it then runs single-threaded, as the reference BLAS does).
bool set_blas_threads(int threads);
// The BLAS's threads now (1 without OpenBLAS).
int blas_threads();
// Processors online (std::thread::hardware_concurrency, at least 1).
int cpu_cores();

}  // namespace gpuglu::bench
