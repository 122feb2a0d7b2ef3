// CudaLU: device buffers, the level loop (captured once as a CUDA graph), and the
// triangular solves, which are the triangular-solve module's (cuda::TriangularSolver with
// options.trsv_kernel: LEVR by default, cuSPARSE SpSV on request). The kernels are in
// lu_kernels.cu / solve_kernels.cu / trsv_kernels.cu.
//
// Kernel modes per level (GLU3.0 Sec. III-B2, s.level_mode / s.level_warps). Every level
// is two launches: the pivot kernel (a warp per column for short columns, a block per
// column for long ones) and the update kernel over the level's target columns:
//   small_block  one WARP per target, s.level_warps[l] warps (targets) per block: many
//                short targets in flight at once.
//   large_block  one BLOCK per target, its threads splitting the rows of each source's L
//                column, about modes.rows_per_thread rows per thread, at most
//                min(modes.max_block_threads, 32 x s.level_warps[l]) threads.
//   stream       the same, at most modes.max_block_threads threads. GLU3.0 launched a
//                kernel per column and spread those launches over 16 CUDA streams; with
//                the target-grouped update lists a single launch per level already covers
//                all of the level's targets concurrently, so no streams are needed.
// Small blocks (128 threads, 4 rows each, measured on an H100) keep all targets of a
// level resident at once; 1024-thread blocks ran a level in waves. With
// modes.programmatic_launch each kernel overlaps the end of the previous one.
// A target applies its sources one after the other (the group synchronizes in between):
// no atomics, deterministic, and the same rounding as reference::factor_levels.
#include "cuda/cuda_lu.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <utility>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_trsv.hpp"
#include "cuda/device_memory.hpp"
#include "cuda/trsv_levels.hpp"
#include "cuda/env_flags.hpp"
#include "cuda/graph_capture.hpp"
#include "cuda/lu_kernels.cuh"
#include "core/transpose_pattern.hpp"
#include "trsv/factor_triangles.hpp"
#include "trsv/transpose.hpp"
#include "trsv/trsv_analysis.hpp"

namespace gpuglu::cuda {

namespace {

template <class T>
T* pinned_alloc(size_t count, const char* what) {
  const size_t bytes = std::max<size_t>(count * sizeof(T), 16);
  void* p = nullptr;
  const cudaError_t err = cudaMallocHost(&p, bytes);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    throw Error(Status::out_of_memory, "cudaMallocHost of " + std::to_string(bytes) + " bytes for " + what +
                                           " failed: " + cudaGetErrorString(err));
  }
  return static_cast<T*>(p);
}

// Copies of the caller's (pageable) arrays: A's values per factorization, b and x per solve.
// Staged: a host memcpy into a pinned buffer, then one DMA, one after the other. Direct:
// cudaMemcpyAsync from pageable memory, which the driver stages itself in pipelined
// chunks, overlapping the host copy with the DMA. GPUGLU_STAGING=pinned|direct forces one
// (a measurement knob); otherwise arrays from kDirectCopyBytes on are copied directly
// (measured on the H100 in docs/performance.md, ILU-GMRES section).
constexpr size_t kDirectCopyBytes = size_t{1} << 20;
bool copy_directly(size_t bytes) {
  // Read once per process: this runs on every solve.
  static const int forced = [] {
    const char* v = std::getenv("GPUGLU_STAGING");
    if (v && std::strcmp(v, "pinned") == 0) return 0;
    if (v && std::strcmp(v, "direct") == 0) return 1;
    return -1;
  }();
  return forced < 0 ? bytes >= kDirectCopyBytes : forced == 1;
}

void upload_from_host(double* dev, const double* host, double* pinned, size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  if (copy_directly(bytes)) {
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, stream));
    return;
  }
  std::memcpy(pinned, host, bytes);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(dev, pinned, bytes, cudaMemcpyHostToDevice, stream));
}

// Synchronous: host holds the values on return.
void download_to_host(double* host, const double* dev, double* pinned, size_t bytes, cudaStream_t stream) {
  if (bytes == 0) {
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  const bool direct = copy_directly(bytes);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(direct ? host : pinned, dev, bytes, cudaMemcpyDeviceToHost, stream));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (!direct) std::memcpy(host, pinned, bytes);
}

int pow2_clamped(int64_t x, int lo, int hi) {
  int p = lo;
  while (p < hi && p < x) p *= 2;
  return std::min(p, hi);
}

