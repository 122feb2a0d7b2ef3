#ifndef PETSCGPUGLU_H
#define PETSCGPUGLU_H
/*
   gpuglu as a PETSc external solver package (libpetscgpuglu.so).

   Selecting it:   -pc_type lu -pc_factor_mat_solver_type gpuglu
   Loading it:     -dll_append <prefix>/lib/libpetscgpuglu.so   (unmodified programs)
              or   PetscCall(PetscGPUGLURegister());          (programs linked with it)

   Factor type: LU of MATSEQAIJ (also the blocks of bjacobi / asm / redundant).
   Options (prefix: the factor's, e.g. -sub_ for bjacobi blocks): -mat_gpuglu_*, listed by -help
   and described in docs/user_guide.md.
*/
#include <petscmat.h>

#define MATSOLVERGPUGLU "gpuglu"

/* PETSC_EXTERN gives C linkage and default visibility in C and C++ alike. */

/* Registers MATSOLVERGPUGLU with PETSc (after MatInitializePackage()) and gpuglu's log
   events, and counts the ranks of PETSC_COMM_WORLD on this node for the default of
   -mat_gpuglu_threads. Collective on PETSC_COMM_WORLD: call it on every rank, after
   PetscInitialize(). Idempotent. */
PETSC_EXTERN PetscErrorCode PetscGPUGLURegister(void);

/* Called by PETSc when the library is loaded with -dll_append / -dll_prepend. */
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscgpuglu(void);

#endif
