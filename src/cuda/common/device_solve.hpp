#pragma once
// What DeviceRefinement (src/cuda/lu/device_refinement.hpp) solves with: an engine's solve
// of op(A) x = b on device vectors, on the engine's stream - the LU's (LuSolves: L then U,
// U^T then L^T) or the LDL^T's (LdltSolves: L, D, L^T), permutations and scalings included.
namespace gpuglu::cuda {

class DeviceSolve {
 public:
  // out = A^{-1} in (transpose: A^{-T} in); in and out are device vectors of n and may
  // alias. Asynchronous on the engine's stream.
  virtual void solve_device(const double* in, double* out, bool transpose) = 0;

 protected:
  DeviceSolve() = default;
  ~DeviceSolve() = default;  // never owned through this interface
  DeviceSolve(const DeviceSolve&) = default;
  DeviceSolve& operator=(const DeviceSolve&) = default;
};

}  // namespace gpuglu::cuda
