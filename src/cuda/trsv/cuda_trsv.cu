// cuda::TriangularSolver: device buffers, the per-kernel solve sequence, the level loop as a
// CUDA graph, and cuSPARSE SpSV as the baseline on the same arrays. Kernels: trsv_kernels.cu.
//
// What a solve moves (DESIGN.md, "Rules that keep it fast"): the pattern and the analysis
// went up at construction; a solve enqueues only vector work:
//   SLFR      memset x to the sentinel, reset the ticket, one kernel (b read in place; a copy
//             of b first only when b and x alias);
//   SLFC      x = b, counters = dependency counts (4n bytes), reset the ticket, one kernel;
//   LEVR/LEVC x_work = b, the level graph (one kernel node per level), x = x_work;
//   cusparse  rhs = b, cusparseSpSV_solve(rhs -> x_work), x = x_work.
// No n-sized scratch exists per unknown in flight; the only n-sized buffers are three work
// vectors and the counters, allocated once.
//
// Scalar = double or std::complex<double>: the device arrays hold T = device_scalar_t<Scalar>
// (the same bytes), the kernels are instantiated for T, cuSPARSE runs on CUDA_R_64F or
// CUDA_C_64F.
#include "cuda/trsv/cuda_trsv.hpp"

#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/scalar.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/gather_kernels.cuh"
#include "cuda/common/device_memory.hpp"
#include "cuda/common/device_scalar.hpp"
#include "cuda/common/graph_capture.hpp"
#include "cuda/trsv/trsv_kernels.cuh"
#include "analysis/kernel_choice.hpp"

namespace gpuglu::cuda {
namespace {

// LEVR's single-block runs take levels of at most capacity * passes rows (0: no runs, every
// level its own programmatic launch). A run saves the launches' fixed cost, which dominates
// small triangles and loses to a whole-GPU launch on large ones; the crossover is measured
// in docs/performance.md ("Measurements behind the kernel rules").
constexpr int32_t kRunsUpToRows = 8192;
int32_t run_passes(int32_t n, int32_t requested) {
  if (requested < 0) return n <= kRunsUpToRows ? 1 : 0;
  return std::min(requested, 64);
}

}  // namespace

template <class Scalar>
struct BasicTriangularSolver<Scalar>::Impl {
  using T = device_scalar_t<Scalar>;  // what the kernels compute in (same bytes as Scalar)
  static constexpr cudaDataType_t kCudaType = std::is_same_v<Scalar, double> ? CUDA_R_64F : CUDA_C_64F;

  int device = 0;
  int32_t n = 0;
  int64_t nnz = 0;
  int64_t offdiag_nnz = 0;
  trsv::Fill fill = trsv::Fill::lower;
  trsv::Diag diag = trsv::Diag::stored;
  TrsvKernel kernel = TrsvKernel::slfr;
  int32_t group = 1;
  DeviceMemory mem{"this triangular solver"};
  cudaStream_t own_stream = nullptr;
  cudaStream_t stream = nullptr;  // own_stream or the caller's (use_stream)
  trsv_kernels::BasicDeviceTriangle<T> tri;
  std::vector<int64_t> host_rowptr;  // for update_values' checks (diagonal positions, row names)

  T* values = nullptr;      // CSR values (all kernels, cuSPARSE too)
  T* csc_values = nullptr;  // LEVC, SLFC
  int64_t* csc_map = nullptr;
  int32_t* tasks = nullptr;      // SLFR, SLFC
  int32_t num_tasks = 0;
  int32_t* dep_count = nullptr;  // SLFC
  int32_t* counters = nullptr;
  uint32_t* ticket = nullptr;
  T* x_work = nullptr;
  T* rhs_work = nullptr;
  T* io_work = nullptr;  // the host convenience's device copy of b / x

  std::vector<int32_t> level_ptr;  // LEVR, LEVC
  std::vector<trsv::LevelSegment> segments;  // LEVR
  int32_t* level_ptr_dev = nullptr;          // LEVR's single-block runs
  int32_t run_group = 1;
  bool programmatic = true;  // level kernels overlap their start with the previous level's end
  CapturedGraph graph;

