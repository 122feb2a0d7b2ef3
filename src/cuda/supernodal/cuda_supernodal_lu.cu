// CudaSupernodalLU (cuda_supernodal_lu.hpp): one supernodal Schedule on one GPU, composed of
//   SupernodalPlan    the checked schedule, the launch plan per level and the host maps
//                                                               (supernodal_plan.hpp)
//   DevicePanels      the panels, A's values, F gathered from the panels, the state
//                                                               (device_panels.hpp)
//   SupernodeLanes    a level's blocked and GEMM supernodes side by side on a few streams,
//                     each with its SchurGemm (cuBLAS for the large supernodes' complements,
//                     schur_gemm.hpp) and DensePanelLU (cuSOLVER's unpivoted LU of the blocked
//                     supernodes' panels, the pivot test checked afterwards; a failed check
//                     redoes the factorization with the panel kernels, which the engine then
//                     keeps to: dense_panel_lu.hpp)                (supernode_lanes.hpp)
//   LuSolves          CudaLU's triangular solves, on F          (lu/lu_solves.hpp)
//   PanelSolves       or, with Options::cuda.supernodal_panel_solve, the triangular solves
//                     on the panels, level by level               (panel_solves.hpp)
//   DeviceRefinement  CudaLU's solve with refinement            (lu/device_refinement.hpp)
// on one non-blocking stream, with every device allocation in one DeviceMemory.
#include "cuda/supernodal/cuda_supernodal_lu.hpp"

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/host_staging.hpp"
#include "cuda/lu/device_refinement.hpp"
#include "cuda/lu/lu_solves.hpp"
#include "cuda/supernodal/device_panels.hpp"
#include "cuda/supernodal/panel_solves.hpp"
#include "cuda/supernodal/supernode_lanes.hpp"
#include "cuda/supernodal/supernodal_kernels.cuh"
#include "cuda/supernodal/supernodal_plan.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

struct CudaSupernodalLU::Impl {
  int device = 0;
  int32_t n = 0;
  int64_t nnz_f = 0;
  SupernodalPlan plan;
  DeviceMemory mem{"this supernodal factorization"};
  cudaStream_t stream = nullptr;
  cudaEvent_t ev_start = nullptr, ev_end = nullptr;
  // Built in this order by init(), released in the reverse one by ~Impl.
  std::unique_ptr<HostStaging> staging;
  std::unique_ptr<DevicePanels> panels;
  // Only with large (GEMM) or blocked supernodes; the dense panel LU only with blocked ones
  // (and supernodal_dense_min_cols), dropped after a failed pivot check, the panel kernels
  // then factoring those supernodes.
  std::unique_ptr<SupernodeLanes> lanes;
  int64_t pivot_fallbacks = 0;
  std::unique_ptr<LuSolves> solves;           // the solves through F, or
  std::unique_ptr<PanelSolves> panel_solves;  // those on the panels (o.cuda.supernodal_panel_solve)
  std::unique_ptr<DeviceRefinement> refinement;
  bool factored = false;
  std::vector<double> f_host;  // factor_values()' copy
  bool f_host_current = false;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl();

  void init(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern);
  void enqueue_levels();
  // One attempt: the scatter, the levels and the gather F, timed, then the state read back.
  float factor_once(const PivotRule& rule);
  // The factorization of the values upload_input*() sent: attempts, outcome, the solves' F.
  EngineFactorResult factor_input(const PivotRule& rule);
  // The solves of the last successful factorization (throws Error(not_factored) without one;
  // who: the caller's name for the message).
  DeviceSolve& factored_solves(const char* who);
  void enqueue_level(const SupernodalPlan::Level& lv, int part);
};

CudaSupernodalLU::Impl::~Impl() {
  ReleaseScope scope(device);  // best effort: nothing here may throw
  if (stream) cudaStreamSynchronize(stream);
  refinement.reset();
  // The solvers (their graphs) and the cuBLAS handle run on `stream`: they go before it does.
  solves.reset();
  panel_solves.reset();
  lanes.reset();
  panels.reset();
  for (cudaEvent_t e : {ev_start, ev_end})
    if (e) cudaEventDestroy(e);
  if (stream) cudaStreamDestroy(stream);
  staging.reset();
  mem.release();
}

