#include "pc_cusparse_ilu0.hpp"

#include <petscmat.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "peer_cusparse_ilu0.hpp"

namespace gpuglu::bench {

namespace {

struct Context {
  std::unique_ptr<CusparseIlu0> ilu = std::make_unique<CusparseIlu0>();
  PetscObjectState pattern = -1;  // the nonzero state the int32 copies below belong to
  std::vector<int32_t> rowptr, colind;
};

// C++ exceptions must not cross PETSc's C frames: each becomes a PETSc error here.
PetscErrorCode setup(PC pc) {
  Context* c = nullptr;
  Mat P = nullptr;
  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &c));
  PetscCall(PCGetOperators(pc, nullptr, &P));
  PetscObjectState pattern = 0;
  PetscCall(MatGetNonzeroState(P, &pattern));
  if (pattern != c->pattern) {
    // cuSPARSE takes 32-bit indices; PetscInt may be 64-bit.
    PetscInt n = 0;
    const PetscInt *ia = nullptr, *ja = nullptr;
    PetscBool done = PETSC_FALSE;
    PetscCall(MatGetRowIJ(P, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "cusparse_ilu0: MatGetRowIJ cannot give the CSR of this matrix type");
    PetscCheck(ia[n] < INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "cusparse_ilu0: more than 2^31 entries");
    c->rowptr.assign(ia, ia + n + 1);
    c->colind.assign(ja, ja + ia[n]);
    PetscCall(MatRestoreRowIJ(P, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
    if (c->pattern != -1) c->ilu = std::make_unique<CusparseIlu0>();  // new pattern: analyze again
    c->pattern = pattern;
  }
  const PetscScalar* v = nullptr;
  PetscCall(MatSeqAIJGetArrayRead(P, &v));
  const int32_t n = static_cast<int32_t>(c->rowptr.size() - 1);
  PetscErrorCode err = 0;
  std::string what;
  try {
    c->ilu->factor(n, c->rowptr.data(), c->colind.data(), v);
  } catch (const std::exception& e) {
    err = PETSC_ERR_LIB;
    what = e.what();
  }
  PetscCall(MatSeqAIJRestoreArrayRead(P, &v));
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "cusparse_ilu0 setup: %s", what.c_str());
  PetscFunctionReturn(0);
}

PetscErrorCode apply(PC pc, Vec x, Vec y) {
  Context* c = nullptr;
  const PetscScalar* xv = nullptr;
  PetscScalar* yv = nullptr;
  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &c));
  PetscCall(VecGetArrayRead(x, &xv));
  PetscCall(VecGetArrayWrite(y, &yv));
  std::string what;
  try {
    c->ilu->apply(xv, yv);
  } catch (const std::exception& e) {
    what = e.what();
  }
  PetscCall(VecRestoreArrayWrite(y, &yv));
  PetscCall(VecRestoreArrayRead(x, &xv));
  PetscCheck(what.empty(), PETSC_COMM_SELF, PETSC_ERR_LIB, "cusparse_ilu0 apply: %s", what.c_str());
  PetscFunctionReturn(0);
}

PetscErrorCode destroy(PC pc) {
  Context* c = nullptr;
  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &c));
  delete c;
  PetscCall(PCShellSetContext(pc, nullptr));
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode pc_set_cusparse_ilu0(PC pc) {
  PetscMPIInt size = 1;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "cusparse_ilu0 runs on one process");
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PCShellSetName(pc, "cusparse_ilu0 (cusparseDcsrilu02 + cusparseSpSV, host vectors)"));
  PetscCall(PCShellSetContext(pc, new Context));
  PetscCall(PCShellSetSetUp(pc, setup));
  PetscCall(PCShellSetApply(pc, apply));
  PetscCall(PCShellSetDestroy(pc, destroy));
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::bench
