// CudaSupernodalLDLT (cuda_supernodal_ldlt.hpp): one supernodal LDL^T schedule on one GPU,
// composed of
//   LdltPlan        the checked schedule and each level's launch plan     (ldlt_plan.hpp)
//   DevicePanels    the L panels, A's values, the scatter and the state   (device_panels.hpp)
//   LdltBlas        cuBLAS (and cuSOLVER) on one stream: the wide supernodes' diagonal
//                   blocks (unpivoted attempts by cuSOLVER's dense LU), L21 (TRSM) and
//                   complements (DGEMM), with the workspaces
//   PanelSolves     the supernodal LU's self-scheduled solves on the panels (panel_solves.hpp),
//                   L with each supernode's pivot order, D, then L^T, for the shell's refinement
// as a recipe on the device-engine shell (engine/device_engine.hpp).
#include "cuda/supernodal/cuda_supernodal_ldlt.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "core/bunch_kaufman.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/device_solve.hpp"
#include "cuda/common/factor_kernels.cuh"
#include "cuda/common/graph_capture.hpp"
#include "cuda/common/gather_kernels.cuh"
#include "cuda/engine/device_facts.hpp"
#include "cuda/engine/engine_context.hpp"
#include "cuda/engine/stream_events.hpp"
#include "cuda/supernodal/cublas_check.hpp"
#include "cuda/supernodal/cublas_workspace.hpp"
#include "cuda/supernodal/cusolver_check.hpp"
#include "cuda/supernodal/device_panels.hpp"
#include "cuda/supernodal/ldlt_kernels.cuh"
#include "cuda/supernodal/ldlt_plan.hpp"
#include "cuda/supernodal/panel_solves.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

namespace {


// cuBLAS on one stream with the workspaces of the supernodes a lane takes.
class LdltBlas {
 public:
  // need: the lane's workspaces; wide: the wide supernodes it factors, which may try cuSOLVER's
  // dense LU when unpivoted (Options::ldlt_unpivoted).
  LdltBlas(const LdltWorkspaces& need, const std::vector<LdltNode>& wide, bool unpivoted, DeviceMemory& mem,
           cudaStream_t stream)
      : stream_(stream) {
    allocate_factor(need, mem);
    GPUGLU_CUBLAS_CHECK(cublasCreate(&handle_));
    GPUGLU_CUBLAS_CHECK(cublasSetStream(handle_, stream_));
    give_cublas_workspace(handle_, mem);
    if (unpivoted && !wide.empty()) allocate_unpivoted(wide, mem);
  }

 private:
  // cuSOLVER's handle and the dense LU's workspace for the largest unpivoted attempt.
  void allocate_unpivoted(const std::vector<LdltNode>& wide, DeviceMemory& mem) {
    GPUGLU_CUSOLVER_CHECK(cusolverDnCreate(&solver_));
    GPUGLU_CUSOLVER_CHECK(cusolverDnSetStream(solver_, stream_));
    int lwork = 1;
    for (const LdltNode& b : wide) {
      int need = 0;
      GPUGLU_CUSOLVER_CHECK(
          cusolverDnDgetrf_bufferSize(solver_, static_cast<int>(b.nr), b.ns, nullptr, static_cast<int>(b.nr), &need));
      lwork = std::max(lwork, need);
    }
    lu_work_ = mem.allocate<double>(static_cast<size_t>(lwork), "the unpivoted attempts' dense LU workspace");
    lu_info_ = mem.allocate<int>(1, "the dense LU's info");
    verdict_ = mem.allocate<int32_t>(3, "the unpivoted attempt's verdict");
  }

  void allocate_factor(const LdltWorkspaces& need, DeviceMemory& mem) {
    if (need.w21 > 0) w21_ = mem.allocate<double>(static_cast<size_t>(need.w21), "L21 D of a supernode");
    if (need.block > 0) {
      wb_ = mem.allocate<double>(static_cast<size_t>(need.block), "L D of a pivot block's rows below");
      tmp_ = mem.allocate<double>(static_cast<size_t>(need.block), "a pivot block's earlier rows");
    }
    if (need.c > 0) c_ = mem.allocate<double>(static_cast<size_t>(need.c), "the Schur complement's GEMM workspace");
  }

