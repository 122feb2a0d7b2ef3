#pragma once
// The column LU's phase 2 of the level loop (lu_kernels.cu): F(i, k) -= L(i, j) * U(j, k),
// as the shared update kernels (column/update_kernels.cuh) launch it.
#include "cuda/common/factor_kernels.cuh"

namespace gpuglu::cuda::kernels {

template <class T>
const BasicUpdateKernels<T>& lu_update_kernels();

}  // namespace gpuglu::cuda::kernels
