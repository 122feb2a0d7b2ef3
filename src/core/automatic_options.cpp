#include "core/automatic_options.hpp"

namespace gpuglu {

LuEngine resolve_lu_engine(const Options& o, const AutomaticFacts& f) {
  if (o.lu_engine != LuEngine::automatic) return o.lu_engine;
  if (f.complex || o.ilu_levels >= 0) return LuEngine::column;
  switch (o.backend) {
    case Backend::cpu: return LuEngine::column;
    case Backend::cuda: return LuEngine::supernodal;
    case Backend::automatic: break;
  }
  // The automatic backend factors on the GPU only with a usable device and a factor of at
  // least auto_gpu_min_factor_nnz; the analysis picks the engine before it knows the factor's
  // size (SparseLU re-analyses for the column engine when the factor stays on the CPU).
  return o.auto_gpu_min_factor_nnz >= 0 && f.device_usable ? LuEngine::supernodal : LuEngine::column;
}

// Unlike the LU's, the supernodal LDL^T is the faster engine on the CPU too, down to a few
// hundred unknowns (docs/performance.md, issue 28), complex ones in real form included:
// automatic is supernodal for every complete LDL^T, on either backend.
LuEngine resolve_ldlt_engine(const Options& o, const AutomaticFacts&) {
  if (o.ldlt_engine != LuEngine::automatic) return o.ldlt_engine;
  return o.ilu_levels >= 0 ? LuEngine::column : LuEngine::supernodal;
}

Options resolve_automatic(const Options& o, const AutomaticFacts& f) {
  Options r = o;
  r.lu_engine = resolve_lu_engine(o, f);
  r.ldlt_engine = resolve_ldlt_engine(o, f);
  if (r.modes.total_warps == 0 && f.device_usable) r.modes.total_warps = f.device_warps;
  return r;
}

}  // namespace gpuglu
