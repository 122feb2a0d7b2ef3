// CudaSupernodalLDLT (cuda_supernodal_ldlt.hpp): one supernodal LDL^T schedule on one GPU,
// composed of
//   LdltPlan        the checked schedule and each level's launch plan     (ldlt_plan.hpp)
//   DevicePanels    the L panels, A's values, the scatter and the state   (device_panels.hpp)
//   LdltBlas        cuBLAS on the engine's stream: the blocked supernodes' later columns and
//                   the large Schur complements, with their workspaces
//   LdltPanelSolves the solves on the panels, level by level, for the shell's refinement
// as a recipe on the device-engine shell (engine/device_engine.hpp).
#include "cuda/supernodal/cuda_supernodal_ldlt.hpp"

#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "core/bunch_kaufman.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/device_solve.hpp"
#include "cuda/common/factor_kernels.cuh"
#include "cuda/common/gather_kernels.cuh"
#include "cuda/engine/engine_context.hpp"
#include "cuda/engine/stream_events.hpp"
#include "cuda/supernodal/cublas_check.hpp"
#include "cuda/supernodal/device_panels.hpp"
#include "cuda/supernodal/ldlt_kernels.cuh"
#include "cuda/supernodal/ldlt_plan.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

namespace {

constexpr size_t kCublasWorkspaceBytes = size_t{32} << 20;  // cuBLAS's default on Hopper

// The GEMMs: L(:, blk) (D L(c, blk)^T) on a blocked supernode's later columns, and
// L21 (D L21^T) in column chunks for a large complement.
class LdltBlas {
 public:
  LdltBlas(const LdltPlan& plan, DeviceMemory& mem, cudaStream_t stream) : stream_(stream) {
    if (plan.w_doubles > 0) w_ = mem.allocate<double>(static_cast<size_t>(plan.w_doubles), "L D for the GEMMs");
    if (plan.c_doubles > 0)
      c_ = mem.allocate<double>(static_cast<size_t>(plan.c_doubles), "the Schur complement's GEMM workspace");
    void* blas_ws = mem.allocate_bytes(kCublasWorkspaceBytes, "cuBLAS's workspace");
    GPUGLU_CUBLAS_CHECK(cublasCreate(&handle_));
    GPUGLU_CUBLAS_CHECK(cublasSetStream(handle_, stream_));
    GPUGLU_CUBLAS_CHECK(cublasSetWorkspace(handle_, blas_ws, kCublasWorkspaceBytes));
  }
  ~LdltBlas() {
    if (handle_) cublasDestroy(handle_);
  }
  LdltBlas(const LdltBlas&) = delete;
  LdltBlas& operator=(const LdltBlas&) = delete;

  void factor_blocked(const kernels::LdltArgs& a, const LdltNode& b) {
    const double one = 1.0, minus_one = -1.0;
    double* l = a.sn.panels + b.l_ptr;
    for (int32_t j0 = 0; j0 < b.ns; j0 += kLdltPivotBlock) {
      const int32_t j1 = j0 + kLdltPivotBlock < b.ns ? j0 + kLdltPivotBlock : b.ns;
      kernels::launch_ldlt_block(a, b.s, j0, j1, stream_);
      const int64_t rest = b.ns - j1;
      if (rest == 0) break;
      kernels::launch_ldlt_times_d(a, b.s, j1, rest, j0, j1, w_, rest, stream_);
      // A(j1:nr, j1:ns) -= L(j1:nr, blk) W^T (the diagonal block's upper part is not read).
      GPUGLU_CUBLAS_CHECK(cublasDgemm_64(handle_, CUBLAS_OP_N, CUBLAS_OP_T, b.nr - j1, rest, j1 - j0, &minus_one,
                                         l + j1 + static_cast<int64_t>(j0) * b.nr, b.nr, w_, rest, &one,
                                         l + j1 + static_cast<int64_t>(j1) * b.nr, b.nr));
    }
  }

  void complement(const kernels::LdltArgs& a, const LdltNode& g) {
    const double one = 1.0, zero = 0.0;
    const int64_t nb = g.nr - g.ns;
    const double* l21 = a.sn.panels + g.l_ptr + g.ns;
    kernels::launch_ldlt_times_d(a, g.s, g.ns, nb, 0, g.ns, w_, nb, stream_);
    for (int64_t c0 = 0; c0 < nb; c0 += g.chunk) {
      const int64_t cols = nb - c0 < g.chunk ? nb - c0 : g.chunk;
      GPUGLU_CUBLAS_CHECK(cublasDgemm_64(handle_, CUBLAS_OP_N, CUBLAS_OP_T, nb - c0, cols, g.ns, &one, l21 + c0, g.nr,
                                         w_ + c0, nb, &zero, c_, nb - c0));
      kernels::launch_ldlt_schur_scatter(a, g.s, c_, nb - c0, c0, cols, stream_);
    }
  }

