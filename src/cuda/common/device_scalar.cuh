#pragma once
// Device arithmetic on the kernels' scalars (device_scalar.hpp): double and DComplex through
// one set of overloads, so a kernel template is written once. Every operation rounds each
// product and sum on its own (__dmul_rn, __dadd_rn, ...): no fused multiply-add, hence
// the same bits for every launch shape, and for double exactly the CPU reference's
// (reference::pivot_and_scale's operation order). A complex product is (ac - bd, ad + bc),
// the textbook formula that GCC's __muldc3 also computes for finite operands; a complex
// quotient is Smith's algorithm (no overflow of c^2 + d^2), so complex results agree with
// the CPU engine to rounding, not bit for bit (libgcc's __divdc3 scales differently).
#include <cuda_runtime.h>

#include <cfloat>

#include "cuda/common/device_scalar.hpp"

namespace gpuglu::cuda {

__device__ __forceinline__ double dzero(double) { return 0.0; }
__device__ __forceinline__ DComplex dzero(DComplex) { return DComplex{0.0, 0.0}; }

__device__ __forceinline__ double add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ DComplex add(DComplex a, DComplex b) {
  return DComplex{__dadd_rn(a.re, b.re), __dadd_rn(a.im, b.im)};
}
__device__ __forceinline__ double sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ DComplex sub(DComplex a, DComplex b) {
  return DComplex{__dsub_rn(a.re, b.re), __dsub_rn(a.im, b.im)};
}
__device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ DComplex mul(DComplex a, DComplex b) {
  return DComplex{__dsub_rn(__dmul_rn(a.re, b.re), __dmul_rn(a.im, b.im)),
                  __dadd_rn(__dmul_rn(a.re, b.im), __dmul_rn(a.im, b.re))};
}
// A complex times a real (scalings, the perturbed pivot's size).
__device__ __forceinline__ double mul_real(double a, double s) { return __dmul_rn(a, s); }
__device__ __forceinline__ DComplex mul_real(DComplex a, double s) {
  return DComplex{__dmul_rn(a.re, s), __dmul_rn(a.im, s)};
}
__device__ __forceinline__ double div(double a, double b) { return __ddiv_rn(a, b); }
__device__ __forceinline__ DComplex div(DComplex a, DComplex b) {
  if (fabs(b.re) >= fabs(b.im)) {
    const double r = __ddiv_rn(b.im, b.re);
    const double den = __dadd_rn(b.re, __dmul_rn(b.im, r));
    return DComplex{__ddiv_rn(__dadd_rn(a.re, __dmul_rn(a.im, r)), den),
                    __ddiv_rn(__dsub_rn(a.im, __dmul_rn(a.re, r)), den)};
  }
  const double r = __ddiv_rn(b.re, b.im);
  const double den = __dadd_rn(b.im, __dmul_rn(b.re, r));
  return DComplex{__ddiv_rn(__dadd_rn(__dmul_rn(a.re, r), a.im), den),
                  __ddiv_rn(__dsub_rn(__dmul_rn(a.im, r), a.re), den)};
}
__device__ __forceinline__ double neg(double a) { return -a; }
__device__ __forceinline__ DComplex neg(DComplex a) { return DComplex{-a.re, -a.im}; }
// The conjugate where `conjugate` is set (Hermitian LDL^H); the identity for double.
__device__ __forceinline__ double conj_if(bool, double a) { return a; }
__device__ __forceinline__ DComplex conj_if(bool conjugate, DComplex a) {
  return conjugate ? DComplex{a.re, -a.im} : a;
}

// |a| (hypot for complex: no overflow of re^2 + im^2).
__device__ __forceinline__ double magnitude(double a) { return fabs(a); }
__device__ __forceinline__ double magnitude(DComplex a) { return hypot(a.re, a.im); }
// Both parts finite (NaN and Inf fail).
__device__ __forceinline__ bool finite(double a) { return isfinite(a); }
__device__ __forceinline__ bool finite(DComplex a) { return isfinite(a.re) && isfinite(a.im); }
// A real number as the scalar.
template <class T>
__device__ __forceinline__ T from_real(double x);
template <>
__device__ __forceinline__ double from_real<double>(double x) {
  return x;
}
template <>
__device__ __forceinline__ DComplex from_real<DComplex>(double x) {
  return DComplex{x, 0.0};
}

// The perturbed pivot of reference::perturbed_pivot: size with the pivot's sign (real) or
// phase p / |p| (complex; 1 for p == 0).
__device__ __forceinline__ double perturbed_pivot(double pivot, double size) { return pivot < 0.0 ? -size : size; }
__device__ __forceinline__ DComplex perturbed_pivot(DComplex pivot, double size) {
  const double a = hypot(pivot.re, pivot.im);
  if (!(a > 0.0)) return DComplex{size, 0.0};
  return DComplex{__dmul_rn(__ddiv_rn(pivot.re, a), size), __dmul_rn(__ddiv_rn(pivot.im, a), size)};
}

__device__ __forceinline__ double shfl(unsigned mask, double v, int lane) { return __shfl_sync(mask, v, lane); }
__device__ __forceinline__ DComplex shfl(unsigned mask, DComplex v, int lane) {
  return DComplex{__shfl_sync(mask, v.re, lane), __shfl_sync(mask, v.im, lane)};
}
__device__ __forceinline__ double shfl_down(unsigned mask, double v, int delta) {
  return __shfl_down_sync(mask, v, delta);
}
__device__ __forceinline__ DComplex shfl_down(unsigned mask, DComplex v, int delta) {
  return DComplex{__shfl_down_sync(mask, v.re, delta), __shfl_down_sync(mask, v.im, delta)};
}
__device__ __forceinline__ double shfl_xor(unsigned mask, double v, int delta) {
  return __shfl_xor_sync(mask, v, delta);
}
__device__ __forceinline__ DComplex shfl_xor(unsigned mask, DComplex v, int delta) {
  return DComplex{__shfl_xor_sync(mask, v.re, delta), __shfl_xor_sync(mask, v.im, delta)};
}

// *p += v atomically per component (a complex sum is two independent real sums).
__device__ __forceinline__ void atomic_add(double* p, double v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(DComplex* p, DComplex v) {
  atomicAdd(&p->re, v.re);
  atomicAdd(&p->im, v.im);
}

// A load at L2 (ld.global.cg): values written by other blocks during the same launch.
__device__ __forceinline__ double load_cg(const double* p) { return __ldcg(p); }
__device__ __forceinline__ DComplex load_cg(const DComplex* p) {
  const double2 v = __ldcg(reinterpret_cast<const double2*>(p));
  return DComplex{v.x, v.y};
}

}  // namespace gpuglu::cuda
