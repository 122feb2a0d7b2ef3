#pragma once
// CudaLU's triangular solves: L (unit, strictly lower; none when L has no entries) and U
// (diagonal first) as CSR triangles (trsv::factor_triangles), each a cuda::TriangularSolver
// on the LU engine's stream, analysed once per pattern; after every factorization one gather
// from F writes each triangle's values straight into its solver. U^T (lower) and L^T (unit
// upper) are built on the first transposed solve from the forward solvers' patterns: most
// users never solve with A^T, and they double the solves' device memory. The schedule's
// permutations and scalings are applied on the device around them, as
// reference::solve_with_factor / solve_transpose_with_factor do. Scalar: double or
// std::complex<double> (A^T is the plain transpose for both, as on the CPU).
#include <cuda_runtime.h>

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

#include "cuda/common/device_memory.hpp"
#include "cuda/common/device_scalar.hpp"
#include "cuda/common/device_solve.hpp"
#include "cuda/trsv/cuda_trsv.hpp"
#include "cuda/trsv/pattern_solver.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"
#include "analysis/triangle.hpp"

namespace gpuglu::cuda {

template <class Scalar>
class BasicLuSolves final : public BasicFactorSolves<Scalar> {
 public:
  using T = device_scalar_t<Scalar>;
  using Solver = BasicTriangularSolver<Scalar>;
  // f: F's values on the device (what gather() reads). Run-time choices from o:
  // o.trsv_kernel, o.trsv_analysis (the GPU's level analysis falls back to the CPU's on a
  // device without cooperative launches), o.cuda (TrsvTuning, KahnTuning).
  BasicLuSolves(const Schedule& s, const Options& o, int device, DeviceMemory& mem, cudaStream_t stream, const T* f);
  ~BasicLuSolves() override;  // the solvers run on the owner's stream: destroy this before the stream

  // After each factorization: every solver built so far holds the new factor (asynchronous).
  void gather() override;
  // out = A^{-1} in (transpose: A^{-T} in) for the factor of the last gather(); in and out
  // are device vectors of n and may alias. Asynchronous, except that the first transposed
  // solve builds U^T and L^T (synchronously).
  void solve_device(const Scalar* in, Scalar* out, bool transpose) override;

  int64_t device_bytes() const override;  // the solvers' own device memory (not what they took from mem)
  TrsvKernel kernel() const override;     // the kernel U's solve runs (the requested one when n == 0)

 private:
  std::unique_ptr<Solver> make_solver(const trsv::Triangle& t, int64_t** pos_dev, const std::vector<int64_t>& pos,
                                      const char* what);
  void gather_into(Solver& solver, const int64_t* pos, int64_t count);
  void init_transposed();

  int device_;
  int32_t n_;
  int64_t nnz_l_;
  int64_t nnz_u_;
  DeviceMemory& mem_;
  cudaStream_t stream_;
  const T* f_;
  SolverChoices choices_;
  int32_t *row_perm_ = nullptr, *col_perm_ = nullptr;
  double *row_scale_ = nullptr, *col_scale_ = nullptr;
  Scalar *w1_ = nullptr, *w2_ = nullptr;  // work vectors of n
  // Each solver's values come from F through its positions there (*_pos_).
  std::unique_ptr<Solver> l_solve_, u_solve_, lt_solve_, ut_solve_;
  int64_t *l_pos_ = nullptr, *u_pos_ = nullptr, *lt_pos_ = nullptr, *ut_pos_ = nullptr;
};

using LuSolves = BasicLuSolves<double>;
extern template class BasicLuSolves<double>;
extern template class BasicLuSolves<std::complex<double>>;

}  // namespace gpuglu::cuda
