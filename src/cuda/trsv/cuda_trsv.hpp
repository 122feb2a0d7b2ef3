#pragma once
// cuda::TriangularSolver: one sparse triangular factor on one GPU, solved many times
// (an ILU preconditioner applies it every Krylov iteration). Plain C++ (no CUDA types), so
// the API layer and the tests include it without nvcc.
//
// BasicTriangularSolver<Scalar> for Scalar = double (TriangularSolver) and
// std::complex<double> (ComplexTriangularSolver), instantiated in cuda_trsv.cu; the kernels
// compute in device_scalar_t<Scalar> (cuda/common/device_scalar.hpp). Device arrays of
// std::complex<double> passed in must be 16-byte aligned (cudaMalloc'd arrays are).
//
// Construction uploads the pattern, the analysis and the values once and allocates every
// device buffer; solves allocate nothing and copy no pattern. update_values() takes new
// values of the same pattern (ILU refactorization) without a new analysis. The kernel is
// fixed at construction (TrsvKernel; `automatic` resolves through trsv::choose_kernel).
// cusparse runs cuSPARSE SpSV on the same arrays: its analysis once here, and
// cusparseSpSV_updateMatrix for new values.
#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpuglu/options.hpp"
#include "gpuglu/trsv_kernel.hpp"
#include "analysis/triangle.hpp"
#include "analysis/trsv_analysis.hpp"

namespace gpuglu::cuda {

// Equivalent ways of running the same solves (Options::cuda): only the speed differs.
struct TrsvTuning {
  bool programmatic_launch = true;  // LEVR/LEVC: each level overlaps the previous level's drain
  int32_t run_passes = -1;          // LEVR single-block runs per level segment; -1: 1 up to 8192 rows, else 0
  bool level_graph = true;          // LEVR/LEVC: the level loop as one CUDA graph (false: launch by launch)
  static TrsvTuning from(const CudaTuning& c) {
    return {c.trsv_programmatic_launch, c.trsv_run_passes, c.level_graph};
  }
};

template <class Scalar>
class BasicTriangularSolver {
 public:
  // t: the triangle (host arrays); a: trsv::analyze(t). The values: `values` (nnz host
  // Scalars in t's CSR order, checked like update_values) when not null, else t.values
  // (double only: t.values must be null for a complex solver, which throws invalid_input
  // otherwise), else none: they are set later (update_values*, or written to
  // device_values()) and are zero until then.
  // device_ordinal < 0: the calling thread's current device. Throws gpuglu::Error (invalid_input when a does not
  // match t, out_of_memory naming the bytes asked, device_error, no_device).
  BasicTriangularSolver(const trsv::TriangleView& t, const trsv::TrsvAnalysis& a,
                        TrsvKernel kernel = TrsvKernel::automatic, int device_ordinal = -1,
                        const TrsvTuning& tuning = {}, const Scalar* values = nullptr);
  ~BasicTriangularSolver();
  BasicTriangularSolver(const BasicTriangularSolver&) = delete;
  BasicTriangularSolver& operator=(const BasicTriangularSolver&) = delete;

  // New values, same pattern: nnz values in t's CSR order. The host version checks them
  // first (as trsv::check_values: NaN/Inf in either part, zero diagonal); the device version
  // does not check and is asynchronous on stream().
  void update_values(const Scalar* values_host);
  void update_values_device(const Scalar* values_dev);
  // The device array of the nnz CSR values the kernels read: a producer on the device (the
  // LU engine's gather) writes them there, on stream(), then calls
  // update_values_device(device_values()), which copies nothing and refreshes what is
  // derived from them (LEVC/SLFC's column copy, cuSPARSE's copy).
  Scalar* device_values();
  // The pattern as uploaded (rowptr n + 1, colind nnz), copied back to the host: a
  // transposed solver is built from it on demand, without keeping a host copy alive.
  void download_pattern(std::vector<int64_t>& rowptr, std::vector<int32_t>& colind) const;

  // x = T^{-1} b on the device. b and x are device arrays of n Scalars; they may alias.
  // Asynchronous on stream() (call synchronize() before reading x from another stream). The
  // device inputs here and in update_values_device must be complete or ordered before work on
  // stream(): its own stream is non-blocking, so it does not wait for the legacy default
  // stream (a pageable cudaMemcpy there may return before its data has landed).
  void solve_device(const Scalar* b_dev, Scalar* x_dev);
  // nrhs right-hand sides, column-major with leading dimensions ldb, ldx (>= n); one solve
  // per column. Asynchronous like solve_device.
  void solve_many_device(int32_t nrhs, const Scalar* b_dev, int64_t ldb, Scalar* x_dev, int64_t ldx);

  // Host convenience: copies b up, solves, copies x back; synchronous. b and x may alias.
  void solve(const Scalar* b_host, Scalar* x_host);
  void solve_many(int32_t nrhs, const Scalar* b_host, int64_t ldb, Scalar* x_host, int64_t ldx);

  void synchronize();
  void* stream() const;            // the cudaStream_t every call is ordered on
  // Orders every later call on `stream` (a cudaStream_t of this object's device) instead
  // of the solver's own, so that L and U solves (and the Krylov work around them) chain on
  // one stream without events; nullptr goes back to the own stream.
  void use_stream(void* stream);
  TrsvKernel kernel() const;       // the kernel that runs (never automatic)
  int32_t group_size() const;      // lanes per unknown (kernel_choice.hpp)
  bool uses_graph() const;         // LEVR / LEVC: the level loop is one CUDA graph
  int64_t device_bytes() const;    // device memory held (cuSPARSE's buffer included)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class BasicTriangularSolver<double>;
extern template class BasicTriangularSolver<std::complex<double>>;
using TriangularSolver = BasicTriangularSolver<double>;
using ComplexTriangularSolver = BasicTriangularSolver<std::complex<double>>;

}  // namespace gpuglu::cuda
