// Phase 2 of the LDL^T on the GPU (Chen & Wang, Algorithm 4, lines 6-11): per target
// column j of a level, its sources k (the level's columns with L(j, k) != 0) in ascending
// order, each
//   u = L(j, k) * d_k,   F(i, j) -= L(i, k) * u   over the rows i >= j of L(:, k)
// (i = j updates d_j), exactly as reference::factor_ldlt_levels computes them:
// explicit __dmul_rn / __dsub_rn (device_scalar.cuh's mul / sub) keep nvcc from fusing the
// two into an FMA, and the sources of a target apply one after the other, so a real F is the
// CPU's bit for bit. Complex: u = conj(L(j, k)) d_k under LDL^H.
//
// Where the paper has every column of a level update its subcolumns at once through
// atomics and two dense n-sized temporaries per column (its pseudo-codes 3-5), the
// schedule's update lists are grouped by target: one warp or block owns a target column,
// no atomics, and no n-sized scratch. Row i of L(:, k) is located in column j's own
// storage: the rows of L(:, k) from j on are a subset of column j's rows (the elimination
// tree's fill property), both ascending, so where the two counts agree - the dense
// trailing blocks of the late levels - F(i, j) sits at the same offset as L(i, k), and
// otherwise a binary search in the window the row's rank leaves finds it.
//
// Programmatic dependent launch: the schedule (never written during a factorization) is
// read before wait_for_previous_kernel(), F and the state only after it.
#include "cuda/common/cuda_check.hpp"
#include "cuda/common/programmatic_launch.cuh"
#include "cuda/ldlt/ldlt_kernels.cuh"
#include "cuda/common/level_device.cuh"
#include "cuda/column/update_kernels.cuh"

namespace gpuglu::cuda::kernels {

namespace {

// One source k of a target j: L(j, k)'s position (the first of the rows i >= j of L(:, k)),
// how many rows of L(:, k) that is (a column has at most n rows: 32 bits, which keeps the
// warp kernel's registers in bounds), d_k's position, and u = L(j, k) * d_k. Both factors
// are final once the level's pivots are done, and no target of the level writes column k (a
// target is an ancestor of k in the elimination tree, so in a later level): u can be read
// ahead of the updates.
template <class T>
struct SymSource {
  int64_t pos;
  int64_t dk;
  int32_t rows;
  T u;
};

template <class T>
__device__ __forceinline__ SymSource<T> sym_source_pattern(const BasicLevelArgs<T>& a, int64_t e) {
  SymSource<T> s;
  s.pos = a.src[e];
  const int32_t k = a.src_col[e];
  s.rows = static_cast<int32_t>(a.colptr[k + 1] - s.pos);
  s.dk = a.diag[k];
  s.u = T{};
  return s;
}

// The reference's u = f[pos] * f[diag[k]] (conj(f[pos]) under LDL^H), operands in its order.
template <bool Coherent, class T>
__device__ __forceinline__ T source_multiplier(const BasicLevelArgs<T>& a, const SymSource<T>& s) {
  return mul(conj_if(a.hermitian, load_f<Coherent>(a.f + s.pos)), load_f<Coherent>(a.f + s.dk));
}

// The LDL^T's update rule (column/update_kernels.cuh): target t is column j = target_col[t], its
// rows i >= j (from its diagonal on) take F(i, j) -= L(i, k) * u from each source k, over the
// rows i >= j of L(:, k) (positions pos .. pos + rows).
template <class T>
struct LdltUpdate {
  using Scalar = T;
  using Source = SymSource<T>;
  struct Target {
    int64_t jbegin;  // column j's diagonal
    int64_t jend;    // the end of column j
  };
  static __device__ __forceinline__ Target target(const BasicLevelArgs<T>& a, int64_t t) {
    const int32_t j = a.target_col[t];
    return {a.diag[j], a.colptr[j + 1]};
  }
  static __device__ __forceinline__ Source pattern(const BasicLevelArgs<T>& a, int64_t e) {
    return sym_source_pattern(a, e);
  }
  template <bool Coherent>
  static __device__ __forceinline__ T multiplier(const BasicLevelArgs<T>& a, const Source& s) {
    return source_multiplier<Coherent>(a, s);
  }
  static __device__ __forceinline__ Source broadcast(const Source& mine, int r) {
    Source s;
    s.pos = __shfl_sync(kFullMask, mine.pos, r);
    s.rows = __shfl_sync(kFullMask, mine.rows, r);
    s.dk = 0;  // only u, which carries d_k, is needed from here on
    s.u = shfl(kFullMask, mine.u, r);
    return s;
  }
  template <bool Coherent>
  static __device__ __forceinline__ bool apply(const BasicLevelArgs<T>& a, const Source& s, const Target& target,
                                               int tid, int nthreads) {
    return apply_column_update<Coherent>(a, s.pos, s.pos + s.rows, target.jbegin, target.jend, s.u, tid, nthreads);
  }
};

}  // namespace

template <class T>
const BasicUpdateKernels<T>& ldlt_update_kernels() {
  return UpdateLaunchers<LdltUpdate<T>>::table();
}

template const BasicUpdateKernels<double>& ldlt_update_kernels<double>();
template const BasicUpdateKernels<DComplex>& ldlt_update_kernels<DComplex>();

}  // namespace gpuglu::cuda::kernels
