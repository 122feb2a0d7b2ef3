#pragma once
// The supernodal analysis of the LU (Options::lu_engine == LuEngine::supernodal): the
// supernodes of C + C^T (C = B(q, q)) from CHOLMOD's supernodal symbolic analysis, with its
// relaxed amalgamation and its postorder of q (include/gpuglu/supernodes.hpp has the layout).
#include <cstdint>
#include <vector>

#include "analysis/ordering.hpp"
#include "analysis/symmetric_graph.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

struct SupernodalPattern {
  std::vector<int32_t> q;  // q postordered: new -> old (B's indices)
  Supernodes supernodes;   // without f_pos (spell_out_factor, supernodal_factor.hpp, fills it)
  // AnalysisTimes's sn_input_ms, sn_cholmod_ms and sn_panels_ms.
  double input_ms = 0, cholmod_ms = 0, panels_ms = 0;
};

// How far CHOLMOD's relaxed amalgamation may go. The GPU engines pay per supernode (a level's
// launches, a panel's tiles), so CHOLMOD's defaults, which let a merge of small supernodes
// store up to 80% explicit zeros, pay there. The CPU sweeps and updates pay per stored entry:
// for a factor the automatic analysis sized for the CPU (amalgamation_for) fewer zeros are
// let in (kCpuZeroRelax), which made a 2,000-row subdomain's solve about a fifth faster and a
// generated circuit's 2.5 times (docs/performance.md, issue 29).
enum class Amalgamation { gpu, cpu };
// CHOLMOD's zrelax for Amalgamation::cpu (its nrelax, 4, 16 and 48 columns, kept).
inline constexpr double kCpuZeroRelax[3] = {0.2, 0.05, 0.02};

// The amalgamation of a factor whose ordering ended as `used`: Amalgamation::cpu where an
// automatic analysis sized it for the CPU, that is where the automatic ordering under
// Options::ordering_for_cpu (OrderingWork::amd_if_small) ended with AMD's order, which it
// keeps only for factors below kAmdKeepFlops (or for small n), far below where the cold start
// sends a factor to the GPU.
inline Amalgamation amalgamation_for(bool amd_if_small, Ordering used) {
  return amd_if_small && used == Ordering::amd ? Amalgamation::cpu : Amalgamation::gpu;
}

// Supernodes of B(q, q) + B(q, q)^T (q: n entries, new -> old); g is the graph of B + B^T.
// with_upper: the LU's U^T panels are laid out after the L panels; without (the LDL^T's),
// every u_ptr is l_ptr[count] and the panels hold L only. postorder false: q is kept as it
// is (it must list every column after its descendants in the elimination tree; the Schur
// analysis passes one whose trailing columns must stay last, schur_ordering.hpp).
SupernodalPattern supernodal_symbolic(const SymmetricGraph& g, const std::vector<int32_t>& q, int threads,
                                      bool with_upper = true, bool postorder = true,
                                      Amalgamation amalgamation = Amalgamation::gpu);

// The panels' layout from sn.first, sn.rows_ptr and sn.rows (each supernode's rows sorted):
// of_col, parent, l_ptr, u_ptr (after every L panel; empty U^T panels without with_upper)
// and values. The CHOLMOD analysis and the Schur block's isolation both end with it.
void lay_out_panels(Supernodes& sn, bool with_upper);

// sn.level_ptr and sn.level_nodes from sn.parent (supernodes.hpp's levels). alone_last >= 0:
// that supernode (a root) gets a level of its own after every other one, whatever its
// height: the Schur supernode, which the engines must reach only when all else is done.
void build_supernode_levels(Supernodes& sn, int32_t alone_last = -1);

}  // namespace gpuglu::analysis
