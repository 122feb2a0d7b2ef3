#pragma once
// The scalar the CUDA kernels compute in, for each scalar of the seam (core/scalar.hpp):
// double stays double; std::complex<double> becomes DComplex, a plain pair with the same
// layout whose arithmetic (device_scalar.cuh) is spelled out with round-to-nearest
// intrinsics, so nvcc cannot contract it into fused multiply-adds and every launch shape
// computes the same bits. Host code (no nvcc needed) sees only the type and the casts.
#include <complex>
#include <type_traits>

namespace gpuglu::cuda {

// 16-byte aligned like cuDoubleComplex: one vector load per value. std::complex<double>'s
// arrays are 8-byte aligned on the host, but every array a kernel reads is either
// cudaMalloc'd (256-byte aligned) or a CUDA PETSc's PetscScalar array (thrust::complex,
// 16-byte aligned).
struct alignas(16) DComplex {
  double re;
  double im;
};
static_assert(sizeof(DComplex) == sizeof(std::complex<double>), "DComplex must be laid out as std::complex<double>");

template <class Scalar>
struct device_scalar {
  using type = Scalar;
};
template <>
struct device_scalar<std::complex<double>> {
  using type = DComplex;
};
template <class Scalar>
using device_scalar_t = typename device_scalar<Scalar>::type;

// The seam's arrays as the kernels' (same bytes; the identity for double).
template <class Scalar>
device_scalar_t<Scalar>* device_cast(Scalar* p) {
  return reinterpret_cast<device_scalar_t<Scalar>*>(p);
}
template <class Scalar>
const device_scalar_t<Scalar>* device_cast(const Scalar* p) {
  return reinterpret_cast<const device_scalar_t<Scalar>*>(p);
}

}  // namespace gpuglu::cuda
