#pragma once
// The peer solvers measured beside gpuglu, each behind the same small interface:
// one-time analysis (+ first factorization where the peer cannot separate them),
// numeric refactorization with new values, and one solve.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpuglu/matrix.hpp"

namespace gpuglu::bench {

struct PeerTimes {
  double analyze_ms = 0;   // symbolic analysis
  double factor_ms = 0;    // first numeric factorization
  double refactor_ms = 0;  // median numeric refactorization (same pattern, new values)
  double solve_ms = 0;     // median solve, one right-hand side
  int64_t nnz_factor = 0;  // nnz(L + U) as the peer reports it (-1 unknown)
  double residual = -1;    // relative residual of its solve
};

struct PeerRun {
  int warmup = 1;
  int repeat = 5;
};

// Each throws std::runtime_error with the peer's status when it fails.
PeerTimes run_klu(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r);
PeerTimes run_umfpack(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r);
#ifdef GPUGLU_BENCH_HAVE_PETSC
PeerTimes run_petsc_lu(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r);
#endif

}  // namespace gpuglu::bench
