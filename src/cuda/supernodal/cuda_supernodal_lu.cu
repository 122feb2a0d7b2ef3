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
//   PivotedPanelLU    the supernodes that pivot inside their diagonal blocks, once a static
//                     pivot failed in them (core/supernode_pivoting.hpp; the panel solves
//                     only)                                     (pivoted_panel_lu.hpp)
//   LuSolves          the triangular solves through F           (trsv/lu_solves.hpp)
//   PanelSolves       or, with Options::cuda.supernodal_panel_solve, the triangular solves
//                     on the panels, level by level               (panel_solves.hpp)
// In Schur-complement mode (Schedule::schur_size > 0) the last level - the Schur supernode
// alone - is never enqueued, so its panel keeps S_C, and the panel solves' level sweeps stop
// before it (PanelSolves::schur_sweep; the panel solves are built for that whatever
// Options::cuda.supernodal_panel_solve says, since F's solves have no level to stop at).
// as a recipe on the device-engine shell (engine/device_engine.hpp), which owns the device,
// the stream, the memory, A's values on the device and the refinement.
#include "cuda/supernodal/cuda_supernodal_lu.hpp"

#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/engine/device_facts.hpp"
#include "cuda/engine/engine_context.hpp"
#include "cuda/engine/stream_events.hpp"
#include "cuda/trsv/lu_solves.hpp"
#include "cuda/supernodal/device_panels.hpp"
#include "cuda/supernodal/panel_solves.hpp"
#include "cuda/supernodal/pivoted_panel_lu.hpp"
#include "cuda/supernodal/supernode_lanes.hpp"
#include "cuda/supernodal/supernodal_kernels.cuh"
#include "cuda/supernodal/supernodal_plan.hpp"
#include "core/supernode_pivoting.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

class SupernodalRecipe final : public BasicEngineRecipe<double> {
 public:
  SupernodalRecipe(EngineContext& c, const Schedule& s, const Options& o, SupernodalPlan plan);
  EngineFactorResult factor(const PivotRule& rule) override;
  DeviceSolve& solves() override {
    return panel_solves ? static_cast<DeviceSolve&>(*panel_solves) : static_cast<DeviceSolve&>(*lu_solves);
  }
  void download_factor(double* f_host) override {
    if (active)
      throw Error(Status::unsupported,
                  "factor_values(): supernodes of this LU pivoted inside their diagonal blocks, whose rows F's "
                  "pattern does not follow (lu_supernode_pivoting off keeps F)");
    panels->download_factor(f_host, c.stream);
  }
  int64_t device_bytes() const noexcept override { return lu_solves ? lu_solves->device_bytes() : 0; }
  // The panel solves run none of the trsv module's kernels: automatic stands for "not one of them".
  TrsvKernel trsv_kernel() const noexcept override { return lu_solves ? lu_solves->kernel() : TrsvKernel::automatic; }

  void enqueue_level(const SupernodalPlan::Level& lv, int part);
  std::vector<LevelProfile> profile_levels(const PivotRule& rule);

  EngineContext& c;
  const Supernodes& sn;
  SupernodalPlan plan;
  // Partial pivoting inside supernodes (core/supernode_pivoting.hpp): on with the panel solves
  // and Options::lu_supernode_pivoting; the supernodes that pivot (sticky), per level those and
  // the blocked ones that do not, and their factorization (made at the first that pivots).
  // Under a perturbing policy none searches (the device's flags cleared meanwhile): tiny pivots
  // are perturbed as the policy asks; active: the last factorization's pivoted supernodes did.
  bool row_pivoting = false;
  bool active = false;
  std::vector<uint8_t> pivoted;
  int64_t pivoted_count = 0;
  std::vector<std::vector<BlockedNode>> pivoted_levels, blocked_levels;
  std::unique_ptr<PivotedPanelLU> pivoted_lu;
  // Built in this order, released in the reverse one (before the shell's stream).
  std::unique_ptr<DevicePanels> panels;
  // Only with large (GEMM) or blocked supernodes; the dense panel LU only with blocked ones
  // (and supernodal_dense_min_cols), dropped after a failed pivot check, the panel kernels
  // then factoring those supernodes.
  std::unique_ptr<SupernodeLanes> lanes;
  int64_t pivot_fallbacks = 0;
  std::unique_ptr<LuSolves> lu_solves;        // the solves through F, or
  std::unique_ptr<PanelSolves> panel_solves;  // those on the panels (o.cuda.supernodal_panel_solve)
  StreamEvents<2> events;                     // around one attempt

