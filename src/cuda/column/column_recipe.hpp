#pragma once
// The column engines' recipe on the device-engine shell (engine/device_engine.hpp): GLU3.0's
// level-scheduled right-looking factorization of F (DeviceFactor: the scatter and the state;
// LevelLoop: the pivot kernels, then phase 2 by the engine's update kernels, as a graph, a
// persistent kernel or plain launches), and the solves through F the engine brings. The
// column LU (cuda/lu: the LU's updates, L and U solves) and the column LDL^T (cuda/ldlt: its
// updates, L, D, L^T solves) differ only in those two parts.
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "cuda/column/device_factor.hpp"
#include "cuda/column/level_loop.hpp"
#include "cuda/column/level_timing.hpp"
#include "cuda/common/device_solve.hpp"
#include "cuda/engine/device_engine.hpp"
#include "cuda/engine/engine_context.hpp"
#include "cuda/engine/stream_events.hpp"

namespace gpuglu::cuda {

// What a column engine brings to the recipe.
template <class Scalar>
struct BasicColumnParts {
  using T = device_scalar_t<Scalar>;
  // Builds the solves on the context once F's device pointers exist.
  using MakeSolves = std::function<std::unique_ptr<BasicFactorSolves<Scalar>>(BasicEngineContext<Scalar>& c,
                                                                              const kernels::BasicLevelArgs<T>& f)>;
  const kernels::BasicUpdateKernels<T>* updates = nullptr;  // phase 2 of the level loop
  std::vector<char> conjugate;  // DeviceFactor's (Hermitian LDL^H only)
  MakeSolves make_solves;
  bool symmetric = false;  // the LDL^T's schedule: a transposed solve is the plain one
};

template <class Scalar>
class BasicColumnRecipe final : public BasicEngineRecipe<Scalar> {
 public:
  using T = device_scalar_t<Scalar>;
  using Solves = BasicFactorSolves<Scalar>;

  BasicColumnRecipe(BasicEngineContext<Scalar>& c, const Schedule& s, const Options& o,
                    const BasicColumnParts<Scalar>& parts);

  EngineFactorResult factor(const PivotRule& rule) override;
  BasicDeviceSolve<Scalar>& solves() override { return *solves_; }
  void download_factor(Scalar* f_host) override { factor_.download(f_host, c_.stream); }
  int64_t device_bytes() const noexcept override { return solves_->device_bytes(); }
  TrsvKernel trsv_kernel() const noexcept override { return solves_->kernel(); }
  bool symmetric() const noexcept override { return symmetric_; }

  LevelTiming timing() const { return timing_; }
  bool uses_graph() const { return loop_->uses_graph(); }
  // One factorization launched level by level (no graph) with an event after every level:
  // each level's device time, gaps of launches that could not keep ahead included. F holds
  // the factor afterwards, but the solves are not updated.
  std::vector<float> profile_levels(const PivotRule& rule);

 private:
  BasicEngineContext<Scalar>& c_;
  bool symmetric_;
  BasicDeviceFactor<Scalar> factor_;
  std::unique_ptr<Solves> solves_;
  std::unique_ptr<BasicLevelLoop<T>> loop_;
  StreamEvents<3> events_;  // start, after the scatter, end
  LevelTiming timing_{0, 0.0, 0.0};
};

extern template class BasicColumnRecipe<double>;
extern template class BasicColumnRecipe<std::complex<double>>;

}  // namespace gpuglu::cuda