 private:
  cublasContext* handle_ = nullptr;
  cudaStream_t stream_;
  double* w_ = nullptr;
  double* c_ = nullptr;
};

// x = A^{-1} b on the panels: C's unknowns gathered (row_perm, row_scale), the levels forward
// then backward, the solution scattered back (col_perm, col_scale).
class LdltPanelSolves final : public DeviceSolve {
 public:
  LdltPanelSolves(const Schedule& s, const LdltPlan& plan, const kernels::LdltArgs& args, DeviceMemory& mem,
                  cudaStream_t stream)
      : plan_(plan), args_(args), n_(s.n), stream_(stream) {
    perm_ = mem.upload(s.row_perm, "the solves' permutation");
    scale_ = mem.upload(s.row_scale, "the solves' scaling");
    nodes_ = mem.upload(plan.level_nodes, "the supernodes by level");
    x_ = mem.allocate<double>(static_cast<size_t>(n_), "the solves' unknowns");
    v_ = mem.allocate<double>(static_cast<size_t>(n_), "the solves' scratch");
  }
  void solve_device(const double* in, double* out, bool) override {
    if (n_ == 0) return;
    kernels::launch_gather_scaled(n_, perm_, scale_, in, x_, stream_);
    for (const LdltPlan::Level& lv : plan_.levels)
      kernels::launch_ldlt_forward(args_, nodes_ + lv.begin, lv.count, x_, v_, stream_);
    for (auto lv = plan_.levels.rbegin(); lv != plan_.levels.rend(); ++lv)
      kernels::launch_ldlt_backward(args_, nodes_ + lv->begin, lv->count, x_, v_, stream_);
    // row_perm == col_perm and row_scale == col_scale (a symmetric schedule).
    kernels::launch_scatter_scaled(n_, perm_, scale_, x_, out, stream_);
  }

 private:
  const LdltPlan& plan_;
  kernels::LdltArgs args_;
  int32_t n_;
  cudaStream_t stream_;
  int32_t* perm_ = nullptr;
  double* scale_ = nullptr;
  int32_t* nodes_ = nullptr;
  double* x_ = nullptr;
  double* v_ = nullptr;
};

SupernodalPlan panel_maps(const LdltPlan& plan) {
  SupernodalPlan p;  // DevicePanels reads pivot_pos (and uploads the empty node lists)
  p.pivot_pos = plan.pivot_pos;
  return p;
}

}  // namespace

class SupernodalLdltRecipe final : public BasicEngineRecipe<double> {
 public:
  SupernodalLdltRecipe(EngineContext& ctx, const Schedule& s, LdltPlan p) : c(ctx), s_(s), plan(std::move(p)) {
    panels = std::make_unique<DevicePanels>(s, panel_maps(plan), c.input_values(), c.mem, *c.staging,
                                            /*with_factor=*/false);
    args.sn = panels->args();
    args.perm = c.mem.allocate<int32_t>(static_cast<size_t>(s.n), "the pivot order");
    args.kind = c.mem.allocate<int8_t>(static_cast<size_t>(s.n), "the pivot kinds");
    whole_nodes = c.mem.upload(plan.whole_nodes, "the supernodes factored whole");
    direct_nodes = c.mem.upload(plan.direct_nodes, "the supernodes of the direct complements");
    if (plan.blocked_nodes > 0 || plan.gemm_nodes > 0) blas = std::make_unique<LdltBlas>(plan, c.mem, c.stream);
    solve = std::make_unique<LdltPanelSolves>(s, plan, args, c.mem, c.stream);
  }

