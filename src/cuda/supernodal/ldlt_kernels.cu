// The supernodal LDL^T's kernels (ldlt_kernels.cuh): cpu/supernodal_ldlt.cpp's algorithm, a
// thread block per supernode (or per pivot block), every thread taking the same pivot
// decisions from values reduced over the block.
#include "cuda/supernodal/ldlt_kernels.cuh"

#include <cfloat>
#include <climits>

#include "core/bunch_kaufman.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/supernodal/panel_device.cuh"

namespace gpuglu::cuda::kernels {
namespace {

constexpr int kNodeThreads = 128;   // the whole-supernode kernel
constexpr int kBlockThreads = 512;  // the blocked path's pivot block
constexpr int kSolveThreads = 128;

struct LPanel {
  double* l;
  int64_t nr;
  int32_t ns;
  int32_t first;
  __device__ double& operator()(int64_t i, int64_t j) const { return l[i + j * nr]; }
};

__device__ __forceinline__ LPanel lpanel_of(const SupernodeArgs& a, int32_t s) {
  LPanel p;
  p.first = a.first[s];
  p.ns = a.first[s + 1] - p.first;
  p.nr = a.rows_ptr[s + 1] - a.rows_ptr[s];
  p.l = a.panels + a.l_ptr[s];
  return p;
}

// The largest value over the block and the smallest index holding it (index INT_MAX when
// every value is 0), to every thread.
__device__ void block_argmax(double& v, int& idx) {
  __shared__ double pv[32];
  __shared__ int pi[32];
  for (int off = 16; off > 0; off >>= 1) {
    const double w = __shfl_xor_sync(kFullMask, v, off);
    const int j = __shfl_xor_sync(kFullMask, idx, off);
    if (w > v || (w == v && j < idx)) v = w, idx = j;
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) pv[warp] = v, pi[warp] = idx;
  __syncthreads();
  if (warp == 0) {
    const int nwarps = (blockDim.x + 31) >> 5;
    v = lane < nwarps ? pv[lane] : 0.0;
    idx = lane < nwarps ? pi[lane] : INT_MAX;
    for (int off = 16; off > 0; off >>= 1) {
      const double w = __shfl_xor_sync(kFullMask, v, off);
      const int j = __shfl_xor_sync(kFullMask, idx, off);
      if (w > v || (w == v && j < idx)) v = w, idx = j;
    }
    if (lane == 0) pv[0] = v, pi[0] = idx;
  }
  __syncthreads();
  v = pv[0];
  idx = pi[0];
  __syncthreads();
}

// max |a(i, k)| over rows from .. nr - 1, to every thread; +Inf when one is NaN or Inf.
__device__ double column_max(const LPanel& p, int32_t k, int64_t from) {
  double m = 0.0;
  bool bad = false;
  for (int64_t i = from + threadIdx.x; i < p.nr; i += blockDim.x) {
    const double v = fabs(p(i, k));
    m = v > m ? v : m;
    bad |= !(v <= DBL_MAX);
  }
  return block_max(bad ? __longlong_as_double(0x7ff0000000000000LL) : m);
}

__device__ void swap_symmetric(const LPanel& p, int32_t i, int32_t j, int32_t* perm) {
  __syncthreads();  // every thread has read the diagonal entries its pivot choice compared
  if (threadIdx.x == 0) {
    const double t = p(i, i);
    p(i, i) = p(j, j);
    p(j, j) = t;
    const int32_t q = perm[i];
    perm[i] = perm[j];
    perm[j] = q;
  }
  for (int32_t m = threadIdx.x; m < i; m += blockDim.x) {
    const double t = p(i, m);
    p(i, m) = p(j, m);
    p(j, m) = t;
  }
  for (int32_t m = i + 1 + threadIdx.x; m < j; m += blockDim.x) {
    const double t = p(m, i);
    p(m, i) = p(j, m);
    p(j, m) = t;
  }
  for (int64_t m = j + 1 + threadIdx.x; m < p.nr; m += blockDim.x) {
    const double t = p(m, i);
    p(m, i) = p(m, j);
    p(m, j) = t;
  }
  __syncthreads();
}

// The block's pivot steps (cpu/supernodal_ldlt.cpp's factor_block). False when a pivot
// failed (piv.failed holds its column).
__device__ bool factor_pivot_block(const LPanel& p, int32_t j0, int32_t j1, int32_t* perm, int8_t* kind,
                                   PanelPivots& piv) {
  __shared__ double w[2 * kLdltPivotBlock];
  const bool stats = threadIdx.x == 0;
  int32_t k = j0;
  while (k < j1) {
    double omega1 = 0.0;
    int r = INT_MAX;
    for (int32_t i = k + 1 + threadIdx.x; i < j1; i += blockDim.x) {
      const double v = fabs(p(i, k));
      if (v > omega1) omega1 = v, r = i;
    }
    block_argmax(omega1, r);
    PivotChoice choice = PivotChoice::one_at_k;
    if (omega1 > 0.0) {
      double m = 0.0;
      for (int32_t c = k + threadIdx.x; c < r; c += blockDim.x) m = fmax(m, fabs(p(r, c)));
      for (int64_t i = r + 1 + threadIdx.x; i < p.nr; i += blockDim.x) m = fmax(m, fabs(p(i, r)));
      const double omega_r = block_max(m);
      choice = bunch_kaufman_choice(fabs(p(k, k)), omega1, fabs(p(r, r)), omega_r);
    }
    if (choice == PivotChoice::one_at_r) swap_symmetric(p, k, r, perm);
    bool two = false;
    if (choice == PivotChoice::two_with_r) {
      if (r != k + 1) swap_symmetric(p, k + 1, r, perm);
      const double c0 = column_max(p, k, k), c1 = column_max(p, k + 1, k + 1);
      const double colmax = c0 > c1 ? c0 : c1;
      const double d1 = p(k, k), e = p(k + 1, k), d2 = p(k + 1, k + 1);
      const double det = d1 * d2 - e * e;
      two = colmax <= DBL_MAX && two_by_two_usable(det, e, colmax, piv.threshold, piv.zero_pivot);
      if (two) {
        if (stats) {
          const double ratio = colmax > 0.0 ? fabs(det) / fabs(e) / colmax : 0.0;
          piv.min_ratio = ratio < piv.min_ratio ? ratio : piv.min_ratio;
          piv.max_active = colmax > piv.max_active ? colmax : piv.max_active;
          kind[k] = kPivotFirstOfTwo;
          kind[k + 1] = kPivotSecondOfTwo;
        }
        for (int32_t c = k + 2 + threadIdx.x; c < j1; c += blockDim.x) {
          w[2 * (c - k - 2)] = p(c, k);
          w[2 * (c - k - 2) + 1] = p(c, k + 1);
        }
        __syncthreads();
        for (int64_t i = k + 2 + threadIdx.x; i < p.nr; i += blockDim.x) {
          const double v1 = p(i, k), v2 = p(i, k + 1);
          p(i, k) = (v1 * d2 - v2 * e) / det;
          p(i, k + 1) = (v2 * d1 - v1 * e) / det;
        }
        __syncthreads();
        for (int32_t c = k + 2; c < j1; ++c) {
          const double w1 = w[2 * (c - k - 2)], w2 = w[2 * (c - k - 2) + 1];
          for (int64_t i = c + threadIdx.x; i < p.nr; i += blockDim.x) p(i, c) -= p(i, k) * w1 + p(i, k + 1) * w2;
        }
        __syncthreads();
        k += 2;
        continue;
      }
    }
    const double colmax = column_max(p, k, k);
    double d = 0.0;
    const double pivot0 = p(k, k);
    if (!piv.decide(pivot0, colmax, colmax <= DBL_MAX, p.first + k, d, stats)) return false;
    for (int32_t c = k + 1 + threadIdx.x; c < j1; c += blockDim.x) w[c - k - 1] = p(c, k);
    __syncthreads();  // every thread has read a(k, k) and the block's row entries
    if (threadIdx.x == 0) {
      p(k, k) = d;
      kind[k] = kPivotOne;
    }
    for (int64_t i = k + 1 + threadIdx.x; i < p.nr; i += blockDim.x) p(i, k) /= d;
    __syncthreads();
    for (int32_t c = k + 1; c < j1; ++c) {
      const double v = w[c - k - 1];
      if (v != 0.0)
        for (int64_t i = c + threadIdx.x; i < p.nr; i += blockDim.x) p(i, c) -= p(i, k) * v;
    }
    __syncthreads();
    ++k;
  }
  return true;
}

// (L(row, j0 .. j1) D_blk)(k - j0), by one thread (k: a column of the factored block).
__device__ __forceinline__ double times_d(const LPanel& p, const int8_t* kind, int64_t row, int32_t k) {
  const int8_t kk = kind[k];
  if (kk == kPivotFirstOfTwo) return p(row, k) * p(k, k) + p(row, k + 1) * p(k + 1, k);
  if (kk == kPivotSecondOfTwo) return p(row, k - 1) * p(k, k - 1) + p(row, k) * p(k, k);
  return p(row, k) * p(k, k);
}

// Columns j1 .. ns - 1 lose L(:, blk) D_blk L(c, blk)^T (their lower part).
__device__ void update_later_columns(const LPanel& p, const int8_t* kind, int32_t j0, int32_t j1) {
  __shared__ double w[kLdltPivotBlock];
  for (int32_t c = j1; c < p.ns; ++c) {
    for (int32_t k = j0 + threadIdx.x; k < j1; k += blockDim.x) w[k - j0] = times_d(p, kind, c, k);
    __syncthreads();
    for (int64_t i = c + threadIdx.x; i < p.nr; i += blockDim.x) {
      double sum = 0.0;
      for (int32_t k = j0; k < j1; ++k) sum += p(i, k) * w[k - j0];
      p(i, c) -= sum;
    }
    __syncthreads();
  }
}

__global__ void __launch_bounds__(256) reset_pivots_kernel(LdltArgs a, int32_t n) {
  for (int64_t j = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    a.perm[j] = static_cast<int32_t>(j) - a.sn.first[a.sn.of_col[j]];
    a.kind[j] = kPivotOne;
  }
}

__global__ void __launch_bounds__(kNodeThreads) ldlt_nodes_kernel(LdltArgs a, const int32_t* nodes) {
  if (input_was_bad(a.sn.state)) return;
  const int32_t s = nodes[blockIdx.x];
  const LPanel p = lpanel_of(a.sn, s);
  PanelPivots piv(a.sn.state);
  int32_t* perm = a.perm + p.first;
  int8_t* kind = a.kind + p.first;
  for (int32_t j0 = 0; j0 < p.ns; j0 += kLdltPivotBlock) {
    const int32_t j1 = j0 + kLdltPivotBlock < p.ns ? j0 + kLdltPivotBlock : p.ns;
    if (!factor_pivot_block(p, j0, j1, perm, kind, piv)) break;
    __syncthreads();
    update_later_columns(p, kind, j0, j1);
  }
  if (threadIdx.x == 0) piv.publish(a.sn, s);
}

__global__ void __launch_bounds__(kBlockThreads) ldlt_block_kernel(LdltArgs a, int32_t s, int32_t j0, int32_t j1) {
  if (input_was_bad(a.sn.state)) return;
  if (*reinterpret_cast<volatile uint8_t*>(a.sn.failed + s)) return;
  const LPanel p = lpanel_of(a.sn, s);
  PanelPivots piv(a.sn.state);
  factor_pivot_block(p, j0, j1, a.perm + p.first, a.kind + p.first, piv);
  if (threadIdx.x == 0) piv.publish(a.sn, s);
}

__global__ void __launch_bounds__(256) times_d_kernel(LdltArgs a, int32_t s, int64_t row0, int64_t rows, int32_t j0,
                                                      int32_t j1, double* w, int64_t ldw) {
  const LPanel p = lpanel_of(a.sn, s);
  const int8_t* kind = a.kind + p.first;
  const int64_t total = rows * (j1 - j0);
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t i = e % rows;
    const int32_t k = j0 + static_cast<int32_t>(e / rows);
    w[i + (k - j0) * ldw] = times_d(p, kind, row0 + i, k);
  }
}

// Position of row r in supernode t's rows, searched from t's local column lo on.
__device__ __forceinline__ int64_t row_in(const SupernodeArgs& a, int32_t t, int64_t lo, int32_t r) {
  const int32_t* rows = a.rows + a.rows_ptr[t];
  int64_t hi = a.rows_ptr[t + 1] - a.rows_ptr[t] - 1;
  while (lo < hi) {
    const int64_t mid = (lo + hi) >> 1;
    if (rows[mid] < r)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (rows[lo] != r) atomicExch(&a.state->missing_fill, 1);
  return lo;
}

// target(r_a, r_b) -= value (a >= b, below rows of s).
__device__ __forceinline__ void subtract_at(const SupernodeArgs& a, int32_t ra, int32_t rb, double value) {
  const int32_t t = a.of_col[rb];
  const int64_t cb = rb - a.first[t];
  const int64_t nrt = a.rows_ptr[t + 1] - a.rows_ptr[t];
  const int64_t pos = row_in(a, t, cb, ra);
  atomicAdd(a.panels + a.l_ptr[t] + cb * nrt + pos, -value);
}

__global__ void __launch_bounds__(128) ldlt_schur_direct_kernel(LdltArgs a, const int32_t* nodes) {
  const int32_t s = nodes[blockIdx.x];
  if (a.sn.failed[s] || input_was_bad(a.sn.state)) return;
  const LPanel p = lpanel_of(a.sn, s);
  const int64_t nb = p.nr - p.ns;
  const int32_t* below = a.sn.rows + a.sn.rows_ptr[s] + p.ns;
  const int8_t* kind = a.kind + p.first;
  for (int64_t e = threadIdx.x; e < nb * nb; e += blockDim.x) {
    const int64_t ia = e % nb, ib = e / nb;
    if (ia < ib) continue;
    double sum = 0.0;
    for (int32_t k = 0; k < p.ns; ++k) sum += p(p.ns + ia, k) * times_d(p, kind, p.ns + ib, k);
    subtract_at(a.sn, below[ia], below[ib], sum);
  }
}

__global__ void __launch_bounds__(256) ldlt_schur_scatter_kernel(LdltArgs a, int32_t s, const double* c, int64_t ldc,
                                                                 int64_t c0, int64_t cols) {
  const LPanel p = lpanel_of(a.sn, s);
  const int64_t nb = p.nr - p.ns;
  const int32_t* below = a.sn.rows + a.sn.rows_ptr[s] + p.ns;
  const int64_t rows = nb - c0;
  const int64_t total = rows * cols;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t i = e % rows, j = e / rows;  // complement entry (c0 + i, c0 + j)
    if (i < j) continue;
    subtract_at(a.sn, below[c0 + i], below[c0 + j], c[i + j * ldc]);
  }
}

__global__ void __launch_bounds__(kSolveThreads) forward_kernel(LdltArgs a, const int32_t* nodes, double* x, double* v) {
  const int32_t s = nodes[blockIdx.x];
  const LPanel p = lpanel_of(a.sn, s);
  const int32_t* perm = a.perm + p.first;
  const int8_t* kind = a.kind + p.first;
  double* y = v + p.first;
  for (int32_t k = threadIdx.x; k < p.ns; k += blockDim.x) y[k] = x[p.first + perm[k]];
  __syncthreads();
  for (int32_t k = 0; k < p.ns; ++k) {
    const double yk = y[k];
    const int32_t from = kind[k] == kPivotFirstOfTwo ? k + 2 : k + 1;
    for (int32_t i = from + threadIdx.x; i < p.ns; i += blockDim.x) y[i] -= p(i, k) * yk;
    __syncthreads();
  }
  const int32_t* below = a.sn.rows + a.sn.rows_ptr[s] + p.ns;
  for (int64_t i = p.ns + threadIdx.x; i < p.nr; i += blockDim.x) {
    double sum = 0.0;
    for (int32_t k = 0; k < p.ns; ++k) sum += p(i, k) * y[k];
    atomicAdd(x + below[i - p.ns], -sum);
  }
  __syncthreads();
  for (int32_t k = threadIdx.x; k < p.ns; k += blockDim.x) {
    double out;
    if (kind[k] == kPivotFirstOfTwo) {
      const double d1 = p(k, k), e = p(k + 1, k), d2 = p(k + 1, k + 1);
      out = (y[k] * d2 - y[k + 1] * e) / (d1 * d2 - e * e);
    } else if (kind[k] == kPivotSecondOfTwo) {
      const double d1 = p(k - 1, k - 1), e = p(k, k - 1), d2 = p(k, k);
      out = (y[k] * d1 - y[k - 1] * e) / (d1 * d2 - e * e);
    } else {
      out = y[k] / p(k, k);
    }
    x[p.first + perm[k]] = out;
  }
}

__global__ void __launch_bounds__(kSolveThreads) backward_kernel(LdltArgs a, const int32_t* nodes, double* x,
                                                                 double* v) {
  const int32_t s = nodes[blockIdx.x];
  const LPanel p = lpanel_of(a.sn, s);
  const int32_t* perm = a.perm + p.first;
  const int8_t* kind = a.kind + p.first;
  double* y = v + p.first;
  const int32_t* below = a.sn.rows + a.sn.rows_ptr[s] + p.ns;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  for (int32_t k = warp; k < p.ns; k += warps) {
    double sum = 0.0;
    for (int64_t i = p.ns + lane; i < p.nr; i += 32) sum += p(i, k) * x[below[i - p.ns]];
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(kFullMask, sum, off);
    if (lane == 0) y[k] = x[p.first + perm[k]] - sum;
  }
  __syncthreads();
  for (int32_t k = p.ns - 1; k >= 0; --k) {
    const double yk = y[k];
    // y_i -= L(k, i) y_k for i < k (row k of L11), the 2 x 2 pivot's D entry excluded.
    const int32_t upto = kind[k] == kPivotSecondOfTwo ? k - 1 : k;
    for (int32_t i = threadIdx.x; i < upto; i += blockDim.x) y[i] -= p(k, i) * yk;
    __syncthreads();
  }
  for (int32_t k = threadIdx.x; k < p.ns; k += blockDim.x) x[p.first + perm[k]] = y[k];
}

}  // namespace

