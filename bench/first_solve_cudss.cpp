// The first_solve benchmark's cuDSS peer: run_cudss_first_solve (peer_cudss.cpp) on the
// whole matrix of a one-rank run, b = A * ones as in the PETSc runs, checked the same way.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "first_solve.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "peer_cudss.hpp"

namespace gpuglu::bench {

FirstSolveResult run_first_solve_cudss(const RowBlock& m, MPI_Comm comm) {
  FirstSolveResult r;
  r.solver = "cudss";
  if (MPI_Comm_size(comm, &r.ranks) != MPI_SUCCESS) {
    r.failure = "MPI_Comm_size failed";
    return r;
  }
  if (r.ranks != 1 || m.local.nrows != m.n) {
    r.failure = "cudss runs on one rank (the whole matrix in one process)";
    return r;
  }
  const CsrMatrix<int32_t, double>& a = m.local;
  const std::vector<double> ones(static_cast<size_t>(a.nrows), 1.0);
  std::vector<double> b(ones.size()), x;
  spmv(a.view(), ones.data(), b.data());
  try {
    Extras stats;
    const CudssFirstSolve f = run_cudss_first_solve(a, b, x, stats);
    // Its uploads and the handle belong to the setup as PCSetUp's MatConvert and
    // MatGetFactor would hold them; the download of x to the solve, as MatSolve's.
    r.setup_ms = f.upload_ms + f.setup_ms + f.analysis_ms + f.factor_ms;
    r.solve_ms = f.solve_ms + f.download_ms;
    r.symbolic_ms = f.analysis_ms;
    r.numeric_ms = f.factor_ms;
    r.mat_solve_ms = f.solve_ms;
    r.nnz_factor = f.nnz_factor;
    r.ordering = "none (the solver orders itself)";
    r.extra["upload_ms"] = f.upload_ms;
    r.extra["handle_ms"] = f.setup_ms;
    r.extra["download_ms"] = f.download_ms;
    // peer_cudss names its statistics for a peer's record ("peer_info"); here cuDSS is the run.
    for (const auto& [key, value] : stats)
      r.extra["cudss_" + (key.rfind("peer_", 0) == 0 ? key.substr(5) : key)] = value;
  } catch (const std::exception& e) {
    r.failure = e.what();
    return r;
  }
  r.residual = relative_residual(a.view(), x.data(), b.data());
  r.backward_error = backward_error(a.view(), x.data(), b.data());
  r.error_inf = 0;
  for (double xi : x) {
    const double e = std::abs(xi - 1.0);
    if (std::isnan(e)) {
      r.error_inf = e;
      break;
    }
    r.error_inf = std::max(r.error_inf, e);
  }
  return r;
}

}  // namespace gpuglu::bench
