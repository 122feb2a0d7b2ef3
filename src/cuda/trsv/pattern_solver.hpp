#pragma once
// How the CUDA engines build the triangular solvers of their factors (LuSolves: L, U, U^T,
// L^T; LdltSolves: L, L^T): from a triangle's pattern alone, since the values come from F
// after every factorization by one gather, with the level analysis done once per pattern
// where Options::trsv_analysis says, and the solves ordered on the engine's stream.
#include <cuda_runtime.h>

#include <memory>

#include "cuda/trsv/cuda_trsv.hpp"
#include "cuda/trsv/trsv_levels.hpp"
#include "gpuglu/options.hpp"
#include "analysis/triangle.hpp"

namespace gpuglu::cuda {

// The solvers' run-time choices, taken from Options once.
struct SolverChoices {
  TrsvKernel kernel = TrsvKernel::automatic;
  TrsvAnalysisSite analysis_site = TrsvAnalysisSite::cpu;
  TrsvTuning trsv{};
  KahnTuning kahn{};
  static SolverChoices from(const Options& o) {
    return {o.trsv_kernel, o.trsv_analysis, TrsvTuning::from(o.cuda), KahnTuning::from(o.cuda)};
  }
};

// A solver of t's pattern (t.values unused: zero until written to device_values()) on
// `device`, ordered on `stream`. The GPU's level analysis falls back to the CPU's, which
// computes the same levels, on a device without cooperative launches. Scalar: double or
// std::complex<double> (instantiated in pattern_solver.cu); the analysis is the same.
template <class Scalar = double>
std::unique_ptr<BasicTriangularSolver<Scalar>> make_pattern_solver(const trsv::TriangleView& t,
                                                                   const SolverChoices& c, int device,
                                                                   cudaStream_t stream);

}  // namespace gpuglu::cuda
