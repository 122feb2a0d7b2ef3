#pragma once
// The one rule for the options whose value `automatic` (or 0) means "decide from the
// problem and the machine": LuEngine::automatic and KernelModeThresholds::total_warps == 0.
// Pure: the caller finds the facts. The facades (src/api/engine_choice.hpp,
// analysis_options) query the device the factor would run on; the analysis, which queries
// no device, passes AutomaticFacts{} (no device) and so keeps an engine already resolved.
#include <cstdint>

#include "gpuglu/options.hpp"

namespace gpuglu {

struct AutomaticFacts {
  bool complex = false;        // complex scalars (the supernodal LU is real only)
  bool device_usable = false;  // the device a GPU factor would run on is usable
  int32_t device_warps = 0;    // its resident warps (DeviceInfo::total_warps()); 0: no device
};

// LuEngine::automatic: supernodal for a real complete LU on either backend, column for
// complex scalars and ILU. An explicit engine stays.
LuEngine resolve_lu_engine(const Options& o, const AutomaticFacts& f);
// LuEngine::automatic for the LDL^T (o.ldlt_engine): supernodal for a complete LDL^T on
// either backend (complex ones in real form, api/real_form_ldlt.hpp); column for ICC(k). An
// explicit engine stays.
LuEngine resolve_ldlt_engine(const Options& o, const AutomaticFacts& f);

// o with lu_engine resolved as above and modes.total_warps == 0 replaced by the device's
// resident warps (Eq. 7 of GLU3.0 sizes a level's warps by them); without a device it stays
// 0, which the CPU engines never read (Options::modes).
Options resolve_automatic(const Options& o, const AutomaticFacts& f);

}  // namespace gpuglu
