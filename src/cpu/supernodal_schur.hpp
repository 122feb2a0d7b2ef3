#pragma once
// The CPU supernodal LU's and LDL^T's Schur-complement mode (Schedule::schur_size; the seam's
// schur_block / schur_forward / schur_backward, core/numeric_engine.hpp). The factorization
// pushed every update into the last supernode and never factored it, so its L panel - k x k,
// leading dimension k, no rows below - holds S_C = C22 - C21 C11^{-1} C12 (the LDL^T's: its
// lower triangle, the only one its updates write), and the sweeps of supernodal_solve.hpp
// stop before it.
#include <cstdint>

#include "core/supernode_pivoting.hpp"
#include "cpu/supernodal_ldlt.hpp"
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

// The LDL^T's (C = C^T: no transposed sweeps): forward, z1 := L11^{-1} z1 and the reduced
// right-hand side z2 - L21 z1; backward, with x2 in z's last k entries, z1 := L11^{-T}
// (D11^{-1} z1 - L21^T x2) = C11^{-1} (z1_before - C12 x2).
void schur_ldlt_forward_sweep(const Schedule& s, const double* panels, const LdltPivots& pivots, double* z);
void schur_ldlt_backward_sweep(const Schedule& s, const double* panels, const LdltPivots& pivots, double* z);

}  // namespace gpuglu::reference
