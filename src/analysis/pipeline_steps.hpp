#pragma once
// Steps both analyses (LU: analyze.cpp; LDL^T: analyze_symmetric.cpp) share.
#include <chrono>
#include <new>
#include <string>
#include <cstdint>
#include <vector>

#include "gpuglu/schedule.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

class Stopwatch {
 public:
  double lap_ms() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// From the row and column order on: C = B(q, q) with B(k, :) = A(row_of_col[k], :), i.e.
// row_perm[k] = row_of_col[q[k]] and col_perm = q. Both analyses end here.
inline void set_permutations(Schedule& s, const std::vector<int32_t>& row_of_col, const std::vector<int32_t>& q) {
  s.col_perm = q;
  s.row_perm.resize(q.size());
  for (size_t k = 0; k < q.size(); ++k) s.row_perm[k] = row_of_col[q[k]];
  s.row_perm_inv.resize(q.size());
  s.col_perm_inv.resize(q.size());
  for (int32_t k = 0; k < s.n; ++k) {
    s.row_perm_inv[s.row_perm[k]] = k;
    s.col_perm_inv[s.col_perm[k]] = k;
  }
}

// Runs an analysis, turning a failed host allocation into Error(out_of_memory).
template <class Fn>
inline Schedule guarded(int64_t n, Fn&& analysis) {
  try {
    return analysis();
  } catch (const std::bad_alloc&) {
    throw Error(Status::out_of_memory, "the analysis ran out of host memory (n = " + std::to_string(n) + ")");
  }
}

}  // namespace gpuglu::analysis
