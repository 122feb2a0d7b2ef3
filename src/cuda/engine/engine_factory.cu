// The one CUDA factory of the seam (core/numeric_engine.hpp): the recipe the schedule was
// analyzed for, on the device-engine shell. A symmetric schedule (analyze_symmetric) is the
// column LDL^T's, a supernodal one the supernodal LU's or LDL^T's (real only: the engine choice refuses
// a complex supernodal schedule before it gets here), any other the column LU's.
#include <complex>
#include <memory>
#include <type_traits>

#include "api/cuda_module.hpp"
#include "core/numeric_engine.hpp"
#include "core/scalar.hpp"
#include "cuda/ldlt/cuda_ldlt.hpp"
#include "cuda/lu/cuda_lu.hpp"
#include "cuda/supernodal/cuda_supernodal_ldlt.hpp"
#include "cuda/supernodal/cuda_supernodal_lu.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda_entry {

template <class Scalar>
std::unique_ptr<BasicNumericEngine<Scalar>> make_engine(const Schedule& s, PatternRef pattern, const Options& o,
                                                        int device_ordinal, bool hermitian) {
  switch (s.kind) {
    case FactorKind::column_ldlt:
      return std::make_unique<cuda::BasicCudaLDLT<Scalar>>(s, o, device_ordinal, pattern, hermitian);
    case FactorKind::supernodal_lu:
      if constexpr (std::is_same_v<Scalar, double>)
        return std::make_unique<cuda::CudaSupernodalLU>(s, o, device_ordinal, pattern);
      else
        throw Error(Status::unsupported, "the supernodal LU engine factors real matrices only; use lu_engine column");
    case FactorKind::supernodal_ldlt:
      if constexpr (std::is_same_v<Scalar, double>)
        return std::make_unique<cuda::CudaSupernodalLDLT>(s, o, device_ordinal, pattern);
      else
        throw Error(Status::unsupported, "the supernodal LDL^T engine factors real matrices only; use ldlt_engine column");
    case FactorKind::row_ilu:
      throw Error(Status::unsupported,
                  "the row ILU is the CPU backend's: an ILU for the GPU is analyzed for it (the column engine)");
    case FactorKind::column_lu:
      break;
  }
  return std::make_unique<cuda::BasicCudaLU<Scalar>>(s, o, device_ordinal, pattern);
}
template std::unique_ptr<BasicNumericEngine<double>> make_engine(const Schedule&, PatternRef, const Options&, int, bool);
template std::unique_ptr<BasicNumericEngine<Complex>> make_engine(const Schedule&, PatternRef, const Options&, int,
                                                                  bool);

}  // namespace gpuglu::cuda_entry
