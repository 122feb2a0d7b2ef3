#include "reference/level_numeric.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>

#include "reference/column_kernels.hpp"

namespace gpuglu::reference {

namespace {

// Per-thread statistics, combined once at the end (min / max / sum: order-free, so
// the combined result does not depend on the thread count either).
struct ThreadStats {
  double min_ratio = std::numeric_limits<double>::infinity();
  double max_active = 0.0;
  int64_t perturbed = 0;
};

struct LevelRun {
  const Schedule& s;
  double* f;
  const PivotRule& rule;
  std::atomic<int32_t> failed_column;  // smallest failing column; n when none
  std::atomic<bool> missing_fill{false};
};

void lower_to_min(std::atomic<int32_t>& target, int32_t value) {
  int32_t cur = target.load(std::memory_order_relaxed);
  while (value < cur && !target.compare_exchange_weak(cur, value, std::memory_order_relaxed)) {
  }
}

// Runs inside a parallel region (or on its own, where the orphaned worksharing loops
// bind to a team of one). Every thread executes the same level loop; the implicit
// barriers of the two worksharing loops separate the phases and the levels.
void run_levels(LevelRun& run, ThreadStats& local) {
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
  double* f = run.f;
  const PivotRule rule = run.rule;
  const int32_t levels = s.num_levels();

  for (int32_t l = 0; l < levels; ++l) {
#pragma omp for schedule(static)
    for (int64_t c = level_ptr[l]; c < level_ptr[l + 1]; ++c) {
      const int32_t j = level_cols[c];
      const PivotOutcome o = pivot_and_scale(colptr, diag, f, j, rule);
      local.min_ratio = std::min(local.min_ratio, o.ratio);
      local.max_active = std::max(local.max_active, o.colmax);
      local.perturbed += o.perturbed;
      if (o.failed) lower_to_min(run.failed_column, j);
    }
    // The barrier above orders every write of failed_column before this read, and no
    // thread writes it again before the barrier that ends phase 2: all threads agree.
    if (run.failed_column.load(std::memory_order_relaxed) < s.n) break;

    // Work per target varies by orders of magnitude (GLU3.0 Fig. 10): dynamic chunks.
#pragma omp for schedule(dynamic, 8)
    for (int64_t t = target_ptr[l]; t < target_ptr[l + 1]; ++t) {
      const int32_t k = target_col[t];
      bool ok = true;
      for (int64_t e = src_ptr[t]; e < src_ptr[t + 1]; ++e) {
        const int64_t pos = src[e];
        ok &= update_subcolumn(colptr, rowind, diag, f, rowind[pos], k, pos);
      }
      if (!ok) run.missing_fill.store(true, std::memory_order_relaxed);
    }
  }
}

}  // namespace

NumericStats factor_levels(const Schedule& s, double* f, const PivotRule& rule, int num_threads) {
  LevelRun run{s, f, rule, {s.n}};
  ThreadStats total;
  const int threads = num_threads > 0 ? num_threads : omp_get_max_threads();
  if (threads == 1) {
    run_levels(run, total);
  } else {
#pragma omp parallel num_threads(threads)
    {
      ThreadStats local;
      run_levels(run, local);
#pragma omp critical(gpuglu_level_stats)
      {
        total.min_ratio = std::min(total.min_ratio, local.min_ratio);
        total.max_active = std::max(total.max_active, local.max_active);
        total.perturbed += local.perturbed;
      }
    }
  }
  if (run.missing_fill.load())
    throw Error(Status::invalid_input,
                "factor_levels: the schedule's factor pattern lacks a fill entry an update needs");

  NumericStats out;
  out.min_pivot_ratio = s.n > 0 ? total.min_ratio : 1.0;
  out.max_active = total.max_active;
  out.perturbed_pivots = total.perturbed;
  const int32_t failed = run.failed_column.load();
  if (failed < s.n) {
    out.status = Status::numerically_singular;
    out.pivot_column = failed;
    out.pivot_value = f[s.f_diag[failed]];
  }
  return out;
}

}  // namespace gpuglu::reference
