// CudaLDLT (cuda_ldlt.hpp): the column recipe (column/column_recipe.hpp) with the LDL^T's
// update kernels (ldlt_kernels.cuh) and its solves L, D, L^T through F (ldlt_solves.hpp);
// a Hermitian factor's scatter conjugates A's upper-triangle entries.
#include "cuda/ldlt/cuda_ldlt.hpp"

#include <complex>
#include <memory>

#include "core/scalar.hpp"
#include "cuda/column/column_recipe.hpp"
#include "cuda/ldlt/ldlt_kernels.cuh"
#include "cuda/ldlt/ldlt_solves.hpp"

namespace gpuglu::cuda {
namespace {

template <class Scalar>
BasicColumnParts<Scalar> ldlt_parts(const Schedule& s, const Options& o, PatternRef pattern, bool hermitian) {
  using T = device_scalar_t<Scalar>;
  const bool conjugates = hermitian && is_complex_v<Scalar>;
  BasicColumnParts<Scalar> parts;
  parts.updates = &kernels::ldlt_update_kernels<T>();
  if (conjugates) parts.conjugate = hermitian_mirrored_entries(s, pattern);
  parts.symmetric = true;
  parts.make_solves = [&s, &o, conjugates](BasicEngineContext<Scalar>& c, const kernels::BasicLevelArgs<T>& f) {
    return std::unique_ptr<BasicFactorSolves<Scalar>>(
        std::make_unique<BasicLdltSolves<Scalar>>(s, o, c.device, c.mem, c.stream, f.f, f.diag, conjugates));
  };
  return parts;
}

}  // namespace

template <class Scalar>
BasicCudaLDLT<Scalar>::BasicCudaLDLT(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern,
                                     bool hermitian)
    : BasicColumnEngine<Scalar>("CudaLDLT", s, o, device_ordinal, pattern, ldlt_parts<Scalar>(s, o, pattern, hermitian)) {}

template class BasicCudaLDLT<double>;
template class BasicCudaLDLT<std::complex<double>>;

}  // namespace gpuglu::cuda
