#include "core/automatic_options.hpp"

namespace gpuglu {

LuEngine resolve_lu_engine(const Options& o, const AutomaticFacts& f) {
  if (o.lu_engine != LuEngine::automatic) return o.lu_engine;
  if (f.complex || o.ilu_levels >= 0) return LuEngine::column;
  // The supernodal LU on either backend: on one CPU core it refactors the PDE matrices 4-12x
  // faster than the column engine (lap2d5 90^2, lap3d7 20^3), the circuits 1.4-2x, and loses
  // only fractions of a millisecond on factors of a few 10^4 entries (add32; docs/performance.md,
  // "CPU backend").
  return LuEngine::supernodal;
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