  cusparseHandle_t sp = nullptr;
  cusparseSpMatDescr_t mat = nullptr;
  cusparseDnVecDescr_t vec_b = nullptr, vec_x = nullptr;
  cusparseSpSVDescr_t sv = nullptr;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl();

  void init(const trsv::TriangleView& t, const trsv::TrsvAnalysis& a, TrsvKernel requested, int device_ordinal,
            const TrsvTuning& tuning, const Scalar* explicit_values);
  void init_cusparse(const trsv::TriangleView& t);
  void enqueue_levels(cudaStream_t st);
  void capture_graph();
  void refresh_derived_values(bool cusparse_copy);
  void check_host_values(const Scalar* v, const char* where) const;
  void solve_device(const T* b, T* x);
};

template <class Scalar>
BasicTriangularSolver<Scalar>::Impl::~Impl() {
  ReleaseScope scope(device);  // best effort: nothing here may throw
  if (stream) cudaStreamSynchronize(stream);
  graph.reset();
  if (sv) cusparseSpSV_destroyDescr(sv);
  if (mat) cusparseDestroySpMat(mat);
  if (vec_b) cusparseDestroyDnVec(vec_b);
  if (vec_x) cusparseDestroyDnVec(vec_x);
  if (sp) cusparseDestroy(sp);
  if (own_stream) cudaStreamDestroy(own_stream);
  mem.release();
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::Impl::init(const trsv::TriangleView& t, const trsv::TrsvAnalysis& a,
                                               TrsvKernel requested, int device_ordinal, const TrsvTuning& tuning,
                                               const Scalar* explicit_values) {
  // A view's values are doubles: a complex solver takes its values only as explicit_values.
  if constexpr (!std::is_same_v<Scalar, double>) {
    if (t.values)
      throw Error(Status::invalid_input,
                  "ComplexTriangularSolver: the triangle's values are real; pass the complex values separately");
  }
  if (a.n != t.n || a.nnz != t.nnz() || a.fill != t.fill || a.diag != t.diag ||
      static_cast<int64_t>(a.jlev.size()) != t.n || static_cast<int64_t>(a.csc_map.size()) != a.offdiag_nnz)
    throw Error(Status::invalid_input, "TriangularSolver: the analysis is not trsv::analyze() of this triangle");
  if (device_ordinal < 0)
    GPUGLU_CUDA_CHECK(cudaGetDevice(&device));
  else
    device = device_ordinal;
  DeviceScope scope(device);
  n = t.n;
  nnz = t.nnz();
  offdiag_nnz = a.offdiag_nnz;
  fill = t.fill;
  diag = t.diag;
  kernel = trsv::choose_kernel(a, requested);
  group = trsv::group_size(a);
  host_rowptr.assign(t.rowptr, t.rowptr + static_cast<size_t>(n) + 1);
  const Scalar* initial = explicit_values;
  if constexpr (std::is_same_v<Scalar, double>) {
    if (!initial) initial = t.values;  // checked by trsv::analyze already
  }
  if (explicit_values) check_host_values(explicit_values, "TriangularSolver");

  GPUGLU_CUDA_CHECK(cudaStreamCreateWithFlags(&own_stream, cudaStreamNonBlocking));
  stream = own_stream;
  tri.n = n;
  tri.upper = fill == trsv::Fill::upper;
  tri.unit = diag == trsv::Diag::unit;
  tri.rowptr = mem.upload(t.rowptr, static_cast<size_t>(n) + 1, "the triangle's row pointers");
  tri.colind = mem.upload(t.colind, static_cast<size_t>(nnz), "the triangle's column indices");
  if (initial) {
    values = mem.upload(device_cast(initial), static_cast<size_t>(nnz), "the triangle's values");
  } else {
    values = mem.allocate<T>(static_cast<size_t>(nnz), "the triangle's values");
    if (nnz > 0) {
      // Finished before the constructor returns: the gather that fills the values runs on a
      // non-blocking stream, which would not wait for the legacy stream's memset.
      GPUGLU_CUDA_CHECK(cudaMemset(values, 0, static_cast<size_t>(nnz) * sizeof(T)));
      GPUGLU_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
    }
  }
  tri.values = values;
  x_work = mem.allocate<T>(static_cast<size_t>(n), "the solve's work vector");
  rhs_work = mem.allocate<T>(static_cast<size_t>(n), "the solve's right-hand side copy");
  io_work = mem.allocate<T>(static_cast<size_t>(n), "the host solve's device vector");

  const bool column = kernel == TrsvKernel::levc || kernel == TrsvKernel::slfc;
  const bool self_scheduled = kernel == TrsvKernel::slfr || kernel == TrsvKernel::slfc;
  if (kernel != TrsvKernel::cusparse) tri.jlev = mem.upload(a.jlev, "the rows by level (jlev)");
  if (column) {
    tri.colptr = mem.upload(a.csc_colptr, "the column pointers");
    tri.rowind = mem.upload(a.csc_rowind, "the column row indices");
    csc_map = mem.upload(a.csc_map, "the CSC-to-CSR map");
    csc_values = mem.allocate<T>(static_cast<size_t>(offdiag_nnz), "the column values");
    tri.csc_values = csc_values;
  }
  if (self_scheduled) {
    const std::vector<int32_t> task_ptr = trsv::warp_tasks(a, group);
    num_tasks = static_cast<int32_t>(task_ptr.size()) - 1;
    tasks = mem.upload(task_ptr, "the warp tasks");
    ticket = mem.allocate<uint32_t>(1, "the warp-task ticket");
  }
  if (kernel == TrsvKernel::slfc) {
    dep_count = mem.upload(a.dep_count, "the dependency counts");
    counters = mem.allocate<int32_t>(static_cast<size_t>(n), "the dependency counters");
  }
  if (kernel == TrsvKernel::levr || kernel == TrsvKernel::levc) {
    level_ptr = a.level_ptr;
    programmatic = tuning.programmatic_launch;
    if (kernel == TrsvKernel::levr) {
      run_group = trsv::run_group_size(a);
      segments = trsv::level_segments(a, trsv_kernels::levr_run_capacity(run_group) * run_passes(n, tuning.run_passes));
      level_ptr_dev = mem.upload(a.level_ptr, "the level pointers");
    }
    if (tuning.level_graph && a.num_levels > 0) capture_graph();
  }
  if (kernel == TrsvKernel::cusparse && n > 0) init_cusparse(t);
  refresh_derived_values(false);  // cuSPARSE's analysis has just read these values
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::Impl::init_cusparse(const trsv::TriangleView& t) {
  GPUGLU_CUSPARSE_CHECK(cusparseCreate(&sp));
  GPUGLU_CUSPARSE_CHECK(cusparseSetStream(sp, stream));
  // cuSPARSE takes one index type for row offsets and column indices: 32 bits while nnz fits.
  if (nnz < std::numeric_limits<int32_t>::max()) {
    const std::vector<int32_t> rp32(t.rowptr, t.rowptr + static_cast<size_t>(n) + 1);
    int32_t* rp = mem.upload(rp32, "cuSPARSE's 32-bit row pointers");
    GPUGLU_CUSPARSE_CHECK(cusparseCreateCsr(&mat, n, n, nnz, rp, const_cast<int32_t*>(tri.colind), values,
                                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                            kCudaType));
  } else {
    const std::vector<int64_t> ci64(t.colind, t.colind + nnz);
    int64_t* ci = mem.upload(ci64, "cuSPARSE's 64-bit column indices");
    GPUGLU_CUSPARSE_CHECK(cusparseCreateCsr(&mat, n, n, nnz, const_cast<int64_t*>(tri.rowptr), ci, values,
                                            CUSPARSE_INDEX_64I, CUSPARSE_INDEX_64I, CUSPARSE_INDEX_BASE_ZERO,
                                            kCudaType));
  }
  cusparseFillMode_t fm = fill == trsv::Fill::lower ? CUSPARSE_FILL_MODE_LOWER : CUSPARSE_FILL_MODE_UPPER;
  cusparseDiagType_t dt = diag == trsv::Diag::unit ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
  GPUGLU_CUSPARSE_CHECK(cusparseSpMatSetAttribute(mat, CUSPARSE_SPMAT_FILL_MODE, &fm, sizeof(fm)));
  GPUGLU_CUSPARSE_CHECK(cusparseSpMatSetAttribute(mat, CUSPARSE_SPMAT_DIAG_TYPE, &dt, sizeof(dt)));
  GPUGLU_CUSPARSE_CHECK(cusparseCreateDnVec(&vec_b, n, rhs_work, kCudaType));
  GPUGLU_CUSPARSE_CHECK(cusparseCreateDnVec(&vec_x, n, x_work, kCudaType));
  GPUGLU_CUSPARSE_CHECK(cusparseSpSV_createDescr(&sv));
  const Scalar one(1.0);  // alpha in the compute type (cuDoubleComplex's layout for complex)
  size_t bytes = 0;
  GPUGLU_CUSPARSE_CHECK(cusparseSpSV_bufferSize(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vec_b, vec_x,
                                                kCudaType, CUSPARSE_SPSV_ALG_DEFAULT, sv, &bytes));
  void* buffer = mem.allocate_bytes(bytes, "cuSPARSE SpSV's buffer");
  GPUGLU_CUSPARSE_CHECK(cusparseSpSV_analysis(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vec_b, vec_x,
                                              kCudaType, CUSPARSE_SPSV_ALG_DEFAULT, sv, buffer));
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::Impl::enqueue_levels(cudaStream_t st) {
  // The first kernel follows a copy into x_work: it is launched plainly; every later one
  // follows a kernel of this loop and may start early (programmatic dependent launch).
  if (kernel == TrsvKernel::levr) {
    bool first = true;
    for (const trsv::LevelSegment& s : segments) {
      const bool pdl = programmatic && !first;
      if (s.run)
        trsv_kernels::launch_levr_run(tri, level_ptr_dev, s.begin, s.end, run_group, x_work, st, pdl);
      else
        trsv_kernels::launch_levr(tri, level_ptr[s.begin], level_ptr[s.end], group, x_work, st, pdl);
      first = false;
    }
    return;
  }
  const int32_t levels = static_cast<int32_t>(level_ptr.size()) - 1;
  for (int32_t l = 0; l < levels; ++l)
    trsv_kernels::launch_levc(tri, level_ptr[l], level_ptr[l + 1], group, x_work, st, programmatic && l > 0);
}

// One graph node per level (LEVR: per segment) on the fixed work vector x_work, captured
// once: a node with programmatic dependent launch costs a fraction of a plain launch
// (docs/performance.md, "Measurements behind the kernel rules").
template <class Scalar>
void BasicTriangularSolver<Scalar>::Impl::capture_graph() {
  graph.capture(stream, [this](cudaStream_t st) { enqueue_levels(st); });
}

// Everything computed from the CSR values: the CSC copy, and cuSPARSE's own copy (its
// analysis keeps one; cusparseSpSV_updateMatrix replaces it without a new analysis).
template <class Scalar>
void BasicTriangularSolver<Scalar>::Impl::refresh_derived_values(bool cusparse_copy) {
  if (csc_values) launch_gather(offdiag_nnz, csc_map, static_cast<const T*>(values), csc_values, stream);
  if (sv && cusparse_copy) GPUGLU_CUSPARSE_CHECK(cusparseSpSV_updateMatrix(sp, sv, values, CUSPARSE_SPSV_UPDATE_GENERAL));
}

// trsv::check_values' rules (which take the view's doubles) for Scalar values: a complex
// entry is NaN/Inf when either part is, a diagonal zero when both parts are.
template <class Scalar>
void BasicTriangularSolver<Scalar>::Impl::check_host_values(const Scalar* v, const char* where) const {
  for (int32_t i = 0; i < n; ++i) {
    for (int64_t k = host_rowptr[i]; k < host_rowptr[i + 1]; ++k)
      if (!is_finite(v[k]))
        throw Error(Status::nan_or_inf, std::string(where) + ": entry " + std::to_string(k) + " (row " +
                                            std::to_string(i) + ") is " + value_text(v[k]));
    if (diag == trsv::Diag::stored) {
      const int64_t d = fill == trsv::Fill::lower ? host_rowptr[i + 1] - 1 : host_rowptr[i];
      if (v[d] == 0.0)
        throw Error(Status::numerically_singular, std::string(where) + ": diagonal entry (" + std::to_string(i) +
                                                      ", " + std::to_string(i) + ") is zero");
    }
  }
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::Impl::solve_device(const T* b, T* x) {
  if (n == 0) return;
  const size_t bytes = static_cast<size_t>(n) * sizeof(T);
  switch (kernel) {
    case TrsvKernel::slfr: {
      const T* src = b;
      if (b == x) {
        GPUGLU_CUDA_CHECK(cudaMemcpyAsync(rhs_work, b, bytes, cudaMemcpyDeviceToDevice, stream));
        src = rhs_work;
      }
      GPUGLU_CUDA_CHECK(cudaMemsetAsync(x, 0xFF, bytes, stream));  // every unknown (each part) kPending
      GPUGLU_CUDA_CHECK(cudaMemsetAsync(ticket, 0, sizeof(uint32_t), stream));
      trsv_kernels::launch_slfr(tri, tasks, num_tasks, group, src, x, ticket, stream);
      break;
    }
    case TrsvKernel::slfc:
      if (b != x) GPUGLU_CUDA_CHECK(cudaMemcpyAsync(x, b, bytes, cudaMemcpyDeviceToDevice, stream));
      GPUGLU_CUDA_CHECK(cudaMemcpyAsync(counters, dep_count, static_cast<size_t>(n) * sizeof(int32_t),
                                        cudaMemcpyDeviceToDevice, stream));
      GPUGLU_CUDA_CHECK(cudaMemsetAsync(ticket, 0, sizeof(uint32_t), stream));
      trsv_kernels::launch_slfc(tri, tasks, num_tasks, group, x, counters, ticket, stream);
      break;
    case TrsvKernel::levr:
    case TrsvKernel::levc:
      GPUGLU_CUDA_CHECK(cudaMemcpyAsync(x_work, b, bytes, cudaMemcpyDeviceToDevice, stream));
      if (graph.captured())
        graph.launch(stream);
      else
        enqueue_levels(stream);
      GPUGLU_CUDA_CHECK(cudaMemcpyAsync(x, x_work, bytes, cudaMemcpyDeviceToDevice, stream));
      break;
    case TrsvKernel::cusparse: {
      GPUGLU_CUDA_CHECK(cudaMemcpyAsync(rhs_work, b, bytes, cudaMemcpyDeviceToDevice, stream));
      const Scalar one(1.0);
      GPUGLU_CUSPARSE_CHECK(cusparseSpSV_solve(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vec_b, vec_x,
                                               kCudaType, CUSPARSE_SPSV_ALG_DEFAULT, sv));
      GPUGLU_CUDA_CHECK(cudaMemcpyAsync(x, x_work, bytes, cudaMemcpyDeviceToDevice, stream));
      break;
    }
    case TrsvKernel::automatic:
      throw Error(Status::invalid_input, "TriangularSolver: unresolved kernel 'auto'");
  }
}

template <class Scalar>
BasicTriangularSolver<Scalar>::BasicTriangularSolver(const trsv::TriangleView& t, const trsv::TrsvAnalysis& a,
                                                     TrsvKernel kernel, int device_ordinal, const TrsvTuning& tuning,
                                                     const Scalar* values)
    : impl_(std::make_unique<Impl>()) {
  impl_->init(t, a, kernel, device_ordinal, tuning, values);
}

template <class Scalar>
BasicTriangularSolver<Scalar>::~BasicTriangularSolver() = default;

template <class Scalar>
void BasicTriangularSolver<Scalar>::update_values(const Scalar* values_host) {
  Impl& m = *impl_;
  m.check_host_values(values_host, "TriangularSolver::update_values");
  DeviceScope scope(m.device);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(m.values, values_host, static_cast<size_t>(m.nnz) * sizeof(Scalar),
                                    cudaMemcpyHostToDevice, m.stream));
  m.refresh_derived_values(true);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::update_values_device(const Scalar* values_dev) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  if (device_cast(values_dev) != m.values)
    GPUGLU_CUDA_CHECK(cudaMemcpyAsync(m.values, values_dev, static_cast<size_t>(m.nnz) * sizeof(Scalar),
                                      cudaMemcpyDeviceToDevice, m.stream));
  m.refresh_derived_values(true);
}

template <class Scalar>
Scalar* BasicTriangularSolver<Scalar>::device_values() {
  return reinterpret_cast<Scalar*>(impl_->values);
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::download_pattern(std::vector<int64_t>& rowptr,
                                                     std::vector<int32_t>& colind) const {
  const Impl& m = *impl_;
  DeviceScope scope(m.device);
  rowptr.resize(static_cast<size_t>(m.n) + 1);
  colind.resize(static_cast<size_t>(m.nnz));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));
  GPUGLU_CUDA_CHECK(cudaMemcpy(rowptr.data(), m.tri.rowptr, rowptr.size() * sizeof(int64_t), cudaMemcpyDeviceToHost));
  if (m.nnz > 0)
    GPUGLU_CUDA_CHECK(
        cudaMemcpy(colind.data(), m.tri.colind, colind.size() * sizeof(int32_t), cudaMemcpyDeviceToHost));
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::solve_device(const Scalar* b_dev, Scalar* x_dev) {
  DeviceScope scope(impl_->device);
  impl_->solve_device(device_cast(b_dev), device_cast(x_dev));
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::solve_many_device(int32_t nrhs, const Scalar* b_dev, int64_t ldb, Scalar* x_dev,
                                                      int64_t ldx) {
  if (nrhs < 0 || ldb < impl_->n || ldx < impl_->n)
    throw Error(Status::invalid_input, "TriangularSolver::solve_many: nrhs < 0 or a leading dimension below n");
  DeviceScope scope(impl_->device);
  for (int32_t r = 0; r < nrhs; ++r) impl_->solve_device(device_cast(b_dev + r * ldb), device_cast(x_dev + r * ldx));
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::solve(const Scalar* b_host, Scalar* x_host) {
  Impl& m = *impl_;
  if (m.n == 0) return;
  DeviceScope scope(m.device);
  const size_t bytes = static_cast<size_t>(m.n) * sizeof(Scalar);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(m.io_work, b_host, bytes, cudaMemcpyHostToDevice, m.stream));
  m.solve_device(m.io_work, m.io_work);
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(x_host, m.io_work, bytes, cudaMemcpyDeviceToHost, m.stream));
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::solve_many(int32_t nrhs, const Scalar* b_host, int64_t ldb, Scalar* x_host,
                                               int64_t ldx) {
  if (nrhs < 0 || ldb < impl_->n || ldx < impl_->n)
    throw Error(Status::invalid_input, "TriangularSolver::solve_many: nrhs < 0 or a leading dimension below n");
  for (int32_t r = 0; r < nrhs; ++r) solve(b_host + r * ldb, x_host + r * ldx);
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::synchronize() {
  DeviceScope scope(impl_->device);
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(impl_->stream));
}

template <class Scalar>
void* BasicTriangularSolver<Scalar>::stream() const {
  return impl_->stream;
}

template <class Scalar>
void BasicTriangularSolver<Scalar>::use_stream(void* stream) {
  Impl& m = *impl_;
  DeviceScope scope(m.device);
  cudaStream_t next = stream ? static_cast<cudaStream_t>(stream) : m.own_stream;
  if (next == m.stream) return;
  GPUGLU_CUDA_CHECK(cudaStreamSynchronize(m.stream));  // nothing of ours still runs on the old one
  m.stream = next;
  if (m.sp) GPUGLU_CUSPARSE_CHECK(cusparseSetStream(m.sp, m.stream));
}
template <class Scalar>
TrsvKernel BasicTriangularSolver<Scalar>::kernel() const {
  return impl_->kernel;
}
template <class Scalar>
int32_t BasicTriangularSolver<Scalar>::group_size() const {
  return impl_->group;
}
template <class Scalar>
bool BasicTriangularSolver<Scalar>::uses_graph() const {
  return impl_->graph.captured();
}
template <class Scalar>
int64_t BasicTriangularSolver<Scalar>::device_bytes() const {
  return impl_->mem.bytes();
}

template class BasicTriangularSolver<double>;
template class BasicTriangularSolver<std::complex<double>>;

}  // namespace gpuglu::cuda
