#include "cuda/supernodal/ldlt_plan.hpp"

#include <algorithm>
#include <string>

#include "core/bunch_kaufman.hpp"
#include "cuda/supernodal/ldlt_kernels.cuh"
#include "cuda/supernodal/supernodal_plan.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

namespace {

void require(bool ok, const char* what) {
  if (!ok) throw Error(Status::invalid_input, std::string("CudaSupernodalLDLT: ") + what);
}

// Each batch's tile offsets start at 0 (pushed when the batch opened).
void close_batch(LdltBatch& b, const std::vector<int32_t>& nodes, const std::vector<int64_t>& tile_ptr) {
  b.count = static_cast<int32_t>(nodes.size() - b.begin);
  b.tiles = tile_ptr.back();
}

LdltNode node_of(const Supernodes& sn, int32_t t) { return {t, sn.first[t], sn.cols(t), sn.nrows(t), sn.l_ptr[t], 0}; }

// node's complement goes to DGEMM: its chunk (LdltWorkspaces sizes the workspace from it).
void plan_gemm_complement(LdltNode& node) {
  const int64_t nb = node.nr - node.ns;
  node.chunk = std::max<int64_t>(1, std::min(nb, kLdltGemmChunkDoubles / nb));
}

}  // namespace

LdltPlan plan_supernodal_ldlt(const Schedule& s, const DeviceFacts& facts, int32_t dense_min_cols) {
  require(s.kind == FactorKind::supernodal_ldlt, "the schedule is not a supernodal LDL^T's (Options::ldlt_engine)");
  const Supernodes& sn = s.supernodes;
  require(sn.first.size() == static_cast<size_t>(sn.count) + 1 && sn.rows_ptr.size() == sn.first.size() &&
              sn.l_ptr.size() == sn.first.size() && sn.of_col.size() == static_cast<size_t>(s.n) &&
              (sn.count == 0 || (sn.first[sn.count] == s.n && sn.l_ptr[sn.count] == sn.values)),
          "inconsistent supernodes");
  require(s.value_map.size() == static_cast<size_t>(s.input_nnz), "the value map does not cover the input");
  LdltPlan plan;
  for (const int32_t cols : {kernels::kLdltNarrowMaxCols, 96, 64, 32})
    if (kernels::ldlt_l21_smem(cols) <= static_cast<size_t>(facts.max_smem_per_block_optin)) {
      plan.small_max_cols = cols;
      break;
    }
  plan.pivot_pos.resize(static_cast<size_t>(s.n));
  for (int32_t j = 0; j < s.n; ++j) plan.pivot_pos[j] = sn.pivot_position(j);
  for (int32_t l = 0; l < sn.num_levels(); ++l) {
    LdltPlan::Level lv;
    lv.l21.begin = static_cast<int64_t>(plan.narrow_nodes.size());
    lv.l21.tile_begin = static_cast<int64_t>(plan.tile_ptr.size());
    plan.tile_ptr.push_back(0);
    // The narrow supernodes and their L21 tiles first (one batch), then their complements.
    for (int64_t i = sn.level_ptr[l]; i < sn.level_ptr[l + 1]; ++i) {
      const int32_t t = sn.level_nodes[i];
      LdltNode node = node_of(sn, t);
      const int64_t nb = node.nr - node.ns;
      if (node.ns <= plan.small_max_cols && !takes_dense_lu(node.ns, node.nr, dense_min_cols)) {
        plan.narrow_nodes.push_back(t);
        lv.narrow_max_cols = std::max(lv.narrow_max_cols, node.ns);
        plan.tile_ptr.push_back(plan.tile_ptr.back() + (nb + kernels::kLdltTileRows - 1) / kernels::kLdltTileRows);
        continue;
      }
      if (nb > 0) plan_gemm_complement(node);
      lv.wide.push_back(node);
    }
    close_batch(lv.l21, plan.narrow_nodes, plan.tile_ptr);
    lv.schur.begin = static_cast<int64_t>(plan.schur_nodes.size());
    lv.schur.tile_begin = static_cast<int64_t>(plan.tile_ptr.size());
    plan.tile_ptr.push_back(0);
    for (int64_t i = lv.l21.begin; i < lv.l21.begin + lv.l21.count; ++i) {
      const int32_t t = plan.narrow_nodes[i];
      const int64_t nb = sn.nrows(t) - sn.cols(t);
      if (nb == 0) continue;
      if (nb * nb * sn.cols(t) >= kLdltGemmSchurWork) {
        LdltNode node = node_of(sn, t);
        plan_gemm_complement(node);
        lv.narrow_gemm.push_back(node);
        continue;
      }
      const int64_t side = (nb + kernels::kLdltSchurTile - 1) / kernels::kLdltSchurTile;
      plan.schur_nodes.push_back(t);
      plan.tile_ptr.push_back(plan.tile_ptr.back() + side * (side + 1) / 2);
    }
    close_batch(lv.schur, plan.schur_nodes, plan.tile_ptr);
    plan.wide_nodes += static_cast<int64_t>(lv.wide.size());
    plan.narrow_gemm_nodes += static_cast<int64_t>(lv.narrow_gemm.size());
    plan.levels.push_back(std::move(lv));
  }
  return plan;
}

}  // namespace gpuglu::cuda
