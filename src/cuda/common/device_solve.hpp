#pragma once
// What DeviceRefinement (src/cuda/lu/device_refinement.hpp) solves with: an engine's solve
// of op(A) x = b on device vectors, on the engine's stream - the LU's (LuSolves: L then U,
// U^T then L^T) or the LDL^T's (LdltSolves: L, D, L^T), permutations and scalings included.
// Scalar: the seam's (double or std::complex<double>).
#include <complex>

namespace gpuglu::cuda {

template <class Scalar>
class BasicDeviceSolve {
 public:
  // out = A^{-1} in (transpose: A^{-T} in); in and out are device vectors of n and may
  // alias. Asynchronous on the engine's stream.
  virtual void solve_device(const Scalar* in, Scalar* out, bool transpose) = 0;

 protected:
  BasicDeviceSolve() = default;
  ~BasicDeviceSolve() = default;  // never owned through this interface
  BasicDeviceSolve(const BasicDeviceSolve&) = default;
  BasicDeviceSolve& operator=(const BasicDeviceSolve&) = default;
};

using DeviceSolve = BasicDeviceSolve<double>;

}  // namespace gpuglu::cuda