double from_bits(unsigned long long b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

// One level of the loop: launch shapes fixed at construction.
struct LevelLaunch {
  int32_t level;
  int64_t col_begin;
  int32_t ncols;
  int pivot_threads;  // 32: a warp per column
  int64_t t_begin;
  int64_t ntargets;
  bool update_by_warps;
  int update_width;  // warps per block (by warps) or threads per block (by blocks)
  bool programmatic;  // programmatic dependent launch
};

std::vector<LevelLaunch> plan_levels(const Schedule& s) {
  std::vector<LevelLaunch> plan;
  plan.reserve(static_cast<size_t>(s.num_levels()));
  for (int32_t l = 0; l < s.num_levels(); ++l) {
    LevelLaunch ll{};
    ll.level = l;
    ll.col_begin = s.level_ptr[l];
    ll.ncols = static_cast<int32_t>(s.level_ptr[l + 1] - s.level_ptr[l]);
    int64_t max_col = 0, max_l = 0;
    for (int64_t c = s.level_ptr[l]; c < s.level_ptr[l + 1]; ++c) {
      const int32_t j = s.level_cols[c];
      max_col = std::max(max_col, s.f_colptr[j + 1] - s.f_colptr[j]);
      max_l = std::max(max_l, s.f_colptr[j + 1] - s.f_diag[j] - 1);
    }
    ll.pivot_threads = max_col <= 256 ? 32 : (max_col <= 4096 ? 256 : 512);
    ll.t_begin = s.level_target_ptr[l];
    ll.ntargets = s.level_target_ptr[l + 1] - s.level_target_ptr[l];
    const KernelModeThresholds& m = s.options.modes;
    ll.programmatic = m.programmatic_launch;
    // Block per target: about rows_per_thread rows of the longest L column per thread.
    const int64_t rows = (max_l + m.rows_per_thread - 1) / std::max(1, m.rows_per_thread);
    switch (s.level_mode[l]) {
      case KernelMode::small_block:
        ll.update_by_warps = true;
        ll.update_width = std::clamp(s.level_warps[l], 1, 32);
        break;
      case KernelMode::large_block:
        ll.update_by_warps = false;
        ll.update_width = pow2_clamped(rows, 64, std::min(m.max_block_threads, 32 * std::clamp(s.level_warps[l], 2, 32)));
        break;
      case KernelMode::stream:
      default:
        ll.update_by_warps = false;
        ll.update_width = pow2_clamped(rows, 64, m.max_block_threads);
        break;
    }
    plan.push_back(ll);
  }
  return plan;
}

}  // namespace

struct CudaLU::Impl {
  // --- sizes ---
  int device = 0;
  int32_t n = 0;
  int64_t nnz_f = 0;
  int64_t input_nnz = 0;
  int64_t nnz_l = 0;
  int64_t nnz_u = 0;
  int32_t levels = 0;
  std::vector<int64_t> f_diag;  // host copy: the failing pivot's position

  // --- device memory ---
  DeviceMemory mem{"this factorization"};
  kernels::LevelArgs args{};
  double* f = nullptr;
  double* a_dev = nullptr;
  int64_t* value_map = nullptr;
  double* value_scale = nullptr;
  int32_t* row_perm = nullptr;
  int32_t* col_perm = nullptr;
  double* row_scale = nullptr;
  double* col_scale = nullptr;
  // The solves: L (unit lower; none when L has no entries) and U, and on the first
  // transposed solve U^T and L^T, each a TriangularSolver on this object's stream whose
  // values a gather from F fills after every factorization (positions in F: *_pos).
  TrsvKernel trsv_kernel = TrsvKernel::automatic;
  TrsvAnalysisSite trsv_analysis = TrsvAnalysisSite::cpu;
  std::unique_ptr<TriangularSolver> l_solve, u_solve, lt_solve, ut_solve;
  int64_t* l_pos = nullptr;
  int64_t* u_pos = nullptr;
  int64_t* lt_pos = nullptr;
  int64_t* ut_pos = nullptr;
  double* x_dev = nullptr;
  double* w1 = nullptr;
  double* w2 = nullptr;
  // refinement: A's pattern (and A^T's, built on the first transposed refinement), iterates
  std::vector<int64_t> a_rowptr_host;
  std::vector<int32_t> a_colind_host;
  int64_t* a_rowptr = nullptr;
  int32_t* a_colind = nullptr;
  int64_t* at_rowptr = nullptr;
  int32_t* at_colind = nullptr;
  int64_t* at_value_of = nullptr;  // A^T's entry e holds A's value at_value_of[e]
  double* b_dev = nullptr;
  double* r_dev = nullptr;
  double* r_next = nullptr;
  double* d_dev = nullptr;
  double* x_next = nullptr;
  unsigned long long* berr_bits = nullptr;
  kernels::FactorState* state = nullptr;

  // --- pinned host staging ---
  double* a_pinned = nullptr;
  double* v_pinned = nullptr;
  kernels::FactorState* state_pinned = nullptr;
  unsigned long long* berr_pinned = nullptr;

