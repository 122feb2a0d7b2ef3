// make_pattern_solver (pattern_solver.hpp).
#include "cuda/trsv/pattern_solver.hpp"

#include <complex>

#include "gpuglu/status.hpp"
#include "analysis/trsv_analysis.hpp"

namespace gpuglu::cuda {

template <class Scalar>
std::unique_ptr<BasicTriangularSolver<Scalar>> make_pattern_solver(const trsv::TriangleView& t,
                                                                   const SolverChoices& c, int device,
                                                                   cudaStream_t stream) {
  trsv::TriangleView pattern = t;
  pattern.values = nullptr;
  trsv::TrsvAnalysis a;
  if (c.analysis_site == TrsvAnalysisSite::gpu) {
    try {
      a = analyze_with_device_levels(pattern, device, nullptr, c.kahn);
    } catch (const Error& e) {
      // A device without cooperative launches: the CPU computes the same levels.
      if (e.status() != Status::unsupported) throw;
      a = trsv::analyze(pattern);
    }
  } else {
    a = trsv::analyze(pattern);
  }
  auto solver = std::make_unique<BasicTriangularSolver<Scalar>>(pattern, a, c.kernel, device, c.trsv);
  solver->use_stream(stream);
  return solver;
}

template std::unique_ptr<BasicTriangularSolver<double>> make_pattern_solver<double>(const trsv::TriangleView&,
                                                                                    const SolverChoices&, int,
                                                                                    cudaStream_t);
template std::unique_ptr<BasicTriangularSolver<std::complex<double>>> make_pattern_solver<std::complex<double>>(
    const trsv::TriangleView&, const SolverChoices&, int, cudaStream_t);

}  // namespace gpuglu::cuda
