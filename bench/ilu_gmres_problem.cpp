#include "ilu_gmres_problem.hpp"

#include <algorithm>

namespace gpuglu::bench {

IluProblem::~IluProblem() {
  // Destructors cannot pass errors on; PETSc reports a failing destroy itself.
  VecDestroy(&work_);
  VecDestroy(&x);
  VecDestroy(&b);
  MatDestroy(&A);
}

PetscErrorCode IluProblem::create(const BenchMatrix& m) {
  PetscMPIInt rank = 0, size = 1;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(m.a.nrows == m.a.ncols, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s: matrix is %d x %d, not square",
             m.name.c_str(), (int)m.a.nrows, (int)m.a.ncols);
  name = m.name;
  kind = m.kind;
  n = m.a.nrows;
  nnz = m.a.nnz();
  // PETSc's default split (PetscSplitOwnership): the first N % size ranks get one row more.
  const int64_t base = n / size, extra = n % size;
  const int64_t first = rank * base + std::min<int64_t>(rank, extra);
  const int64_t rows = base + (rank < extra ? 1 : 0);
  first_row_ = static_cast<PetscInt>(first);
  const int64_t begin = m.a.rowptr[first], end = m.a.rowptr[first + rows];
  rowptr_.resize(static_cast<size_t>(rows) + 1);
  for (int64_t i = 0; i <= rows; ++i) rowptr_[i] = static_cast<PetscInt>(m.a.rowptr[first + i] - begin);
  colind_.assign(m.a.colind.begin() + begin, m.a.colind.begin() + end);
  values_.assign(m.a.values.begin() + begin, m.a.values.begin() + end);
  const PetscInt local = static_cast<PetscInt>(rowptr_.size() - 1), global = static_cast<PetscInt>(n);
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, local, local, global, global));
  PetscCall(MatSetType(A, MATAIJ));
  // Only the call matching A's actual type (SeqAIJ on one rank, MPIAIJ on more) acts;
  // both insert the values and assemble.
  PetscCall(MatSeqAIJSetPreallocationCSR(A, rowptr_.data(), colind_.data(), values_.data()));
  PetscCall(MatMPIAIJSetPreallocationCSR(A, rowptr_.data(), colind_.data(), values_.data()));
  // refresh_values() must never change the pattern: a new entry would be an error, not a
  // silent change of what PCSetUp sees.
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(b, &work_));
  PetscCall(VecSet(work_, 1.0));
  PetscCall(MatMult(A, work_, b));  // b = A * ones
  PetscCall(VecSet(x, 0.0));
  PetscFunctionReturn(0);
}

PetscErrorCode IluProblem::refresh_values() {
  PetscFunctionBegin;
  const PetscInt local = static_cast<PetscInt>(rowptr_.size() - 1);
  for (PetscInt i = 0; i < local; ++i) {
    const PetscInt row = first_row_ + i, len = rowptr_[i + 1] - rowptr_[i];
    PetscCall(MatSetValues(A, 1, &row, len, colind_.data() + rowptr_[i], values_.data() + rowptr_[i], INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

PetscErrorCode IluProblem::relative_residual(PetscReal* r) const {
  PetscReal rn = 0, bn = 0;
  PetscFunctionBegin;
  PetscCall(MatMult(A, x, work_));
  PetscCall(VecAYPX(work_, -1.0, b));
  PetscCall(VecNorm(work_, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  *r = bn > 0 ? rn / bn : rn;
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::bench