void CudaSupernodalLU::Impl::init(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern) {
  check_supernodal_schedule(s);  // first: an inconsistent schedule touches no device
  plan = plan_supernodal(s, o.cuda, device_facts(device_ordinal));
  if (device_ordinal < 0) {
    GPUGLU_CUDA_CHECK(cudaGetDevice(&device));
  } else {
    device = device_ordinal;
  }
  DeviceScope scope(device);
  n = s.n;
  nnz_f = static_cast<int64_t>(s.f_rowind.size());
  GPUGLU_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  GPUGLU_CUDA_CHECK(cudaEventCreate(&ev_start));
  GPUGLU_CUDA_CHECK(cudaEventCreate(&ev_end));
  staging = std::make_unique<HostStaging>(o.cuda.staging);
  panels = std::make_unique<DevicePanels>(s, plan, mem, *staging);
  if (plan.gemm_nodes > 0 || plan.blocked_nodes > 0)
    lanes = std::make_unique<SupernodeLanes>(plan, panels->args(), o.cuda.supernodal_dense_min_cols > 0,
                                             o.cuda.supernodal_streams, mem, stream);
  if (o.cuda.supernodal_panel_solve)
    panel_solves = std::make_unique<PanelSolves>(s, panels->args(), o.cuda, mem, stream);
  else
    solves = std::make_unique<LuSolves>(s, o, device, mem, stream, panels->factor());
  refinement = std::make_unique<DeviceRefinement>(n, s.input_nnz, pattern, panels->input_values(), mem, *staging,
                                                  stream);
  refinement->set_equilibration(s.row_scale, s.col_scale);
}

// Level by level: a level's supernodes depend only on earlier levels (their descendants),
// and their complements go to later ones (their ancestors), so the stream's order is all
// the synchronization there is.
void CudaSupernodalLU::Impl::enqueue_levels() {
  for (const SupernodalPlan::Level& lv : plan.levels)
    for (int part = 0; part < 4; ++part) enqueue_level(lv, part);
}

// Part 0: the panel kernel's supernodes, 1: the blocked ones, 2: the direct complements,
// 3: the GEMM ones (in this order: a complement needs its supernode factored).
void CudaSupernodalLU::Impl::enqueue_level(const SupernodalPlan::Level& lv, int part) {
  const kernels::SupernodeArgs& a = panels->args();
  switch (part) {
    case 0:
      if (lv.resident)
        kernels::launch_panel_resident(a, panels->panel_nodes() + lv.panel_begin, lv.panel_count, lv.panel_threads,
                                       lv.panel_smem, stream);
      else if (lv.stepped)
        kernels::launch_panel_steps(a, panels->panel_nodes() + lv.panel_begin, lv.panel_count, lv.panel_max_cols,
                                    lv.panel_threads, lv.panel_smem, lv.trailing_blocks.data(), stream);
      else
        kernels::launch_panel_factor(a, panels->panel_nodes() + lv.panel_begin, lv.panel_count, lv.panel_threads,
                                     lv.panel_smem, stream);
      break;
    case 1:
      if (!lv.blocked.empty()) lanes->factor_blocked(a, lv.blocked);
      break;
    case 2:
      kernels::launch_schur_direct(a, panels->direct_nodes() + lv.direct_begin, lv.direct_count,
                                   lv.direct_tiles, stream);
      break;
    default:
      if (!lv.gemm.empty()) lanes->subtract_complements(a, lv.gemm);
      break;
  }
}

CudaSupernodalLU::CudaSupernodalLU(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern)
    : impl_(std::make_unique<Impl>()) {
  impl_->init(s, o, device_ordinal, pattern);  // on a throw, ~Impl releases what init acquired
}

CudaSupernodalLU::~CudaSupernodalLU() = default;

float CudaSupernodalLU::Impl::factor_once(const PivotRule& rule) {
  GPUGLU_CUDA_CHECK(cudaEventRecord(ev_start, stream));
  panels->enqueue_scatter(rule, stream);
  enqueue_levels();
  // F is gathered whatever the outcome (factor_values() then shows what was computed, as
  // CudaLU's does); the solves take it only from a successful factorization.
  panels->enqueue_gather_factor(stream);
  GPUGLU_CUDA_CHECK(cudaEventRecord(ev_end, stream));
  panels->enqueue_state_download(stream);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
  float ms = 0.0f;
  GPUGLU_CUDA_CHECK(cudaEventElapsedTime(&ms, ev_start, ev_end));
  return ms;
}

EngineFactorResult CudaSupernodalLU::factor(const double* a_values, const PivotRule& rule) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.panels->upload_input(a_values, m.stream);
  return m.factor_input(rule);
}

EngineFactorResult CudaSupernodalLU::factor_device(const double* d_values, const PivotRule& rule) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.panels->upload_input_device(d_values, m.stream);
  return m.factor_input(rule);
}

void CudaSupernodalLU::download_input(double* a_values) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.panels->download_input(a_values, m.stream);
}

