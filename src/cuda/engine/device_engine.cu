// The device-engine shell (device_engine.hpp): the seam's calls written once over the
// context (engine_context.hpp) and one recipe.
#include "cuda/engine/device_engine.hpp"

#include <complex>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuda/common/device_solve.hpp"
#include "cuda/engine/engine_context.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

template <class Scalar>
BasicDeviceEngine<Scalar>::BasicDeviceEngine(const char* name, const Schedule& s, const Options& o,
                                             int device_ordinal, PatternRef pattern)
    : context_(std::make_unique<BasicEngineContext<Scalar>>(name, s, o, device_ordinal, pattern)), name_(name) {}

// The recipe first (its graphs, solvers and library handles run on the context's stream),
// then the context, both with the engine's device current.
template <class Scalar>
BasicDeviceEngine<Scalar>::~BasicDeviceEngine() {
  ReleaseScope scope(context_->device);
  if (context_->stream) cudaStreamSynchronize(context_->stream);
  recipe_.reset();
  context_.reset();
}

template <class Scalar>
int BasicDeviceEngine<Scalar>::device() const noexcept {
  return context_->device;
}

template <class Scalar>
void BasicDeviceEngine<Scalar>::forget_factor() {
  factored_ = false;
  f_host_current_ = false;
}

template <class Scalar>
void BasicDeviceEngine<Scalar>::load_input(const Scalar* a_values) {
  forget_factor();
  context_->input->upload(a_values, context_->stream);
}

template <class Scalar>
EngineFactorResult BasicDeviceEngine<Scalar>::factor(const Scalar* a_values, const PivotRule& rule) {
  DeviceScope scope(context_->device);
  load_input(a_values);
  return factor_input(rule);
}

template <class Scalar>
EngineFactorResult BasicDeviceEngine<Scalar>::factor_device(const Scalar* d_values, const PivotRule& rule) {
  DeviceScope scope(context_->device);
  forget_factor();
  context_->input->copy(d_values, context_->stream);
  return factor_input(rule);
}

template <class Scalar>
EngineFactorResult BasicDeviceEngine<Scalar>::factor_input(const PivotRule& rule) {
  EngineFactorResult out = recipe_->factor(rule);
  factored_ = out.stats.status == Status::ok;
  return out;
}

template <class Scalar>
void BasicDeviceEngine<Scalar>::download_input(Scalar* a_values) {
  DeviceScope scope(context_->device);
  context_->input->download(a_values, context_->stream);
}

template <class Scalar>
BasicDeviceSolve<Scalar>& BasicDeviceEngine<Scalar>::factored_solves(const char* call) {
  if (!factored_)
    throw Error(Status::not_factored, name_ + "::" + call + ": no successful factorization to solve with");
  return recipe_->solves();
}

template <class Scalar>
EngineSolveResult BasicDeviceEngine<Scalar>::solve(const Scalar* b, Scalar* x, bool transpose, int32_t max_steps,
                                                   const RefineTarget& target) {
  BasicDeviceSolve<Scalar>& solves = factored_solves("solve");
  if (context_->n == 0) return EngineSolveResult{};
  DeviceScope scope(context_->device);
  // A symmetric engine's plain solve and plain residual serve A^T x = b as well (and A^T's
  // pattern, which the refinement would build for a transposed solve, is never needed).
  return context_->refinement->solve(solves, b, x, transposed(transpose), max_steps, target);
}

template <class Scalar>
EngineSolveResult BasicDeviceEngine<Scalar>::solve_device(const Scalar* d_b, Scalar* d_x, bool transpose,
                                                          int32_t max_steps, const RefineTarget& target) {
  BasicDeviceSolve<Scalar>& solves = factored_solves("solve_device");
  if (context_->n == 0) return EngineSolveResult{};
  DeviceScope scope(context_->device);
  return context_->refinement->solve_device(solves, d_b, d_x, transposed(transpose), max_steps, target);
}

template <class Scalar>
const std::vector<Scalar>& BasicDeviceEngine<Scalar>::factor_values() {
  if (!f_host_current_) {
    f_host_.resize(context_->schedule->f_rowind.size());
    download_factor(f_host_.data());
    f_host_current_ = true;
  }
  return f_host_;
}

