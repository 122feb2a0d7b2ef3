#pragma once
// Launchers of the sparse triangular-solve kernels (R. Li, Sec. 4.3; the rule that picks one
// is in src/analysis/kernel_choice.hpp, the object that drives them in cuda_trsv.cu).
// Every launcher checks its launch (GPUGLU_CUDA_CHECK(cudaGetLastError())).
//
// Templates on the kernels' scalar T (cuda/common/device_scalar.hpp): double or DComplex,
// instantiated for both in trsv_kernels.cu. Every array of T is 16-byte aligned for DComplex
// (cudaMalloc'd, or offsets of whole values into such an array).
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/common/device_scalar.hpp"

namespace gpuglu::cuda::trsv_kernels {

// The triangle on the device (src/analysis/triangle.hpp's storage rules): CSR with the diagonal
// last (lower) or first (upper) in its row when stored, and the off-diagonal CSC.
template <class T>
struct BasicDeviceTriangle {
  int32_t n = 0;
  bool upper = false;
  bool unit = false;
  const int64_t* rowptr = nullptr;
  const int32_t* colind = nullptr;
  const T* values = nullptr;
  const int64_t* colptr = nullptr;   // off-diagonal CSC (LEVC, SLFC)
  const int32_t* rowind = nullptr;
  const T* csc_values = nullptr;
  const int32_t* jlev = nullptr;     // rows by level
};
using DeviceTriangle = BasicDeviceTriangle<double>;

// The "not solved yet" value of SLFR's solution vector: all bytes 0xFF (a NaN, so one
// cudaMemsetAsync writes it). A computed value with these bits is stored as the canonical
// NaN instead, so the sentinel can never be mistaken for a result. For DComplex each of the
// two parts is its own flag (trsv_kernels.cu, "Memory ordering").
constexpr unsigned long long kPending = ~0ull;
constexpr int kSelfScheduledBlock = 256;  // threads per block of SLFR / SLFC (8 warps)

// LEVR, one level (Li's Algorithm 1): jlev[l1 .. l2), `group` lanes per row;
// x[i] = (x[i] - sum_j a_ij x[j]) / a_ii in place (x holds b on entry to the first level).
// programmatic: launched with programmatic stream serialization (the kernel reads its rows
// ahead and waits for the previous kernel with cudaGridDependencySynchronize); never for a
// kernel whose predecessor on the stream is not a kernel of the same level loop.
template <class T>
void launch_levr(const BasicDeviceTriangle<T>& t, int32_t l1, int32_t l2, int32_t group, T* x, cudaStream_t stream,
                 bool programmatic = false);
// LEVR on the consecutive levels [lev_begin, lev_end) in one block of 1024 threads, levels
// separated by __syncthreads() (level_ptr: the analysis' level_ptr on the device). Any
// width is correct; it is fast for levels of at most levr_run_capacity(group) rows.
template <class T>
void launch_levr_run(const BasicDeviceTriangle<T>& t, const int32_t* level_ptr, int32_t lev_begin, int32_t lev_end,
                     int32_t group, T* x, cudaStream_t stream, bool programmatic = false);
int32_t levr_run_capacity(int32_t group);
// LEVC, one level (Algorithm 2): x[i] /= a_ii, then x[r] -= a_ri x[i] with atomics for
// every dependent r of column i. programmatic: as launch_levr.
template <class T>
void launch_levc(const BasicDeviceTriangle<T>& t, int32_t l1, int32_t l2, int32_t group, T* x, cudaStream_t stream,
                 bool programmatic = false);

// SLFR, the whole solve in one launch (Algorithm 3 with value flags): x must be filled with
// kPending and *ticket be 0; b and x must not alias. tasks: warp_tasks() of the analysis.
template <class T>
void launch_slfr(const BasicDeviceTriangle<T>& t, const int32_t* tasks, int32_t num_tasks, int32_t group, const T* b,
                 T* x, uint32_t* ticket, cudaStream_t stream);
// SLFC, the whole solve in one launch (Algorithm 4): x holds b, counters the dependency
// counts, *ticket 0. Counters are all 0 afterwards.
template <class T>
void launch_slfc(const BasicDeviceTriangle<T>& t, const int32_t* tasks, int32_t num_tasks, int32_t group, T* x,
                 int32_t* counters, uint32_t* ticket, cudaStream_t stream);

}  // namespace gpuglu::cuda::trsv_kernels