 public:
  ~LdltBlas() {
    if (solver_) cusolverDnDestroy(solver_);
    if (handle_) cublasDestroy(handle_);
  }
  LdltBlas(const LdltBlas&) = delete;
  LdltBlas& operator=(const LdltBlas&) = delete;

  // A wide supernode whole: unpivoted (core/bunch_kaufman.hpp), or pivot block by pivot block
  // (ldlt_kernels.cuh) and its complement L21 W21^T (W21 = L21 D).
  void factor_wide(const kernels::LdltArgs& a, const LdltNode& b, bool unpivoted) {
    if (unpivoted) {
      factor_unpivoted(a, b);
      return;
    }
    const double one = 1.0, minus_one = -1.0;
    double* l = a.sn.panels + b.l_ptr;
    for (int32_t j0 = 0; j0 < b.ns; j0 += kLdltPivotBlock) {
      const int32_t j1 = j0 + kLdltPivotBlock < b.ns ? j0 + kLdltPivotBlock : b.ns;
      const int64_t w = j1 - j0, rows = b.nr - j1;
      kernels::launch_ldlt_tile(a, b.s, j0, j1, stream_);
      kernels::launch_ldlt_permute_block(a, b.s, b.nr, j0, j1, tmp_, wb_, stream_);
      if (rows == 0) break;
      // wb := wb L_tile^{-T} = L D of the rows below the tile.
      GPUGLU_CUBLAS_CHECK(cublasDtrsm_64(handle_, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                                         CUBLAS_DIAG_UNIT, rows, w, &one, l + j0 + static_cast<int64_t>(j0) * b.nr,
                                         b.nr, wb_, rows));
      kernels::launch_ldlt_scale_block(a, b.s, b.nr, j0, j1, wb_, w21_, stream_);
      const int64_t rest = b.ns - j1;
      if (rest > 0)  // A(j1:nr, j1:ns) -= L(j1:nr, blk) (L D)(j1:ns, blk)^T (the upper part of A11 is not read)
        GPUGLU_CUBLAS_CHECK(cublasDgemm_64(handle_, CUBLAS_OP_N, CUBLAS_OP_T, rows, rest, w, &minus_one,
                                           l + j1 + static_cast<int64_t>(j0) * b.nr, b.nr, wb_, rows, &one,
                                           l + j1 + static_cast<int64_t>(j1) * b.nr, b.nr));
    }
    subtract_complement(a, b);
  }

  // cuSOLVER's LU without pivots of the whole panel, its diagonal block made whole: unit L11
  // and L21 below the diagonal, D on it (U11 = D L11^T above, not read); checked
  // (core/bunch_kaufman.hpp) and sent on. A NaN/Inf input leaves the panels unfactored; the
  // LU on them is harmless work whose result nothing reads.
  void factor_unpivoted(const kernels::LdltArgs& a, const LdltNode& b) {
    double* l = a.sn.panels + b.l_ptr;
    kernels::launch_ldlt_mirror(a, b.s, b.ns, stream_);
    GPUGLU_CUSOLVER_CHECK(cusolverDnDgetrf(solver_, static_cast<int>(b.nr), b.ns, l, static_cast<int>(b.nr), lu_work_,
                                           nullptr, lu_info_));
    kernels::launch_ldlt_unpivoted_check(a, b.s, b.ns, verdict_, stream_);
    if (b.nr > b.ns) narrow_complement(a, b);
  }

  // A narrow supernode's complement by DGEMM (its L21 done by the batched kernel).
  void narrow_complement(const kernels::LdltArgs& a, const LdltNode& b) {
    kernels::launch_ldlt_l21_times_d(a, b.s, b.nr - b.ns, b.ns, w21_, stream_);
    subtract_complement(a, b);
  }