template <class Scalar>
void BasicDeviceEngine<Scalar>::download_factor(Scalar* f_host) const {
  DeviceScope scope(context_->device);
  recipe_->download_factor(f_host);
}

template <class Scalar>
int64_t BasicDeviceEngine<Scalar>::device_bytes() const noexcept {
  return context_->mem.bytes() + (recipe_ ? recipe_->device_bytes() : 0);
}

template <class Scalar>
TrsvKernel BasicDeviceEngine<Scalar>::trsv_kernel() const noexcept {
  return recipe_->trsv_kernel();
}

namespace {

// The Schur verbs' vectors as the sweeps take them: real only (a complex engine has no sweeps,
// so schur_sweeps() refuses before any of these is reached).
template <class T>
auto* as_real(T* p) {
  using Real = std::conditional_t<std::is_const_v<T>, const double, double>;
  if constexpr (std::is_same_v<std::remove_const_t<T>, double>)
    return p;
  else
    return static_cast<Real*>(nullptr);
}

}  // namespace

template <class Scalar>
bool BasicDeviceEngine<Scalar>::supports_schur() const noexcept {
  return std::is_same_v<Scalar, double> && recipe_ && recipe_->schur_sweeps() != nullptr;
}

template <class Scalar>
SchurSweeps& BasicDeviceEngine<Scalar>::schur_sweeps(const char* call) const {
  SchurSweeps* sweeps = std::is_same_v<Scalar, double> ? recipe_->schur_sweeps() : nullptr;
  if (!sweeps) throw Error(Status::unsupported, name_ + "::" + call + ": this engine has no Schur-complement mode");
  return *sweeps;
}

template <class Scalar>
void BasicDeviceEngine<Scalar>::read_schur_block(Scalar* s, int64_t ld) {
  schur_sweeps("schur_block");
  DeviceScope scope(context_->device);
  recipe_->read_schur_block(as_real(s), ld);
}

template <class Scalar>
void BasicDeviceEngine<Scalar>::schur_block(Scalar* s, int64_t ld) {
  read_schur_block(s, ld);
}

template <class Scalar>
bool BasicDeviceEngine<Scalar>::schur_block_device(Scalar* d_s, int64_t ld) {
  read_schur_block(d_s, ld);
  return true;
}

template <class Scalar>
void BasicDeviceEngine<Scalar>::schur_sweep(Scalar* z, bool transpose, bool forward) {
  SchurSweeps& sweeps = schur_sweeps(forward ? "schur_forward" : "schur_backward");
  DeviceScope scope(context_->device);
  sweeps.schur_sweep(as_real(z), transposed(transpose), forward);
}

template <class Scalar>
void BasicDeviceEngine<Scalar>::schur_forward(Scalar* z, bool transpose) {
  schur_sweep(z, transpose, /*forward=*/true);
}

template <class Scalar>
void BasicDeviceEngine<Scalar>::schur_backward(Scalar* z, bool transpose) {
  schur_sweep(z, transpose, /*forward=*/false);
}

template <class Scalar>
bool BasicDeviceEngine<Scalar>::schur_condense_device(const Scalar* d_b, Scalar* d_reduced, bool transpose) {
  SchurSweeps& sweeps = schur_sweeps("schur_condense_device");
  DeviceScope scope(context_->device);
  sweeps.schur_condense(as_real(d_b), as_real(d_reduced), transposed(transpose));
  return true;
}

template <class Scalar>
bool BasicDeviceEngine<Scalar>::schur_expand_device(const Scalar* d_x2, Scalar* d_x, bool transpose) {
  SchurSweeps& sweeps = schur_sweeps("schur_expand_device");
  DeviceScope scope(context_->device);
  sweeps.schur_expand(as_real(d_x2), as_real(d_x), transposed(transpose));
  return true;
}

template class BasicDeviceEngine<double>;
template class BasicDeviceEngine<std::complex<double>>;

}  // namespace gpuglu::cuda