  // Schur-complement mode: the levels enqueued (all but the Schur supernode's).
  size_t factored_levels = 0;
  const Schedule& schedule;
  void read_schur_block(double* s, int64_t ld) override;
  SchurSweeps* schur_sweeps() const override { return panel_solves.get(); }

 private:
  void enqueue_levels();
  // One attempt: the scatter, the levels and the gather F, timed, then the state read back.
  float factor_once(const PivotRule& rule);
  // factor_once, redone by the panel kernels when a dense panel failed its check.
  float attempt(const PivotRule& rule);
  // The supernodes that failed the last attempt pivot from now on; false when none is new.
  bool pivot_failed_supernodes();
};

SupernodalRecipe::SupernodalRecipe(EngineContext& ctx, const Schedule& s, const Options& o, SupernodalPlan p)
    : c(ctx), sn(s.supernodes), plan(std::move(p)), schedule(s) {
  factored_levels = plan.levels.size() - (s.schur_size > 0 && !plan.levels.empty() ? 1 : 0);
  row_pivoting = o.lu_supernode_pivoting && o.cuda.supernodal_panel_solve;
  pivoted.assign(static_cast<size_t>(sn.count), 0);
  panels = std::make_unique<DevicePanels>(s, plan, c.input_values(), c.mem, *c.staging,
                                          /*with_factor=*/!o.cuda.supernodal_panel_solve, row_pivoting);
  if (plan.gemm_nodes > 0 || plan.blocked_nodes > 0)
    lanes = std::make_unique<SupernodeLanes>(plan, panels->args(), o.cuda.supernodal_dense_min_cols > 0,
                                             o.cuda.supernodal_streams, c.mem, c.stream);
  if (o.cuda.supernodal_panel_solve || s.schur_size > 0)
    panel_solves = std::make_unique<PanelSolves>(s, panels->args(), o.cuda, c.mem, c.stream);
  else
    lu_solves = std::make_unique<LuSolves>(s, o, c.device, c.mem, c.stream, panels->factor());
}

// Level by level: a level's supernodes depend only on earlier levels (their descendants),
// and their complements go to later ones (their ancestors), so the stream's order is all
// the synchronization there is.
void SupernodalRecipe::enqueue_levels() {
  for (size_t l = 0; l < factored_levels; ++l)
    for (int part = 0; part < 4; ++part) enqueue_level(plan.levels[l], part);
}

// Part 0: the panel kernel's supernodes, 1: the blocked ones, 2: the direct complements,
// 3: the GEMM ones (in this order: a complement needs its supernode factored).
void SupernodalRecipe::enqueue_level(const SupernodalPlan::Level& lv, int part) {
  const kernels::SupernodeArgs& a = panels->args();
  switch (part) {
    case 0:
      if (lv.resident)
        kernels::launch_panel_resident(a, panels->panel_nodes() + lv.panel_begin, lv.panel_count, lv.panel_threads,
                                       lv.panel_smem, c.stream);
      else if (lv.stepped)
        kernels::launch_panel_steps(a, panels->panel_nodes() + lv.panel_begin, lv.panel_count, lv.panel_max_cols,
                                    lv.panel_threads, lv.panel_smem, lv.trailing_blocks.data(), c.stream);
      else
        kernels::launch_panel_factor(a, panels->panel_nodes() + lv.panel_begin, lv.panel_count, lv.panel_threads,
                                     lv.panel_smem, c.stream);
      break;
    case 1: {
      const size_t l = static_cast<size_t>(&lv - plan.levels.data());
      const std::vector<BlockedNode>& blocked = active ? blocked_levels[l] : lv.blocked;
      if (!blocked.empty()) lanes->factor_blocked(a, blocked);
      if (active)
        for (const BlockedNode& b : pivoted_levels[l]) pivoted_lu->factor(a, b);
      break;
    }
    case 2:
      kernels::launch_schur_direct(a, panels->direct_nodes() + lv.direct_begin, lv.direct_count,
                                   lv.direct_tiles, c.stream);
      break;
    default:
      if (!lv.gemm.empty()) lanes->subtract_complements(a, lv.gemm);
      break;
  }
}

