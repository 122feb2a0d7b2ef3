#pragma once
// out[e] = in[map[e]] on the device: the LU engine fills its triangular solvers' values from
// F with it after every factorization, and a triangular solver its column copy from its
// row values. Checked like every launcher (GPUGLU_CUDA_CHECK(cudaGetLastError())).
#include <cuda_runtime.h>

#include <cstdint>

namespace gpuglu::cuda {

// e < count; asynchronous on stream; nothing when count <= 0. T: the kernels' scalar
// (common/device_scalar.hpp). conjugate: out[e] = conj(in[map[e]]) (a Hermitian factor's L^H).
template <class T>
void launch_gather(int64_t count, const int64_t* map, const T* in, T* out, cudaStream_t stream,
                   bool conjugate = false);

}  // namespace gpuglu::cuda
