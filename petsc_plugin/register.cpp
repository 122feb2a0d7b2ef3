// Registration of MATSOLVERGPUGLU with PETSc: from a linked program (PetscGPUGLURegister)
// or from -dll_append (PETSc calls PetscDLLibraryRegister_petscgpuglu on loading the library).
#include "impl.hpp"

namespace gpuglu::petsc {

LogEvents log_events;

namespace {

bool registered = false;

// PetscFinalize() empties PETSc's solver-type table and event log: a later PetscInitialize()
// in the same process must register again.
PetscErrorCode forget_registration(void) {
  PetscFunctionBegin;
  registered = false;
  log_events = LogEvents();
  forget_node_share();
  PetscFunctionReturn(0);
}

}  // namespace

}  // namespace gpuglu::petsc

PetscErrorCode PetscGPUGLURegister(void) {
  using namespace gpuglu::petsc;
  PetscFunctionBegin;
  if (registered) PetscFunctionReturn(0);
  // PETSc 3.18 fills its own solver-type table on MatInitializePackage(); registering before
  // it would leave PETSc's solvers (petsc, superlu, mumps, ...) unfindable.
  PetscCall(MatInitializePackage());
  for (MatFactorType t : {MAT_FACTOR_LU, MAT_FACTOR_ILU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ICC})
    PetscCall(MatSolverTypeRegister(MATSOLVERGPUGLU, MATSEQAIJ, t, MatGetFactor_GPUGLU));
  for (MatFactorType t : {MAT_FACTOR_CHOLESKY, MAT_FACTOR_ICC})
    PetscCall(MatSolverTypeRegister(MATSOLVERGPUGLU, MATSEQSBAIJ, t, MatGetFactor_GPUGLU));
#if defined(GPUGLU_PETSC_DEVICE_DATA)
  // A CUDA PETSc's matrices (PETSc would also find the SeqAIJ entry by the type name's prefix;
  // naming them says that they are meant): the values come from the device where they are
  // valid there (device_data.cpp). The blocks of MPIAIJCUSPARSE under bjacobi/asm are these.
  for (MatFactorType t : {MAT_FACTOR_LU, MAT_FACTOR_ILU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ICC})
    PetscCall(MatSolverTypeRegister(MATSOLVERGPUGLU, MATSEQAIJCUSPARSE, t, MatGetFactor_GPUGLU));
#endif
  // Parallel matrices: gathered to one rank (factor_gathered.cpp). Registered after PETSc's
  // own packages, so that MUMPS or SuperLU_DIST stay the default where no solver is named.
  for (MatFactorType t : {MAT_FACTOR_LU, MAT_FACTOR_ILU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ICC})
    PetscCall(MatSolverTypeRegister(MATSOLVERGPUGLU, MATMPIAIJ, t, MatGetFactor_GPUGLU_Gathered));
  for (MatFactorType t : {MAT_FACTOR_CHOLESKY, MAT_FACTOR_ICC})
    PetscCall(MatSolverTypeRegister(MATSOLVERGPUGLU, MATMPISBAIJ, t, MatGetFactor_GPUGLU_Gathered));
  PetscCall(PetscLogEventRegister("GPUGLUAnalysis", MAT_CLASSID, &log_events.analysis));
  PetscCall(PetscLogEventRegister("GPUGLUNumeric", MAT_CLASSID, &log_events.numeric));
  PetscCall(PetscLogEventRegister("GPUGLUSolve", MAT_CLASSID, &log_events.solve));
  // The one collective point of the package (every rank registers it): the default thread
  // count needs the ranks that share this node.
  PetscCall(learn_node_share());
  PetscCall(PetscRegisterFinalize(forget_registration));
  registered = true;
  PetscFunctionReturn(0);
}

PetscErrorCode PetscDLLibraryRegister_petscgpuglu(void) {
  PetscFunctionBegin;
  PetscCall(PetscGPUGLURegister());
  PetscFunctionReturn(0);
}
