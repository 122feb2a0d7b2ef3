#pragma once
// Interface of CudaLDLT's own kernels (ldlt_kernels.cu, ldlt_solve_kernels.cu). Everything
// else the engine runs is shared with CudaLU: the state, the scatter and the pivot kernels
// (cuda/lu/lu_kernels.cuh), the level loop (cuda/lu/level_loop.hpp). Every launcher checks
// the launch through GPUGLU_CUDA_CHECK and may be called during stream capture.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/lu/lu_kernels.cuh"

namespace gpuglu::cuda::kernels {

// --- factorization, phase 2 (ldlt_kernels.cu) ---
// Targets t_begin .. t_begin + ntargets of a level: for each target column j its sources k
// in ascending order, F(i, j) -= L(i, k) * (L(j, k) * d_k) over the rows i >= j of L(:, k).
// a.src_col must hold the sources' columns (a symmetric schedule's target_src_col).
// One warp per target, warps_per_block per block:
void launch_ldlt_update_warps(const LevelArgs& a, int32_t level, int64_t t_begin, int64_t ntargets, int warps_per_block,
                              bool programmatic, cudaStream_t stream);
// One block of `threads` per target:
void launch_ldlt_update_blocks(const LevelArgs& a, int32_t level, int64_t t_begin, int64_t ntargets, int threads,
                               bool programmatic, cudaStream_t stream);
// The whole level loop in one self-scheduled launch (level_device.cuh's task loop).
int ldlt_persistent_blocks(int device);
void launch_ldlt_persistent(const LevelArgs& a, const PersistentArgs& p, int blocks, cudaStream_t stream);
// The four above, for LevelLoop.
const UpdateKernels& ldlt_update_kernels();

// --- solves (ldlt_solve_kernels.cu) ---
// out[k] = in[k] / f[diag[k]]: D^{-1}, read straight from F (in and out may alias).
void launch_divide_by_diagonal(int32_t n, const int64_t* diag, const double* f, const double* in, double* out,
                               cudaStream_t stream);

}  // namespace gpuglu::cuda::kernels
