#pragma once
// What both level executors (level_numeric.cpp, right-looking; level_gather.cpp,
// left-looking) do around their own loops: each thread tallies the pivots it decided, the
// team runs the loop (or the caller alone, for one thread), and the tallies become the
// factorization's NumericStats. Min, max and sum are order-free, so the result does not
// depend on the thread count either.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/numeric_types.hpp"
#include "core/scalar.hpp"
#include "cpu/column_kernels.hpp"
#include "cpu/team_rule.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

struct PivotTally {
  double min_ratio = std::numeric_limits<double>::infinity();
  double max_active = 0.0;
  int64_t perturbed = 0;
  int32_t first_perturbed = std::numeric_limits<int32_t>::max();

  void add(const PivotOutcome& o, int32_t column) {
    min_ratio = std::min(min_ratio, o.ratio);
    max_active = std::max(max_active, o.colmax);
    perturbed += o.perturbed;
    if (o.perturbed) first_perturbed = std::min(first_perturbed, column);
  }
  void merge(const PivotTally& t) {
    min_ratio = std::min(min_ratio, t.min_ratio);
    max_active = std::max(max_active, t.max_active);
    perturbed += t.perturbed;
    first_perturbed = std::min(first_perturbed, t.first_perturbed);
  }
};

inline void lower_to_min(std::atomic<int32_t>& target, int32_t value) {
  int32_t cur = target.load(std::memory_order_relaxed);
  while (value < cur && !target.compare_exchange_weak(cur, value, std::memory_order_relaxed)) {
  }
}


// The threads a column factorization of s runs on, of the num_threads asked (0: OpenMP's
// default): one where its levels are too thin to share (on average: the column engines' team
// spans every level in one region).
inline int column_team_size(const Schedule& s, int num_threads) {
  if (s.num_levels() == 0 || s.factor_flops < kTeamMinFlopsPerLevel * s.num_levels()) return 1;
  return num_threads;
}

// run(tally) on num_threads threads (0: OpenMP's default) inside one parallel region, whose
// worksharing loops the executors' loops are; one thread runs it alone, where the orphaned
// worksharing loops bind to a team of one. Returns the merged tally.
template <class Run>
PivotTally run_team(int num_threads, Run&& run) {
  PivotTally total;
  const int threads = threads_of(num_threads);
  if (threads == 1) {
    run(total);
    return total;
  }
#pragma omp parallel num_threads(threads)
  {
    PivotTally local;
    run(local);
#pragma omp critical(gpuglu_level_tally)
    total.merge(local);
  }
  return total;
}

// Where each row of the current target column sits in F: filled once per (level,
// target) for the rows below its first source, so every update of that target indexes
// directly instead of walking the column once per source (which costs
// O(sources x column length) on long columns). A stamp per row marks the entries of
// the current target, so a stale position can never be used: a row of L(:, j) that the
// target column lacks is reported as missing fill. One workspace per thread, kept
// across factorizations: refactorization allocates nothing after the first.
struct TargetMap {
  std::vector<int64_t> where;
  std::vector<int64_t> stamp;
  int64_t tag = 0;

  void reserve(int32_t n) {
    if (static_cast<int32_t>(where.size()) < n) {
      where.assign(static_cast<size_t>(n), 0);
      stamp.assign(static_cast<size_t>(n), 0);
      tag = 0;
    }
  }
};

inline TargetMap& thread_map(int32_t n) {
  thread_local TargetMap map;
  map.reserve(n);
  return map;
}

// The factorization's statistics: the tally, and the smallest failing column (n: none)
// with its pivot as F holds it.
template <class T>
NumericStats numeric_stats(const Schedule& s, const T* f, const PivotTally& t, int32_t failed_column) {
  NumericStats out;
  out.min_pivot_ratio = s.n > 0 ? t.min_ratio : 1.0;
  out.max_active = t.max_active;
  out.perturbed_pivots = t.perturbed;
  out.first_perturbed = t.first_perturbed < s.n ? t.first_perturbed : -1;
  if (failed_column < s.n) {
    out.status = Status::numerically_singular;
    out.pivot_column = failed_column;
    out.pivot_value = reported_value(f[s.f_diag[failed_column]]);
  }
  return out;
}

}  // namespace gpuglu::reference