 private:
  // L21 w21^T (w21 = L21 D) in column chunks, each scattered into the ancestors.
  void subtract_complement(const kernels::LdltArgs& a, const LdltNode& b) {
    const double one = 1.0, zero = 0.0;
    const int64_t nb = b.nr - b.ns;
    const double* l21 = a.sn.panels + b.l_ptr + b.ns;
    for (int64_t c0 = 0; c0 < nb; c0 += b.chunk) {
      const int64_t cols = nb - c0 < b.chunk ? nb - c0 : b.chunk;
      GPUGLU_CUBLAS_CHECK(cublasDgemm_64(handle_, CUBLAS_OP_N, CUBLAS_OP_T, nb - c0, cols, b.ns, &one, l21 + c0, b.nr,
                                         w21_ + c0, nb, &zero, c_, nb - c0));
      kernels::launch_ldlt_schur_scatter(a, b.s, c_, nb - c0, c0, cols, stream_);
    }
  }

 private:
  cublasContext* handle_ = nullptr;
  cusolverDnContext* solver_ = nullptr;  // with unpivoted attempts
  cudaStream_t stream_;
  double* lu_work_ = nullptr;
  int* lu_info_ = nullptr;
  int32_t* verdict_ = nullptr;
  double* w21_ = nullptr;
  double* wb_ = nullptr;
  double* tmp_ = nullptr;
  double* c_ = nullptr;
};

// A level's wide supernodes side by side on a few streams of their own (as the LU's
// SupernodeLanes: supernode_lanes.hpp says why), while the engine's stream runs the level's
// batched kernels: lane i takes wide supernodes i, i + L, ...; the lanes start when the
// engine's stream reaches the level (an event) and the engine's stream waits for them all
// before the next level.
class LdltLanes {
 public:
  // pivoted: the engine's host copy of LdltArgs::pivoted, which fork() reads.
  LdltLanes(const LdltPlan& plan, int max_lanes, const std::vector<int8_t>& pivoted, bool unpivoted, DeviceMemory& mem,
            cudaStream_t stream)
      : stream_(stream), pivoted_(pivoted) {
    size_t widest = 0;
    for (const LdltPlan::Level& lv : plan.levels) widest = std::max({widest, lv.wide.size(), lv.narrow_gemm.size()});
    const size_t count = std::min(widest, static_cast<size_t>(std::max(max_lanes, 1)));
    lanes_.resize(count);
    // Each lane's workspaces for the supernodes spread() deals it (i % used).
    std::vector<LdltWorkspaces> need(count);
    std::vector<std::vector<LdltNode>> wide(count);
    auto deal = [&](const std::vector<LdltNode>& nodes, bool is_wide) {
      const size_t used = std::min(nodes.size(), count);
      for (size_t i = 0; i < nodes.size(); ++i) {
        need[i % used].add(nodes[i], is_wide);
        if (is_wide) wide[i % used].push_back(nodes[i]);
      }
    };
    for (const LdltPlan::Level& lv : plan.levels) {
      deal(lv.wide, true);
      deal(lv.narrow_gemm, false);
    }
    try {
      for (size_t k = 0; k < count; ++k) {
        Lane& l = lanes_[k];
        GPUGLU_CUDA_CHECK(cudaStreamCreateWithFlags(&l.stream, cudaStreamNonBlocking));
        GPUGLU_CUDA_CHECK(cudaEventCreateWithFlags(&l.done, cudaEventDisableTiming));
        l.blas = std::make_unique<LdltBlas>(need[k], wide[k], unpivoted, mem, l.stream);
      }
      if (count > 0) GPUGLU_CUDA_CHECK(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming));
    } catch (...) {
      release();
      throw;
    }
  }
  ~LdltLanes() { release(); }
  LdltLanes(const LdltLanes&) = delete;
  LdltLanes& operator=(const LdltLanes&) = delete;

