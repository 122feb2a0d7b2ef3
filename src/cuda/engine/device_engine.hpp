#pragma once
// The device-engine shell (docs/design.md, "One pipeline, engines behind one seam"): what
// every CUDA engine shares, written once - the device it lives on, its stream, its memory
// and pinned staging, A's values on the device (one DeviceInput), the refinement on the
// device, the guards of the solves, the factor's host copy - and the seam's calls
// (factor, factor_device, solve, solve_device, download_input, factor_values) over them.
// What differs per engine is a recipe (EngineRecipe below): the column LU and LDL^T
// (cuda/column, cuda/lu, cuda/ldlt) and the supernodal LU (cuda/supernodal). A new engine
// is a recipe, not a copy. Plain C++ (no CUDA types), so the API layer and the tests
// include it without nvcc.
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/numeric_engine.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

template <class Scalar>
struct BasicEngineContext;  // engine_context.hpp: the shell's device, stream, memory, staging, input
template <class Scalar>
class BasicDeviceSolve;
class SchurSweeps;  // common/device_solve.hpp

// One engine's numeric part on the shell's context. Its device work runs on the context's
// stream; the shell makes the device current around every call and tears the recipe down
// first (under the same device) when the engine goes.
template <class Scalar>
class BasicEngineRecipe {
 public:
  virtual ~BasicEngineRecipe() = default;
  // The numeric factorization of the values the shell just put in the context's input: the
  // scatter, the elimination and, when it succeeded, the solves' copy of the factor, all
  // finished on return (synchronous). A failure is a status in the result; device_ms set.
  virtual EngineFactorResult factor(const PivotRule& rule) = 0;
  // The solve the refinement runs (valid after a successful factor()).
  virtual BasicDeviceSolve<Scalar>& solves() = 0;
  // F's values (the schedule's f_rowind layout, spelled out: spell_out_factor) to the
  // host, synchronous.
  virtual void download_factor(Scalar* f_host) = 0;
  virtual int64_t device_bytes() const noexcept { return 0; }  // held outside the context's memory
  virtual TrsvKernel trsv_kernel() const noexcept = 0;
  // A = A^T (the symmetric engines): a transposed solve is the plain one.
  virtual bool symmetric() const noexcept { return false; }
  // Schur-complement mode (a schedule with schur_size > 0; the real supernodal engines): the
  // sweeps short of the Schur supernode, and S_C read from it into s (host memory or any
  // device's of the process, leading dimension ld >= k; synchronous), which the shell calls
  // only where schur_sweeps() is set. nullptr: no Schur mode (the shell says so).
  virtual SchurSweeps* schur_sweeps() const { return nullptr; }
  virtual void read_schur_block(double* s, int64_t ld) {
    (void)s;
    (void)ld;
  }

 protected:
  BasicEngineRecipe() = default;
  BasicEngineRecipe(const BasicEngineRecipe&) = delete;
  BasicEngineRecipe& operator=(const BasicEngineRecipe&) = delete;
};

template <class Scalar>
class BasicDeviceEngine : public BasicNumericEngine<Scalar> {
 public:
  ~BasicDeviceEngine() override;
  BasicDeviceEngine(const BasicDeviceEngine&) = delete;
  BasicDeviceEngine& operator=(const BasicDeviceEngine&) = delete;

  // a_values: A's values in its CSR order (s.input_nnz of them): one copy up (or, from device
  // memory of this process, across), then the recipe's factorization. Synchronous.
  EngineFactorResult factor(const Scalar* a_values, const PivotRule& rule) override;
  EngineFactorResult factor_device(const Scalar* d_values, const PivotRule& rule) override;
  // x = A^{-1} b or A^{-T} b (host arrays of n, which may alias; or device arrays for
  // solve_device), then up to max_steps refinement steps on the device (DeviceRefinement).
  // Throws Error(not_factored) unless the last factorization succeeded.
  EngineSolveResult solve(const Scalar* b, Scalar* x, bool transpose, int32_t max_steps,
                          const RefineTarget& target) override;
  EngineSolveResult solve_device(const Scalar* d_b, Scalar* d_x, bool transpose, int32_t max_steps,
                                 const RefineTarget& target) override;
  // The bare solve (no refinement, no backward error).
  void solve(const Scalar* b, Scalar* x, bool transpose) { solve(b, x, transpose, 0, RefineTarget{}); }
  bool supports_device_pointers() const noexcept override { return true; }
  void download_input(Scalar* a_values) override;  // A's values of the last factorization