  // --- execution ---
  cudaStream_t stream = nullptr;
  cudaEvent_t ev_start = nullptr, ev_loop = nullptr, ev_end = nullptr;
  std::vector<LevelLaunch> plan;
  bool use_graph = true;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t graph_exec = nullptr;
  // modes.persistent_kernel: the level loop as one self-scheduled launch instead
  bool persistent = false;
  kernels::PersistentArgs pargs{};
  int persistent_grid = 0;
  int32_t* col_done_dev = nullptr;
  int32_t* level_done_dev = nullptr;
  unsigned long long* ticket_dev = nullptr;
  LevelTiming timing{0, 0.0, 0.0};
  bool factored = false;


  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl();

  void init(const Schedule& s, int device_ordinal);
  void init_solves(const Schedule& s);
  std::unique_ptr<TriangularSolver> make_solver(const trsv::Triangle& t, int64_t** pos_dev,
                                                const std::vector<int64_t>& pos, const char* what);
  void gather_solve_values();
  void gather_into(TriangularSolver& solver, const int64_t* pos, int64_t count);
  void init_transposed();
  void capture_graph();
  void init_persistent(const Schedule& s);
  void enqueue_loop(cudaStream_t st);  // the level loop: graph, plain launches, or persistent
  void enqueue_level(const LevelLaunch& ll, cudaStream_t st) const;
  void enqueue_levels(cudaStream_t st) const;
  void solve_device(const double* in, double* out, bool transpose);  // device vectors; may alias
  void build_transpose();
  // r = b_dev - op(A) x; the backward error is copied to berr_pinned, readable once the
  // stream has been synchronized.
  void enqueue_residual(bool transpose, const double* x, double* r);
  double residual(bool transpose, const double* x, double* r);  // the same, synchronized: the backward error
};

CudaLU::Impl::~Impl() {
  // Best effort: nothing here may throw. The device is made current for the frees.
  int previous = -1;
  const bool switched = cudaGetDevice(&previous) == cudaSuccess && previous != device &&
                        cudaSetDevice(device) == cudaSuccess;
  if (stream) cudaStreamSynchronize(stream);
  if (graph_exec) cudaGraphExecDestroy(graph_exec);
  if (graph) cudaGraphDestroy(graph);
  // The solvers run on `stream`: they go before it does.
  l_solve.reset();
  u_solve.reset();
  lt_solve.reset();
  ut_solve.reset();
  for (cudaEvent_t e : {ev_start, ev_loop, ev_end})
    if (e) cudaEventDestroy(e);
  if (stream) cudaStreamDestroy(stream);
  for (void* p : {static_cast<void*>(a_pinned), static_cast<void*>(v_pinned), static_cast<void*>(state_pinned),
                  static_cast<void*>(berr_pinned)})
    if (p) cudaFreeHost(p);
  mem.release();
  if (switched) cudaSetDevice(previous);
}

void CudaLU::Impl::init(const Schedule& s, int device_ordinal) {
  if (device_ordinal < 0) {
    GPUGLU_CUDA_CHECK(cudaGetDevice(&device));
  } else {
    device = device_ordinal;
  }
  DeviceScope scope(device);
  n = s.n;
  nnz_f = static_cast<int64_t>(s.f_rowind.size());
  input_nnz = s.input_nnz;
  nnz_l = s.nnz_l;
  nnz_u = s.nnz_u;
  levels = s.num_levels();
  f_diag = s.f_diag;
  if (static_cast<int64_t>(s.value_map.size()) != input_nnz || static_cast<int64_t>(s.f_colptr.size()) != n + 1 ||
      static_cast<int64_t>(s.f_diag.size()) != n || nnz_l + nnz_u != nnz_f ||
      (levels > 0 && static_cast<int64_t>(s.level_target_ptr.size()) != levels + 1))
    throw Error(Status::invalid_input, "CudaLU: the schedule's arrays are inconsistent (not from analyze()?)");

  GPUGLU_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  GPUGLU_CUDA_CHECK(cudaEventCreate(&ev_start));
  GPUGLU_CUDA_CHECK(cudaEventCreate(&ev_loop));
  GPUGLU_CUDA_CHECK(cudaEventCreate(&ev_end));

  // Factor pattern and schedule, uploaded once.
  args.colptr = mem.upload(s.f_colptr, "the factor's column pointers");
  args.rowind = mem.upload(s.f_rowind, "the factor's row indices");
  args.diag = mem.upload(s.f_diag, "the factor's diagonal positions");
  f = mem.allocate<double>(static_cast<size_t>(nnz_f), "the factor's values");
  args.f = f;
  args.level_cols = mem.upload(s.level_cols, "the level columns");
  args.target_col = mem.upload(s.target_col, "the update targets");
  args.src_ptr = mem.upload(s.target_src_ptr, "the update source pointers");
  args.src = mem.upload(s.target_src, "the update sources");
  state = mem.allocate<kernels::FactorState>(1, "the factorization state");
  args.state = state;
  args.incomplete = s.incomplete;
  value_map = mem.upload(s.value_map, "the value map");
  value_scale = mem.upload(s.value_scale, "the value scaling");
  a_dev = mem.allocate<double>(static_cast<size_t>(input_nnz), "the input values");
  row_perm = mem.upload(s.row_perm, "the row permutation");
  col_perm = mem.upload(s.col_perm, "the column permutation");
  row_scale = mem.upload(s.row_scale, "the row scaling");
  col_scale = mem.upload(s.col_scale, "the column scaling");

  a_pinned = pinned_alloc<double>(static_cast<size_t>(input_nnz), "the input values' staging buffer");
  v_pinned = pinned_alloc<double>(static_cast<size_t>(n), "the solve's staging buffer");
  state_pinned = pinned_alloc<kernels::FactorState>(1, "the factorization state's staging buffer");
  berr_pinned = pinned_alloc<unsigned long long>(1, "the backward error's staging buffer");

  init_solves(s);

  plan = plan_levels(s);
  if (!kernels::programmatic_launch_supported(device))
    for (LevelLaunch& ll : plan) ll.programmatic = false;
  persistent = s.options.modes.persistent_kernel;
  if (persistent) {
    init_persistent(s);
    return;
  }
  use_graph = !graph_disabled_by_env();
  if (use_graph && !plan.empty()) capture_graph();
}

