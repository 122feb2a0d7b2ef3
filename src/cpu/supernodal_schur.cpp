#include "cpu/supernodal_schur.hpp"

#include <string>

#include "cpu/supernodal_solve.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::reference {

namespace {

void require_schur(const Schedule& s, const char* what) {
  if (s.kind != FactorKind::supernodal_lu || s.schur_supernode() < 0)
    throw Error(Status::invalid_input, std::string(what) + ": the schedule keeps no Schur block");
}

}  // namespace

void read_schur_block(const Schedule& sched, const double* panels, double* s, int64_t ld) {
  require_schur(sched, "read_schur_block");
  const Supernodes& sn = sched.supernodes;
  const int32_t t = sched.schur_supernode();
  const int64_t k = sched.schur_size;
  const double* l = panels + sn.l_ptr[t];  // its rows are its columns: nr == ns == k
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i) s[i + j * ld] = l[i + j * k];
}

void schur_forward_sweep(const Schedule& s, const double* panels, double* z, bool transpose, SupernodeRowOrder rows) {
  require_schur(s, "schur_forward_sweep");
  if (transpose)
    supernodal_upper_transpose_solve(s, panels, z);
  else
    supernodal_lower_unit_solve(s, panels, z, rows);
}

void schur_backward_sweep(const Schedule& s, const double* panels, double* z, bool transpose, SupernodeRowOrder rows) {
  require_schur(s, "schur_backward_sweep");
  if (transpose)
    supernodal_lower_unit_transpose_solve(s, panels, z, rows);
  else
    supernodal_upper_solve(s, panels, z);
}

}  // namespace gpuglu::reference
