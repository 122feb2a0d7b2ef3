#include "solve_accuracy.hpp"

#include <cmath>
#include <limits>

#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::bench {

PetscErrorCode solve_accuracy(const RowBlock& m, Mat A, Vec b, Vec x, SolveAccuracy* acc) {
  Vec r = nullptr, x_all = nullptr;
  VecScatter to_all = nullptr;
  PetscReal rn = 0, bn = 0, en = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm(reinterpret_cast<PetscObject>(A), &comm));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  acc->residual = bn > 0 ? rn / bn : (rn == 0 ? 0.0 : std::numeric_limits<double>::infinity());
  PetscCall(VecCopy(x, r));
  PetscCall(VecShift(r, -1.0));
  PetscCall(VecNorm(r, NORM_INFINITY, &en));
  acc->error_inf = en;
  PetscCall(VecDestroy(&r));

  // The componentwise error needs |A| |x| row by row: each rank takes its rows' share with
  // the whole x (n doubles per rank, as much as its A rows' column indices may reach).
  PetscCall(VecScatterCreateToAll(x, &to_all, &x_all));
  PetscCall(VecScatterBegin(to_all, x, x_all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(to_all, x, x_all, INSERT_VALUES, SCATTER_FORWARD));
  const PetscScalar *xa = nullptr, *ba = nullptr;
  PetscCall(VecGetArrayRead(x_all, &xa));
  PetscCall(VecGetArrayRead(b, &ba));
  double local = backward_error(m.local.view(), xa, ba);
  if (std::isnan(local)) local = std::numeric_limits<double>::infinity();  // MPI_MAX's treatment of NaN is unspecified
  PetscCall(VecRestoreArrayRead(b, &ba));
  PetscCall(VecRestoreArrayRead(x_all, &xa));
  PetscCall(VecScatterDestroy(&to_all));
  PetscCall(VecDestroy(&x_all));
  PetscCallMPI(MPI_Allreduce(&local, &acc->backward_error, 1, MPI_DOUBLE, MPI_MAX, comm));
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::bench
