#pragma once
// PCSHELL around CusparseIlu0 (peer_cusparse_ilu0.hpp): the cuSPARSE ILU(0) peer as a
// PETSc preconditioner. Setup factors the preconditioning matrix (one process's SeqAIJ)
// on the GPU, apply copies the vector in, solves L then U, and copies the result out.
// CUDA builds only.
#include <petscpc.h>

namespace gpuglu::bench {

// Makes pc a PCSHELL named "cusparse_ilu0"; its context is freed with the PC.
PetscErrorCode pc_set_cusparse_ilu0(PC pc);

}  // namespace gpuglu::bench
