#include "cpu/level_numeric.hpp"


#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

#include "cpu/column_kernels.hpp"
#include "cpu/level_run.hpp"

namespace gpuglu::reference {

namespace {

template <class T>
struct LevelRun {
  const Schedule& s;
  T* f;
  const PivotRule& rule;
  std::atomic<int32_t> failed_column;  // smallest failing column; n when none
  std::atomic<bool> missing_fill{false};
};

// All updates of target column k by the sources src[begin .. end) (positions of U(j, k)
// in column k, ascending): F(i, k) -= L(i, j) * U(j, k), sources in ascending order.
template <class T>
bool update_target(const int64_t* colptr, const int32_t* rowind, const int64_t* diag, T* f, int32_t k,
                   const int64_t* src, int64_t begin, int64_t end, TargetMap& map, bool incomplete) {
  if (end - begin == 1) {  // one source: a single merge walk is as cheap as building the map
    const int64_t pos = src[begin];
    return update_subcolumn(colptr, rowind, diag, f, rowind[pos], k, pos, incomplete);
  }
  const int64_t tag = ++map.tag;
  int64_t* where = map.where.data();
  int64_t* stamp = map.stamp.data();
  for (int64_t q = src[begin] + 1; q < colptr[k + 1]; ++q) {
    where[rowind[q]] = q;
    stamp[rowind[q]] = tag;
  }
  bool ok = true;
  for (int64_t e = begin; e < end; ++e) {
    const int64_t pos = src[e];
    const int32_t j = rowind[pos];
    const T u = f[pos];
    for (int64_t p = diag[j] + 1; p < colptr[j + 1]; ++p) {
      const int32_t i = rowind[p];
      if (stamp[i] != tag) {
        ok = ok && incomplete;  // ILU drops the update; LU has lost a fill entry
        continue;
      }
      f[where[i]] -= f[p] * u;
    }
  }
  return ok;
}

// Runs inside a parallel region (or on its own, where the orphaned worksharing loops
// bind to a team of one). Every thread executes the same level loop; the implicit
// barriers of the two worksharing loops separate the phases and the levels.
template <class T>
void run_levels(LevelRun<T>& run, PivotTally& local) {
  const Schedule& s = run.s;
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  const int64_t* level_ptr = s.level_ptr.data();
  const int32_t* level_cols = s.level_cols.data();
  const int64_t* target_ptr = s.level_target_ptr.data();
  const int32_t* target_col = s.target_col.data();
  const int64_t* src_ptr = s.target_src_ptr.data();
  const int64_t* src = s.target_src.data();
  T* f = run.f;
  const PivotRule rule = run.rule;
  const int32_t levels = s.num_levels();
  TargetMap& map = thread_map(s.n);

  for (int32_t l = 0; l < levels; ++l) {
#pragma omp for schedule(static)
    for (int64_t c = level_ptr[l]; c < level_ptr[l + 1]; ++c) {
      const int32_t j = level_cols[c];
      const PivotOutcome o = pivot_and_scale(colptr, diag, f, j, rule);
      local.add(o, j);
      if (o.failed) lower_to_min(run.failed_column, j);
    }
    // The barrier above orders every write of failed_column before this read, and no
    // thread writes it again before the barrier that ends phase 2: all threads agree.
    if (run.failed_column.load(std::memory_order_relaxed) < s.n) break;

    // Work per target varies by orders of magnitude (GLU3.0 Fig. 10): dynamic chunks.
#pragma omp for schedule(dynamic, 8)
    for (int64_t t = target_ptr[l]; t < target_ptr[l + 1]; ++t) {
      if (!update_target(colptr, rowind, diag, f, target_col[t], src, src_ptr[t], src_ptr[t + 1], map, s.incomplete))
        run.missing_fill.store(true, std::memory_order_relaxed);
    }
  }
}

}  // namespace

template <class T>
NumericStats factor_levels(const Schedule& s, T* f, const PivotRule& rule, int num_threads) {
  if (s.supernodal() || (s.num_levels() > 0 && s.level_target_ptr.size() != static_cast<size_t>(s.num_levels()) + 1))
    throw Error(Status::invalid_input,
                "factor_levels: needs a column schedule with its update lists (analysis/update_lists.hpp)");
  LevelRun<T> run{s, f, rule, {s.n}};
  const PivotTally total = run_team(num_threads, [&](PivotTally& local) { run_levels(run, local); });
  if (run.missing_fill.load())
    throw Error(Status::invalid_input,
                "factor_levels: the schedule's factor pattern lacks a fill entry an update needs");

  return numeric_stats(s, f, total, run.failed_column.load());
}

template NumericStats factor_levels(const Schedule&, double*, const PivotRule&, int);
template NumericStats factor_levels(const Schedule&, Complex*, const PivotRule&, int);

}  // namespace gpuglu::reference
