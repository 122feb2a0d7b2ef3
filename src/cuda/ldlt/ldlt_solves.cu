// LdltSolves (ldlt_solves.hpp): the two solvers, their gathers from F, and the solve.
#include "cuda/ldlt/ldlt_solves.hpp"

#include <vector>

#include "cuda/common/cuda_check.hpp"
#include "cuda/common/gather_kernels.cuh"
#include "cuda/ldlt/ldlt_kernels.cuh"
#include "cuda/common/factor_kernels.cuh"
#include "gpuglu/status.hpp"
#include "analysis/factor_triangles.hpp"
#include "analysis/transpose.hpp"

namespace gpuglu::cuda {

namespace {

// F's values into a solver (one gather, no host round trip; conjugated for L^H), then
// whatever the solver derives from them.
template <class Scalar>
void gather_into(BasicTriangularSolver<Scalar>& solver, const int64_t* pos, int64_t count,
                 const device_scalar_t<Scalar>* f, cudaStream_t stream, bool conjugate) {
  launch_gather(count, pos, f, device_cast(solver.device_values()), stream, conjugate);
  solver.update_values_device(solver.device_values());
}

}  // namespace

template <class Scalar>
BasicLdltSolves<Scalar>::BasicLdltSolves(const Schedule& s, const Options& o, int device, DeviceMemory& mem,
                                         cudaStream_t stream, const T* f, const int64_t* diag, bool hermitian)
    : n_(s.n),
      nnz_l_(s.nnz_l),
      stream_(stream),
      f_(f),
      diag_(diag),
      hermitian_(hermitian),
      choices_(SolverChoices::from(o)) {
  if (!s.symmetric()) throw Error(Status::invalid_input, "LdltSolves: the schedule is not symmetric");
  // C = S P A P^T S: one permutation and one scaling (row_perm == col_perm, row_scale == col_scale).
  perm_ = mem.upload(s.row_perm, "the symmetric permutation");
  scale_ = mem.upload(s.row_scale, "the symmetric scaling");
  w1_ = reinterpret_cast<Scalar*>(mem.allocate<T>(static_cast<size_t>(n_), "the solve's work vector"));
  w2_ = reinterpret_cast<Scalar*>(mem.allocate<T>(static_cast<size_t>(n_), "the solve's second work vector"));
  if (n_ == 0 || nnz_l_ == 0) return;  // D alone
  const trsv::FactorTriangles t = trsv::factor_triangles(s);
  l_solve_ = make_pattern_solver<Scalar>(t.l.view(), choices_, device, stream_);
  l_pos_ = mem.upload(t.l_pos, "L's positions in F");
  // L^T's entry e is L's entry source[e], which sits at l_pos[source[e]] in F.
  trsv::TransposedTriangle lt = trsv::transpose(t.l.view());
  for (int64_t& src : lt.source) src = t.l_pos[static_cast<size_t>(src)];
  lt_solve_ = make_pattern_solver<Scalar>(lt.t.view(), choices_, device, stream_);
  lt_pos_ = mem.upload(lt.source, "L^T's positions in F");
}

template <class Scalar>
BasicLdltSolves<Scalar>::~BasicLdltSolves() {
  l_solve_.reset();
  lt_solve_.reset();
}

template <class Scalar>
void BasicLdltSolves<Scalar>::gather() {
  if (!l_solve_) return;
  gather_into(*l_solve_, l_pos_, nnz_l_, f_, stream_, false);
  gather_into(*lt_solve_, lt_pos_, nnz_l_, f_, stream_, hermitian_);
}

template <class Scalar>
void BasicLdltSolves<Scalar>::solve_device(const Scalar* in, Scalar* out, bool /*transpose*/) {
  const T* w1 = device_cast(static_cast<const Scalar*>(w1_));
  const T* w2 = device_cast(static_cast<const Scalar*>(w2_));
  kernels::launch_gather_scaled(n_, perm_, scale_, device_cast(in), device_cast(w1_), stream_);
  if (l_solve_) {
    l_solve_->solve_device(w1_, w2_);
    kernels::launch_divide_by_diagonal(n_, diag_, f_, w2, device_cast(w1_), stream_);
    lt_solve_->solve_device(w1_, w2_);
  } else {
    kernels::launch_divide_by_diagonal(n_, diag_, f_, w1, device_cast(w2_), stream_);
  }
  kernels::launch_scatter_scaled(n_, perm_, scale_, w2, device_cast(out), stream_);
}

template <class Scalar>
int64_t BasicLdltSolves<Scalar>::device_bytes() const {
  int64_t bytes = 0;
  for (const auto* t : {&l_solve_, &lt_solve_})
    if (*t) bytes += (*t)->device_bytes();
  return bytes;
}

template <class Scalar>
TrsvKernel BasicLdltSolves<Scalar>::kernel() const {
  return l_solve_ ? l_solve_->kernel() : choices_.kernel;
}

template class BasicLdltSolves<double>;
template class BasicLdltSolves<std::complex<double>>;

}  // namespace gpuglu::cuda
