#pragma once
// The solvers gpuglu_ldlt_bench measures beside gpuglu's LDL^T, on the same SymProblem, each
// timed the same way: analysis and first factorization of A, refactorizations alternating
// A and S A S (time_refactor, ending on A), solves of A x = b, with the residual and the
// componentwise backward error of the solve. Each throws std::runtime_error naming the
// failure (a singular or indefinite matrix included). budget_ms bounds the repetitions of
// slow factorizations (fit_to_budget).
#include <vector>

#include "gpuglu/options.hpp"
#include "ldlt_problem.hpp"

namespace gpuglu::bench {

// gpuglu's LU (SparseLU) on the full matrix: the LDL^T's own fallback, and its baseline.
SymPeerTimes run_gpuglu_lu(const SymProblem& p, const PeerRun& r, double budget_ms, const Options& o);
// The column LDL^T (ldlt_engine column) on the same backend: peer gpuglu_ldlt_column.
SymPeerTimes run_gpuglu_ldlt_column(const SymProblem& p, const PeerRun& r, double budget_ms, const Options& o);
// UMFPACK's LU with partial pivoting, on one BLAS thread.
SymPeerTimes run_umfpack_sym(const SymProblem& p, const PeerRun& r, double budget_ms);
// CHOLMOD's supernodal LL^T (its default ordering), SPD only: one analysis, then per entry of
// threads (BLAS threads) its factorizations and solves, one result each.
std::vector<SymPeerTimes> run_cholmod(const SymProblem& p, const PeerRun& r, double budget_ms,
                                      const std::vector<int>& threads);
#ifdef GPUGLU_BENCH_HAVE_PETSC
// MUMPS's LDL^T through PETSc (MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY on SeqAIJ flagged symmetric,
// and SPD where p.spd: MUMPS's SYM = 1, else SYM = 2 with 2 x 2 pivots), one BLAS thread.
SymPeerTimes run_mumps_ldlt(const SymProblem& p, const PeerRun& r, double budget_ms);
#endif

}  // namespace gpuglu::bench
