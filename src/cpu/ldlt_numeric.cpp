#include "cpu/ldlt_numeric.hpp"

#include <atomic>
#include <cstdint>

#include "cpu/column_kernels.hpp"
#include "cpu/level_run.hpp"

namespace gpuglu::reference {

namespace {

template <class T>
struct LdltRun {
  const Schedule& s;
  T* f;
  const PivotRule& rule;
  bool hermitian;
  std::atomic<int32_t> failed_column;  // smallest failing column; n when none
  std::atomic<bool> missing_fill{false};
};

// All updates of target column j by its sources: for each source k (ascending) with L(j, k)
// at pos, u = L(j, k) * d_k and F(i, j) -= L(i, k) * u over the rows i >= j of column k,
// which start at pos itself (i = j updates the diagonal d_j). Column j's rows are mapped
// once (TargetMap) so every source indexes them directly.
template <class T>
bool update_target(const Schedule& s, T* f, int32_t j, int64_t begin, int64_t end, TargetMap& map, bool hermitian) {
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  const int64_t tag = ++map.tag;
  int64_t* where = map.where.data();
  int64_t* stamp = map.stamp.data();
  for (int64_t q = diag[j]; q < colptr[j + 1]; ++q) {
    where[rowind[q]] = q;
    stamp[rowind[q]] = tag;
  }
  bool ok = true;
  for (int64_t e = begin; e < end; ++e) {
    const int64_t pos = s.target_src[e];
    const int32_t k = s.target_src_col[e];
    const T u = conj_if(hermitian, f[pos]) * f[diag[k]];
    for (int64_t p = pos; p < colptr[k + 1]; ++p) {
      const int32_t i = rowind[p];
      if (stamp[i] != tag) {
        ok = ok && s.incomplete;  // ICC drops the update; LDL^T has lost a fill entry
        continue;
      }
      f[where[i]] -= f[p] * u;
    }
  }
  return ok;
}

// The two phases per level, as factor_levels runs them (level_numeric.cpp).
template <class T>
void run_levels(LdltRun<T>& run, PivotTally& local) {
  const Schedule& s = run.s;
  const int64_t* colptr = s.f_colptr.data();
  const int64_t* diag = s.f_diag.data();
  T* f = run.f;
  const PivotRule rule = run.rule;
  TargetMap& map = thread_map(s.n);
  for (int32_t l = 0; l < s.num_levels(); ++l) {
#pragma omp for schedule(static)
    for (int64_t c = s.level_ptr[l]; c < s.level_ptr[l + 1]; ++c) {
      const int32_t k = s.level_cols[c];
      if (run.hermitian) f[diag[k]] = real_part(f[diag[k]]);
      // The column holds d_k then L(:, k): the LU's pivot test and scaling apply as they are.
      const PivotOutcome o = pivot_and_scale(colptr, diag, f, k, rule);
      local.add(o, k);
      if (o.failed) lower_to_min(run.failed_column, k);
    }
    // The barrier above orders every write of failed_column before this read.
    if (run.failed_column.load(std::memory_order_relaxed) < s.n) break;
#pragma omp for schedule(dynamic, 8)
    for (int64_t t = s.level_target_ptr[l]; t < s.level_target_ptr[l + 1]; ++t) {
      if (!update_target(s, f, s.target_col[t], s.target_src_ptr[t], s.target_src_ptr[t + 1], map, run.hermitian))
        run.missing_fill.store(true, std::memory_order_relaxed);
    }
  }
}

}  // namespace

template <class T>
NumericStats factor_ldlt_levels(const Schedule& s, T* f, const PivotRule& rule, int num_threads, bool hermitian) {
  LdltRun<T> run{s, f, rule, hermitian, {s.n}};
  const PivotTally total = run_team(num_threads, [&](PivotTally& local) { run_levels(run, local); });
  if (run.missing_fill.load())
    throw Error(Status::invalid_input,
                "factor_ldlt_levels: the schedule's factor pattern lacks a fill entry an update needs");
  return numeric_stats(s, f, total, run.failed_column.load());
}

template NumericStats factor_ldlt_levels(const Schedule&, double*, const PivotRule&, int, bool);
template NumericStats factor_ldlt_levels(const Schedule&, Complex*, const PivotRule&, int, bool);

}  // namespace gpuglu::reference
