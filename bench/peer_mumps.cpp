// MUMPS's symmetric factorization through PETSc (peer `mumps_ldlt` of gpuglu_ldlt_bench):
// what a PETSc user gets from -pc_type cholesky -pc_factor_mat_solver_type mumps. The
// SeqAIJ matrix is flagged MAT_SYMMETRIC (and MAT_SPD where the problem is known SPD), so
// PETSc hands MUMPS its upper triangle with SYM = 2 (LDL^T with 1 x 1 and 2 x 2 pivots) or
// SYM = 1 (LL^T without pivoting). MUMPS orders itself (ICNTL(7) automatic); PETSc's
// ordering is not used. One BLAS thread (its parallelism on one node is the BLAS's).
#include <petscmat.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "blas_threads.hpp"
#include "ldlt_peers.hpp"

namespace gpuglu::bench {

namespace {

void check(PetscErrorCode ierr, const char* what) {
  if (ierr) throw std::runtime_error(std::string("MUMPS (PETSc): ") + what + " failed (error " + std::to_string(ierr) + ")");
}

// A singular or failed factorization is an expected outcome here, not a traceback.
PetscErrorCode quiet_handler(MPI_Comm, int, const char*, const char*, PetscErrorCode n, PetscErrorType, const char*,
                             void*) {
  return n;
}

PetscInt infog(Mat f, PetscInt i) {
  PetscInt v = 0;
  check(MatMumpsGetInfog(f, i, &v), "MatMumpsGetInfog");
  return v;
}

bool factor_failed(Mat f) {
  MatFactorError e = MAT_FACTOR_NOERROR;
  MatFactorGetError(f, &e);
  return e != MAT_FACTOR_NOERROR;
}

void check_factor(Mat f) {
  if (!factor_failed(f)) return;
  throw std::runtime_error("MUMPS: factorization failed (INFOG(1) = " + std::to_string(infog(f, 1)) +
                           ", INFOG(2) = " + std::to_string(infog(f, 2)) +
                           (infog(f, 1) == -10 ? ": numerically singular)" : ")"));
}

}  // namespace

SymPeerTimes run_mumps_ldlt(const SymProblem& p, const PeerRun& r0, double budget_ms) {
  set_blas_threads(1);
  PetscPushErrorHandler(quiet_handler, nullptr);
  std::vector<double> values = p.a.values;  // A's array: the refactorizations copy the next set into it
  Mat A = nullptr, F = nullptr;
  IS row = nullptr, col = nullptr;
  Vec vb = nullptr, vx = nullptr;
  SymPeerTimes t;
  std::string failure;
  try {
    check(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, p.a.nrows, p.a.ncols, const_cast<PetscInt*>(p.a.rowptr.data()),
                                    const_cast<PetscInt*>(p.a.colind.data()), values.data(), &A),
          "MatCreateSeqAIJWithArrays");
    check(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE), "MatSetOption(MAT_SYMMETRIC)");
    check(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE), "MatSetOption(MAT_SYMMETRY_ETERNAL)");
    if (p.spd) check(MatSetOption(A, MAT_SPD, PETSC_TRUE), "MatSetOption(MAT_SPD)");
    MatFactorInfo info;
    check(MatFactorInfoInitialize(&info), "MatFactorInfoInitialize");
    // ICNTL(14): the workspace MUMPS adds, in percent, for pivots delayed beyond its
    // analysis's estimate. INFOG(1) = -9 says it was too small; as a PETSc user would
    // (-mat_mumps_icntl_14), the factorization is analyzed again with 4 x more, twice at most.
    PetscInt icntl14 = 0;  // 0: PETSc's and MUMPS's default
    auto pass = [&] {
      if (F) MatDestroy(&F);
      if (row) ISDestroy(&row), ISDestroy(&col);
      double t0 = now_ms();
      check(MatGetFactor(A, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &F), "MatGetFactor");
      if (icntl14 > 0) check(MatMumpsSetIcntl(F, 14, icntl14), "MatMumpsSetIcntl(14)");
      check(MatGetOrdering(A, MATORDERINGNATURAL, &row, &col), "MatGetOrdering");
      check(MatCholeskyFactorSymbolic(F, A, row, &info), "MatCholeskyFactorSymbolic");
      t.analyze_ms = now_ms() - t0;
      t0 = now_ms();
      check(MatCholeskyFactorNumeric(F, A, &info), "MatCholeskyFactorNumeric");
      t.factor_ms = now_ms() - t0;
    };
    run_first_pass(r0, budget_ms, [&] {
      pass();
      for (int retry = 0; retry < 2 && factor_failed(F) && infog(F, 1) == -9; ++retry) {
        icntl14 = 4 * (icntl14 > 0 ? icntl14 : 20);  // 20: about MUMPS's default

        pass();
      }
      check_factor(F);
    });
    if (icntl14 > 0) t.extra["peer_icntl14"] = static_cast<double>(icntl14);
    // INFOG(29): entries in the factors (negative: in millions).
    const PetscInt entries = infog(F, 29);
    t.nnz_factor = entries >= 0 ? entries : -entries * 1000000;
    t.extra["peer_sym"] = p.spd ? 1.0 : 2.0;
    t.extra["peer_ordering"] = static_cast<double>(infog(F, 7));  // the ordering MUMPS chose (ICNTL(7) codes)
    const PeerRun r = fit_to_budget(r0, t.factor_ms, budget_ms);
    t.repeat = r.repeat;
    auto set_values = [&](int set) {
      PetscScalar* v = nullptr;
      check(MatSeqAIJGetArray(A, &v), "MatSeqAIJGetArray");
      std::memcpy(v, p.values(set).data(), p.values(set).size() * sizeof(double));
      check(MatSeqAIJRestoreArray(A, &v), "MatSeqAIJRestoreArray");
    };
    t.refactor_ms = time_refactor(r, set_values, [&](int) {
      check(MatCholeskyFactorNumeric(F, A, &info), "MatCholeskyFactorNumeric");
      check_factor(F);
    });
    if (!p.spd) {
      PetscInt neg = -1;
      if (MatGetInertia(F, &neg, nullptr, nullptr) == 0) t.extra["peer_inertia_negative"] = static_cast<double>(neg);
    }
    t.extra["peer_delayed_pivots"] = static_cast<double>(infog(F, 13));
    check(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, p.a.nrows, p.b.data(), &vb), "VecCreateSeqWithArray");
    check(VecDuplicate(vb, &vx), "VecDuplicate");
    t.solve_ms = median_ms(r.warmup, r.repeat, [&] { check(MatSolve(F, vb, vx), "MatSolve"); });
    const PetscScalar* x = nullptr;
    check(VecGetArrayRead(vx, &x), "VecGetArrayRead");
    const Accuracy acc = accuracy(p, x);
    check(VecRestoreArrayRead(vx, &x), "VecRestoreArrayRead");
    t.residual = acc.residual;
    t.backward_error = acc.backward_error;
    t.extra["peer_threads"] = static_cast<double>(blas_threads());
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
