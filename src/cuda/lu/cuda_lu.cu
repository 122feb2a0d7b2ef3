// CudaLU (cuda_lu.hpp): one Schedule on one GPU, composed of
//   DeviceFactor      F, its pattern and the level schedule on the device, the scatter of
//                     A's values, the factorization state      (device_factor.hpp)
//   LevelLoop         the launch plan per level, the CUDA graph, the persistent kernel
//                                                               (level_loop.hpp)
//   LuSolves          the triangular solvers of L, U, U^T, L^T and the permute-and-scale
//                     solve                                     (lu_solves.hpp)
//   DeviceRefinement  the solve with refinement on the device  (device_refinement.hpp)
//   HostStaging       pinned buffers and the pageable-vs-pinned copy rule
//                                                               (common/host_staging.hpp)
// on one non-blocking stream, with every device allocation in one DeviceMemory. Every
// run-time choice comes from the Options given at construction.
#include "cuda/lu/cuda_lu.hpp"

#include <cuda_runtime.h>

#include <complex>
#include <memory>
#include <type_traits>
#include <string>
#include <vector>

#include "core/scalar.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/host_staging.hpp"
#include "cuda/ldlt/cuda_ldlt.hpp"
#include "cuda/lu/device_factor.hpp"
#include "cuda/lu/device_refinement.hpp"
#include "cuda/lu/level_loop.hpp"
#include "cuda/lu/lu_solves.hpp"
#include "cuda/supernodal/cuda_supernodal_lu.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {

// The one CUDA factory of the seam: a symmetric schedule (analyze_symmetric) is the LDL^T's,
// a supernodal one (Options::lu_engine) the supernodal LU's (real only: engine_choice.cpp
// refuses a complex supernodal schedule before it gets here).
template <class Scalar>
std::unique_ptr<BasicNumericEngine<Scalar>> make_cuda_engine(const Schedule& s, PatternRef pattern, const Options& o,
                                                             int device_ordinal, bool hermitian) {
  if (s.symmetric) return std::make_unique<cuda::BasicCudaLDLT<Scalar>>(s, o, device_ordinal, pattern, hermitian);
  if constexpr (std::is_same_v<Scalar, double>) {
    if (s.supernodal) return std::make_unique<cuda::CudaSupernodalLU>(s, o, device_ordinal, pattern);
  } else {
    if (s.supernodal)
      throw Error(Status::unsupported, "the supernodal LU engine factors real matrices only; use lu_engine column");
  }
  return std::make_unique<cuda::BasicCudaLU<Scalar>>(s, o, device_ordinal, pattern);
}
template std::unique_ptr<BasicNumericEngine<double>> make_cuda_engine(const Schedule&, PatternRef, const Options&, int,
                                                                      bool);
template std::unique_ptr<BasicNumericEngine<Complex>> make_cuda_engine(const Schedule&, PatternRef, const Options&,
                                                                       int, bool);

namespace cuda {

template <class Scalar>
struct BasicCudaLU<Scalar>::Impl {
  using T = device_scalar_t<Scalar>;
  int device = 0;
  int32_t n = 0;
  int64_t nnz_f = 0;
  DeviceMemory mem{"this factorization"};
  cudaStream_t stream = nullptr;
  cudaEvent_t ev_start = nullptr, ev_loop = nullptr, ev_end = nullptr;
  // Built in this order by init(), released in the reverse one by ~Impl.
  std::unique_ptr<HostStaging> staging;
  std::unique_ptr<BasicDeviceFactor<Scalar>> factor;
  std::unique_ptr<BasicLuSolves<Scalar>> solves;
  std::unique_ptr<BasicDeviceRefinement<Scalar>> refinement;
  std::unique_ptr<BasicLevelLoop<T>> loop;
  LevelTiming timing{0, 0.0, 0.0};
  bool factored = false;
  std::vector<Scalar> f_host;  // factor_values()' copy
  bool f_host_current = false;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl();

