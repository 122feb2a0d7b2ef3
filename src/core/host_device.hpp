#pragma once
// GPUGLU_HOST_DEVICE marks a function that the CPU engines and the CUDA kernels share (one
// definition of a rule both must apply bit for bit): __host__ __device__ under nvcc, nothing
// for the host compiler.
#if defined(__CUDACC__)
#define GPUGLU_HOST_DEVICE __host__ __device__
#else
#define GPUGLU_HOST_DEVICE
#endif
