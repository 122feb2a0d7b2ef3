// Device-resident data with a CUDA PETSc (impl.hpp, GPUGLU_PETSC_DEVICE_DATA): where A is a
// MATSEQAIJCUSPARSE matrix (also the diagonal blocks of MPIAIJCUSPARSE under bjacobi/asm)
// and b, x are VECSEQCUDA vectors whose valid copy is on the device, their device arrays go
// to the CUDA engine as they are: no host<->device copy by PETSc or by gpuglu. Elsewhere the
// host path of factor.cpp / solve.cpp runs as it always has; nothing here forces a copy
// (an array valid only on the host is read there).
#include "impl.hpp"

#if defined(GPUGLU_PETSC_DEVICE_DATA)
#include <petscdevice.h>
#endif

namespace gpuglu::petsc {

namespace {

#if defined(GPUGLU_PETSC_DEVICE_DATA)
// The arrays PETSc hands out may still be written by work queued on its stream (a MatScale,
// a VecAXPY); gpuglu's engine runs on a stream of its own. Synchronizing PETSc's current
// device context (the one its CUDA Mat and Vec operations use) orders the two.
PetscErrorCode synchronize_petsc_device() {
  PetscDeviceContext dctx;
  PetscFunctionBegin;
  PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
  PetscCall(PetscDeviceContextSynchronize(dctx));
  PetscFunctionReturn(0);
}

bool valid_on_device(PetscOffloadMask mask) { return mask == PETSC_OFFLOAD_GPU || mask == PETSC_OFFLOAD_BOTH; }

PetscErrorCode seq_cuda_on_device(Vec v, bool* yes) {
  PetscBool cuda, bound;
  PetscOffloadMask mask;
  PetscFunctionBegin;
  *yes = false;
  PetscCall(PetscObjectTypeCompare((PetscObject)v, VECSEQCUDA, &cuda));
  if (!cuda) PetscFunctionReturn(0);
  PetscCall(VecBoundToCPU(v, &bound));
  PetscCall(VecGetOffloadMask(v, &mask));
  *yes = !bound && valid_on_device(mask);
  PetscFunctionReturn(0);
}
#endif

}  // namespace

PetscErrorCode get_device_values(Mat F, Mat A, const PetscScalar** d_values) {
  PetscFunctionBegin;
  *d_values = nullptr;
#if defined(GPUGLU_PETSC_DEVICE_DATA)
  PetscBool cusparse;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJCUSPARSE, &cusparse));
  if (!cusparse || !factor_of(F)->solver->device_data_direct()) PetscFunctionReturn(0);
  // Only where the device copy is valid: reading it otherwise would make PETSc copy the
  // host values up first (the host path reads them where they are).
  if (A->boundtocpu || !valid_on_device(A->offloadmask)) PetscFunctionReturn(0);
  // The device values are in the order of the host's CSR arrays, which the analysis saw:
  // PETSc keeps SeqAIJCUSPARSE's device copy in CSR format with the host's row pointers and
  // column indices and moves the value array verbatim between a->a and the device in both
  // directions (MatSeqAIJCUSPARSECopyToGPU / CopyFromGPU); the accessor refuses the ELL and
  // HYB formats of CUDA < 11, the only ones that differ.
  PetscCall(MatSeqAIJCUSPARSEGetArrayRead(A, d_values));
  PetscCall(synchronize_petsc_device());
#else
  (void)F;
  (void)A;
#endif
  PetscFunctionReturn(0);
}

PetscErrorCode restore_device_values(Mat A, const PetscScalar** d_values) {
  PetscFunctionBegin;
#if defined(GPUGLU_PETSC_DEVICE_DATA)
  if (*d_values) PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(A, d_values));
#else
  (void)A;
#endif
  *d_values = nullptr;
  PetscFunctionReturn(0);
}

PetscErrorCode get_device_vectors(Mat F, Vec b, Vec x, const PetscScalar** d_b, PetscScalar** d_x) {
  PetscFunctionBegin;
  *d_b = nullptr;
  *d_x = nullptr;
#if defined(GPUGLU_PETSC_DEVICE_DATA)
  if (!factor_of(F)->solver->device_data_direct()) PetscFunctionReturn(0);
  // b decides: valid on the device, the solve runs there; valid only on the host, the host
  // path reads it there. x is written, so where its old values are does not matter, but it
  // must be a CUDA vector to receive device values without a copy.
  bool b_dev = false;
  PetscBool x_cuda, x_bound;
  PetscCall(seq_cuda_on_device(b, &b_dev));
  PetscCall(PetscObjectTypeCompare((PetscObject)x, VECSEQCUDA, &x_cuda));
  if (!b_dev || !x_cuda) PetscFunctionReturn(0);
  PetscCall(VecBoundToCPU(x, &x_bound));
  if (x_bound) PetscFunctionReturn(0);
  PetscCall(VecCUDAGetArrayRead(b, d_b));
  PetscCall(VecCUDAGetArrayWrite(x, d_x));
  PetscCall(synchronize_petsc_device());
#else
  (void)F;
  (void)b;
  (void)x;
#endif
  PetscFunctionReturn(0);
}

PetscErrorCode restore_device_vectors(Vec b, Vec x, const PetscScalar** d_b, PetscScalar** d_x) {
  PetscFunctionBegin;
#if defined(GPUGLU_PETSC_DEVICE_DATA)
  if (*d_x) PetscCall(VecCUDARestoreArrayWrite(x, d_x));
  if (*d_b) PetscCall(VecCUDARestoreArrayRead(b, d_b));
#else
  (void)b;
  (void)x;
#endif
  *d_b = nullptr;
  *d_x = nullptr;
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
