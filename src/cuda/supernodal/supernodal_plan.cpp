// plan_supernodal (supernodal_plan.hpp): every index the kernels follow is checked here,
// once, so that a schedule that does not hold the layout is an invalid_input error and not
// a wild access on the device. The Schur complement's rows being in the target's rows is
// the one property left to the kernels (a miss sets missing_fill).
#include "cuda/supernodal/supernodal_plan.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "cuda/supernodal/panel_smem.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {
namespace {

void require(bool ok, const char* what) {
  if (!ok) throw Error(Status::invalid_input, std::string("CudaSupernodalLU: ") + what);
}

template <class V>
bool has_size(const V& v, int64_t n) {
  return static_cast<int64_t>(v.size()) == n;
}

// The stepped trailing update's block (kernels' kScatterThreads) and its grid's cap per
// supernode: a grid-stride loop beyond it.
constexpr int64_t kTrailingThreads = 256;
constexpr int64_t kMaxTrailingBlocks = 1024;


int threads_for(int64_t work, int max_threads) {
  const int64_t t = std::max<int64_t>(32, (work + 31) / 32 * 32);
  return static_cast<int>(std::min<int64_t>(t, max_threads));
}

// A resident level's block: a warp per column being updated, as many as its widest panel
// updates at once (up to 32) when its supernodes are few; when they are many, the warps the GPU
// holds (its SMs x kResidentWarpsPerSm) shared among them, and at least a warp each. (A cap
// of 32 warps measured best: docs/performance_history.md, seventh step.)
// The resident kernel's occupancy: __launch_bounds__(1024) leaves it 64 registers a thread,
// so one SM's 64K registers hold 1024 of its threads, 32 warps.
constexpr int64_t kResidentWarpsPerSm = 32;
int resident_threads(int32_t count, int32_t max_cols, const DeviceFacts& facts) {
  const int64_t resident_warps = static_cast<int64_t>(facts.sm_count) * kResidentWarpsPerSm;
  const int64_t by_width = std::max<int64_t>(1, std::min<int64_t>(max_cols - 1, 32));
  const int64_t by_count = std::max<int64_t>(1, resident_warps / std::max<int32_t>(count, 1));
  return static_cast<int>(32 * std::min(by_width, by_count));
}

// A blocked supernode's steps: resident kBlockWidth (or, too tall for that, kNarrowBlockWidth)
// columns at a time where they fit shared memory, staged kBlockWidth otherwise.
BlockedNode blocked_node(const Supernodes& sn, int32_t t, bool staged, bool resident, size_t smem_limit) {
  const int64_t nr = sn.nrows(t);
  BlockedNode b = blocked_panels(sn, t);
  for (int32_t width : {kBlockWidth, kNarrowBlockWidth}) {
    if (!resident || kernels::resident_smem_bytes(nr, 0, width, smem_limit) == 0) continue;
    b.width = width;
    b.resident = true;
    b.threads = 32 * std::min(width, 32);
    b.smem = kernels::resident_smem_bytes(nr, 0, width, smem_limit);
    return b;
  }
  b.threads = threads_for(nr, 1024);
  b.smem = staged ? kernels::panel_smem_bytes(nr, kBlockWidth, smem_limit) : 0;
  return b;
}

}  // namespace

