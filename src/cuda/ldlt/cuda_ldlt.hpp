#pragma once
// CudaLDLT: the column LDL^T engine on the device-engine shell, for a symmetric Schedule -
// Chen & Wang's right-looking LDL^T by levels of the elimination tree on one GPU. Plain C++
// (no CUDA types), so the API layer and the tests include it without nvcc.
//
// factor() reproduces reference::factor_ldlt_levels entry for entry: the same scatter
// (adding both halves of a full-storage pair), the same pivot test and perturbation
// (reference::pivot_and_scale, on a column that holds d_k then L(:, k)), and every F(i, j)
// receives its updates L(i, k) * (L(j, k) d_k) in ascending source order, rounded as the CPU
// rounds them. solve() runs x = P^T S L^{-T} D^{-1} L^{-1} S P b on the device
// (reference::solve_symmetric_with_factor's steps, L and L^T through the triangular-solve
// module) and refines on the device against A's values of the last factor(). Scalar: double
// or std::complex<double>; complex symmetric (A = A^T) or, with hermitian, A = L D L^H
// (reference::factor_ldlt_levels' rules: the scatter conjugates A's upper-triangle entries,
// pivots drop their imaginary part, L^H is solved with conjugated values).
#include <complex>

#include "cuda/column/column_engine.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

template <class Scalar>
class BasicCudaLDLT final : public BasicColumnEngine<Scalar> {
 public:
  // s must be symmetric (analyze_symmetric). Uploads its pattern arrays once, allocates
  // every device buffer, builds the solvers of L and L^T, and captures the level loop as a
  // CUDA graph (unless o.cuda.level_graph is false, or o.modes.persistent_kernel), exactly
  // as CudaLU does with the same options. pattern: A's full CSR pattern (both triangles),
  // in whose order factor() receives A's values when refinement is wanted.
  // device_ordinal < 0: the calling thread's current device. Throws gpuglu::Error
  // (invalid_input for an unsymmetric schedule, out_of_memory naming the bytes asked,
  // device_error, no_device). hermitian (complex only; ignored for double): LDL^H, which
  // needs the pattern.
  BasicCudaLDLT(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern = {},
                bool hermitian = false);
};

using CudaLDLT = BasicCudaLDLT<double>;
extern template class BasicCudaLDLT<double>;
extern template class BasicCudaLDLT<std::complex<double>>;

}  // namespace gpuglu::cuda
