#pragma once
// The supernodal analysis of the LU (Options::lu_engine == LuEngine::supernodal): the
// supernodes of C + C^T (C = B(q, q)) from CHOLMOD's supernodal symbolic analysis, with its
// relaxed amalgamation and its postorder of q, and the schedule's F pattern spelled out
// from them (include/gpuglu/supernodes.hpp has the layout).
#include <cstdint>
#include <vector>

#include "analysis/ordering.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

struct SupernodalPattern {
  std::vector<int32_t> q;  // q postordered: new -> old (B's indices)
  Supernodes supernodes;   // without f_pos (build_supernodal_factor, supernodal_factor.hpp, fills it)
  Ordering ordering = Ordering::given;  // CHOLMOD's choice when q was empty (amd or metis)
  // AnalysisTimes's sn_input_ms, sn_cholmod_ms and sn_panels_ms.
  double input_ms = 0, cholmod_ms = 0, panels_ms = 0;
};

// Supernodes of B(q, q) + B(q, q)^T. An empty q lets CHOLMOD order B + B^T by its default
// strategy - AMD, and METIS too where AMD's factor is full and flop-dense, the smaller factor
// kept (Ordering::automatic on this engine: its
// fill is that of B + B^T, which CHOLMOD's column counts measure exactly and cheaply).
SupernodalPattern supernodal_symbolic(const MatchedPattern& b, const std::vector<int32_t>& q);

}  // namespace gpuglu::analysis