void check_supernodal_schedule(const Schedule& s) {
  require(s.supernodal(), "the schedule is not supernodal (Options::lu_engine)");
  require(!s.symmetric() && !s.incomplete, "a supernodal schedule is a complete LU's");
  const int32_t n = s.n;
  const Supernodes& sn = s.supernodes;
  require(n >= 0 && has_size(s.value_map, s.input_nnz) && has_size(s.value_scale, s.input_nnz),
          "the value map does not match input_nnz");
  require(s.nnz_l + s.nnz_u == 2 * s.nnz_l + n, "the factor's counts are inconsistent");
  for (int64_t p = 0; p < s.input_nnz; ++p)
    require(s.value_map[p] >= 0 && s.value_map[p] < sn.values, "a value map entry is outside the panels");
  // F entry by entry, where it was spelled out (the solves through F read it).
  const int64_t nnz_f = static_cast<int64_t>(s.f_rowind.size());
  if (s.factor_spelled_out()) {
    require(has_size(s.f_colptr, int64_t{n} + 1) && has_size(s.f_diag, n) && s.nnz_l + s.nnz_u == nnz_f &&
                has_size(sn.f_pos, nnz_f),
            "the factor pattern's arrays are inconsistent");
    require(has_size(s.l_rowptr, int64_t{n} + 1) && has_size(s.u_rowptr, int64_t{n} + 1),
            "the factor's rows (l_rowptr, u_rowptr), which the solves through F need, are missing");
  }

  const int32_t count = sn.count;
  require(count >= 0 && (count > 0 || n == 0), "no supernodes");
  if (count == 0) return;  // n == 0: nothing to index
  require(has_size(sn.first, int64_t{count} + 1) && has_size(sn.rows_ptr, int64_t{count} + 1) &&
              has_size(sn.l_ptr, int64_t{count} + 1) && has_size(sn.u_ptr, int64_t{count} + 1) &&
              has_size(sn.of_col, n) && has_size(sn.level_nodes, count),
          "the supernodes' arrays have the wrong sizes");
  require(sn.first[0] == 0 && sn.first[count] == n && sn.rows_ptr[0] == 0 &&
              has_size(sn.rows, sn.rows_ptr[count]) && sn.l_ptr[count] == sn.u_ptr[0] &&
              sn.u_ptr[count] == sn.values && sn.l_ptr[0] >= 0,
          "the supernodes' pointers do not span their arrays");
  for (int32_t t = 0; t < count; ++t) {
    const int32_t ns = sn.first[t + 1] - sn.first[t];
    const int64_t nr = sn.rows_ptr[t + 1] - sn.rows_ptr[t];
    require(ns > 0 && nr >= ns, "a supernode has no columns, or fewer rows than columns");
    require(sn.l_ptr[t + 1] - sn.l_ptr[t] == nr * ns && sn.u_ptr[t + 1] - sn.u_ptr[t] == (nr - ns) * ns,
            "a supernode's panels do not have its nr x ns and (nr - ns) x ns entries");
    const int32_t* r = sn.rows.data() + sn.rows_ptr[t];
    for (int64_t i = 0; i < nr; ++i) {
      require(r[i] >= 0 && r[i] < n && (i == 0 || r[i] > r[i - 1]), "a supernode's rows are not ascending in 0..n-1");
      if (i < ns) require(r[i] == sn.first[t] + i, "a supernode's rows do not start with its own columns");
    }
    for (int32_t j = sn.first[t]; j < sn.first[t + 1]; ++j) require(sn.of_col[j] == t, "of_col disagrees with first");
  }
  const int64_t levels = sn.level_ptr.empty() ? 0 : static_cast<int64_t>(sn.level_ptr.size()) - 1;
  require(count == 0 || (levels > 0 && sn.level_ptr[0] == 0 && sn.level_ptr[levels] == count),
          "the supernodal levels do not cover the supernodes");
  for (int64_t l = 0; l < levels; ++l) require(sn.level_ptr[l + 1] >= sn.level_ptr[l], "level_ptr decreases");
  std::vector<char> seen(static_cast<size_t>(count), 0);
  for (int32_t t : sn.level_nodes) {
    require(t >= 0 && t < count && !seen[t], "level_nodes is not a permutation of the supernodes");
    seen[t] = 1;
  }
  for (int64_t pos : sn.f_pos) require(pos >= 0 && pos < sn.values, "an f_pos entry is outside the panels");
}

