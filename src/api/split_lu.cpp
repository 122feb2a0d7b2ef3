// SplitLU's analysis and factorization (include/gpuglu/split_lu.hpp; the solves are in
// split_solve.cpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "analysis/input_pattern.hpp"
#include "analysis/symmetric_input.hpp"
#include "api/both_halves.hpp"
#include "api/split_lu_impl.hpp"
#include "gpuglu/options.hpp"

namespace gpuglu {

namespace {

// At most this many threads check A's pattern and values before a factorization: on the
// halves' two, the check of a large A was the longest step before the halves once A's upload
// was staged over threads (docs/performance.md, "Several GPUs"). A thread takes at least
// kCheckEntriesPerThread entries: on a small A the threads' start-up outweighs the pass.
constexpr int kCheckThreads = 8;
constexpr int64_t kCheckEntriesPerThread = int64_t{1} << 18;

std::string half_name(int d, const api::SplitHalf& h) {
  return "half " + std::to_string(d) + " of the split (part P" + std::to_string(d) + ": " +
         std::to_string(h.n_part) + " unknowns, and the separator: " + std::to_string(h.k) + ")";
}

}  // namespace

const char* to_string(RootFactorization r) noexcept {
  switch (r) {
    case RootFactorization::lu_pivoted: return "LU with partial pivoting";
    case RootFactorization::lu_unpivoted: return "LU without pivots";
    case RootFactorization::cholesky: return "Cholesky";
  }
  return "?";
}

SplitLU::SplitLU(const Options& options, std::vector<int32_t> devices, SplitFactorization factorization)
    : impl_(std::make_unique<Impl>()) {
  if (devices.size() != 2)
    throw Error(Status::invalid_input,
                "SplitLU: " + std::to_string(devices.size()) + " device ordinals given; the split takes exactly two");
  validate(options);
  impl_->options = options;
  impl_->devices = std::move(devices);
  impl_->factorization = factorization;
}

SplitLU::~SplitLU() = default;

// Each half runs on its own thread with half of the cores the caller gave the whole.
Options SplitLU::Impl::half_options(int d) const {
  Options o = options;
  o.device = devices[d];
  const int all = threads_of(options.num_threads);
  o.num_threads = std::max(1, all / 2);
  return o;
}

void SplitLU::analyze(const CsrView<int32_t, double>& a) {
  Impl& s = *impl_;
  s.analyzed = s.factored = false;
  s.device_path.reset();
  s.lu[0].reset();
  s.lu[1].reset();
  s.root.reset();
  s.fstats = FactorStats();
  s.half_stats = {};
  s.sstats = SolveStats();
  s.failure.clear();
  if (s.options.ordering == Ordering::given)
    throw Error(Status::unsupported, "SplitLU: ordering 'petsc' (given) is not supported: each half orders its own block");
  // An LDL^T split: A's symmetry checked once here, where its entries are A's (the halves'
  // analyses then skip it); no matching, which would make B unsymmetric.
  if (s.symmetric())
    (void)analysis::check_symmetric_input(a, StoredTriangle::full, /*check_symmetry=*/true, s.options.num_threads);
  const bool matching = s.options.matching && !s.symmetric();
  const analysis::InputPattern in = analysis::check_input(a, matching);
  s.partition = api::split_by_separator(in, matching, s.options.num_threads, /*keep_matched_together=*/s.symmetric());
  const int32_t k = s.k();
  for (int d = 0; d < 2; ++d) s.half[d] = api::build_half(a, s.partition, d);

  s.separator_block.clear();
  {
    std::vector<int32_t> place(static_cast<size_t>(in.n), -1);
    for (int32_t i = 0; i < k; ++i) place[s.partition.separator[i]] = i;
    for (int32_t i = 0; i < k; ++i) {
      const int32_t row = s.partition.row_of_col[s.partition.separator[i]];
      for (int32_t q = in.rowptr[row]; q < in.rowptr[row + 1]; ++q)
        if (const int32_t j = place[in.colind[q]]; j >= 0)
          s.separator_block.emplace_back(i + static_cast<int64_t>(j) * k, q);
    }
  }

  for (int d = 0; d < 2; ++d)
    if (s.half[d].n_part > 0) {
      if (s.symmetric())
        s.lu[d] = std::make_unique<SparseLDLT>(s.half_options(d));
      else
        s.lu[d] = std::make_unique<SparseLU>(s.half_options(d));
      std::vector<int32_t> schur(static_cast<size_t>(k));
      for (int32_t i = 0; i < k; ++i) schur[i] = s.half[d].n_part + i;
      s.lu[d]->set_schur_indices(std::move(schur));
    }
  // The analyses read A's values (the halves' matchings): A's, through the maps.
  for (int d = 0; d < 2; ++d) s.half[d].gather_values(a.values);
  api::run_both_halves([&](int d) {
    if (!s.present(d)) return;
    try {
      if (s.symmetric())
        static_cast<SparseLDLT&>(*s.lu[d]).analyze(s.half[d].m.view(), StoredTriangle::full, nullptr,
                                                    /*check_symmetry=*/false);
      else
        static_cast<SparseLU&>(*s.lu[d]).analyze(s.half[d].m.view());
    } catch (const Error& e) {
      throw Error(e.status(), "SplitLU: " + half_name(d, s.half[d]) + ": " + e.what() +
                                  "; the split cannot be used for this matrix (factor it on one device)");
    }
  });
  const int first = s.present(0) ? 0 : 1;
  const Backend root_backend = s.present(first) ? s.lu[first]->active_backend() : Backend::cpu;
  s.root = api::make_dense_root(root_backend, s.devices[0], PivotRule::from(s.options), s.symmetric());

  s.a_rowptr = in.rowptr;
  s.a_colind = in.colind;
  s.a_rowptr64.assign(in.rowptr.begin(), in.rowptr.end());
  s.a_values.clear();
  if (k > 0 && s.present(0) && s.present(1) && s.lu[0]->active_backend() == Backend::cuda &&
      s.lu[1]->active_backend() == Backend::cuda)
    s.device_path = api::make_split_device_path(s.partition, s.half, PatternRef{in.n, s.a_rowptr64.data(), s.a_colind.data()},
                                                {s.devices[0], s.devices[1]}, s.options.cuda.staging);
  s.analyzed = true;
}

const FactorStats& SplitLU::factor(const CsrView<int32_t, double>& a) {
  Impl& s = *impl_;
  if (!s.analyzed) throw Error(Status::not_analyzed, "SplitLU::factor(): analyze() has not been called");
  const int32_t n = s.partition.n;
  const int64_t nnz = static_cast<int64_t>(s.a_colind.size());
  auto changed = [] {
    return Error(Status::pattern_changed, "SplitLU::factor(): A's pattern is not the analyzed one (analyze() again)");
  };
  if (a.nrows != n || a.ncols != n || !a.rowptr || (nnz > 0 && (!a.colind || !a.values)) || a.rowptr[n] != nnz ||
      !std::equal(s.a_rowptr.begin(), s.a_rowptr.end(), a.rowptr))
    throw changed();
  // The column indices compared, the values looked for NaN/Inf and (on the host path) kept
  // for the refinement's residuals, each half of the entries on its own thread: on a large A
  // these passes cost as much as a half's refactorization.
  s.times = FactorTimes();
  auto lap = [last = std::chrono::steady_clock::now()](double& into) mutable {
    const auto now = std::chrono::steady_clock::now();
    into = std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
  };
  const bool keep = !s.device_path;
  s.a_values.resize(keep ? static_cast<size_t>(nnz) : 0);
  // The checks on two threads (the halves'), or up to kCheckThreads for a large A within the
  // process's share of cores, each over a contiguous range of A's entries.
  const int cores = threads_of(s.options.num_threads);
  const int64_t wanted = std::clamp<int64_t>(nnz / kCheckEntriesPerThread, 2, kCheckThreads);
  const int team = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>({wanted, cores, nnz})));
  std::vector<char> same(static_cast<size_t>(team), 1);
  std::vector<int64_t> bad(static_cast<size_t>(team), -1);
  // The device path's values go up beside the checks (A has nnz values, checked above): a
  // failed check leaves them unused.
  std::exception_ptr load_failed;
  std::thread loader;
  if (s.device_path)
    loader = std::thread([&] {
      try {
        const auto l0 = std::chrono::steady_clock::now();
        s.device_path->load(a.values);
        s.times.load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - l0).count();
      } catch (...) {
        load_failed = std::current_exception();
      }
    });
  api::run_on_threads(team, [&](int t) {
    const int64_t begin = nnz * t / team, end = nnz * (t + 1) / team;
    same[t] = std::equal(s.a_colind.begin() + begin, s.a_colind.begin() + end, a.colind + begin);
    for (int64_t q = begin; q < end; ++q) {
      const double v = a.values[q];
      if (keep) s.a_values[static_cast<size_t>(q)] = v;
      if (bad[t] < 0 && !std::isfinite(v)) bad[t] = q;
    }
  });
  if (loader.joinable()) loader.join();
  if (std::find(same.begin(), same.end(), 0) != same.end()) throw changed();
  if (load_failed) std::rethrow_exception(load_failed);
  lap(s.times.check_ms);
  const auto t0 = std::chrono::steady_clock::now();
  s.factored = false;
  const int64_t count = s.fstats.factorizations + 1;
  s.fstats = FactorStats();
  s.fstats.status = Status::ok;
  s.fstats.factorizations = count;
  s.half_stats = {};
  s.failure.clear();
  auto finish = [&]() -> const FactorStats& {
    s.factored = s.fstats.status == Status::ok;
    s.fstats.factor_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return s.fstats;
  };
  auto fail = [&](Status status, int32_t column, double value, std::string why) {
    s.fstats.status = status;
    s.fstats.pivot_column = s.fstats.pivot_column_original = column;
    s.fstats.pivot_value = value;
    s.failure = std::move(why);
  };

  // The first NaN/Inf in A's order: the first range's that has one.
  if (const auto first = std::find_if(bad.begin(), bad.end(), [](int64_t q) { return q >= 0; }); first != bad.end()) {
    const int64_t q = *first;
    const int32_t i = static_cast<int32_t>(std::upper_bound(a.rowptr, a.rowptr + n + 1, q) - a.rowptr - 1);
    fail(Status::nan_or_inf, a.colind[q], a.values[q],
         "entry (" + std::to_string(i) + ", " + std::to_string(a.colind[q]) + ") is " + std::to_string(a.values[q]));
    return finish();
  }

  const int32_t k = s.k();
  // A device root takes both blocks device to device (peer to peer from the other GPU);
  // B_SS is in half 0's block, so both halves must be there.
  double* on_device[2] = {nullptr, nullptr};
  const bool device_root = k > 0 && s.present(0) && s.present(1) && s.lu[0]->active_backend() == Backend::cuda &&
                           s.lu[1]->active_backend() == Backend::cuda && s.root->device_block(0, k) != nullptr;
  if (device_root)
    for (int d = 0; d < 2; ++d) on_device[d] = s.root->device_block(d, k);
  api::run_both_halves([&](int d) {
    if (!s.present(d)) return;
    if (s.device_path) {
      s.half_stats[d] = s.lu[d]->factor_device(s.device_path->half_values(d));
    } else {
      s.half[d].gather_values(a.values);
      s.half_stats[d] = s.lu[d]->factor(s.half[d].m.view());
    }
    if (s.half_stats[d].status != Status::ok || k == 0) return;
    if (device_root) {
      s.lu[d]->schur_complement_device(on_device[d], k);
      return;
    }
    s.schur[d].resize(static_cast<size_t>(k) * k);
    s.lu[d]->schur_complement(s.schur[d].data(), k);
  });

  lap(s.times.halves_ms);
  bool any = false;
  for (int d = 0; d < 2; ++d) {
    if (!s.present(d)) continue;
    const FactorStats& h = s.half_stats[d];
    s.fstats.perturbed_pivots += h.perturbed_pivots;
    s.fstats.pivoted_supernodes += h.pivoted_supernodes;
    s.fstats.growth = std::max(s.fstats.growth, h.growth);
    s.fstats.min_pivot_ratio = any ? std::min(s.fstats.min_pivot_ratio, h.min_pivot_ratio) : h.min_pivot_ratio;
    s.fstats.device_ms = std::max(s.fstats.device_ms, h.device_ms);
    any = true;
    if (h.status != Status::ok && s.fstats.status == Status::ok) {
      const int32_t column = h.pivot_column_original >= 0 ? s.half[d].global[h.pivot_column_original] : -1;
      fail(h.status, column, h.pivot_value,
           half_name(d, s.half[d]) + ": " + to_string(h.status) +
               (column >= 0 ? " at column " + std::to_string(column) + " of A" : std::string()) +
               "; the split cannot factor this matrix as it is partitioned (factor it on one device)");
    }
  }
  if (s.fstats.status != Status::ok) return finish();

  int64_t zero_pivot = -1;
  if (device_root) {
    zero_pivot = s.root->factor_device_blocks();
  } else {
    // S = S_0 + S_1; without half 0, B_SS enters here.
    s.s_sum.assign(static_cast<size_t>(k) * k, 0.0);
    for (int d = 0; d < 2; ++d)
      if (s.present(d) && k > 0)
        for (size_t e = 0; e < s.s_sum.size(); ++e) s.s_sum[e] += s.schur[d][e];
    if (!s.present(0))
      for (const auto& [place, q] : s.separator_block) s.s_sum[place] += a.values[q];
    zero_pivot = s.root->factor(s.s_sum.data(), k);
  }
  lap(s.times.root_ms);
  if (zero_pivot >= 0) {
    const int32_t column = s.partition.separator[zero_pivot];
    fail(Status::numerically_singular, column, 0.0,
         "the separator's Schur complement S (" + std::to_string(k) + " x " + std::to_string(k) +
             ") is singular: a zero pivot in column " + std::to_string(column) + " of A");
  }
  return finish();
}

