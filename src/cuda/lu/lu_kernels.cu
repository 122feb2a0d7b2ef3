// The column LU's update rule (GLU3.0 Sec. III-B with the schedule's target-grouped update
// lists), run by the level loop's shared update kernels (column/update_kernels.cuh).
//
// Arithmetic matches reference::factor_levels operation for operation: explicit __dmul_rn /
// __dsub_rn keep nvcc from contracting a * b - c into a fused multiply-add, so F comes out as
// the CPU right-looking executor computes it.
//
// Locating F(i, k): the rows of column k below U(j, k) (positions pos + 1 .. colptr[k + 1])
// are sorted, so each thread binary-searches its row in a window bounded by the row's rank
// in L(:, j). No n-sized dense scratch per column in flight (GLU3.0 Eq. 8 limits parallel
// columns by exactly that scratch).
#include "cuda/column/update_kernels.cuh"
#include "cuda/common/level_device.cuh"
#include "cuda/lu/lu_kernels.cuh"

namespace gpuglu::cuda::kernels {

namespace {

// One source of a target: U(j, k)'s position in column k and the rows of L(:, j) (from
// the schedule), and U(j, k)'s value. U(j, k) is final when the level starts (j's own
// updates came from earlier levels, and no column of this level updates row j of
// another), so it can be read ahead of the updates.
template <class T>
struct LuSource {
  int64_t pos;
  int64_t lbegin;
  int64_t lend;
  T u;
};

template <class T>
__device__ __forceinline__ LuSource<T> source_pattern(const BasicLevelArgs<T>& a, int64_t e) {
  LuSource<T> s;
  s.pos = a.src[e];
  const int32_t j = a.rowind[s.pos];
  s.lbegin = a.diag[j] + 1;
  s.lend = a.colptr[j + 1];
  s.u = T{};
  return s;
}

// The LU's update rule (update_kernels.cuh): target t is column k = target_col[t], its rows
// below U(j, k) take F(i, k) -= L(i, j) * U(j, k) from each source j, over the rows of L(:, j).
template <class T>
struct LuUpdate {
  using Scalar = T;
  using Source = LuSource<T>;
  struct Target {
    int64_t qend;  // the end of column k
  };
  static __device__ __forceinline__ Target target(const BasicLevelArgs<T>& a, int64_t t) {
    return {a.colptr[a.target_col[t] + 1]};
  }
  static __device__ __forceinline__ Source pattern(const BasicLevelArgs<T>& a, int64_t e) {
    return source_pattern(a, e);
  }
  template <bool Coherent>
  static __device__ __forceinline__ T multiplier(const BasicLevelArgs<T>& a, const Source& s) {
    return load_f<Coherent>(a.f + s.pos);
  }
  static __device__ __forceinline__ Source broadcast(const Source& mine, int r) {
    Source s;
    s.pos = __shfl_sync(kFullMask, mine.pos, r);
    s.lbegin = __shfl_sync(kFullMask, mine.lbegin, r);
    s.lend = __shfl_sync(kFullMask, mine.lend, r);
    s.u = shfl(kFullMask, mine.u, r);
    return s;
  }
  // Column k holds every row of L(:, j) below U(j, k) (the fill pattern guarantees it), from
  // U(j, k)'s position on.
  template <bool Coherent>
  static __device__ __forceinline__ bool apply(const BasicLevelArgs<T>& a, const Source& s, const Target& target,
                                               int tid, int nthreads) {
    return apply_column_update<Coherent>(a, s.lbegin, s.lend, s.pos + 1, target.qend, s.u, tid, nthreads);
  }
};
}  // namespace

template <class T>
const BasicUpdateKernels<T>& lu_update_kernels() {
  return UpdateLaunchers<LuUpdate<T>>::table();
}

template const BasicUpdateKernels<double>& lu_update_kernels<double>();
template const BasicUpdateKernels<DComplex>& lu_update_kernels<DComplex>();

}  // namespace gpuglu::cuda::kernels
