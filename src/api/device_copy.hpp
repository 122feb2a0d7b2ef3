#pragma once
// Copies between the caller's device arrays and host arrays of a scalar type, for the
// facades' device-data calls on an engine that reads host arrays (core/numeric_engine.hpp
// copies doubles; Error(unsupported) in a build without CUDA).
#include <cstdint>

#include "core/numeric_engine.hpp"

namespace gpuglu::api {

// std::complex<double> is laid out as double[2] ([complex.numbers]): n scalars are n * k doubles.
template <class Scalar>
constexpr int64_t doubles_per = static_cast<int64_t>(sizeof(Scalar) / sizeof(double));

template <class Scalar>
void to_host(const Scalar* d_src, Scalar* h_dst, int64_t n) {
  copy_device_to_host(reinterpret_cast<const double*>(d_src), reinterpret_cast<double*>(h_dst),
                      n * doubles_per<Scalar>);
}

template <class Scalar>
void to_device(const Scalar* h_src, Scalar* d_dst, int64_t n) {
  copy_host_to_device(reinterpret_cast<const double*>(h_src), reinterpret_cast<double*>(d_dst),
                      n * doubles_per<Scalar>);
}

}  // namespace gpuglu::api