void CudaLU::Impl::init_solves(const Schedule& s) {
  x_dev = mem.allocate<double>(static_cast<size_t>(n), "the solve's right-hand side");
  w1 = mem.allocate<double>(static_cast<size_t>(n), "the solve's work vector");
  w2 = mem.allocate<double>(static_cast<size_t>(n), "the solve's second work vector");
  b_dev = mem.allocate<double>(static_cast<size_t>(n), "the refinement's right-hand side");
  r_dev = mem.allocate<double>(static_cast<size_t>(n), "the refinement's residual");
  r_next = mem.allocate<double>(static_cast<size_t>(n), "the refinement's next residual");
  d_dev = mem.allocate<double>(static_cast<size_t>(n), "the refinement's correction");
  x_next = mem.allocate<double>(static_cast<size_t>(n), "the refinement's next iterate");
  berr_bits = mem.allocate<unsigned long long>(1, "the backward error");
  if (n == 0) return;
  trsv_kernel = s.options.trsv_kernel;
  trsv_analysis = s.options.trsv_analysis;
  const trsv::FactorTriangles t = trsv::factor_triangles(s);
  if (nnz_l > 0) l_solve = make_solver(t.l, &l_pos, t.l_pos, "L's positions in F");
  u_solve = make_solver(t.u, &u_pos, t.u_pos, "U's positions in F");
}

// A solver for triangle t (pattern only: its values come from F after each factorization,
// through pos) on this object's stream. The level analysis runs here, once per pattern.
std::unique_ptr<TriangularSolver> CudaLU::Impl::make_solver(const trsv::Triangle& t, int64_t** pos_dev,
                                                            const std::vector<int64_t>& pos, const char* what) {
  trsv::TrsvAnalysis a;
  if (trsv_analysis == TrsvAnalysisSite::gpu) {
    try {
      a = analyze_with_device_levels(t.view(), device);
    } catch (const Error& e) {
      // A device without cooperative launches: the CPU computes the same levels.
      if (e.status() != Status::unsupported) throw;
      a = trsv::analyze(t.view());
    }
  } else {
    a = trsv::analyze(t.view());
  }
  auto solver = std::make_unique<TriangularSolver>(t.view(), a, trsv_kernel, device);
  solver->use_stream(stream);
  *pos_dev = mem.upload(pos, what);
  return solver;
}

// F's values into a solver (one gather, no host round trip), then whatever the solver
// derives from them.
void CudaLU::Impl::gather_into(TriangularSolver& solver, const int64_t* pos, int64_t count) {
  kernels::launch_gather(count, pos, f, solver.device_values(), stream);
  solver.update_values_device(solver.device_values());
}

// After each factorization: every solver built so far (the transposed ones once a
// transposed solve has built them) holds the new factor.
void CudaLU::Impl::gather_solve_values() {
  if (l_solve) gather_into(*l_solve, l_pos, nnz_l);
  gather_into(*u_solve, u_pos, nnz_u);
  if (lt_solve) gather_into(*lt_solve, lt_pos, nnz_l);
  if (ut_solve) gather_into(*ut_solve, ut_pos, nnz_u);
}