  // The level's wide supernodes enqueued on the lanes, which start where the engine's stream
  // stands now; join() makes the engine's stream wait for them.
  void fork(const kernels::LdltArgs& a, const std::vector<LdltNode>& wide) {
    spread(wide.size(), [&](LdltBlas& blas, size_t i) { blas.factor_wide(a, wide[i], pivoted_[wide[i].s] == 0); });
  }
  // The narrow supernodes' DGEMM complements, after what the engine's stream has enqueued.
  void complements(const kernels::LdltArgs& a, const std::vector<LdltNode>& narrow) {
    spread(narrow.size(), [&](LdltBlas& blas, size_t i) { blas.narrow_complement(a, narrow[i]); });
  }
  void join() {
    for (size_t k = 0; k < used_; ++k) {
      GPUGLU_CUDA_CHECK(cudaEventRecord(lanes_[k].done, lanes_[k].stream));
      GPUGLU_CUDA_CHECK(cudaStreamWaitEvent(stream_, lanes_[k].done, 0));
    }
    used_ = 0;
  }

 private:
  struct Lane {
    cudaStream_t stream = nullptr;
    cudaEvent_t done = nullptr;
    std::unique_ptr<LdltBlas> blas;
  };
  // f(lane, i) for i < count on lanes i % L, which first wait for the engine's stream.
  template <class F>
  void spread(size_t count, F f) {
    const size_t used = std::min(count, lanes_.size());
    if (used == 0) return;
    GPUGLU_CUDA_CHECK(cudaEventRecord(fork_, stream_));
    for (size_t k = 0; k < used; ++k) GPUGLU_CUDA_CHECK(cudaStreamWaitEvent(lanes_[k].stream, fork_, 0));
    for (size_t i = 0; i < count; ++i) f(*lanes_[i % used].blas, i);
    used_ = std::max(used_, used);
  }
  // Best effort, nothing may throw: the handles go before the streams they run on.
  void release() noexcept {
    for (Lane& l : lanes_) {
      if (l.stream) cudaStreamSynchronize(l.stream);
      l.blas.reset();
      if (l.done) cudaEventDestroy(l.done);
      if (l.stream) cudaStreamDestroy(l.stream);
      l = Lane{};
    }
    if (fork_) cudaEventDestroy(fork_);
    fork_ = nullptr;
  }
  std::vector<Lane> lanes_;
  cudaStream_t stream_;
  cudaEvent_t fork_ = nullptr;
  size_t used_ = 0;  // lanes the last fork() used
  const std::vector<int8_t>& pivoted_;
};

SupernodalPlan panel_maps(const LdltPlan& plan) {
  SupernodalPlan p;  // DevicePanels reads pivot_pos (and uploads the empty node lists)
  p.pivot_pos = plan.pivot_pos;
  return p;
}

}  // namespace

class SupernodalLdltRecipe final : public BasicEngineRecipe<double> {
 public:
  SupernodalLdltRecipe(EngineContext& ctx, const Schedule& s, const Options& o, LdltPlan p)
      : c(ctx), s_(s), plan(std::move(p)), replay(o.cuda.level_graph) {
    panels = std::make_unique<DevicePanels>(s, panel_maps(plan), c.input_values(), c.mem, *c.staging,
                                            /*with_factor=*/false);
    args.sn = panels->args();
    args.perm = c.mem.allocate<int32_t>(static_cast<size_t>(s.n), "the pivot order");
    args.kind = c.mem.allocate<int8_t>(static_cast<size_t>(s.n), "the pivot kinds");
    args.off = c.mem.allocate<double>(static_cast<size_t>(s.n), "the 2 x 2 pivots' off-diagonals");
    unpivoted = o.ldlt_unpivoted;
    pivoted.assign(static_cast<size_t>(s.supernodes.count), unpivoted ? 0 : 1);
    args.pivoted = c.mem.upload(pivoted, "the supernodes' pivoting");
    narrow_nodes = c.mem.upload(plan.narrow_nodes, "the narrow supernodes");
    schur_nodes = c.mem.upload(plan.schur_nodes, "the supernodes of the tiled complements");
    tile_ptr = c.mem.upload(plan.tile_ptr, "the batches' tiles");
    lanes = std::make_unique<LdltLanes>(plan, o.cuda.supernodal_streams, pivoted, unpivoted, c.mem, c.stream);
    // The LU's panel solves (panel_solves.hpp) with each supernode's pivot order for its rows
    // (the Bunch-Kaufman supernodes': the unpivoted ones keep theirs) and D between L and L^T.
    kernels::SupernodeArgs structure = panels->args();
    structure.pivoted = reinterpret_cast<const uint8_t*>(args.pivoted);
    structure.row_order = args.perm;
    solve = std::make_unique<PanelSolves>(s, structure, o.cuda, c.mem, c.stream,
                                          kernels::PanelSolveD{args.kind, args.off});
  }

