// LuSolves (lu_solves.hpp): the solvers, their gathers from F, and the permute-and-scale
// solve on the device (solve_kernels.cu).
#include "cuda/trsv/lu_solves.hpp"

#include <string>

#include "cuda/common/cuda_check.hpp"
#include "cuda/common/gather_kernels.cuh"
#include "cuda/common/factor_kernels.cuh"
#include "analysis/factor_triangles.hpp"
#include "analysis/transpose.hpp"

namespace gpuglu::cuda {

template <class Scalar>
BasicLuSolves<Scalar>::BasicLuSolves(const Schedule& s, const Options& o, int device, DeviceMemory& mem,
                                     cudaStream_t stream, const T* f)
    : device_(device),
      n_(s.n),
      nnz_l_(s.nnz_l),
      nnz_u_(s.nnz_u),
      mem_(mem),
      stream_(stream),
      f_(f),
      choices_(SolverChoices::from(o)) {
  row_perm_ = mem.upload(s.row_perm, "the row permutation");
  col_perm_ = mem.upload(s.col_perm, "the column permutation");
  row_scale_ = mem.upload(s.row_scale, "the row scaling");
  col_scale_ = mem.upload(s.col_scale, "the column scaling");
  // As T: 16-byte aligned for a complex kernel's vector loads.
  w1_ = reinterpret_cast<Scalar*>(mem.allocate<T>(static_cast<size_t>(n_), "the solve's work vector"));
  w2_ = reinterpret_cast<Scalar*>(mem.allocate<T>(static_cast<size_t>(n_), "the solve's second work vector"));
  if (n_ == 0) return;
  const trsv::FactorTriangles t = trsv::factor_triangles(s);
  if (nnz_l_ > 0) l_solve_ = make_solver(t.l, &l_pos_, t.l_pos, "L's positions in F");
  u_solve_ = make_solver(t.u, &u_pos_, t.u_pos, "U's positions in F");
}

template <class Scalar>
BasicLuSolves<Scalar>::~BasicLuSolves() {
  l_solve_.reset();
  u_solve_.reset();
  lt_solve_.reset();
  ut_solve_.reset();
}

// A solver for triangle t (pattern only: its values come from F after each factorization,
// through pos) on the engine's stream. The level analysis runs here, once per pattern.
template <class Scalar>
auto BasicLuSolves<Scalar>::make_solver(const trsv::Triangle& t, int64_t** pos_dev, const std::vector<int64_t>& pos,
                                        const char* what) -> std::unique_ptr<Solver> {
  auto solver = make_pattern_solver<Scalar>(t.view(), choices_, device_, stream_);
  *pos_dev = mem_.upload(pos, what);
  return solver;
}

// F's values into a solver (one gather, no host round trip), then whatever the solver
// derives from them.
template <class Scalar>
void BasicLuSolves<Scalar>::gather_into(Solver& solver, const int64_t* pos, int64_t count) {
  launch_gather(count, pos, f_, device_cast(solver.device_values()), stream_);
  solver.update_values_device(solver.device_values());
}

template <class Scalar>
void BasicLuSolves<Scalar>::gather() {
  if (l_solve_) gather_into(*l_solve_, l_pos_, nnz_l_);
  gather_into(*u_solve_, u_pos_, nnz_u_);
  if (lt_solve_) gather_into(*lt_solve_, lt_pos_, nnz_l_);
  if (ut_solve_) gather_into(*ut_solve_, ut_pos_, nnz_u_);
}

// U^T (lower, diagonal stored) and L^T (unit upper) from the forward solvers' patterns.
// Their positions in F compose the transpose's source map with the forward positions.
template <class Scalar>
void BasicLuSolves<Scalar>::init_transposed() {
  auto build = [&](const Solver& fwd, trsv::Fill fill, trsv::Diag diag, const int64_t* fwd_pos_dev,
                   int64_t count, int64_t** pos_dev, const char* what) {
    trsv::Triangle t;
    t.n = n_;
    t.fill = fill;
    t.diag = diag;
    fwd.download_pattern(t.rowptr, t.colind);
    std::vector<int64_t> fwd_pos(static_cast<size_t>(count));
    if (count > 0)
      GPUGLU_CUDA_CHECK(cudaMemcpy(fwd_pos.data(), fwd_pos_dev, fwd_pos.size() * sizeof(int64_t),
                                   cudaMemcpyDeviceToHost));
    trsv::TransposedTriangle tt = trsv::transpose(t.view());
    for (int64_t& src : tt.source) src = fwd_pos[static_cast<size_t>(src)];
    std::unique_ptr<Solver> solver = make_solver(tt.t, pos_dev, tt.source, what);
    gather_into(*solver, *pos_dev, count);  // the factor of the last factor()
    return solver;
  };
  ut_solve_ = build(*u_solve_, trsv::Fill::upper, trsv::Diag::stored, u_pos_, nnz_u_, &ut_pos_, "U^T's positions in F");
  if (l_solve_)
    lt_solve_ =
        build(*l_solve_, trsv::Fill::lower, trsv::Diag::unit, l_pos_, nnz_l_, &lt_pos_, "L^T's positions in F");
}

template <class Scalar>
void BasicLuSolves<Scalar>::solve_device(const Scalar* in, Scalar* out, bool transpose) {
  const size_t bytes = static_cast<size_t>(n_) * sizeof(Scalar);
  // A x = b: L (w1 -> w2), U (w2 -> w1). A^T x = b: U^T (w1 -> w2), L^T (w2 -> w1).
  if (transpose && !ut_solve_) init_transposed();  // solves run only after a successful factorization
  Solver* first = transpose ? ut_solve_.get() : l_solve_.get();
  Solver* second = transpose ? lt_solve_.get() : u_solve_.get();
  kernels::launch_gather_scaled(n_, transpose ? col_perm_ : row_perm_, transpose ? col_scale_ : row_scale_,
                                device_cast(in), device_cast(w1_), stream_);
  if (transpose) {
    first->solve_device(w1_, w2_);
    if (second)
      second->solve_device(w2_, w1_);
    else
      GPUGLU_CUDA_CHECK(cudaMemcpyAsync(w1_, w2_, bytes, cudaMemcpyDeviceToDevice, stream_));
  } else {
    if (first)
      first->solve_device(w1_, w2_);
    else
      GPUGLU_CUDA_CHECK(cudaMemcpyAsync(w2_, w1_, bytes, cudaMemcpyDeviceToDevice, stream_));
    second->solve_device(w2_, w1_);
  }
  kernels::launch_scatter_scaled(n_, transpose ? row_perm_ : col_perm_, transpose ? row_scale_ : col_scale_,
                                 device_cast(static_cast<const Scalar*>(w1_)), device_cast(out), stream_);
}

template <class Scalar>
int64_t BasicLuSolves<Scalar>::device_bytes() const {
  int64_t bytes = 0;
  for (const auto* t : {&l_solve_, &u_solve_, &lt_solve_, &ut_solve_})
    if (*t) bytes += (*t)->device_bytes();
  return bytes;
}

template <class Scalar>
TrsvKernel BasicLuSolves<Scalar>::kernel() const {
  return u_solve_ ? u_solve_->kernel() : choices_.kernel;
}

template class BasicLuSolves<double>;
template class BasicLuSolves<std::complex<double>>;

}  // namespace gpuglu::cuda
