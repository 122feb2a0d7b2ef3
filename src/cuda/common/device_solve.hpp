#pragma once
// What DeviceRefinement (src/cuda/engine/device_refinement.hpp) solves with: an engine's solve
// of op(A) x = b on device vectors, on the engine's stream - the LU's (LuSolves: L then U,
// U^T then L^T) or the LDL^T's (LdltSolves: L, D, L^T), permutations and scalings included.
// Scalar: the seam's (double or std::complex<double>).
#include <complex>
#include <cstdint>

#include "gpuglu/trsv_kernel.hpp"

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

// The solves of a factor held apart from it (the triangles of L and U, or of L and L^T,
// copied out of F): the column engines' and the supernodal LU's solves through F.
template <class Scalar>
class BasicFactorSolves : public BasicDeviceSolve<Scalar> {
 public:
  BasicFactorSolves() = default;
  BasicFactorSolves(const BasicFactorSolves&) = delete;  // they own device solvers
  BasicFactorSolves& operator=(const BasicFactorSolves&) = delete;
  virtual ~BasicFactorSolves() = default;
  // After each successful factorization: the solvers take the new factor (asynchronous).
  virtual void gather() = 0;
  virtual int64_t device_bytes() const = 0;  // the solvers' own device memory (not the engine's)
  virtual TrsvKernel kernel() const = 0;     // the kernel the triangular solves run
};

// A Schur factor's sweeps, short of its Schur supernode (the supernodal engines' PanelSolves),
// which the device-engine shell's Schur-complement verbs run: schur_sweep on a host z (n
// entries, C's numbering; forward: the condensation, backward: the expansion), and
// schur_condense / schur_expand on device vectors with the permutations and scalings
// (core/numeric_engine.hpp's schur_forward / schur_backward / schur_condense_device /
// schur_expand_device state the contracts). All synchronous.
class SchurSweeps {
 public:
  virtual void schur_sweep(double* z, bool transpose, bool forward) = 0;
  virtual void schur_condense(const double* in, double* reduced, bool transpose) = 0;
  virtual void schur_expand(const double* x2, double* out, bool transpose) = 0;

 protected:
  SchurSweeps() = default;
  ~SchurSweeps() = default;  // never owned through this interface
  SchurSweeps(const SchurSweeps&) = default;
  SchurSweeps& operator=(const SchurSweeps&) = default;
};

}  // namespace gpuglu::cuda