  void init(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern);
  // What every factorization starts with: the last factor is gone, A's values go up (or,
  // from device memory, across).
  void begin_factorization(const Scalar* a_values, bool on_device = false) {
    factored = false;
    f_host_current = false;
    if (on_device)
      factor->copy_input(a_values, stream);
    else
      factor->upload_input(a_values, stream);
  }
  EngineFactorResult factor_input(const PivotRule& rule);  // the scatter and the level loop
};

template <class Scalar>
BasicCudaLU<Scalar>::Impl::~Impl() {
  ReleaseScope scope(device);  // best effort: nothing here may throw
  if (stream) cudaStreamSynchronize(stream);
  loop.reset();  // its graph
  refinement.reset();
  solves.reset();  // the solvers run on `stream`: they go before it does
  factor.reset();
  for (cudaEvent_t e : {ev_start, ev_loop, ev_end})
    if (e) cudaEventDestroy(e);
  if (stream) cudaStreamDestroy(stream);
  staging.reset();
  mem.release();
}

template <class Scalar>
void BasicCudaLU<Scalar>::Impl::init(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern) {
  if (s.symmetric)
    throw Error(Status::invalid_input, "CudaLU: a symmetric schedule holds L and D only; CudaLDLT factors it");
  if (device_ordinal < 0) {
    GPUGLU_CUDA_CHECK(cudaGetDevice(&device));
  } else {
    device = device_ordinal;
  }
  DeviceScope scope(device);
  n = s.n;
  nnz_f = static_cast<int64_t>(s.f_rowind.size());
  const int32_t levels = s.num_levels();
  if (static_cast<int64_t>(s.value_map.size()) != s.input_nnz || static_cast<int64_t>(s.f_colptr.size()) != n + 1 ||
      static_cast<int64_t>(s.f_diag.size()) != n || s.nnz_l + s.nnz_u != nnz_f ||
      (levels > 0 && static_cast<int64_t>(s.level_target_ptr.size()) != levels + 1))
    throw Error(Status::invalid_input, "CudaLU: the schedule's arrays are inconsistent (not from analyze()?)");

  GPUGLU_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  GPUGLU_CUDA_CHECK(cudaEventCreate(&ev_start));
  GPUGLU_CUDA_CHECK(cudaEventCreate(&ev_loop));
  GPUGLU_CUDA_CHECK(cudaEventCreate(&ev_end));

  staging = std::make_unique<HostStaging>(o.cuda.staging);
  factor = std::make_unique<BasicDeviceFactor<Scalar>>(s, mem, *staging);
  solves = std::make_unique<BasicLuSolves<Scalar>>(s, o, device, mem, stream, factor->values());
  refinement = std::make_unique<BasicDeviceRefinement<Scalar>>(n, s.input_nnz, pattern, factor->input_values(), mem,
                                                               *staging, stream);
  refinement->set_equilibration(s.row_scale, s.col_scale);
  loop = std::make_unique<BasicLevelLoop<T>>(s, o.modes, o.cuda.level_graph, factor->level_args(),
                                             kernels::lu_update_kernels<T>(), device, mem, stream);
}

template <class Scalar>
BasicCudaLU<Scalar>::BasicCudaLU(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern)
    : impl_(std::make_unique<Impl>()) {
  impl_->init(s, o, device_ordinal, pattern);  // on a throw, ~Impl releases what init acquired
}

template <class Scalar>
BasicCudaLU<Scalar>::~BasicCudaLU() = default;

template <class Scalar>
EngineFactorResult BasicCudaLU<Scalar>::factor(const Scalar* a_values, const PivotRule& rule) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.begin_factorization(a_values);
  return m.factor_input(rule);
}

template <class Scalar>
EngineFactorResult BasicCudaLU<Scalar>::factor_device(const Scalar* d_values, const PivotRule& rule) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.begin_factorization(d_values, true);
  return m.factor_input(rule);
}

template <class Scalar>
void BasicCudaLU<Scalar>::download_input(Scalar* a_values) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.factor->download_input(a_values, m.stream);
}

