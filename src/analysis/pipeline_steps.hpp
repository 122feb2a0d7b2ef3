#pragma once
// Steps both analyses (LU: analyze.cpp; LDL^T: analyze_symmetric.cpp) share.
#include <chrono>
#include <new>
#include <string>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "gpuglu/schedule.hpp"
#include "gpuglu/status.hpp"
#include "gpuglu/options.hpp"

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

// The LDL^T's: C = S A(q, q) S, row_perm = col_perm = q.
inline void set_symmetric_permutation(Schedule& s, const std::vector<int32_t>& q) {
  s.col_perm = q;
  s.row_perm = q;
  s.col_perm_inv.resize(q.size());
  for (int32_t k = 0; k < s.n; ++k) s.col_perm_inv[q[k]] = k;
  s.row_perm_inv = s.col_perm_inv;
}

// Arrays of the analysis that are resized and then overwritten whole (F's pattern, its
// rows and the value map) take transparent huge pages (madvise; THP's "madvise" mode is
// the common default) while their total stays within this budget. Their zero-fill's page
// faults, 4 KiB at a time, cost more than spelling them out (issue 14). Huge pages help up
// to a few hundred MB of arrays and hurt above, where every 2 MiB page is fresh host memory
// (docs/performance_history.md, supernodal fourth step): hence the budget.
constexpr size_t kHugePageBudget = size_t{512} << 20;

// v.resize(n), with the huge-page hint where hint is set and v spans whole 2 MiB pages:
// contents and capacity are resize's, only the page size differs.
template <class T>
inline void resize_large(std::vector<T>& v, size_t n, bool hint) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr size_t kHuge = size_t{1} << 21;
  if (hint && v.empty() && n * sizeof(T) >= 2 * kHuge && v.capacity() < n) {
    std::vector<T>().swap(v);  // no contents to keep: the new block is allocated, not grown
    v.reserve(n);
    const auto begin = reinterpret_cast<uintptr_t>(v.data());
    const uintptr_t lo = (begin + kHuge - 1) & ~uintptr_t{kHuge - 1};
    const uintptr_t hi = (begin + n * sizeof(T)) & ~uintptr_t{kHuge - 1};
    if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);  // a hint: failure is harmless
  }
#else
  (void)hint;
#endif
  v.resize(n);
}

// The team of an analysis step: Options::num_threads (<= 0: OpenMP's default), or one thread
// where the step's work is below parallel_from (a team costs more than it saves there).
inline int team_size(int threads, int64_t work, int64_t parallel_from) {
  if (work < parallel_from) return 1;
  return threads_of(threads);
}

// Runs an analysis, turning a failed host allocation into Error(out_of_memory).
template <class Fn>
inline auto guarded(int64_t n, Fn&& analysis) -> decltype(analysis()) {
  try {
    return analysis();
  } catch (const std::bad_alloc&) {
    throw Error(Status::out_of_memory, "the analysis ran out of host memory (n = " + std::to_string(n) + ")");
  }
}

}  // namespace gpuglu::analysis
