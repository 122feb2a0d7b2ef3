// CudaLDLT (cuda_ldlt.hpp): one symmetric Schedule on one GPU, composed of CudaLU's parts -
//   DeviceFactor      F (L with D on its diagonal), its pattern and the level schedule on
//                     the device, the scatter (adding), the state   (cuda/lu/device_factor.hpp)
//   LevelLoop         the plan, the graph or the persistent kernel, with the LU's pivot
//                     kernels and the LDL^T's update kernels       (cuda/lu/level_loop.hpp,
//                                                                   ldlt_kernels.cuh)
//   DeviceRefinement  the solve with refinement on the device      (cuda/lu/device_refinement.hpp)
//   HostStaging       pinned buffers and the copy rule             (cuda/common/host_staging.hpp)
// and its own solves (ldlt_solves.hpp: L, D, L^T), on one non-blocking stream, with every
// device allocation in one DeviceMemory. Every run-time choice comes from the Options
// given at construction.
#include "cuda/ldlt/cuda_ldlt.hpp"

#include <cuda_runtime.h>

#include <complex>
#include <memory>
#include <vector>

#include "core/scalar.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/host_staging.hpp"
#include "cuda/ldlt/ldlt_kernels.cuh"
#include "cuda/ldlt/ldlt_solves.hpp"
#include "cuda/lu/device_factor.hpp"
#include "cuda/lu/device_refinement.hpp"
#include "cuda/lu/level_loop.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

template <class Scalar>
struct BasicCudaLDLT<Scalar>::Impl {
  using T = device_scalar_t<Scalar>;
  int device = 0;
  int32_t n = 0;
  int64_t nnz_f = 0;
  DeviceMemory mem{"this LDL^T factorization"};
  cudaStream_t stream = nullptr;
  cudaEvent_t ev_start = nullptr, ev_loop = nullptr, ev_end = nullptr;
  // Built in this order by init(), released in the reverse one by ~Impl.
  std::unique_ptr<HostStaging> staging;
  std::unique_ptr<BasicDeviceFactor<Scalar>> factor;
  std::unique_ptr<BasicLdltSolves<Scalar>> solves;
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

  void init(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern, bool hermitian);
};

template <class Scalar>
BasicCudaLDLT<Scalar>::Impl::~Impl() {
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
void BasicCudaLDLT<Scalar>::Impl::init(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern,
                                       bool hermitian) {
  if (!s.symmetric)
    throw Error(Status::invalid_input,
                "CudaLDLT: the schedule is not symmetric (analyze_symmetric builds its schedules)");
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
      s.target_src_col.size() != s.target_src.size() ||
      (levels > 0 && static_cast<int64_t>(s.level_target_ptr.size()) != levels + 1))
    throw Error(Status::invalid_input,
                "CudaLDLT: the schedule's arrays are inconsistent (not from analyze_symmetric()?)");

  GPUGLU_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  GPUGLU_CUDA_CHECK(cudaEventCreate(&ev_start));
  GPUGLU_CUDA_CHECK(cudaEventCreate(&ev_loop));
  GPUGLU_CUDA_CHECK(cudaEventCreate(&ev_end));

  staging = std::make_unique<HostStaging>(o.cuda.staging);
  const bool conjugates = hermitian && is_complex_v<Scalar>;
  factor = std::make_unique<BasicDeviceFactor<Scalar>>(
      s, mem, *staging, conjugates ? hermitian_mirrored_entries(s, pattern) : std::vector<char>{});
  const kernels::BasicLevelArgs<T>& args = factor->level_args();
  solves = std::make_unique<BasicLdltSolves<Scalar>>(s, o, device, mem, stream, args.f, args.diag, conjugates);
  refinement = std::make_unique<BasicDeviceRefinement<Scalar>>(n, s.input_nnz, pattern, factor->input_values(), mem,
                                                               *staging, stream);
  refinement->set_equilibration(s.row_scale, s.col_scale);
  loop = std::make_unique<BasicLevelLoop<T>>(s, o.modes, o.cuda.level_graph, args, kernels::ldlt_update_kernels<T>(),
                                             device, mem, stream);
}

template <class Scalar>
BasicCudaLDLT<Scalar>::BasicCudaLDLT(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern,
                                     bool hermitian)
    : impl_(std::make_unique<Impl>()) {
  impl_->init(s, o, device_ordinal, pattern, hermitian);  // on a throw, ~Impl releases what init acquired
}

template <class Scalar>
BasicCudaLDLT<Scalar>::~BasicCudaLDLT() = default;

template <class Scalar>
EngineFactorResult BasicCudaLDLT<Scalar>::factor(const Scalar* a_values, const PivotRule& rule) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.factored = false;
  m.f_host_current = false;
  m.factor->upload_input(a_values, m.stream);
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
EngineSolveResult BasicCudaLDLT<Scalar>::solve(const Scalar* b, Scalar* x, bool /*transpose*/, int32_t max_steps,
                                               const RefineTarget& target) {
  Impl& m = *impl_;
  if (!m.factored) throw Error(Status::not_factored, "CudaLDLT::solve: no successful factorization to solve with");
  if (m.n == 0) return EngineSolveResult{};
  DeviceScope scope(m.device);
  // A = A^T: the plain solve and the plain residual serve A^T x = b as well (and A^T's
  // pattern, which the refinement would build for a transposed solve, is never needed).
  return m.refinement->solve(*m.solves, b, x, false, max_steps, target);
}

template <class Scalar>
const std::vector<Scalar>& BasicCudaLDLT<Scalar>::factor_values() {
  Impl& m = *impl_;
  if (!m.f_host_current) {
    m.f_host.resize(static_cast<size_t>(m.nnz_f));
    download_factor(m.f_host.data());
    m.f_host_current = true;
  }
  return m.f_host;
}

template <class Scalar>
void BasicCudaLDLT<Scalar>::download_factor(Scalar* f_host) const {
  const Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.factor->download(f_host, m.stream);
}

template <class Scalar>
int64_t BasicCudaLDLT<Scalar>::device_bytes() const noexcept {
  const Impl& m = *impl_;
  return m.mem.bytes() + (m.solves ? m.solves->device_bytes() : 0);
}

template <class Scalar>
TrsvKernel BasicCudaLDLT<Scalar>::trsv_kernel() const noexcept {
  return impl_->solves->kernel();
}

template <class Scalar>
auto BasicCudaLDLT<Scalar>::level_timing() const -> LevelTiming {
  return impl_->timing;
}

template <class Scalar>
bool BasicCudaLDLT<Scalar>::uses_graph() const {
  return impl_->loop->uses_graph();
}

template class BasicCudaLDLT<double>;
template class BasicCudaLDLT<std::complex<double>>;

}  // namespace gpuglu::cuda
