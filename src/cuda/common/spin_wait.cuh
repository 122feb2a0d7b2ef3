#pragma once
// Waiting inside a kernel for what other blocks of the same launch publish: the self-scheduled
// kernels (trsv/trsv_kernels.cu's SLFR/SLFC, supernodal/panel_sweep_kernels.cu) poll a word in
// global memory. Warps far ahead of the wavefront would otherwise poll the L2 continuously:
// tight spinning by every resident warp floods the L2 and made the self-scheduled triangular
// solves slower than cuSPARSE (docs/performance_history.md, triangular solves), so the poll interval doubles from
// 16 ns up to kMaxBackoffNs after each miss.
#include <cstdint>

namespace gpuglu::cuda {

constexpr unsigned kFirstBackoffNs = 16;
constexpr unsigned kMaxBackoffNs = 256;

// Sleeps ns, then doubles it up to kMaxBackoffNs (ns starts at kFirstBackoffNs).
__device__ __forceinline__ void back_off(unsigned& ns) {
  __nanosleep(ns);
  ns = ns < kMaxBackoffNs ? 2 * ns : kMaxBackoffNs;
}

__device__ __forceinline__ int32_t load_acquire(const int32_t* p) {
  int32_t v;
  asm volatile("ld.acquire.gpu.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// *p += v with release semantics: what the calling thread wrote, and what threads that
// synchronized with it before (a barrier) wrote, is visible to whoever acquires the new value.
__device__ __forceinline__ void add_release(int32_t* p, int32_t v) {
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Polls *p with acquire loads until ready(value).
template <class Ready>
__device__ __forceinline__ void spin_until(const int32_t* p, Ready ready) {
  unsigned ns = kFirstBackoffNs;
  while (!ready(load_acquire(p))) back_off(ns);
}

}  // namespace gpuglu::cuda