void SplitLU::Impl::require_factored() const {
  if (!factored)
    throw Error(Status::not_factored,
                !analyzed        ? std::string("SplitLU: analyze() and factor() have not been called")
                : failure.empty() ? std::string("SplitLU: factor() has not been called since analyze()")
                                  : "SplitLU: the last factorization failed: " + failure);
}

bool SplitLU::analyzed() const noexcept { return impl_->analyzed; }
bool SplitLU::factored() const noexcept { return impl_->factored; }
int32_t SplitLU::n() const noexcept { return impl_->partition.n; }
int32_t SplitLU::separator_size() const noexcept { return impl_->k(); }
int32_t SplitLU::part_size(int d) const { return static_cast<int32_t>(part(d).size()); }
const std::vector<int32_t>& SplitLU::separator() const noexcept { return impl_->partition.separator; }
const std::vector<int32_t>& SplitLU::part(int d) const {
  if (d != 0 && d != 1) throw Error(Status::invalid_input, "SplitLU::part(): d = " + std::to_string(d));
  return impl_->partition.part[d];
}
const std::vector<int32_t>& SplitLU::devices() const noexcept { return impl_->devices; }
const Options& SplitLU::options() const noexcept { return impl_->options; }
const FactorStats& SplitLU::factor_stats() const noexcept { return impl_->fstats; }
const FactorStats& SplitLU::half_factor_stats(int d) const {
  if (d != 0 && d != 1) throw Error(Status::invalid_input, "SplitLU::half_factor_stats(): d = " + std::to_string(d));
  return impl_->half_stats[d];
}
const BasicSparseSolver<double>* SplitLU::half(int d) const {
  if (d != 0 && d != 1) throw Error(Status::invalid_input, "SplitLU::half(): d = " + std::to_string(d));
  return impl_->lu[d].get();
}
const SplitLU::FactorTimes& SplitLU::factor_times() const noexcept { return impl_->times; }
SplitLU::SolveTimes SplitLU::solve_times() const {
  return impl_->device_path ? impl_->device_path->solve_times() : SolveTimes();
}
const SolveStats& SplitLU::solve_stats() const noexcept { return impl_->sstats; }
const std::string& SplitLU::failure() const noexcept { return impl_->failure; }
RootFactorization SplitLU::root_factorization() const noexcept {
  return impl_->root ? impl_->root->factorization() : RootFactorization::lu_pivoted;
}
SplitFactorization SplitLU::factorization() const noexcept { return impl_->factorization; }

}  // namespace gpuglu
