#include "cpu/level_gather.hpp"


#include <algorithm>
#include <atomic>
#include <limits>
#include <vector>

#include "cpu/column_kernels.hpp"
#include "cpu/level_run.hpp"

namespace gpuglu::reference {

namespace {

// Dense work column of one thread. stamp[i] == tag marks the rows of the current
// column, so an update that reaches a row outside its pattern is detected, not lost.
template <class T>
struct WorkColumn {
  std::vector<T> x;
  std::vector<int64_t> stamp;
  int64_t tag = 0;
};

template <class T>
WorkColumn<T>& thread_work(int32_t n) {
  thread_local WorkColumn<T> w;
  if (static_cast<int32_t>(w.x.size()) < n) {
    w.x.assign(static_cast<size_t>(n), T(0.0));
    w.stamp.assign(static_cast<size_t>(n), 0);
    w.tag = 0;
  }
  return w;
}

// Column k's sources j = U rows of column k, ascending: U(j, k) is final once every
// smaller source has been applied (they are the only ones that can update it).
template <class T>
bool gather_column(const int64_t* colptr, const int32_t* rowind, const int64_t* diag, T* f, int32_t k,
                   WorkColumn<T>& w, bool incomplete) {
  const int64_t begin = colptr[k], end = colptr[k + 1], d = diag[k];
  const int64_t tag = ++w.tag;
  T* x = w.x.data();
  int64_t* stamp = w.stamp.data();
  for (int64_t p = begin; p < end; ++p) {
    x[rowind[p]] = f[p];
    stamp[rowind[p]] = tag;
  }
  bool ok = true;
  for (int64_t p = begin; p < d; ++p) {
    const int32_t j = rowind[p];
    const T u = x[j];
    f[p] = u;
    if (u == T(0.0)) continue;  // exact: subtracting 0 * L changes nothing (not even -0 here, x - 0 == x)
    for (int64_t q = diag[j] + 1; q < colptr[j + 1]; ++q) {
      const int32_t i = rowind[q];
      if (stamp[i] != tag) {
        ok = ok && incomplete;  // ILU drops the update; LU has lost a fill entry
        continue;
      }
      x[i] -= f[q] * u;
    }
  }
  for (int64_t p = d; p < end; ++p) f[p] = x[rowind[p]];
  return ok;
}

template <class T>
struct GatherRun {
  const Schedule& s;
  T* f;
  const PivotRule& rule;
  std::atomic<int32_t> failed_column;
  // The level of the first failure. Threads leave the loop by comparing it with their own
  // level: a fast thread may already fail in level l+1 while a slow one still decides
  // about level l, and a test on failed_column alone would then split the team (deadlock).
  std::atomic<int32_t> failed_level;
  std::atomic<bool> missing_fill{false};
};

template <class T>
void run_levels(GatherRun<T>& run, PivotTally& local) {
  const Schedule& s = run.s;
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  const int64_t* level_ptr = s.level_ptr.data();
  const int32_t* level_cols = s.level_cols.data();
  T* f = run.f;
  const PivotRule rule = run.rule;
  WorkColumn<T>& w = thread_work<T>(s.n);
  auto factor_column = [&](int32_t k) {
    if (!gather_column(colptr, rowind, diag, f, k, w, run.s.incomplete)) run.missing_fill.store(true, std::memory_order_relaxed);
    const PivotOutcome o = pivot_and_scale(colptr, diag, f, k, rule);
    local.add(o, k);
    return o.failed;
  };
  // A team of one walks the columns in their own order, which every dependency (on earlier
  // columns only) respects, instead of the levels' wavefronts across F: the same updates in
  // the same order per column, so the same factor to the bit, read with the locality of a
  // sequential sweep. It stops at the first failing column in elimination order (a team
  // stops after the failing level, and reports its smallest failing column).
  if (omp_get_num_threads() == 1) {
    for (int32_t k = 0; k < s.n; ++k)
      if (factor_column(k)) {
        lower_to_min(run.failed_column, k);
        lower_to_min(run.failed_level, s.level_of[k]);
        return;
      }
    return;
  }
  for (int32_t l = 0; l < s.num_levels(); ++l) {
    // Column costs vary by orders of magnitude within a level: dynamic chunks.
#pragma omp for schedule(dynamic, 4)
    for (int64_t c = level_ptr[l]; c < level_ptr[l + 1]; ++c) {
      const int32_t k = level_cols[c];
      if (factor_column(k)) {
        lower_to_min(run.failed_column, k);
        lower_to_min(run.failed_level, l);
      }
    }
    // The loop's implicit barrier orders all writes of level l before this read.
    if (run.failed_level.load(std::memory_order_relaxed) <= l) break;
  }
}

}  // namespace

template <class T>
NumericStats factor_levels_gather(const Schedule& s, T* f, const PivotRule& rule, int num_threads) {
  if (s.supernodal()) throw Error(Status::invalid_input, "factor_levels_gather: needs a column schedule");
  GatherRun<T> run{s, f, rule, {s.n}, {s.num_levels()}};
  const PivotTally total = run_team(num_threads, [&](PivotTally& local) { run_levels(run, local); });
  if (run.missing_fill.load())
    throw Error(Status::invalid_input,
                "factor_levels_gather: the schedule's factor pattern lacks a fill entry an update needs");
  return numeric_stats(s, f, total, run.failed_column.load());
}

template NumericStats factor_levels_gather(const Schedule&, double*, const PivotRule&, int);
template NumericStats factor_levels_gather(const Schedule&, Complex*, const PivotRule&, int);

}  // namespace gpuglu::reference
