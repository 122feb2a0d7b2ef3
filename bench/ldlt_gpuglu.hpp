#pragma once
// gpuglu's LDL^T (SparseLDLT) on one SymProblem, timed as the peers are (ldlt_peers.hpp):
// analysis, first factorization, refactorizations alternating A and S A S, solves, plus
// what only gpuglu reports (perturbed pivots, the LU fallback, inertia, levels).
#include <string>

#include "gpuglu/options.hpp"
#include "ldlt_problem.hpp"

namespace gpuglu::bench {

struct OursLdlt {
  std::string variant;  // gpuglu-ldlt-<backend>-<threads>t
  std::string failure;  // empty when every phase succeeded; else the phase and why
  double analysis_ms = 0, first_factor_ms = 0, refactor_ms = 0;
  double solve_ms = 0;          // bare triangular solves (refinement off), the work a peer's solve does
  double solve_refined_ms = 0;  // the default solve (backward error checked, refined where needed)
  int repeat = 0;
  int64_t nnz_factor = 0;       // nnz(L + D)
  double flops = 0;             // of one numeric factorization (the schedule's count)
  Extras extra;                 // everything else, for the JSON records
};

OursLdlt run_ours_ldlt(const SymProblem& p, const PeerRun& r, double budget_ms, int analysis_repeat, const Options& o);

// nnz(L + D), levels and analysis time only (--analyze-only: the fill of a candidate matrix).
Extras analyze_only(const SymProblem& p, const Options& o);

}  // namespace gpuglu::bench