// U^T (lower, diagonal stored) and L^T (unit upper), built on the first transposed solve
// from the forward solvers' patterns: most users never solve with A^T, and these double
// the solves' device memory. Their positions in F compose the transpose's source map
// with the forward positions.
void CudaLU::Impl::init_transposed() {
  auto build = [&](const TriangularSolver& fwd, trsv::Fill fill, trsv::Diag diag, const int64_t* fwd_pos_dev,
                   int64_t count, int64_t** pos_dev, const char* what) {
    trsv::Triangle t;
    t.n = n;
    t.fill = fill;
    t.diag = diag;
    fwd.download_pattern(t.rowptr, t.colind);
    std::vector<int64_t> fwd_pos(static_cast<size_t>(count));
    if (count > 0)
      GPUGLU_CUDA_CHECK(cudaMemcpy(fwd_pos.data(), fwd_pos_dev, fwd_pos.size() * sizeof(int64_t),
                                   cudaMemcpyDeviceToHost));
    trsv::TransposedTriangle tt = trsv::transpose(t.view());
    for (int64_t& src : tt.source) src = fwd_pos[static_cast<size_t>(src)];
    std::unique_ptr<TriangularSolver> solver = make_solver(tt.t, pos_dev, tt.source, what);
    gather_into(*solver, *pos_dev, count);  // the factor of the last factor()
    return solver;
  };
  ut_solve = build(*u_solve, trsv::Fill::upper, trsv::Diag::stored, u_pos, nnz_u, &ut_pos, "U^T's positions in F");
  if (l_solve)
    lt_solve = build(*l_solve, trsv::Fill::lower, trsv::Diag::unit, l_pos, nnz_l, &lt_pos, "L^T's positions in F");
}

// Tasks in level order (each level's pivots, then its targets), with the counts they wait
// for: a pivot of j all updates of j, a target of k the updates of k scheduled before it.
void CudaLU::Impl::init_persistent(const Schedule& s) {
  std::vector<uint8_t> is_pivot;
  std::vector<int64_t> arg;
  std::vector<int32_t> level_of_task, count;
  std::vector<int32_t> updates_of(static_cast<size_t>(n), 0);
  for (int32_t l = 0; l < levels; ++l)
    for (int64_t t = s.level_target_ptr[l]; t < s.level_target_ptr[l + 1]; ++t) ++updates_of[s.target_col[t]];
  std::vector<int32_t> seen(static_cast<size_t>(n), 0);
  const size_t ntasks = static_cast<size_t>(n) + s.target_col.size();
  is_pivot.reserve(ntasks);
  arg.reserve(ntasks);
  level_of_task.reserve(ntasks);
  count.reserve(ntasks);
  for (int32_t l = 0; l < levels; ++l) {
    for (int64_t c = s.level_ptr[l]; c < s.level_ptr[l + 1]; ++c) {
      is_pivot.push_back(1);
      arg.push_back(c);
      level_of_task.push_back(l);
      count.push_back(updates_of[s.level_cols[c]]);
    }
    for (int64_t t = s.level_target_ptr[l]; t < s.level_target_ptr[l + 1]; ++t) {
      is_pivot.push_back(0);
      arg.push_back(t);
      level_of_task.push_back(l);
      count.push_back(seen[s.target_col[t]]++);
    }
  }
  pargs.task_is_pivot = mem.upload(is_pivot, "the persistent loop's task kinds");
  pargs.task_arg = mem.upload(arg, "the persistent loop's tasks");
  pargs.task_level = mem.upload(level_of_task, "the persistent loop's task levels");
  pargs.task_count = mem.upload(count, "the persistent loop's task counts");
  pargs.level_ptr = mem.upload(s.level_ptr, "the level pointers");
  pargs.ntasks = static_cast<int64_t>(is_pivot.size());
  ticket_dev = mem.allocate<unsigned long long>(1, "the persistent loop's ticket");
  col_done_dev = mem.allocate<int32_t>(static_cast<size_t>(n), "the persistent loop's column counters");
  level_done_dev = mem.allocate<int32_t>(static_cast<size_t>(levels), "the persistent loop's level counters");
  pargs.ticket = ticket_dev;
  pargs.col_done = col_done_dev;
  pargs.level_pivots_done = level_done_dev;
  persistent_grid = kernels::persistent_blocks(device);
}

