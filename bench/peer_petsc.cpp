// PETSc's own sparse LU (MATSOLVERPETSC) with its default nested-dissection ordering:
// what a PETSc user gets from -pc_type lu without an external package. It does not
// pivot, so matrices with zero diagonals (MNA) make it fail; that is reported as such.
#include <petscmat.h>

#include <stdexcept>
#include <string>

#include "gpuglu/matrix_ops.hpp"
#include "peers.hpp"
#include "timing.hpp"

namespace gpuglu::bench {

namespace {

void check(PetscErrorCode ierr, const char* what) {
  if (ierr) throw std::runtime_error(std::string("PETSc LU: ") + what + " failed (error " + std::to_string(ierr) + ")");
}

// PETSc's error handler would print a traceback for an expected zero pivot: silence it.
PetscErrorCode quiet_handler(MPI_Comm, int, const char*, const char*, PetscErrorCode n, PetscErrorType, const char*,
                             void*) {
  return n;
}

MatFactorError factor_error(Mat f) {
  MatFactorError e = MAT_FACTOR_NOERROR;
  MatFactorGetError(f, &e);
  return e;
}

}  // namespace

PeerTimes run_petsc_lu(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r) {
  PetscPushErrorHandler(quiet_handler, nullptr);
  Mat A = nullptr, F = nullptr;
  IS row = nullptr, col = nullptr;
  Vec vb = nullptr, vx = nullptr;
  PeerTimes t;
  std::string failure;
  try {
    check(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, a.nrows, a.ncols, const_cast<PetscInt*>(a.rowptr.data()),
                                    const_cast<PetscInt*>(a.colind.data()), const_cast<PetscScalar*>(a.values.data()),
                                    &A),
          "MatCreateSeqAIJWithArrays");
    MatFactorInfo info;
    check(MatFactorInfoInitialize(&info), "MatFactorInfoInitialize");
    for (int w = 0; w <= r.warmup; ++w) {
      if (F) MatDestroy(&F);
      if (row) ISDestroy(&row), ISDestroy(&col);
      double t0 = now_ms();
      check(MatGetFactor(A, MATSOLVERPETSC, MAT_FACTOR_LU, &F), "MatGetFactor");
      check(MatGetOrdering(A, MATORDERINGND, &row, &col), "MatGetOrdering");
      check(MatLUFactorSymbolic(F, A, row, col, &info), "MatLUFactorSymbolic");
      t.analyze_ms = now_ms() - t0;
      t0 = now_ms();
      check(MatLUFactorNumeric(F, A, &info), "MatLUFactorNumeric");
      t.factor_ms = now_ms() - t0;
      if (factor_error(F) != MAT_FACTOR_NOERROR) throw std::runtime_error("PETSc LU: zero pivot (no pivoting)");
    }
    MatInfo minfo;
    check(MatGetInfo(F, MAT_LOCAL, &minfo), "MatGetInfo");
    t.nnz_factor = static_cast<int64_t>(minfo.nz_used);
    t.refactor_ms = median_ms(r.warmup, r.repeat, [&] { check(MatLUFactorNumeric(F, A, &info), "MatLUFactorNumeric"); });
    check(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, a.nrows, b.data(), &vb), "VecCreateSeqWithArray");
    check(VecDuplicate(vb, &vx), "VecDuplicate");
    t.solve_ms = median_ms(r.warmup, r.repeat, [&] { check(MatSolve(F, vb, vx), "MatSolve"); });
    const PetscScalar* x = nullptr;
    check(VecGetArrayRead(vx, &x), "VecGetArrayRead");
    t.residual = relative_residual(a.view(), x, b.data());
    check(VecRestoreArrayRead(vx, &x), "VecRestoreArrayRead");
  } catch (const std::exception& e) {
    failure = e.what();
  }
  VecDestroy(&vx);
  VecDestroy(&vb);
  ISDestroy(&row);
  ISDestroy(&col);
  MatDestroy(&F);
  MatDestroy(&A);
  PetscPopErrorHandler();
  if (!failure.empty()) throw std::runtime_error(failure);
  return t;
}

}  // namespace gpuglu::bench