  // A level's parts (LevelProfile's names): 0 the narrow supernodes' diagonal blocks and L21
  // (batched), 1 the wide supernodes (on the lanes), 2 the tiled complements, 3 the narrow
  // supernodes' DGEMM complements (on the lanes, after part 0).
  void enqueue_part(const LdltPlan::Level& lv, int part) {
    switch (part) {
      case 0:
        kernels::launch_ldlt_diagonal(args, narrow_nodes + lv.l21.begin, lv.l21.count, lv.narrow_max_cols,
                                      c.stream);
        kernels::launch_ldlt_l21(args, narrow_nodes + lv.l21.begin, tile_ptr + lv.l21.tile_begin, lv.l21.count,
                                 lv.l21.tiles, lv.narrow_max_cols, c.stream);
        if (unpivoted) kernels::launch_ldlt_unpivoted_checks(args, narrow_nodes + lv.l21.begin, lv.l21.count, c.stream);
        break;
      case 1:
        lanes->fork(args, lv.wide);
        break;
      case 2:
        kernels::launch_ldlt_schur_tiles(args, schur_nodes + lv.schur.begin, tile_ptr + lv.schur.tile_begin,
                                         lv.schur.count, lv.schur.tiles, c.stream);
        break;
      default:
        lanes->complements(args, lv.narrow_gemm);
    }
  }

  // core/bunch_kaufman.hpp: the supernodes whose unpivoted attempt failed take Bunch-Kaufman
  // and the factorization is redone, as the CPU engine does.
  EngineFactorResult factor(const PivotRule& rule) override {
    float ms = factor_once(rule);
    for (int round = 1; unpivoted && panels->unstable_panel(); ++round) {
      ++pivot_fallbacks;
      replay.invalidate();  // the pivoting of some supernode changes what is launched
      if (round == kLdltUnpivotedRounds) {
        std::fill(pivoted.begin(), pivoted.end(), int8_t{1});
        unpivoted = false;
        GPUGLU_CUDA_CHECK(cudaMemcpyAsync(args.pivoted, pivoted.data(), pivoted.size(), cudaMemcpyHostToDevice,
                                          c.stream));
      } else {
        GPUGLU_CUDA_CHECK(cudaMemcpyAsync(pivoted.data(), args.pivoted, pivoted.size(), cudaMemcpyDeviceToHost,
                                          c.stream));
        GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
      }
      ms += factor_once(rule);
    }
    EngineFactorResult out = panels->result();
    out.device_ms = ms;
    return out;
  }

  // The scatter and the levels.
  void enqueue_factor(const PivotRule& rule) {
    panels->enqueue_scatter(rule, c.stream);
    kernels::launch_ldlt_reset_pivots(args, s_.n, c.stream);
    for (size_t l = 0; l < factored_levels(); ++l) {
      for (const int part : {1, 0, 3, 2}) enqueue_part(plan.levels[l], part);  // the wide ones beside the batched kernels
      lanes->join();
    }
  }

  // Schur-complement mode (Schedule::schur_size > 0): the last level - the Schur supernode
  // alone - only gathers its descendants' updates and is never factored.
  size_t factored_levels() const {
    return plan.levels.size() - (s_.schur_size > 0 && !plan.levels.empty() ? 1 : 0);
  }