void CudaLU::Impl::enqueue_loop(cudaStream_t st) {
  if (persistent) {
    GPUGLU_CUDA_CHECK(cudaMemsetAsync(ticket_dev, 0, sizeof(unsigned long long), st));
    GPUGLU_CUDA_CHECK(cudaMemsetAsync(col_done_dev, 0, static_cast<size_t>(n) * sizeof(int32_t), st));
    GPUGLU_CUDA_CHECK(cudaMemsetAsync(level_done_dev, 0, static_cast<size_t>(std::max(levels, 1)) * sizeof(int32_t), st));
    kernels::launch_persistent(args, pargs, persistent_grid, st);
  } else if (graph_exec) {
    GPUGLU_CUDA_CHECK(cudaGraphLaunch(graph_exec, st));
  } else {
    enqueue_levels(st);
  }
}

void CudaLU::Impl::enqueue_level(const LevelLaunch& ll, cudaStream_t st) const {
  kernels::launch_pivot(args, ll.level, ll.col_begin, ll.ncols, ll.pivot_threads, ll.programmatic, st);
  if (ll.ntargets == 0) return;
  if (ll.update_by_warps)
    kernels::launch_update_warps(args, ll.level, ll.t_begin, ll.ntargets, ll.update_width, ll.programmatic, st);
  else
    kernels::launch_update_blocks(args, ll.level, ll.t_begin, ll.ntargets, ll.update_width, ll.programmatic, st);
}

void CudaLU::Impl::enqueue_levels(cudaStream_t st) const {
  for (const LevelLaunch& ll : plan) enqueue_level(ll, st);
}

// Thousands of levels, two launches each: captured once, replayed per factorization.
// The graph keeps only fixed pointers; the pivot rule lives in the device state.
void CudaLU::Impl::capture_graph() {
  cuda::capture_graph(stream, [this](cudaStream_t st) { enqueue_levels(st); }, &graph, &graph_exec);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
}

CudaLU::CudaLU(const Schedule& s, int device_ordinal) : impl_(std::make_unique<Impl>()) {
  impl_->init(s, device_ordinal);  // on a throw, ~Impl releases what init acquired
}

CudaLU::~CudaLU() = default;

DeviceFactorResult CudaLU::factor(const double* a_values, const reference::PivotRule& rule) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.factored = false;
  const size_t in_bytes = static_cast<size_t>(m.input_nnz) * sizeof(double);
  if (in_bytes > 0) {
    upload_from_host(m.a_dev, a_values, m.a_pinned, in_bytes, m.stream);
  }
  GPUGLU_CUDA_CHECK(cudaEventRecord(m.ev_start, m.stream));
  kernels::launch_reset(m.state, rule, m.stream);
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(m.f, 0, static_cast<size_t>(m.nnz_f) * sizeof(double), m.stream));
  kernels::launch_scatter(m.input_nnz, m.a_dev, m.value_map, m.value_scale, m.f, m.state, m.stream);
  kernels::launch_shift_diagonal(m.n, m.args.diag, m.f, rule.diagonal_shift, m.stream);
  GPUGLU_CUDA_CHECK(cudaEventRecord(m.ev_loop, m.stream));
  const bool graphed = m.graph_exec != nullptr;
  m.enqueue_loop(m.stream);
  GPUGLU_CUDA_CHECK(cudaEventRecord(m.ev_end, m.stream));
  GPUGLU_CUDA_CHECK(
      cudaMemcpyAsync(m.state_pinned, m.state, sizeof(kernels::FactorState), cudaMemcpyDeviceToHost, m.stream));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));

  const kernels::FactorState st = *m.state_pinned;
  if (st.missing_fill)
    throw Error(Status::invalid_input,
                "CudaLU::factor: the schedule's factor pattern lacks a fill entry an update needs");

  DeviceFactorResult out;
  float total_ms = 0.0f, loop_ms = 0.0f;
  GPUGLU_CUDA_CHECK(cudaEventElapsedTime(&total_ms, m.ev_start, m.ev_end));
  GPUGLU_CUDA_CHECK(cudaEventElapsedTime(&loop_ms, m.ev_loop, m.ev_end));
  out.device_ms = total_ms;
  m.timing = {m.levels, graphed ? static_cast<double>(loop_ms) : 0.0, graphed ? 0.0 : static_cast<double>(loop_ms)};
  out.max_abs_input = from_bits(st.max_input_bits);
  out.stats.max_active = from_bits(st.max_active_bits);
  out.stats.min_pivot_ratio = m.n > 0 ? from_bits(st.min_ratio_bits) : 1.0;
  out.stats.perturbed_pivots = static_cast<int64_t>(st.perturbed);
  out.stats.first_perturbed = st.first_perturbed == kernels::kNoEntry ? -1 : static_cast<int32_t>(st.first_perturbed);
  if (st.bad_entry != kernels::kNoEntry) {
    out.bad_entry = static_cast<int32_t>(st.bad_entry);
    out.stats.status = Status::nan_or_inf;
    return out;
  }
  if (st.failure_key != kernels::kNoEntry) {
    const int32_t column = static_cast<int32_t>(st.failure_key & 0xffffffffull);
    out.stats.status = Status::numerically_singular;
    out.stats.pivot_column = column;
    GPUGLU_CUDA_CHECK(cudaMemcpy(&out.stats.pivot_value, m.f + m.f_diag[column], sizeof(double),
                                 cudaMemcpyDeviceToHost));
    return out;
  }
  if (m.n > 0) {
    m.gather_solve_values();
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));
  }
  m.factored = true;
  return out;
}

