#pragma once
// The column engines on the device-engine shell: the shell with the column recipe
// (column_recipe.hpp) and its diagnostics. CudaLU and CudaLDLT are this with their own
// parts (update kernels, solves, the Hermitian scatter's flags). Plain C++ (no CUDA types).
#include <complex>
#include <cstdint>
#include <vector>

#include "cuda/column/level_timing.hpp"
#include "cuda/engine/device_engine.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

template <class Scalar>
class BasicColumnRecipe;
template <class Scalar>
struct BasicColumnParts;  // column_recipe.hpp

template <class Scalar>
class BasicColumnEngine : public BasicDeviceEngine<Scalar> {
 public:
  using LevelTiming = cuda::LevelTiming;
  // Diagnostics of the last factor(): levels and the level loop's time.
  LevelTiming level_timing() const;
  bool uses_graph() const;
  // One factorization launched level by level (no graph) with an event after every level:
  // the device time of each level (LevelProfile::ms). F holds the factor afterwards, but the
  // solves are not updated: call factor() before solve().
  std::vector<LevelProfile> profile_levels(const Scalar* a_values, const PivotRule& rule) override;

 protected:
  // Checks s for a column engine (parts.symmetric: the LDL^T's schedule; name: the engine's,
  // for messages) before anything touches the device, then builds the shell and the recipe.
  BasicColumnEngine(const char* name, const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern,
                    const BasicColumnParts<Scalar>& parts);

 private:
  BasicColumnRecipe<Scalar>* column_ = nullptr;  // the recipe, owned by the shell
};

extern template class BasicColumnEngine<double>;
extern template class BasicColumnEngine<std::complex<double>>;

}  // namespace gpuglu::cuda
