// CudaLU (cuda_lu.hpp): the column recipe (column/column_recipe.hpp) with the LU's update
// kernels (lu_kernels.cuh) and the solves of L and U through F (trsv/lu_solves.hpp).
#include "cuda/lu/cuda_lu.hpp"

#include <complex>
#include <memory>

#include "cuda/column/column_recipe.hpp"
#include "cuda/lu/lu_kernels.cuh"
#include "cuda/trsv/lu_solves.hpp"

namespace gpuglu::cuda {
namespace {

template <class Scalar>
BasicColumnParts<Scalar> lu_parts(const Schedule& s, const Options& o) {
  using T = device_scalar_t<Scalar>;
  BasicColumnParts<Scalar> parts;
  parts.updates = &kernels::lu_update_kernels<T>();
  parts.make_solves = [&s, &o](BasicEngineContext<Scalar>& c, const kernels::BasicLevelArgs<T>& f) {
    return std::unique_ptr<BasicFactorSolves<Scalar>>(
        std::make_unique<BasicLuSolves<Scalar>>(s, o, c.device, c.mem, c.stream, f.f));
  };
  return parts;
}

}  // namespace

template <class Scalar>
BasicCudaLU<Scalar>::BasicCudaLU(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern)
    : BasicColumnEngine<Scalar>("CudaLU", s, o, device_ordinal, pattern, lu_parts<Scalar>(s, o)) {}

template <class Scalar>
int64_t BasicCudaLU<Scalar>::factor_bytes() const {
  const BasicEngineContext<Scalar>& c = this->context();
  return c.nnz_f * static_cast<int64_t>(sizeof(Scalar) + sizeof(int32_t)) +
         (static_cast<int64_t>(c.n) + 1) * static_cast<int64_t>(sizeof(int64_t)) +
         static_cast<int64_t>(c.n) * static_cast<int64_t>(sizeof(int64_t));
}

template class BasicCudaLU<double>;
template class BasicCudaLU<std::complex<double>>;

}  // namespace gpuglu::cuda