void CudaLU::download_factor(double* f_host) const {
  const Impl& m = *impl_;
  DeviceScope scope(m.device);
  if (m.nnz_f == 0) return;
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(f_host, m.f, static_cast<size_t>(m.nnz_f) * sizeof(double),
                                    cudaMemcpyDeviceToHost, m.stream));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));
}

void CudaLU::Impl::solve_device(const double* in, double* out, bool transpose) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(double);
  // A x = b: L (w1 -> w2), U (w2 -> w1). A^T x = b: U^T (w1 -> w2), L^T (w2 -> w1).
  if (transpose && !ut_solve) init_transposed();  // solve() runs only after a successful factor()
  TriangularSolver* first = transpose ? ut_solve.get() : l_solve.get();
  TriangularSolver* second = transpose ? lt_solve.get() : u_solve.get();
  kernels::launch_gather_scaled(n, transpose ? col_perm : row_perm, transpose ? col_scale : row_scale, in, w1, stream);
  if (transpose) {
    first->solve_device(w1, w2);
    if (second)
      second->solve_device(w2, w1);
    else
      GPUGLU_CUDA_CHECK(cudaMemcpyAsync(w1, w2, bytes, cudaMemcpyDeviceToDevice, stream));
  } else {
    if (first)
      first->solve_device(w1, w2);
    else
      GPUGLU_CUDA_CHECK(cudaMemcpyAsync(w2, w1, bytes, cudaMemcpyDeviceToDevice, stream));
    second->solve_device(w2, w1);
  }
  kernels::launch_scatter_scaled(n, transpose ? row_perm : col_perm, transpose ? row_scale : col_scale, w1, out, stream);
}

void CudaLU::solve(const double* b, double* x, bool transpose) { solve_refined(b, x, transpose, 0, 0.0); }

void CudaLU::set_input_pattern(const int64_t* rowptr, const int32_t* colind) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  if (rowptr[m.n] != m.input_nnz)
    throw Error(Status::invalid_input, "CudaLU::set_input_pattern: the pattern has " + std::to_string(rowptr[m.n]) +
                                           " entries, the schedule " + std::to_string(m.input_nnz));
  m.a_rowptr_host.assign(rowptr, rowptr + m.n + 1);
  m.a_colind_host.assign(colind, colind + m.input_nnz);
  m.a_rowptr = m.mem.upload(m.a_rowptr_host, "A's row pointers (refinement)");
  m.a_colind = m.mem.upload(m.a_colind_host, "A's column indices (refinement)");
}

bool CudaLU::has_input_pattern() const { return impl_->a_rowptr != nullptr; }

// A^T by rows = A by columns, with each entry's position in A's values: built on the host
// once, on the first transposed refinement.
void CudaLU::Impl::build_transpose() {
  const TransposedPattern<int64_t> t = transpose_pattern(n, n, a_rowptr_host.data(), a_colind_host.data());
  at_rowptr = mem.upload(t.ptr, "A^T's row pointers (refinement)");
  at_colind = mem.upload(t.ind, "A^T's column indices (refinement)");
  at_value_of = mem.upload(t.src, "A^T's value positions (refinement)");
}

void CudaLU::Impl::enqueue_residual(bool transpose, const double* x, double* r) {
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(berr_bits, 0, sizeof(unsigned long long), stream));
  if (transpose)
    kernels::launch_residual(n, at_rowptr, at_colind, a_dev, at_value_of, b_dev, x, r, berr_bits, stream);
  else
    kernels::launch_residual(n, a_rowptr, a_colind, a_dev, nullptr, b_dev, x, r, berr_bits, stream);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(berr_pinned, berr_bits, sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream));
}

double CudaLU::Impl::residual(bool transpose, const double* x, double* r) {
  enqueue_residual(transpose, x, r);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
  return from_bits(*berr_pinned);
}