  const std::vector<Scalar>& factor_values() override;  // downloaded once per factorization
  void download_factor(Scalar* f_host) const;           // F values (s.f_rowind.size() of them)
  Backend backend() const noexcept override { return Backend::cuda; }
  int64_t device_bytes() const noexcept override;  // the context's memory and the recipe's own
  TrsvKernel trsv_kernel() const noexcept override;
  int device() const noexcept;

  // Schur-complement mode (core/numeric_engine.hpp) over the recipe's sweeps and block
  // (BasicEngineRecipe::schur_sweeps); a symmetric engine's transposed sweeps are its plain
  // ones. Real scalars only: no complex recipe has sweeps.
  bool supports_schur() const noexcept override;
  void schur_block(Scalar* s, int64_t ld) override;
  bool schur_block_device(Scalar* d_s, int64_t ld) override;
  void schur_forward(Scalar* z, bool transpose) override;
  void schur_backward(Scalar* z, bool transpose) override;
  bool schur_condense_device(const Scalar* d_b, Scalar* d_reduced, bool transpose) override;
  bool schur_expand_device(const Scalar* d_x2, Scalar* d_x, bool transpose) override;

 protected:
  // Makes the device current (device_ordinal < 0: the calling thread's), creates the stream,
  // the staging, A's input buffer and the refinement (pattern: A's CSR pattern, uploaded on
  // the first refined solve; without it a refined solve throws). name: the engine's, for
  // messages. Throws gpuglu::Error (out_of_memory naming the bytes asked, device_error,
  // no_device); what it acquired is released.
  BasicDeviceEngine(const char* name, const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern);
  // The derived engine's constructor builds its recipe on context() (device current) and
  // hands it over, keeping the returned pointer for its own diagnostics; a throw before that
  // releases the shell as a whole.
  template <class Recipe>
  Recipe* set_recipe(std::unique_ptr<Recipe> recipe) {
    Recipe* kept = recipe.get();
    recipe_ = std::move(recipe);
    return kept;
  }
  BasicEngineContext<Scalar>& context() const { return *context_; }
  // What every factorization starts with: the last factor is gone, A's values go up (device
  // current; asynchronous on the context's stream). For a recipe's diagnostic runs too.
  void load_input(const Scalar* a_values);

 private:
  std::unique_ptr<BasicEngineContext<Scalar>> context_;
  std::unique_ptr<BasicEngineRecipe<Scalar>> recipe_;
  std::string name_;
  bool factored_ = false;
  std::vector<Scalar> f_host_;  // factor_values()' copy
  bool f_host_current_ = false;

  void forget_factor();  // a new factorization begins: neither the factor nor its host copy holds
  EngineFactorResult factor_input(const PivotRule& rule);
  BasicDeviceSolve<Scalar>& factored_solves(const char* call);
  SchurSweeps& schur_sweeps(const char* call) const;  // Error(unsupported) where the recipe has none
  void read_schur_block(Scalar* s, int64_t ld);
  void schur_sweep(Scalar* z, bool transpose, bool forward);  // schur_forward / schur_backward
  // A symmetric engine's transposed solves and sweeps are its plain ones.
  bool transposed(bool transpose) const noexcept { return transpose && !recipe_->symmetric(); }
};

extern template class BasicDeviceEngine<double>;
extern template class BasicDeviceEngine<std::complex<double>>;

}  // namespace gpuglu::cuda