EngineFactorResult CudaSupernodalLU::Impl::factor_input(const PivotRule& rule) {
  Impl& m = *this;
  m.factored = false;
  m.f_host_current = false;
  float ms = m.factor_once(rule);
  if (m.lanes && m.lanes->dense() && m.panels->unstable_panel()) {
    // A dense panel failed its pivot test: the panel kernels decide (perturb or report) as the
    // CPU engine does. The same matrix's next values likely fail again, so they stay in charge.
    m.lanes->drop_dense();
    ++m.pivot_fallbacks;
    ms += m.factor_once(rule);
  }
  EngineFactorResult out = m.panels->result();  // throws on a broken schedule
  out.device_ms = ms;
  if (out.stats.status != Status::ok) return out;
  if (m.n > 0 && m.solves) {  // the panel solves read the panels themselves
    m.solves->gather();
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));
  }
  m.factored = true;
  return out;
}

DeviceSolve& CudaSupernodalLU::Impl::factored_solves(const char* who) {
  if (!factored)
    throw Error(Status::not_factored, std::string("CudaSupernodalLU::") + who +
                                          ": no successful factorization to solve with");
  return panel_solves ? static_cast<DeviceSolve&>(*panel_solves) : *solves;
}

EngineSolveResult CudaSupernodalLU::solve(const double* b, double* x, bool transpose, int32_t max_steps,
                                          const RefineTarget& target) {
  Impl& m = *impl_;
  DeviceSolve& solves = m.factored_solves("solve");
  if (m.n == 0) return EngineSolveResult{};
  DeviceScope scope(m.device);
  return m.refinement->solve(solves, b, x, transpose, max_steps, target);
}

EngineSolveResult CudaSupernodalLU::solve_device(const double* d_b, double* d_x, bool transpose, int32_t max_steps,
                                                 const RefineTarget& target) {
  Impl& m = *impl_;
  DeviceSolve& solves = m.factored_solves("solve_device");
  if (m.n == 0) return EngineSolveResult{};
  DeviceScope scope(m.device);
  return m.refinement->solve_device(solves, d_b, d_x, transpose, max_steps, target);
}

const std::vector<double>& CudaSupernodalLU::factor_values() {
  Impl& m = *impl_;
  if (!m.f_host_current) {
    m.f_host.resize(static_cast<size_t>(m.nnz_f));
    download_factor(m.f_host.data());
    m.f_host_current = true;
  }
  return m.f_host;
}

void CudaSupernodalLU::download_factor(double* f_host) const {
  const Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.panels->download_factor(f_host, m.stream);
}

int64_t CudaSupernodalLU::device_bytes() const noexcept {
  const Impl& m = *impl_;
  return m.mem.bytes() + (m.solves ? m.solves->device_bytes() : 0);
}

// The panel solves run none of the trsv module's kernels: automatic stands for "not one of them".
TrsvKernel CudaSupernodalLU::trsv_kernel() const noexcept {
  return impl_->solves ? impl_->solves->kernel() : TrsvKernel::automatic;
}

CudaSupernodalLU::UpdatePaths CudaSupernodalLU::update_paths() const {
  const SupernodalPlan& p = impl_->plan;
  return {static_cast<int64_t>(p.direct_nodes.size()), p.gemm_nodes, p.blocked_nodes};
}

std::vector<CudaSupernodalLU::LevelTiming> CudaSupernodalLU::profile_levels(const double* a_values,
                                                                             const PivotRule& rule) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.factored = false;
  m.f_host_current = false;
  const size_t levels = m.plan.levels.size();
  std::vector<cudaEvent_t> ev(levels * 4 + 1, nullptr);
  for (cudaEvent_t& e : ev) GPUGLU_CUDA_CHECK(cudaEventCreate(&e));
  m.panels->upload_input(a_values, m.stream);
  m.panels->enqueue_scatter(rule, m.stream);
  GPUGLU_CUDA_CHECK(cudaEventRecord(ev[0], m.stream));
  for (size_t l = 0; l < levels; ++l)
    for (int part = 0; part < 4; ++part) {
      m.enqueue_level(m.plan.levels[l], part);
      GPUGLU_CUDA_CHECK(cudaEventRecord(ev[l * 4 + part + 1], m.stream));
    }
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));
  std::vector<LevelTiming> out(levels);
  for (size_t l = 0; l < levels; ++l) {
    float* parts[4] = {&out[l].panel, &out[l].blocked, &out[l].direct, &out[l].gemm};
    for (int part = 0; part < 4; ++part)
      GPUGLU_CUDA_CHECK(cudaEventElapsedTime(parts[part], ev[l * 4 + part], ev[l * 4 + part + 1]));
  }
  for (cudaEvent_t e : ev) cudaEventDestroy(e);
  return out;
}

int64_t CudaSupernodalLU::pivot_fallbacks() const noexcept { return impl_->pivot_fallbacks; }

int32_t CudaSupernodalLU::levels() const { return static_cast<int32_t>(impl_->plan.levels.size()); }

}  // namespace gpuglu::cuda
