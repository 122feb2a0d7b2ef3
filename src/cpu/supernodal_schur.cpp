#include "cpu/supernodal_schur.hpp"

#include <string>

#include "cpu/supernodal_solve.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::reference {

namespace {

// s is a `kind` schedule (supernodal LU or LDL^T) that keeps a Schur block.
void require_schur(const Schedule& s, const char* what, FactorKind kind) {
  if (s.kind != kind || s.schur_supernode() < 0)
    throw Error(Status::invalid_input,
                std::string(what) + ": the schedule keeps no Schur block of a " + to_string(kind) + " factor");
}

}  // namespace

void read_schur_block(const Schedule& sched, const double* panels, double* s, int64_t ld) {
  const bool lower_only = sched.kind == FactorKind::supernodal_ldlt;
  require_schur(sched, "read_schur_block", lower_only ? FactorKind::supernodal_ldlt : FactorKind::supernodal_lu);
  const Supernodes& sn = sched.supernodes;
  const int32_t t = sched.schur_supernode();
  const int64_t k = sched.schur_size;
  const double* l = panels + sn.l_ptr[t];  // its rows are its columns: nr == ns == k
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i) s[i + j * ld] = lower_only && i < j ? l[j + i * k] : l[i + j * k];
}

void schur_forward_sweep(const Schedule& s, const double* panels, double* z, bool transpose, SupernodeRowOrder rows) {
  require_schur(s, "schur_forward_sweep", FactorKind::supernodal_lu);
  if (transpose)
    supernodal_upper_transpose_solve(s, panels, z);
  else
    supernodal_lower_unit_solve(s, panels, z, rows);
}

void schur_backward_sweep(const Schedule& s, const double* panels, double* z, bool transpose, SupernodeRowOrder rows) {
  require_schur(s, "schur_backward_sweep", FactorKind::supernodal_lu);
  if (transpose)
    supernodal_lower_unit_transpose_solve(s, panels, z, rows);
  else
    supernodal_upper_solve(s, panels, z);
}

void schur_ldlt_forward_sweep(const Schedule& s, const double* panels, const LdltPivots& pivots, double* z) {
  require_schur(s, "schur_ldlt_forward_sweep", FactorKind::supernodal_ldlt);
  supernodal_lower_unit_solve(s, panels, z, SupernodeRowOrder{nullptr, pivots.perm});
}

void schur_ldlt_backward_sweep(const Schedule& s, const double* panels, const LdltPivots& pivots, double* z) {
  require_schur(s, "schur_ldlt_backward_sweep", FactorKind::supernodal_ldlt);
  ldlt_diagonal_solve(s, panels, pivots, z, s.n - s.schur_size);
  supernodal_lower_unit_transpose_solve(s, panels, z, SupernodeRowOrder{nullptr, pivots.perm});
}

}  // namespace gpuglu::reference