  // S_C, both triangles (the updates write the lower one: its mirror goes into the unused
  // upper one first), into host or device memory alike (cudaMemcpyDefault: a destination on
  // another GPU is a peer copy). Its panel is k x k with leading dimension k.
  void read_schur_block(double* s, int64_t ld) override {
    const int32_t t = s_.schur_supernode();
    const int64_t k = s_.schur_size;
    kernels::launch_ldlt_mirror(args, t, static_cast<int32_t>(k), c.stream);
    GPUGLU_CUDA_CHECK(cudaMemcpy2DAsync(s, static_cast<size_t>(ld) * sizeof(double),
                                        args.sn.panels + s_.supernodes.l_ptr[t], static_cast<size_t>(k) * sizeof(double),
                                        static_cast<size_t>(k) * sizeof(double), static_cast<size_t>(k),
                                        cudaMemcpyDefault, c.stream));
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  }

  // One attempt: the scatter and the levels, timed, then the state read back; replayed as a
  // CUDA graph when refactoring (CudaTuning::level_graph; the lanes' streams fork and join
  // inside it): a refactorization is hundreds of launches - kernels, cuBLAS and cuSOLVER
  // calls, most of them small - whose host cost dominated the small matrices.
  float factor_once(const PivotRule& rule) {
    events.record(0, c.stream);
    replay.run(c.stream, rule, [&](cudaStream_t) { enqueue_factor(rule); });
    events.record(1, c.stream);
    panels->enqueue_state_download(c.stream);
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    return events.ms(0, 1);
  }
  // One factorization part by part, each joined and timed on its own (so the lanes run beside
  // nothing): where the device time goes. The supernodes' pivoting is settled first (a failed
  // unpivoted attempt's supernodes take Bunch-Kaufman), so that this times what factor() runs.
  std::vector<LevelProfile> profile_levels(const PivotRule& rule) {
    if (unpivoted) (void)factor(rule);
    const size_t levels = factored_levels();
    std::vector<cudaEvent_t> ev(levels * 4 + 1, nullptr);
    for (cudaEvent_t& e : ev) GPUGLU_CUDA_CHECK(cudaEventCreate(&e));
    panels->enqueue_scatter(rule, c.stream);
    kernels::launch_ldlt_reset_pivots(args, s_.n, c.stream);
    GPUGLU_CUDA_CHECK(cudaEventRecord(ev[0], c.stream));
    std::vector<LevelProfile> out(levels);
    std::vector<std::pair<cudaEvent_t, float*>> spans;
    for (size_t l = 0; l < levels; ++l) {
      float* parts[4] = {&out[l].panel, &out[l].blocked, &out[l].direct, &out[l].gemm};
      int k = 0;
      for (const int part : {1, 0, 3, 2}) {
        enqueue_part(plan.levels[l], part);
        lanes->join();
        const size_t e = l * 4 + static_cast<size_t>(++k);
        GPUGLU_CUDA_CHECK(cudaEventRecord(ev[e], c.stream));
        spans.emplace_back(ev[e - 1], parts[part]);
      }
    }
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    for (size_t i = 0; i < spans.size(); ++i)
      GPUGLU_CUDA_CHECK(cudaEventElapsedTime(spans[i].second, spans[i].first, ev[i + 1]));
    for (LevelProfile& p : out) p.ms = p.panel + p.blocked + p.direct + p.gemm;
    for (cudaEvent_t e : ev) cudaEventDestroy(e);
    return out;
  }

  DeviceSolve& solves() override { return *solve; }
  void download_factor(double*) override {
    throw Error(Status::unsupported, "factor_values(): the supernodal LDL^T keeps its factor in pivoted panels, not as F");
  }
  TrsvKernel trsv_kernel() const noexcept override { return TrsvKernel::automatic; }
  bool symmetric() const noexcept override { return true; }
  SchurSweeps* schur_sweeps() const override { return solve.get(); }

