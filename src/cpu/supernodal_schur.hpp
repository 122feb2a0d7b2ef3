#pragma once
// The CPU supernodal LU's Schur-complement mode (Schedule::schur_size; the seam's
// schur_block / schur_forward / schur_backward, core/numeric_engine.hpp). The factorization
// pushed every update into the last supernode and never factored it, so its L panel - k x k,
// leading dimension k, no rows below - holds S_C = C22 - C21 C11^{-1} C12, and the sweeps of
// supernodal_solve.hpp stop before it.
#include <cstdint>

#include "core/supernode_pivoting.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

// S_C out of the panels into s (column-major, leading dimension ld >= schur_size).
void read_schur_block(const Schedule& sched, const double* panels, double* s, int64_t ld);

// In place on z (n entries, C's numbering): the forward sweep up to the Schur block (L11, or
// U11^T with transpose) and the backward sweep from it (U11, or L11^T), as the seam says.
void schur_forward_sweep(const Schedule& s, const double* panels, double* z, bool transpose,
                         SupernodeRowOrder rows = {});
void schur_backward_sweep(const Schedule& s, const double* panels, double* z, bool transpose,
                          SupernodeRowOrder rows = {});

}  // namespace gpuglu::reference