  EngineFactorResult factor(const PivotRule& rule) override {
    events.record(0, c.stream);
    panels->enqueue_scatter(rule, c.stream);
    kernels::launch_ldlt_reset_pivots(args, s_.n, c.stream);
    for (const LdltPlan::Level& lv : plan.levels) {
      kernels::launch_ldlt_nodes(args, whole_nodes + lv.whole_begin, lv.whole_count, c.stream);
      for (const LdltNode& b : lv.blocked) blas->factor_blocked(args, b);
      kernels::launch_ldlt_schur_direct(args, direct_nodes + lv.direct_begin, lv.direct_count, c.stream);
      for (const LdltNode& g : lv.gemm) blas->complement(args, g);
    }
    events.record(1, c.stream);
    panels->enqueue_state_download(c.stream);
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    EngineFactorResult out = panels->result();
    out.device_ms = events.ms(0, 1);
    return out;
  }
  DeviceSolve& solves() override { return *solve; }
  void download_factor(double*) override {
    throw Error(Status::unsupported, "factor_values(): the supernodal LDL^T keeps its factor in pivoted panels, not as F");
  }
  TrsvKernel trsv_kernel() const noexcept override { return TrsvKernel::automatic; }
  bool symmetric() const noexcept override { return true; }

  PivotSigns signs() {
    const int32_t n = s_.n;
    PivotSigns out;
    if (n == 0) return out;
    std::vector<int8_t> kind(static_cast<size_t>(n));
    std::vector<double> d(static_cast<size_t>(2 * n), 0.0);
    // D's diagonal and, below each pivot, a 2 x 2 block's off-diagonal (read only for those).
    std::vector<int64_t> pos(static_cast<size_t>(2 * n));
    for (int32_t j = 0; j < n; ++j) {
      pos[j] = plan.pivot_pos[j];
      pos[n + j] = plan.pivot_pos[j];
    }
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(kind.data(), args.kind, kind.size(), cudaMemcpyDeviceToHost, c.stream));
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    for (int32_t j = 0; j < n; ++j)
      if (kind[j] == kPivotFirstOfTwo) pos[n + j] = plan.pivot_pos[j] + 1;
    DeviceMemory scratch("CudaSupernodalLDLT's inertia");
    int64_t* d_pos = scratch.upload(pos, "D's positions");
    double* d_vals = scratch.allocate<double>(d.size(), "D");
    launch_gather(static_cast<int64_t>(pos.size()), d_pos, static_cast<const double*>(args.sn.panels), d_vals,
                  c.stream);
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(d.data(), d_vals, d.size() * sizeof(double), cudaMemcpyDeviceToHost, c.stream));
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    auto count = [&](double v) { (v > 0.0 ? out.positive : v < 0.0 ? out.negative : out.zero)++; };
    for (int32_t j = 0; j < n; ++j) {
      if (kind[j] != kPivotFirstOfTwo) {
        count(d[j]);
        continue;
      }
      const double d1 = d[j], e = d[n + j], d2 = d[j + 1];
      const double det = d1 * d2 - e * e;
      if (det < 0.0) {
        ++out.negative, ++out.positive;
      } else if (det > 0.0) {
        count(d1), count(d1);
      } else {
        count(d1 + d2), ++out.zero;
      }
      ++j;
    }
    return out;
  }

  EngineContext& c;
  const Schedule& s_;
  LdltPlan plan;
  std::unique_ptr<DevicePanels> panels;
  kernels::LdltArgs args{};
  int32_t* whole_nodes = nullptr;
  int32_t* direct_nodes = nullptr;
  std::unique_ptr<LdltBlas> blas;
  std::unique_ptr<LdltPanelSolves> solve;
  StreamEvents<2> events;
};

namespace {

const Schedule& checked(const Schedule& s) {
  (void)plan_supernodal_ldlt(s);  // first: an inconsistent schedule touches no device
  return s;
}

}  // namespace

CudaSupernodalLDLT::CudaSupernodalLDLT(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern)
    : BasicDeviceEngine<double>("CudaSupernodalLDLT", checked(s), o, device_ordinal, pattern) {
  EngineContext& c = context();
  DeviceScope scope(c.device);
  ldlt_ = set_recipe(std::make_unique<SupernodalLdltRecipe>(c, s, plan_supernodal_ldlt(s)));
}

bool CudaSupernodalLDLT::pivot_signs(PivotSigns& out) {
  DeviceScope scope(device());
  out = ldlt_->signs();
  return true;
}

CudaSupernodalLDLT::Paths CudaSupernodalLDLT::paths() const {
  const LdltPlan& p = ldlt_->plan;
  return {static_cast<int64_t>(p.whole_nodes.size()), p.blocked_nodes, static_cast<int64_t>(p.direct_nodes.size()),
          p.gemm_nodes};
}

int32_t CudaSupernodalLDLT::levels() const { return static_cast<int32_t>(ldlt_->plan.levels.size()); }

}  // namespace gpuglu::cuda
