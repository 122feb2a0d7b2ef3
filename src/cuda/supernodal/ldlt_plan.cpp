#include "cuda/supernodal/ldlt_plan.hpp"

#include <algorithm>
#include <string>

#include "core/bunch_kaufman.hpp"
#include "cuda/supernodal/supernodal_plan.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

namespace {

void require(bool ok, const char* what) {
  if (!ok) throw Error(Status::invalid_input, std::string("CudaSupernodalLDLT: ") + what);
}

}  // namespace

LdltPlan plan_supernodal_ldlt(const Schedule& s) {
  require(s.kind == FactorKind::supernodal_ldlt, "the schedule is not a supernodal LDL^T's (Options::ldlt_engine)");
  const Supernodes& sn = s.supernodes;
  require(sn.first.size() == static_cast<size_t>(sn.count) + 1 && sn.rows_ptr.size() == sn.first.size() &&
              sn.l_ptr.size() == sn.first.size() && sn.of_col.size() == static_cast<size_t>(s.n) &&
              (sn.count == 0 || (sn.first[sn.count] == s.n && sn.l_ptr[sn.count] == sn.values)),
          "inconsistent supernodes");
  require(s.value_map.size() == static_cast<size_t>(s.input_nnz), "the value map does not cover the input");
  LdltPlan plan;
  plan.level_nodes = sn.level_nodes;
  plan.pivot_pos.resize(static_cast<size_t>(s.n));
  for (int32_t j = 0; j < s.n; ++j) plan.pivot_pos[j] = sn.pivot_position(j);
  for (int32_t l = 0; l < sn.num_levels(); ++l) {
    LdltPlan::Level lv;
    lv.begin = sn.level_ptr[l];
    lv.count = static_cast<int32_t>(sn.level_ptr[l + 1] - sn.level_ptr[l]);
    lv.whole_begin = static_cast<int64_t>(plan.whole_nodes.size());
    lv.direct_begin = static_cast<int64_t>(plan.direct_nodes.size());
    for (int64_t i = sn.level_ptr[l]; i < sn.level_ptr[l + 1]; ++i) {
      const int32_t t = sn.level_nodes[i];
      LdltNode node{t, sn.cols(t), sn.nrows(t), sn.l_ptr[t], 0};
      const int64_t nb = node.nr - node.ns;
      // The LU's thresholds (supernodal_plan.hpp): the same kernels-versus-cuBLAS trade.
      const bool blocked = node.ns > kLdltPivotBlock &&
                           static_cast<int64_t>(node.ns) * node.ns * node.nr >= kBlockedMinWork;
      if (blocked) {
        lv.blocked.push_back(node);
        plan.w_doubles = std::max(plan.w_doubles, static_cast<int64_t>(node.ns) * kLdltPivotBlock);
      } else {
        plan.whole_nodes.push_back(t);
      }
      if (nb == 0) continue;
      if (nb * nb * node.ns >= kGemmMinWork) {
        node.chunk = std::max<int64_t>(1, std::min(nb, kGemmWorkspaceDoubles / nb));
        plan.c_doubles = std::max(plan.c_doubles, node.chunk * nb);
        plan.w_doubles = std::max(plan.w_doubles, nb * node.ns);
        lv.gemm.push_back(node);
      } else {
        plan.direct_nodes.push_back(t);
      }
    }
    lv.whole_count = static_cast<int32_t>(plan.whole_nodes.size() - lv.whole_begin);
    lv.direct_count = static_cast<int32_t>(plan.direct_nodes.size() - lv.direct_begin);
    plan.blocked_nodes += static_cast<int64_t>(lv.blocked.size());
    plan.gemm_nodes += static_cast<int64_t>(lv.gemm.size());
    plan.levels.push_back(std::move(lv));
  }
  return plan;
}

}  // namespace gpuglu::cuda
