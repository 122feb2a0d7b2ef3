#include "cuda/column/column_recipe.hpp"

#include <complex>

#include "cuda/common/cuda_check.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

template <class Scalar>
BasicColumnRecipe<Scalar>::BasicColumnRecipe(BasicEngineContext<Scalar>& c, const Schedule& s, const Options& o,
                                             const BasicColumnParts<Scalar>& parts)
    : c_(c), symmetric_(parts.symmetric), factor_(s, c.input_values(), c.mem, *c.staging, parts.conjugate) {
  solves_ = parts.make_solves(c, factor_.level_args());
  loop_ = std::make_unique<BasicLevelLoop<T>>(s, o.modes, o.cuda.level_graph, factor_.level_args(), *parts.updates,
                                              c.device, c.mem, c.stream);
}

template <class Scalar>
EngineFactorResult BasicColumnRecipe<Scalar>::factor(const PivotRule& rule) {
  events_.record(0, c_.stream);
  factor_.enqueue_scatter(rule, c_.stream);
  events_.record(1, c_.stream);
  const bool graphed = loop_->uses_graph();
  loop_->enqueue(c_.stream);
  events_.record(2, c_.stream);
  factor_.enqueue_state_download(c_.stream);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c_.stream));

  EngineFactorResult out = factor_.result();  // throws on a broken schedule
  out.device_ms = events_.ms(0, 2);
  const double loop_ms = events_.ms(1, 2);
  timing_ = {loop_->levels(), graphed ? loop_ms : 0.0, graphed ? 0.0 : loop_ms};
  if (out.stats.status != Status::ok) return out;
  if (c_.n > 0) {
    solves_->gather();
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c_.stream));
  }
  return out;
}

template <class Scalar>
std::vector<float> BasicColumnRecipe<Scalar>::profile_levels(const PivotRule& rule) {
  factor_.enqueue_scatter(rule, c_.stream);
  return loop_->profile(c_.stream);
}

template class BasicColumnRecipe<double>;
template class BasicColumnRecipe<std::complex<double>>;

}  // namespace gpuglu::cuda
