#pragma once
// CudaLDLT's solve on the device, reference::solve_symmetric_with_factor's steps:
//   w = S P b,  L w = w,  w = D^{-1} w,  L^T w = w,  x = P^T S w
// L (unit lower, strictly lower entries) and L^T (unit upper) are cuda::TriangularSolvers of
// the triangular-solve module on the engine's stream (Options::trsv_kernel and
// Options::trsv_analysis, analysed once per pattern; L^T is the transpose the LU builds
// for its A^T solves, made here at once, since every LDL^T solve needs it). After each
// factorization one gather per triangle writes F's values into its solver. D is divided out
// straight from F (ldlt_solve_kernels.cu); the permutation and scaling are the LU's kernels.
// Scalar: double or std::complex<double>; a Hermitian factor's L^H solver gathers L's
// values conjugated.
#include <cuda_runtime.h>

#include <complex>
#include <cstdint>
#include <memory>

#include "cuda/common/device_memory.hpp"
#include "cuda/common/device_scalar.hpp"
#include "cuda/common/device_solve.hpp"
#include "cuda/trsv/cuda_trsv.hpp"
#include "cuda/trsv/pattern_solver.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

template <class Scalar>
class BasicLdltSolves final : public BasicFactorSolves<Scalar> {
 public:
  using T = device_scalar_t<Scalar>;
  // s symmetric; f and diag: F's values and its diagonal positions on the device (what
  // gather() and the D^{-1} step read). hermitian: L^H instead of L^T.
  BasicLdltSolves(const Schedule& s, const Options& o, int device, DeviceMemory& mem, cudaStream_t stream, const T* f,
                  const int64_t* diag, bool hermitian);
  ~BasicLdltSolves() override;  // the solvers run on the owner's stream: destroy this before the stream

  // After each factorization: L's and L^T's solvers hold the new factor (asynchronous).
  void gather() override;
  // out = A^{-1} in; A = A^T, so `transpose` changes nothing. in and out are device
  // vectors of n and may alias. Asynchronous on the engine's stream.
  void solve_device(const Scalar* in, Scalar* out, bool transpose) override;

  int64_t device_bytes() const override;  // the solvers' own device memory (not what they took from mem)
  TrsvKernel kernel() const override;     // the kernel L's solve runs (the requested one without L)

 private:
  int32_t n_;
  int64_t nnz_l_;
  cudaStream_t stream_;
  const T* f_;
  const int64_t* diag_;
  bool hermitian_;
  SolverChoices choices_;
  int32_t* perm_ = nullptr;
  double* scale_ = nullptr;
  Scalar *w1_ = nullptr, *w2_ = nullptr;  // work vectors of n
  // Each solver's values come from F through its positions there (*_pos_); none without L.
  std::unique_ptr<BasicTriangularSolver<Scalar>> l_solve_, lt_solve_;
  int64_t *l_pos_ = nullptr, *lt_pos_ = nullptr;
};

using LdltSolves = BasicLdltSolves<double>;
extern template class BasicLdltSolves<double>;
extern template class BasicLdltSolves<std::complex<double>>;

}  // namespace gpuglu::cuda