float SupernodalRecipe::factor_once(const PivotRule& rule) {
  events.record(0, c.stream);
  panels->enqueue_scatter(rule, c.stream);
  enqueue_levels();
  // F (for the solves through it) is gathered whatever the outcome, as CudaLU's is; the
  // solves take it only from a successful factorization.
  panels->enqueue_gather_factor(c.stream);
  events.record(1, c.stream);
  panels->enqueue_state_download(c.stream);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  return events.ms(0, 1);
}

float SupernodalRecipe::attempt(const PivotRule& rule) {
  float ms = factor_once(rule);
  if (lanes && lanes->dense() && panels->unstable_panel()) {
    // A dense panel failed its pivot test: the panel kernels decide (perturb or report) as the
    // CPU engine does. The same matrix's next values likely fail again, so they stay in charge.
    lanes->drop_dense();
    ++pivot_fallbacks;
    ms += factor_once(rule);
  }
  return ms;
}

bool SupernodalRecipe::pivot_failed_supernodes() {
  std::vector<uint8_t> failed;
  panels->download_failed(failed, c.stream);
  bool more = false;
  for (size_t t = 0; t < failed.size(); ++t)
    if (failed[t] && !pivoted[t]) {
      pivoted[t] = 1;
      ++pivoted_count;
      more = true;
    }
  if (!more) return false;
  panels->set_pivoted(pivoted);
  active = true;
  const size_t levels = plan.levels.size();
  pivoted_levels.assign(levels, {});
  blocked_levels.assign(levels, {});
  std::vector<BlockedNode> all;
  for (size_t l = 0; l < levels; ++l) {
    for (const BlockedNode& b : plan.levels[l].blocked)
      if (!pivoted[static_cast<size_t>(b.s)]) blocked_levels[l].push_back(b);
    for (int64_t i = sn.level_ptr[l]; i < sn.level_ptr[l + 1]; ++i) {
      const int32_t t = sn.level_nodes[static_cast<size_t>(i)];
      if (!pivoted[static_cast<size_t>(t)]) continue;
      pivoted_levels[l].push_back(blocked_panels(sn, t));
      all.push_back(pivoted_levels[l].back());
    }
  }
  if (!pivoted_lu) pivoted_lu = std::make_unique<PivotedPanelLU>(c.mem, c.stream);
  pivoted_lu->reserve(panels->args(), all);
  return true;
}

EngineFactorResult SupernodalRecipe::factor(const PivotRule& rule) {
  const bool searching = row_pivoting && rule.policy == PivotPolicy::report;
  if (searching != active && pivoted_count > 0) {
    panels->set_pivoted(searching ? pivoted : std::vector<uint8_t>(pivoted.size(), 0));
    active = searching;
  }
  float ms = attempt(rule);
  EngineFactorResult out = panels->result();  // throws on a broken schedule
  // core/supernode_pivoting.hpp: the supernodes that failed search their diagonal blocks and the
  // factorization is redone, a few rounds at most.
  for (int round = 1; searching && out.stats.status == Status::numerically_singular && round < kSupernodePivotRounds;
       ++round) {
    if (!pivot_failed_supernodes()) break;
    ms += attempt(rule);
    out = panels->result();
  }
  out.stats.pivoted_supernodes = active ? pivoted_count : 0;
  out.device_ms = ms;
  if (out.stats.status != Status::ok) return out;
  if (c.n > 0 && lu_solves) {  // the panel solves read the panels themselves
    lu_solves->gather();
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  }
  return out;
}