  PivotSigns signs() {
    const int32_t n = s_.n;
    PivotSigns out;
    if (n == 0) return out;
    std::vector<int8_t> kind(static_cast<size_t>(n));
    std::vector<double> off(static_cast<size_t>(n)), d(static_cast<size_t>(n));
    DeviceMemory scratch("CudaSupernodalLDLT's inertia");
    const int64_t* d_pos = scratch.upload(plan.pivot_pos, "D's positions");
    double* d_vals = scratch.allocate<double>(d.size(), "D");
    launch_gather(static_cast<int64_t>(n), d_pos, static_cast<const double*>(args.sn.panels), d_vals, c.stream);
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(d.data(), d_vals, d.size() * sizeof(double), cudaMemcpyDeviceToHost, c.stream));
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(kind.data(), args.kind, kind.size(), cudaMemcpyDeviceToHost, c.stream));
    GPUGLU_CUDA_CHECK(
        cudaMemcpyAsync(off.data(), args.off, off.size() * sizeof(double), cudaMemcpyDeviceToHost, c.stream));
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    out = count_pivot_signs(d.data(), off.data(), kind.data(), n);
    return out;
  }

  EngineContext& c;
  const Schedule& s_;
  LdltPlan plan;
  std::unique_ptr<DevicePanels> panels;
  kernels::LdltArgs args{};
  int32_t* narrow_nodes = nullptr;
  int32_t* schur_nodes = nullptr;
  int64_t* tile_ptr = nullptr;
  std::unique_ptr<LdltLanes> lanes;  // the wide supernodes' factorization
  std::unique_ptr<PanelSolves> solve;
  int64_t pivot_fallbacks = 0;  // factorizations redone after a failed unpivoted attempt
  // Per supernode: Bunch-Kaufman (1) or the unpivoted attempt (0), LdltArgs::pivoted's host
  // copy; unpivoted: some supernode still tries it.
  std::vector<int8_t> pivoted;
  bool unpivoted = false;
  StreamEvents<2> events;
  ReplayedLaunches<PivotRule> replay;
};

namespace {

const Schedule& checked(const Schedule& s) {
  DeviceFacts none;  // the layout only: the device's facts are read once it is current
  none.max_smem_per_block_optin = 1 << 30;
  (void)plan_supernodal_ldlt(s, none, 0);  // first: an inconsistent schedule touches no device
  return s;
}

}  // namespace

CudaSupernodalLDLT::CudaSupernodalLDLT(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern)
    : BasicDeviceEngine<double>("CudaSupernodalLDLT", checked(s), o, device_ordinal, pattern) {
  EngineContext& c = context();
  DeviceScope scope(c.device);
  ldlt_ = set_recipe(
      std::make_unique<SupernodalLdltRecipe>(c, s, o, plan_supernodal_ldlt(s, device_facts(c.device),
                                                                            o.cuda.supernodal_dense_min_cols)));
}

std::vector<LevelProfile> CudaSupernodalLDLT::profile_levels(const double* a_values, const PivotRule& rule) {
  DeviceScope scope(device());
  load_input(a_values);
  return ldlt_->profile_levels(rule);
}

bool CudaSupernodalLDLT::pivot_signs(PivotSigns& out) {
  DeviceScope scope(device());
  out = ldlt_->signs();
  return true;
}

CudaSupernodalLDLT::Paths CudaSupernodalLDLT::paths() const {
  const LdltPlan& p = ldlt_->plan;
  return {static_cast<int64_t>(p.narrow_nodes.size()), p.wide_nodes, static_cast<int64_t>(p.schur_nodes.size())};
}

int64_t CudaSupernodalLDLT::pivot_fallbacks() const noexcept { return ldlt_->pivot_fallbacks; }

int64_t CudaSupernodalLDLT::pivoted_supernodes() const {
  return std::count(ldlt_->pivoted.begin(), ldlt_->pivoted.end(), int8_t{1});
}

int32_t CudaSupernodalLDLT::levels() const { return static_cast<int32_t>(ldlt_->plan.levels.size()); }

}  // namespace gpuglu::cuda