template <class Scalar>
EngineFactorResult BasicCudaLU<Scalar>::Impl::factor_input(const PivotRule& rule) {
  Impl& m = *this;
  GPUGLU_CUDA_CHECK(cudaEventRecord(m.ev_start, m.stream));
  m.factor->enqueue_scatter(rule, m.stream);
  GPUGLU_CUDA_CHECK(cudaEventRecord(m.ev_loop, m.stream));
  const bool graphed = m.loop->uses_graph();
  m.loop->enqueue(m.stream);
  GPUGLU_CUDA_CHECK(cudaEventRecord(m.ev_end, m.stream));
  m.factor->enqueue_state_download(m.stream);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));

  EngineFactorResult out = m.factor->result();  // throws on a broken schedule
  float total_ms = 0.0f, loop_ms = 0.0f;
  GPUGLU_CUDA_CHECK(cudaEventElapsedTime(&total_ms, m.ev_start, m.ev_end));
  GPUGLU_CUDA_CHECK(cudaEventElapsedTime(&loop_ms, m.ev_loop, m.ev_end));
  out.device_ms = total_ms;
  m.timing = {m.loop->levels(), graphed ? static_cast<double>(loop_ms) : 0.0,
              graphed ? 0.0 : static_cast<double>(loop_ms)};
  if (out.stats.status != Status::ok) return out;
  if (m.n > 0) {
    m.solves->gather();
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));
  }
  m.factored = true;
  return out;
}

template <class Scalar>
EngineSolveResult BasicCudaLU<Scalar>::solve(const Scalar* b, Scalar* x, bool transpose, int32_t max_steps,
                                             const RefineTarget& target) {
  Impl& m = *impl_;
  if (!m.factored) throw Error(Status::not_factored, "CudaLU::solve: no successful factorization to solve with");
  if (m.n == 0) return EngineSolveResult{};
  DeviceScope scope(m.device);
  return m.refinement->solve(*m.solves, b, x, transpose, max_steps, target);
}

template <class Scalar>
EngineSolveResult BasicCudaLU<Scalar>::solve_device(const Scalar* d_b, Scalar* d_x, bool transpose,
                                                    int32_t max_steps, const RefineTarget& target) {
  Impl& m = *impl_;
  if (!m.factored) throw Error(Status::not_factored, "CudaLU::solve_device: no successful factorization to solve with");
  if (m.n == 0) return EngineSolveResult{};
  DeviceScope scope(m.device);
  return m.refinement->solve_device(*m.solves, d_b, d_x, transpose, max_steps, target);
}

template <class Scalar>
const std::vector<Scalar>& BasicCudaLU<Scalar>::factor_values() {
  Impl& m = *impl_;
  if (!m.f_host_current) {
    m.f_host.resize(static_cast<size_t>(m.nnz_f));
    download_factor(m.f_host.data());
    m.f_host_current = true;
  }
  return m.f_host;
}

template <class Scalar>
void BasicCudaLU<Scalar>::download_factor(Scalar* f_host) const {
  const Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.factor->download(f_host, m.stream);
}

template <class Scalar>
int64_t BasicCudaLU<Scalar>::device_bytes() const noexcept {
  const Impl& m = *impl_;
  return m.mem.bytes() + (m.solves ? m.solves->device_bytes() : 0);
}

template <class Scalar>
TrsvKernel BasicCudaLU<Scalar>::trsv_kernel() const noexcept {
  return impl_->solves->kernel();
}

template <class Scalar>
int64_t BasicCudaLU<Scalar>::factor_bytes() const {
  const Impl& m = *impl_;
  return m.nnz_f * static_cast<int64_t>(sizeof(Scalar) + sizeof(int32_t)) +
         (static_cast<int64_t>(m.n) + 1) * static_cast<int64_t>(sizeof(int64_t)) +
         static_cast<int64_t>(m.n) * static_cast<int64_t>(sizeof(int64_t));
}

template <class Scalar>
auto BasicCudaLU<Scalar>::level_timing() const -> LevelTiming {
  return impl_->timing;
}

template <class Scalar>
bool BasicCudaLU<Scalar>::uses_graph() const {
  return impl_->loop->uses_graph();
}

template <class Scalar>
std::vector<float> BasicCudaLU<Scalar>::profile_levels(const Scalar* a_values, const PivotRule& rule) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.begin_factorization(a_values);
  m.factor->enqueue_scatter(rule, m.stream);
  return m.loop->profile(m.stream);
}

template class BasicCudaLU<double>;
template class BasicCudaLU<std::complex<double>>;

}  // namespace cuda
}  // namespace gpuglu