// Host or device memory alike (cudaMemcpyDefault: unified addressing tells them apart, and a
// destination on another GPU is a peer copy).
void SupernodalRecipe::read_schur_block(double* s, int64_t ld) {
  const int32_t t = schedule.schur_supernode();
  const int64_t k = schedule.schur_size;
  // Its L panel is k x k with leading dimension k: no rows below the last supernode.
  GPUGLU_CUDA_CHECK(cudaMemcpy2DAsync(s, static_cast<size_t>(ld) * sizeof(double), panels->args().panels + sn.l_ptr[t],
                                      static_cast<size_t>(k) * sizeof(double), static_cast<size_t>(k) * sizeof(double),
                                      static_cast<size_t>(k), cudaMemcpyDefault, c.stream));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

std::vector<LevelProfile> SupernodalRecipe::profile_levels(const PivotRule& rule) {
  const size_t levels = plan.levels.size();
  std::vector<cudaEvent_t> ev(levels * 4 + 1, nullptr);
  for (cudaEvent_t& e : ev) GPUGLU_CUDA_CHECK(cudaEventCreate(&e));
  panels->enqueue_scatter(rule, c.stream);
  GPUGLU_CUDA_CHECK(cudaEventRecord(ev[0], c.stream));
  for (size_t l = 0; l < levels; ++l)
    for (int part = 0; part < 4; ++part) {
      enqueue_level(plan.levels[l], part);
      GPUGLU_CUDA_CHECK(cudaEventRecord(ev[l * 4 + part + 1], c.stream));
    }
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  std::vector<LevelProfile> out(levels);
  for (size_t l = 0; l < levels; ++l) {
    float* parts[4] = {&out[l].panel, &out[l].blocked, &out[l].direct, &out[l].gemm};
    for (int part = 0; part < 4; ++part)
      GPUGLU_CUDA_CHECK(cudaEventElapsedTime(parts[part], ev[l * 4 + part], ev[l * 4 + part + 1]));
    out[l].ms = out[l].panel + out[l].blocked + out[l].direct + out[l].gemm;
  }
  for (cudaEvent_t e : ev) cudaEventDestroy(e);
  return out;
}

namespace {

// First: an inconsistent schedule touches no device.
const Schedule& checked(const Schedule& s) {
  check_supernodal_schedule(s);
  return s;
}

}  // namespace

CudaSupernodalLU::CudaSupernodalLU(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern)
    : BasicDeviceEngine<double>("CudaSupernodalLU", checked(s), o, device_ordinal, pattern) {
  EngineContext& c = context();
  DeviceScope scope(c.device);
  supernodal_ = set_recipe(
      std::make_unique<SupernodalRecipe>(c, s, o, plan_supernodal(s, o.cuda, device_facts(c.device))));
}

CudaSupernodalLU::UpdatePaths CudaSupernodalLU::update_paths() const {
  const SupernodalPlan& p = supernodal_->plan;
  return {static_cast<int64_t>(p.direct_nodes.size()), p.gemm_nodes, p.blocked_nodes};
}

std::vector<LevelProfile> CudaSupernodalLU::profile_levels(const double* a_values,
                                                                             const PivotRule& rule) {
  DeviceScope scope(device());
  load_input(a_values);
  return supernodal_->profile_levels(rule);
}

int64_t CudaSupernodalLU::pivot_fallbacks() const noexcept { return supernodal_->pivot_fallbacks; }

int64_t CudaSupernodalLU::pivoted_supernodes() const noexcept { return supernodal_->pivoted_count; }

int32_t CudaSupernodalLU::levels() const { return static_cast<int32_t>(supernodal_->plan.levels.size()); }

}  // namespace gpuglu::cuda