SupernodalPlan plan_supernodal(const Schedule& s, const CudaTuning& tuning, const DeviceFacts& facts) {
  const size_t smem_limit = kernels::panel_smem_limit(facts);
  const bool staged = tuning.supernodal_staged_panels;
  const bool resident = tuning.supernodal_resident_panels && staged;
  const int32_t stepped_max_nodes = tuning.supernodal_stepped_max_nodes;
  const int32_t stepped_min_entries = tuning.supernodal_stepped_min_entries;
  const int32_t dense_min_cols = tuning.supernodal_dense_min_cols;
  check_supernodal_schedule(s);
  const Supernodes& sn = s.supernodes;
  SupernodalPlan plan;
  plan.pivot_pos.resize(static_cast<size_t>(s.n));
  for (int32_t j = 0; j < s.n; ++j) plan.pivot_pos[j] = sn.pivot_position(j);
  const int32_t levels = sn.num_levels();
  plan.levels.resize(static_cast<size_t>(std::max(levels, 0)));
  for (int32_t l = 0; l < levels; ++l) {
    SupernodalPlan::Level& lv = plan.levels[l];
    lv.begin = sn.level_ptr[l];
    lv.count = static_cast<int32_t>(sn.level_ptr[l + 1] - sn.level_ptr[l]);
    lv.direct_begin = static_cast<int64_t>(plan.direct_nodes.size());
    lv.panel_begin = static_cast<int64_t>(plan.panel_nodes.size());
    int64_t max_rows = 0, max_direct_nb = 0, max_staged = 0, max_resident = 0;
    int32_t max_cols = 0;
    for (int64_t e = sn.level_ptr[l]; e < sn.level_ptr[l + 1]; ++e) {
      const int32_t t = sn.level_nodes[e];
      const int32_t ns = sn.cols(t);
      const int64_t nr = sn.nrows(t);
      const int64_t nb = nr - ns;
      const int64_t work = static_cast<int64_t>(ns) * ns;  // times nr, compared without overflow
      if (takes_dense_lu(ns, nr, dense_min_cols) ||
          (ns >= kBlockedMinCols && work >= (kBlockedMinWork + nr - 1) / nr)) {
        lv.blocked.push_back(blocked_node(sn, t, staged, resident, smem_limit));
        ++plan.blocked_nodes;
      } else {
        plan.panel_nodes.push_back(t);
        max_rows = std::max(max_rows, nr);
        max_staged = std::max(max_staged, nr + ns);
        max_cols = std::max(max_cols, ns);
        max_resident = std::max(max_resident, (nr + nb) * ns);
      }
      if (nb == 0) continue;  // a root: no complement
      if (nb * nb < (kGemmMinWork + ns - 1) / ns) {  // nb * nb * ns < kGemmMinWork, without overflow
        plan.direct_nodes.push_back(t);
        max_direct_nb = std::max(max_direct_nb, nb);
        continue;
      }
      GemmNode g;
      g.s = t;
      g.ns = ns;
      g.nr = nr;
      g.l_ptr = sn.l_ptr[t];
      g.u_ptr = sn.u_ptr[t];
      g.chunk = std::max<int64_t>(1, std::min(nb, kGemmWorkspaceDoubles / nb));
      lv.gemm.push_back(g);
      ++plan.gemm_nodes;
    }
    lv.direct_count = static_cast<int32_t>(static_cast<int64_t>(plan.direct_nodes.size()) - lv.direct_begin);
    lv.panel_count = static_cast<int32_t>(static_cast<int64_t>(plan.panel_nodes.size()) - lv.panel_begin);
    // A panel's threads each keep a row: as many as its tallest panel has rows, up to 512.
    lv.panel_threads = threads_for(max_rows, 512);
    lv.panel_smem = staged ? kernels::panel_smem_bytes(max_staged, 0, smem_limit) : 0;
    lv.direct_tiles = static_cast<int32_t>(kernels::schur_tiles(max_direct_nb));
    if (resident && lv.panel_count > 0 && kernels::resident_smem_bytes(max_resident, 0, 1, smem_limit) > 0) {
      lv.resident = true;
      lv.panel_smem = kernels::resident_smem_bytes(max_resident, 0, 1, smem_limit);
      lv.panel_threads = resident_threads(lv.panel_count, max_cols, facts);
      continue;
    }
    // Few supernodes, panels that fit shared memory and a first step whose trailing update is
    // large enough to pay for two launches per step: stepped, each step's trailing update over
    // a grid sized for its largest supernode's entries.
    if (staged && lv.panel_count > 0 && lv.panel_count <= stepped_max_nodes && max_cols > kernels::kPanelWidth &&
        kernels::panel_smem_bytes(max_rows, 0, smem_limit) > 0) {
      std::vector<uint32_t> blocks;
      int64_t first_entries = 0;
      for (int32_t kb = 0; kb < max_cols; kb += kernels::kPanelWidth) {
        const int32_t ke = kb + kernels::kPanelWidth;
        int64_t entries = 0;
        for (int64_t q = lv.panel_begin; q < lv.panel_begin + lv.panel_count; ++q) {
          const int32_t t = plan.panel_nodes[q];
          const int32_t ns = sn.cols(t);
          const int64_t nr = sn.nrows(t);
          if (ke < ns) entries = std::max(entries, (nr - ke + nr - ns) * (ns - ke));
        }
        if (kb == 0) first_entries = entries;
        blocks.push_back(static_cast<uint32_t>(
            std::min<int64_t>((entries + kTrailingThreads - 1) / kTrailingThreads, kMaxTrailingBlocks)));
      }
      if (first_entries >= stepped_min_entries) {
        lv.stepped = true;
        lv.panel_max_cols = max_cols;
        lv.panel_smem = kernels::panel_smem_bytes(max_rows, 0, smem_limit);
        lv.trailing_blocks = std::move(blocks);
      }
    }
  }
  return plan;
}

}  // namespace gpuglu::cuda
