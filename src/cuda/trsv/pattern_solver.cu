// make_pattern_solver (pattern_solver.hpp).
#include "cuda/trsv/pattern_solver.hpp"

#include "gpuglu/status.hpp"
#include "trsv/trsv_analysis.hpp"

namespace gpuglu::cuda {

std::unique_ptr<TriangularSolver> make_pattern_solver(const trsv::TriangleView& t, const SolverChoices& c, int device,
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
  auto solver = std::make_unique<TriangularSolver>(pattern, a, c.kernel, device, c.trsv);
  solver->use_stream(stream);
  return solver;
}

}  // namespace gpuglu::cuda
