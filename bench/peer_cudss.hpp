#pragma once
// cuDSS peer (built only when -DGPUGLU_CUDSS_ROOT points at a cuDSS install, e.g. the
// unpacked nvidia-cudss-cu13 wheel): see peer_cudss.cpp.
#include <vector>

#include "gpuglu/matrix.hpp"
#include "ldlt_problem.hpp"
#include "peers.hpp"

namespace gpuglu::bench {

// cuDSS on A as given (its own reordering and matching, its defaults otherwise).
// Throws std::runtime_error naming the failing call.
PeerTimes run_cudss(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r);

// cuDSS's symmetric factorization (gpuglu_ldlt_bench's peer `cudss_ldlt`), its defaults
// otherwise: CUDSS_MTYPE_SPD (Cholesky) where spd, else CUDSS_MTYPE_SYMMETRIC (LDL^T with
// its own pivoting and perturbation), on the lower triangle in CSR (CUDSS_MVIEW_LOWER).
// Refactorizations alternate lower's values and second_values as time_refactor says, ending
// on lower's; x is the solution of the last solve (the caller checks it against A); extra
// gets cuDSS's own statistics (INFO, perturbed pivots, inertia, nnz). budget_ms as
// fit_to_budget.
PeerTimes run_cudss_symmetric(const CsrMatrix<int32_t, double>& lower, const std::vector<double>& second_values,
                              bool spd, const std::vector<double>& b, const PeerRun& r, double budget_ms,
                              std::vector<double>& x, Extras& extra);

}  // namespace gpuglu::bench
