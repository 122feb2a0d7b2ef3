#pragma once
// cuDSS peer (built only when -DGPUGLU_CUDSS_ROOT points at a cuDSS install, e.g. the
// unpacked nvidia-cudss-cu13 wheel): see peer_cudss.cpp.
#include <complex>
#include <vector>

#include "gpuglu/matrix.hpp"
#include "ldlt_problem.hpp"
#include "peers.hpp"

namespace gpuglu::bench {

// cuDSS on A as given (its own reordering and matching, its defaults otherwise); devices > 1:
// its multi-GPU mode over devices 0 .. devices - 1 (cudssCreateMg; A and b on device 0).
// Throws std::runtime_error naming the failing call.
PeerTimes run_cudss(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r,
                    int devices = 1);

// cuDSS's first solve of A x = b from host data (gpuglu_first_solve_bench's peer `cudss`), as
// PETSc's MATSOLVERCUDSS would run one: A (CSR), b and x uploaded, the handle and its objects
// created, ANALYSIS, FACTORIZATION, one SOLVE, x copied back; each step synchronized and timed.
// x is the solution; extra gets cuDSS's INFO and perturbed pivots.
struct CudssFirstSolve {
  double upload_ms = 0, setup_ms = 0, analysis_ms = 0, factor_ms = 0, solve_ms = 0, download_ms = 0;
  int64_t nnz_factor = -1;  // CUDSS_DATA_LU_NNZ; -1: not reported
};
CudssFirstSolve run_cudss_first_solve(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b,
                                      std::vector<double>& x, Extras& extra);

// cuDSS's symmetric factorization (gpuglu_ldlt_bench's peer `cudss_ldlt`), its defaults
// otherwise: CUDSS_MTYPE_SPD (Cholesky) where spd, else CUDSS_MTYPE_SYMMETRIC (LDL^T with
// its own pivoting and perturbation), on the lower triangle in CSR (CUDSS_MVIEW_LOWER).
// Refactorizations alternate lower's values and second_values as time_refactor says, ending
// on lower's; x is the solution of the last solve (the caller checks it against A); extra
// gets cuDSS's own statistics (INFO, perturbed pivots, inertia, nnz, peak device memory).
// budget_ms as fit_to_budget. bunch_kaufman (indefinite only): cuDSS 1.0's Bunch-Kaufman
// pivoting with 2 steps of its refinement instead of its defaults. devices > 1: its multi-GPU
// mode, as run_cudss's.
PeerTimes run_cudss_symmetric(const CsrMatrix<int32_t, double>& lower, const std::vector<double>& second_values,
                              bool spd, const std::vector<double>& b, const PeerRun& r, double budget_ms,
                              std::vector<double>& x, Extras& extra, bool bunch_kaufman = false, int devices = 1);

// cuDSS on complex values (CUDA_C_64F), gpuglu_complex_bench's peer: general = LU of the full
// matrix m (CUDSS_MTYPE_GENERAL); symmetric (A = A^T) and hermitian (A = A^H) = LDL^T / LDL^H
// of m holding the lower triangle (CUDSS_MVIEW_LOWER). Refactorizations alternate m's values
// and second_values (time_refactor, ending on m's); x is the last solve's solution (the caller
// checks it against A); extra as run_cudss_symmetric's (peer_mtype, INFO, pivots, inertia).
enum class CudssComplexType { general, symmetric, hermitian };
PeerTimes run_cudss_complex(const CsrMatrix<int32_t, std::complex<double>>& m,
                            const std::vector<std::complex<double>>& second_values, CudssComplexType type,
                            const std::vector<std::complex<double>>& b, const PeerRun& r,
                            std::vector<std::complex<double>>& x, Extras& extra);

}  // namespace gpuglu::bench