void launch_ldlt_reset_pivots(const LdltArgs& a, int32_t n, cudaStream_t stream) {
  if (n <= 0) return;
  reset_pivots_kernel<<<grid_for(n, 256, 4096), 256, 0, stream>>>(a, n);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_nodes(const LdltArgs& a, const int32_t* nodes, int32_t count, cudaStream_t stream) {
  if (count <= 0) return;
  ldlt_nodes_kernel<<<count, kNodeThreads, 0, stream>>>(a, nodes);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_block(const LdltArgs& a, int32_t s, int32_t j0, int32_t j1, cudaStream_t stream) {
  ldlt_block_kernel<<<1, kBlockThreads, 0, stream>>>(a, s, j0, j1);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_times_d(const LdltArgs& a, int32_t s, int64_t row0, int64_t rows, int32_t j0, int32_t j1, double* w,
                         int64_t ldw, cudaStream_t stream) {
  const int64_t total = rows * (j1 - j0);
  if (total <= 0) return;
  times_d_kernel<<<grid_for(total, 256, 8192), 256, 0, stream>>>(a, s, row0, rows, j0, j1, w, ldw);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_schur_direct(const LdltArgs& a, const int32_t* nodes, int32_t count, cudaStream_t stream) {
  if (count <= 0) return;
  ldlt_schur_direct_kernel<<<count, 128, 0, stream>>>(a, nodes);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_schur_scatter(const LdltArgs& a, int32_t s, const double* c, int64_t ldc, int64_t c0, int64_t cols,
                               cudaStream_t stream) {
  ldlt_schur_scatter_kernel<<<grid_for(ldc * cols, 256, 8192), 256, 0, stream>>>(a, s, c, ldc, c0, cols);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_forward(const LdltArgs& a, const int32_t* nodes, int32_t count, double* x, double* v,
                         cudaStream_t stream) {
  if (count <= 0) return;
  forward_kernel<<<count, kSolveThreads, 0, stream>>>(a, nodes, x, v);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_backward(const LdltArgs& a, const int32_t* nodes, int32_t count, double* x, double* v,
                          cudaStream_t stream) {
  if (count <= 0) return;
  backward_kernel<<<count, kSolveThreads, 0, stream>>>(a, nodes, x, v);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::kernels
