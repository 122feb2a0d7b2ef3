#pragma once
// What the numeric kernels need to know about their scalar type (double or
// std::complex<double>; docs/design.md, "Complex scalars"). The kernels are templates on
// the scalar; everything that compares - pivot tests, growth, backward errors - works on
// magnitudes, which are real, so the analysis (Schedule) and the statistics stay real.
#include <cmath>
#include <complex>
#include <string>
#include <type_traits>

namespace gpuglu {

using Complex = std::complex<double>;

template <class T>
inline constexpr bool is_complex_v = false;
template <class R>
inline constexpr bool is_complex_v<std::complex<R>> = true;

// |x|. For double this is std::fabs, bit for bit: the real kernels keep their results.
inline double magnitude(double x) { return std::fabs(x); }
inline double magnitude(const Complex& x) { return std::abs(x); }

inline double real_part(double x) { return x; }
inline double real_part(const Complex& x) { return x.real(); }

// The conjugate where `conjugate` is set (Hermitian LDL^H): std::conj of a double would
// return a complex, so the real case is spelled out as the identity.
inline double conj_if(bool, double x) { return x; }
inline Complex conj_if(bool conjugate, const Complex& x) { return conjugate ? std::conj(x) : x; }

// Finite in every component (NaN and Inf fail).
inline bool is_finite(double x) { return std::isfinite(x); }
inline bool is_finite(const Complex& x) { return std::isfinite(x.real()) && std::isfinite(x.imag()); }

// A value as an error message names it. A complex value with a zero imaginary part reads
// as the real one does, so a real matrix in a complex build gets the real build's message.
inline std::string value_text(double x) { return std::to_string(x); }
inline std::string value_text(const Complex& x) {
  if (x.imag() == 0.0) return std::to_string(x.real());
  return "(" + std::to_string(x.real()) + ", " + std::to_string(x.imag()) + ")";
}

// The value a statistic reports for a scalar (FactorStats::pivot_value is real): the value
// itself for double, its magnitude for complex.
inline double reported_value(double x) { return x; }
inline double reported_value(const Complex& x) { return std::abs(x); }

}  // namespace gpuglu
