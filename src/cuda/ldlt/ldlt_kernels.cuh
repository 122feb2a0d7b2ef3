#pragma once
// Interface of CudaLDLT's own kernels (ldlt_kernels.cu, ldlt_solve_kernels.cu). Everything
// else the engine runs is shared with CudaLU: the state, the scatter and the pivot kernels
// (cuda/common/factor_kernels.cuh), the level loop (cuda/column/level_loop.hpp). Every launcher checks
// the launch through GPUGLU_CUDA_CHECK and may be called during stream capture.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/common/factor_kernels.cuh"

namespace gpuglu::cuda::kernels {

// --- factorization, phase 2 (ldlt_kernels.cu) ---
// Per target column j of a level, its sources k in ascending order,
// F(i, j) -= L(i, k) * (L(j, k) * d_k) over the rows i >= j of L(:, k) (conj(L(j, k)) under
// LDL^H, a.hermitian). a.src_col must hold the sources' columns (a symmetric schedule's
// target_src_col). The warp, block and persistent launchers, for LevelLoop; T: double or
// DComplex.
template <class T>
const BasicUpdateKernels<T>& ldlt_update_kernels();

// --- solves (ldlt_solve_kernels.cu) ---
// out[k] = in[k] / f[diag[k]]: D^{-1}, read straight from F (in and out may alias).
template <class T>
void launch_divide_by_diagonal(int32_t n, const int64_t* diag, const T* f, const T* in, T* out, cudaStream_t stream);

}  // namespace gpuglu::cuda::kernels
