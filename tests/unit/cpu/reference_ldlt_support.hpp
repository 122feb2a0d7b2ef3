#pragma once
// The supernodal LDL^T on the reference backend's panels, with its pivots kept, for the tests
// that read the panels themselves (the unpivoted attempt, the sweep layout).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/numeric_types.hpp"
#include "cpu/scatter.hpp"
#include "cpu/supernodal_ldlt.hpp"
#include "gpuglu/matrix.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::test {

struct ReferenceLdlt {
  std::vector<double> panels;
  std::vector<int32_t> perm;
  std::vector<int8_t> kind;
  std::vector<double> off;
  std::vector<int8_t> pivoted;  // after the factorization: the supernodes that took Bunch-Kaufman
  NumericStats stats;
  bool failed = false;  // an unpivoted attempt failed (the stats mean nothing then)
  reference::LdltPivots pivots() { return {perm.data(), kind.data(), off.data()}; }
};

// a's values scattered into s's panels and factored on threads: every supernode tries the
// unpivoted factorization first where unpivoted, else takes Bunch-Kaufman.
inline ReferenceLdlt factor_reference_ldlt(const Schedule& s, const CsrMatrix<int32_t, double>& a, const Options& o,
                                           bool unpivoted, int32_t threads) {
  ReferenceLdlt r;
  r.panels.assign(static_cast<size_t>(s.supernodes.values), 0.0);
  const reference::ScatterResult sc = reference::scatter_values(s, a.values.data(), r.panels.data());
  EXPECT_LT(sc.bad_entry, 0);
  r.perm.assign(static_cast<size_t>(s.n), 0);
  r.kind.assign(static_cast<size_t>(s.n), 0);
  r.off.assign(static_cast<size_t>(s.n), 0.0);
  r.pivoted.assign(static_cast<size_t>(s.supernodes.count), unpivoted ? 0 : 1);
  r.stats = reference::factor_supernodal_ldlt(s, r.panels.data(), r.pivots(), PivotRule::from(o), threads,
                                              r.pivoted.data(), &r.failed);
  return r;
}

}  // namespace gpuglu::test