CudaLU::Refinement CudaLU::solve_refined(const double* b, double* x, bool transpose, int32_t max_steps,
                                         double tolerance) {
  Impl& m = *impl_;
  if (!m.factored) throw Error(Status::not_factored, "CudaLU::solve: no successful factorization to solve with");
  Refinement out;
  if (m.n == 0) return out;
  if (max_steps > 0 && !m.a_rowptr)
    throw Error(Status::invalid_input, "CudaLU::solve_refined: set_input_pattern() was not called");
  DeviceScope scope(m.device);
  const size_t bytes = static_cast<size_t>(m.n) * sizeof(double);
  upload_from_host(m.b_dev, b, m.v_pinned, bytes, m.stream);
  m.solve_device(m.b_dev, m.x_dev, transpose);
  if (max_steps > 0) {
    if (transpose && !m.at_rowptr) m.build_transpose();
    m.enqueue_residual(transpose, m.x_dev, m.r_dev);
  }
  // x and the backward error come back with one synchronization: the check costs a
  // residual kernel, not a host round trip; only a solve that needs refinement pays more.
  download_to_host(x, m.x_dev, m.v_pinned, bytes, m.stream);
  if (max_steps == 0) return out;
  double berr = from_bits(*m.berr_pinned);
  while (out.steps < max_steps && berr > tolerance) {
    m.solve_device(m.r_dev, m.d_dev, transpose);
    kernels::launch_add(m.n, m.x_dev, m.d_dev, m.x_next, m.stream);
    const double next = m.residual(transpose, m.x_next, m.r_next);
    if (!(next < berr)) break;
    std::swap(m.x_dev, m.x_next);
    std::swap(m.r_dev, m.r_next);
    berr = next;
    ++out.steps;
  }
  out.backward_error = berr;
  if (out.steps > 0) download_to_host(x, m.x_dev, m.v_pinned, bytes, m.stream);
  return out;
}

int64_t CudaLU::device_bytes() const {
  const Impl& m = *impl_;
  int64_t bytes = m.mem.bytes();
  for (const auto* t : {&m.l_solve, &m.u_solve, &m.lt_solve, &m.ut_solve})
    if (*t) bytes += (*t)->device_bytes();
  return bytes;
}

TrsvKernel CudaLU::trsv_kernel() const { return impl_->u_solve ? impl_->u_solve->kernel() : impl_->trsv_kernel; }

int64_t CudaLU::factor_bytes() const {
  const Impl& m = *impl_;
  return m.nnz_f * static_cast<int64_t>(sizeof(double) + sizeof(int32_t)) +
         (static_cast<int64_t>(m.n) + 1) * static_cast<int64_t>(sizeof(int64_t)) +
         static_cast<int64_t>(m.n) * static_cast<int64_t>(sizeof(int64_t));
}

CudaLU::LevelTiming CudaLU::level_timing() const { return impl_->timing; }

bool CudaLU::uses_graph() const { return impl_->graph_exec != nullptr; }

std::vector<float> CudaLU::profile_levels(const double* a_values, const reference::PivotRule& rule) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  m.factored = false;
  std::vector<cudaEvent_t> events(m.plan.size() + 1, nullptr);
  std::vector<float> ms(m.plan.size(), 0.0f);
  auto destroy = [&] {
    for (cudaEvent_t& e : events)
      if (e) cudaEventDestroy(e), e = nullptr;
  };
  try {
    for (cudaEvent_t& e : events) GPUGLU_CUDA_CHECK(cudaEventCreate(&e));
    const size_t in_bytes = static_cast<size_t>(m.input_nnz) * sizeof(double);
    if (in_bytes > 0) {
      upload_from_host(m.a_dev, a_values, m.a_pinned, in_bytes, m.stream);
    }
    kernels::launch_reset(m.state, rule, m.stream);
    GPUGLU_CUDA_CHECK(cudaMemsetAsync(m.f, 0, static_cast<size_t>(m.nnz_f) * sizeof(double), m.stream));
    kernels::launch_scatter(m.input_nnz, m.a_dev, m.value_map, m.value_scale, m.f, m.state, m.stream);
    kernels::launch_shift_diagonal(m.n, m.args.diag, m.f, rule.diagonal_shift, m.stream);
    GPUGLU_CUDA_CHECK(cudaEventRecord(events[0], m.stream));
    for (size_t l = 0; l < m.plan.size(); ++l) {
      m.enqueue_level(m.plan[l], m.stream);
      GPUGLU_CUDA_CHECK(cudaEventRecord(events[l + 1], m.stream));
    }
    GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));
    for (size_t l = 0; l < m.plan.size(); ++l) GPUGLU_CUDA_CHECK(cudaEventElapsedTime(&ms[l], events[l], events[l + 1]));
  } catch (...) {
    destroy();
    throw;
  }
  destroy();
  return ms;
}

}  // namespace gpuglu::cuda
