// The supernodal LDL^T's kernels (ldlt_kernels.cuh): cpu/supernodal_ldlt.cpp's algorithm. The
// diagonal block is factored by one thread block (in shared memory, or in place for a wide
// supernode's pivot block), every thread taking the same pivot decisions from values reduced
// over the block; L21 and the Schur complements are tiled over many blocks.
#include "cuda/supernodal/ldlt_kernels.cuh"

#include <cfloat>
#include <climits>

#include "core/bunch_kaufman.hpp"
#include "cuda/common/cuda_check.hpp"
#include "cuda/engine/device_facts.hpp"
#include "cuda/supernodal/panel_device.cuh"

namespace gpuglu::cuda::kernels {
namespace {

constexpr int kDiagonalThreads = 128;
constexpr int kTileFactorThreads = 64;  // a wide supernode's pivot tile: two warps, cheap barriers
constexpr int kTileThreads = 256;

// A column-major matrix of `rows` rows read as p(i, j), lower triangle for the diagonal block.
struct LPanel {
  double* l;
  int64_t ld;
  int64_t rows;  // rows the pivot rule and the block's updates see (the diagonal block's: ns)
  int32_t ns;
  int32_t first;
  __device__ double& operator()(int64_t i, int64_t j) const { return l[i + j * ld]; }
};

struct Node {
  int32_t first, ns;
  int64_t nr;
  double* l;
};

__device__ __forceinline__ Node node_of(const SupernodeArgs& a, int32_t s) {
  Node n;
  n.first = a.first[s];
  n.ns = a.first[s + 1] - n.first;
  n.nr = a.rows_ptr[s + 1] - a.rows_ptr[s];
  n.l = a.panels + a.l_ptr[s];
  return n;
}

__device__ __forceinline__ double at(const Node& n, int64_t i, int64_t j) { return n.l[i + j * n.nr]; }

// dst(i, j) = src(i, j) over the lower triangle (i >= j) of an n x n block (column-major,
// leading dimensions lds and ldd), by the block's threads: a diagonal block or tile into
// shared memory and back.
__device__ void copy_lower(const double* src, int64_t lds, double* dst, int64_t ldd, int32_t n) {
  for (int64_t e = threadIdx.x; e < static_cast<int64_t>(n) * n; e += blockDim.x) {
    const int64_t i = e % n, j = e / n;
    if (i >= j) dst[i + j * ldd] = src[i + j * lds];
  }
}

// The largest value over the block and the smallest index holding it, to every thread.
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

// max |p(i, k)| over rows from .. to - 1, to every thread; +Inf when one is NaN or Inf.
__device__ double column_max(const LPanel& p, int32_t k, int64_t from, int64_t to) {
  double m = 0.0;
  bool bad = false;
  for (int64_t i = from + threadIdx.x; i < to; i += blockDim.x) {
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
  for (int64_t m = j + 1 + threadIdx.x; m < p.rows; m += blockDim.x) {
    const double t = p(m, i);
    p(m, i) = p(m, j);
    p(m, j) = t;
  }
  __syncthreads();
}

// The block's pivot steps (cpu/supernodal_ldlt.cpp's factor_block): the rule reads the pivot
// block's rows (up to j1), the swaps and the eliminations reach every row up to p.rows. False
// when a pivot failed (piv.failed holds its column).
__device__ bool factor_pivot_block(const LPanel& p, int32_t j0, int32_t j1, int32_t* perm, int8_t* kind, double* off,
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
      for (int64_t i = r + 1 + threadIdx.x; i < j1; i += blockDim.x) m = fmax(m, fabs(p(i, r)));
      const double omega_r = block_max(m);
      choice = bunch_kaufman_choice(fabs(p(k, k)), omega1, fabs(p(r, r)), omega_r);
    }
    if (choice == PivotChoice::one_at_r) swap_symmetric(p, k, r, perm);
    if (choice == PivotChoice::two_with_r) {
      if (r != k + 1) swap_symmetric(p, k + 1, r, perm);
      const double c0 = column_max(p, k, k, j1), c1 = column_max(p, k + 1, k + 1, j1);
      const double colmax = c0 > c1 ? c0 : c1;
      const double d1 = p(k, k), e = p(k + 1, k), d2 = p(k + 1, k + 1);
      const double det = d1 * d2 - e * e;
      if (colmax <= DBL_MAX && two_by_two_usable(det, e, colmax, piv.threshold, piv.zero_pivot)) {
        if (stats) {
          const double ratio = colmax > 0.0 ? fabs(det) / fabs(e) / colmax : 0.0;
          piv.min_ratio = ratio < piv.min_ratio ? ratio : piv.min_ratio;
          piv.max_active = colmax > piv.max_active ? colmax : piv.max_active;
        }
        for (int32_t c = k + 2 + threadIdx.x; c < j1; c += blockDim.x) {
          w[2 * (c - k - 2)] = p(c, k);
          w[2 * (c - k - 2) + 1] = p(c, k + 1);
        }
        __syncthreads();  // every thread has read d1, e, d2
        if (threadIdx.x == 0) {
          kind[k] = kPivotFirstOfTwo;
          kind[k + 1] = kPivotSecondOfTwo;
          off[k] = e;
          p(k + 1, k) = 0.0;
        }
        for (int64_t i = k + 2 + threadIdx.x; i < p.rows; i += blockDim.x) {
          const double v1 = p(i, k), v2 = p(i, k + 1);
          p(i, k) = (v1 * d2 - v2 * e) / det;
          p(i, k + 1) = (v2 * d1 - v1 * e) / det;
        }
        __syncthreads();
        for (int32_t c = k + 2; c < j1; ++c) {
          const double w1 = w[2 * (c - k - 2)], w2 = w[2 * (c - k - 2) + 1];
          for (int64_t i = c + threadIdx.x; i < p.rows; i += blockDim.x) p(i, c) -= p(i, k) * w1 + p(i, k + 1) * w2;
        }
        __syncthreads();
        k += 2;
        continue;
      }
    }
    const double colmax = column_max(p, k, k, j1);
    double d = 0.0;
    const double pivot0 = p(k, k);
    if (!piv.decide(pivot0, colmax, colmax <= DBL_MAX, p.first + k, d, stats)) return false;
    for (int32_t c = k + 1 + threadIdx.x; c < j1; c += blockDim.x) w[c - k - 1] = p(c, k);
    __syncthreads();  // every thread has read a(k, k) and the block's row entries
    if (threadIdx.x == 0) {
      p(k, k) = d;
      kind[k] = kPivotOne;
    }
    for (int64_t i = k + 1 + threadIdx.x; i < p.rows; i += blockDim.x) p(i, k) /= d;
    __syncthreads();
    for (int32_t c = k + 1; c < j1; ++c) {
      const double v = w[c - k - 1];
      if (v != 0.0)
        for (int64_t i = c + threadIdx.x; i < p.rows; i += blockDim.x) p(i, c) -= p(i, k) * v;
    }
    __syncthreads();
    ++k;
  }
  return true;
}

// (L(row, :) D)(k) for a factored column k of the supernode whose pivots kind, off and
// diagonal (p(k, k)) these are.
template <class P>
__device__ __forceinline__ double times_d(const P& p, const int8_t* kind, const double* off, int64_t row, int32_t k) {
  const int8_t kk = kind[k];
  if (kk == kPivotFirstOfTwo) return p(row, k) * p(k, k) + p(row, k + 1) * off[k];
  if (kk == kPivotSecondOfTwo) return p(row, k - 1) * off[k - 1] + p(row, k) * p(k, k);
  return p(row, k) * p(k, k);
}

// Columns j1 .. ns - 1 of the diagonal block lose L(:, blk) D_blk L(c, blk)^T.
__device__ void update_later_columns(const LPanel& p, const int8_t* kind, const double* off, int32_t j0, int32_t j1) {
  __shared__ double w[kLdltPivotBlock];
  for (int32_t c = j1; c < p.ns; ++c) {
    for (int32_t k = j0 + threadIdx.x; k < j1; k += blockDim.x) w[k - j0] = times_d(p, kind, off, c, k);
    __syncthreads();
    for (int64_t i = c + threadIdx.x; i < p.rows; i += blockDim.x) {
      double sum = 0.0;
      for (int32_t k = j0; k < j1; ++k) sum += p(i, k) * w[k - j0];
      p(i, c) -= sum;
    }
    __syncthreads();
  }
}

// The node of block b: nodes[i] with tile_ptr[i] <= b < tile_ptr[i + 1] (binary search).
__device__ __forceinline__ int32_t node_of_tile(const int64_t* tile_ptr, int32_t count, int64_t b, int64_t& tile) {
  int32_t lo = 0, hi = count - 1;
  while (lo < hi) {
    const int32_t mid = (lo + hi + 1) >> 1;
    if (tile_ptr[mid] <= b)
      lo = mid;
    else
      hi = mid - 1;
  }
  tile = b - tile_ptr[lo];
  return lo;
}

__global__ void __launch_bounds__(256) reset_pivots_kernel(LdltArgs a, int32_t n) {
  for (int64_t j = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    a.perm[j] = static_cast<int32_t>(j) - a.sn.first[a.sn.of_col[j]];
    a.kind[j] = kPivotOne;
  }
}

// The ns x ns block q (lower triangle, leading dimension ns) factored as L D L^T with no pivot
// search (cpu/supernodal_ldlt.cpp's unpivoted steps): column k scaled by its pivot, the rest
// of the block less its rank-1 update; the checks come later, on the whole panel.
__device__ void factor_unpivoted(double* q, int32_t ns) {
  __shared__ double w[kLdltNarrowMaxCols];
  for (int32_t k = 0; k < ns; ++k) {
    const double d = q[k + k * ns];
    for (int32_t i = k + 1 + threadIdx.x; i < ns; i += blockDim.x) {
      const double v = q[i + k * ns];
      w[i] = v;
      q[i + k * ns] = v / d;
    }
    __syncthreads();
    const int32_t m = ns - k - 1;
    for (int32_t e = threadIdx.x; e < m * m; e += blockDim.x) {
      const int32_t i = k + 1 + e % m, c = k + 1 + e / m;
      if (i >= c) q[i + c * ns] -= q[i + k * ns] * w[c];
    }
    __syncthreads();
  }
}

__global__ void __launch_bounds__(kDiagonalThreads) diagonal_kernel(LdltArgs a, const int32_t* nodes) {
  extern __shared__ double block_smem[];
  if (input_was_bad(a.sn.state)) return;
  const int32_t s = nodes[blockIdx.x];
  const Node n = node_of(a.sn, s);
  const int32_t ns = n.ns;
  copy_lower(n.l, n.nr, block_smem, ns, ns);
  __syncthreads();
  if (!a.pivoted[s]) {
    factor_unpivoted(block_smem, ns);
    __syncthreads();
    copy_lower(block_smem, ns, n.l, n.nr, ns);
    return;  // the statistics and the verdict: unpivoted_checks_kernel
  }
  const LPanel q{block_smem, ns, ns, ns, n.first};
  PanelPivots piv(a.sn.state);
  int32_t* perm = a.perm + n.first;
  int8_t* kind = a.kind + n.first;
  double* off = a.off + n.first;
  for (int32_t j0 = 0; j0 < ns; j0 += kLdltPivotBlock) {
    const int32_t j1 = j0 + kLdltPivotBlock < ns ? j0 + kLdltPivotBlock : ns;
    if (!factor_pivot_block(q, j0, j1, perm, kind, off, piv)) break;
    update_later_columns(q, kind, off, j0, j1);
  }
  __syncthreads();
  copy_lower(block_smem, ns, n.l, n.nr, ns);
  if (threadIdx.x == 0) piv.publish(a.sn, s);
}

__global__ void __launch_bounds__(kTileThreads) l21_kernel(LdltArgs a, const int32_t* nodes, const int64_t* tile_ptr,
                                                           int32_t count) {
  extern __shared__ double block_smem[];
  int64_t tile = 0;
  const int32_t s = nodes[node_of_tile(tile_ptr, count, blockIdx.x, tile)];
  if (input_was_bad(a.sn.state) || a.sn.failed[s]) return;
  const Node n = node_of(a.sn, s);
  const int32_t ns = n.ns;
  const int64_t row0 = ns + tile * kLdltTileRows;
  const int rows = static_cast<int>(n.nr - row0 < kLdltTileRows ? n.nr - row0 : kLdltTileRows);
  double* l11 = block_smem;          // ns x ns, leading dimension ns
  double* t = block_smem + ns * ns;  // rows x ns, leading dimension kLdltTileRows
  const int32_t* perm = a.perm + n.first;
  const int8_t* kind = a.kind + n.first;
  const double* off = a.off + n.first;
  copy_lower(n.l, n.nr, l11, ns, ns);
  for (int64_t e = threadIdx.x; e < static_cast<int64_t>(rows) * ns; e += blockDim.x) {
    const int64_t r = e % rows, k = e / rows;
    t[r + k * kLdltTileRows] = at(n, row0 + r, perm[k]);
  }
  __syncthreads();
  // T := T L11^{-T} (unit lower L11), right-looking: column k is final before it updates.
  for (int32_t k = 0; k + 1 < ns; ++k) {
    const int64_t work = static_cast<int64_t>(rows) * (ns - k - 1);
    for (int64_t e = threadIdx.x; e < work; e += blockDim.x) {
      const int64_t r = e % rows, c = k + 1 + e / rows;
      t[r + c * kLdltTileRows] -= t[r + k * kLdltTileRows] * l11[c + k * ns];
    }
    __syncthreads();
  }
  // T = L21 D: L21 = T D^{-1}.
  for (int64_t e = threadIdx.x; e < static_cast<int64_t>(rows) * ns; e += blockDim.x) {
    const int64_t r = e % rows;
    const int32_t k = static_cast<int32_t>(e / rows);
    double v;
    if (kind[k] == kPivotOne) {
      v = t[r + k * kLdltTileRows] / l11[k + k * ns];
    } else {
      const int32_t k0 = kind[k] == kPivotFirstOfTwo ? k : k - 1;
      const double d1 = l11[k0 + k0 * ns], d2 = l11[(k0 + 1) + (k0 + 1) * ns], e2 = off[k0];
      const double w1 = t[r + k0 * kLdltTileRows], w2 = t[r + (k0 + 1) * kLdltTileRows];
      const double det = d1 * d2 - e2 * e2;
      v = k == k0 ? (w1 * d2 - w2 * e2) / det : (w2 * d1 - w1 * e2) / det;
    }
    n.l[row0 + r + static_cast<int64_t>(k) * n.nr] = v;
  }
}

// A wide supernode's pivot block: its diagonal tile factored in shared memory by one block.
__global__ void __launch_bounds__(kTileFactorThreads) tile_kernel(LdltArgs a, int32_t s, int32_t j0, int32_t j1) {
  __shared__ double tile[kLdltPivotBlock * kLdltPivotBlock];
  if (input_was_bad(a.sn.state)) return;
  if (*reinterpret_cast<volatile uint8_t*>(a.sn.failed + s)) return;
  const Node n = node_of(a.sn, s);
  const int32_t w = j1 - j0;
  double* diagonal = n.l + j0 + static_cast<int64_t>(j0) * n.nr;  // the tile in the panel
  copy_lower(diagonal, n.nr, tile, w, w);
  __syncthreads();
  const LPanel q{tile, w, w, w, n.first + j0};
  PanelPivots piv(a.sn.state);
  factor_pivot_block(q, 0, w, a.perm + n.first + j0, a.kind + n.first + j0, a.off + n.first + j0, piv);
  __syncthreads();
  copy_lower(tile, w, diagonal, n.nr, w);
  if (threadIdx.x == 0) piv.publish(a.sn, s);
}

// After the tile's swaps: rows j0 .. j1 of the earlier columns gathered by the pivot order
// into tmp (w x j0, leading dimension w), and the block's columns of the rows below gathered
// into wb (leading dimension nr - j1): what TRSM solves.
__global__ void __launch_bounds__(256) permute_gather_kernel(LdltArgs a, int32_t s, int32_t j0, int32_t j1,
                                                             double* tmp, double* wb) {
  const Node n = node_of(a.sn, s);
  const int32_t w = j1 - j0;
  const int32_t* perm = a.perm + n.first + j0;  // its values: j0 .. j1 - 1, in the pivot order
  const int64_t left = static_cast<int64_t>(w) * j0, below = (n.nr - j1) * w;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < left + below;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    if (e < left) {
      const int64_t k = e % w, c = e / w;
      tmp[e] = at(n, perm[k], c);
    } else {
      const int64_t f = e - left, rows = n.nr - j1;
      const int64_t i = f % rows, k = f / rows;
      wb[f] = at(n, j1 + i, perm[k]);
    }
  }
}

__global__ void __launch_bounds__(256) permute_put_kernel(LdltArgs a, int32_t s, int32_t j0, int32_t j1,
                                                          const double* tmp) {
  const Node n = node_of(a.sn, s);
  const int32_t w = j1 - j0;
  const int64_t left = static_cast<int64_t>(w) * j0;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < left;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t k = e % w, c = e / w;
    n.l[(j0 + k) + c * n.nr] = tmp[e];
  }
}

// wb = (rows below the tile) L_tile D_tile after TRSM: L = wb D^{-1} into the panel; the rows
// below the supernode's columns keep wb in w21 (nb x ns, leading dimension nb) for the complement.
__global__ void __launch_bounds__(256) scale_block_kernel(LdltArgs a, int32_t s, int32_t j0, int32_t j1,
                                                          const double* wb, double* w21) {
  const Node n = node_of(a.sn, s);
  const int8_t* kind = a.kind + n.first;
  const double* off = a.off + n.first;
  const int64_t rows = n.nr - j1, nb = n.nr - n.ns;
  const int64_t total = rows * (j1 - j0);
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t i = e % rows;
    const int32_t k = j0 + static_cast<int32_t>(e / rows);
    double v;
    if (kind[k] == kPivotOne) {
      v = wb[e] / at(n, k, k);
    } else {
      const int32_t k0 = kind[k] == kPivotFirstOfTwo ? k : k - 1;
      const double d1 = at(n, k0, k0), d2 = at(n, k0 + 1, k0 + 1), e2 = off[k0];
      const double w1 = wb[i + (k0 - j0) * rows], w2 = wb[i + (k0 + 1 - j0) * rows];
      const double det = d1 * d2 - e2 * e2;
      v = k == k0 ? (w1 * d2 - w2 * e2) / det : (w2 * d1 - w1 * e2) / det;
    }
    n.l[j1 + i + static_cast<int64_t>(k) * n.nr] = v;
    if (j1 + i >= n.ns) w21[(j1 + i - n.ns) + static_cast<int64_t>(k) * nb] = wb[e];
  }
}

__global__ void __launch_bounds__(256) l21_times_d_kernel(LdltArgs a, int32_t s, double* w21) {
  const Node n = node_of(a.sn, s);
  const LPanel p{n.l, n.nr, n.nr, n.ns, n.first};
  const int8_t* kind = a.kind + n.first;
  const double* off = a.off + n.first;
  const int64_t nb = n.nr - n.ns, total = nb * n.ns;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x)
    w21[e] = times_d(p, kind, off, n.ns + e % nb, static_cast<int32_t>(e / nb));
}

// target(r_a, r_b) -= value (a >= b, rows below s), r_a found among the rows of r_b's
// supernode t from r_b on (as the LU's subtract_at_target); a row t does not hold is a broken
// schedule: flagged (missing_fill), nothing written.
__device__ __forceinline__ void subtract_at(const SupernodeArgs& a, int32_t ra, int32_t rb, double value) {
  const int32_t t = a.of_col[rb];
  const int64_t cb = rb - a.first[t];
  const int64_t tb = a.rows_ptr[t], te = a.rows_ptr[t + 1];
  const int64_t q = first_row_at_least(a.rows, tb + cb, te, ra);
  if (q == te || a.rows[q] != ra) {
    atomicExch(&a.state->missing_fill, 1);
    return;
  }
  atomicAdd(a.panels + a.l_ptr[t] + cb * (te - tb) + (q - tb), -value);
}

__global__ void __launch_bounds__(256) schur_tiles_kernel(LdltArgs a, const int32_t* nodes, const int64_t* tile_ptr,
                                                          int32_t count) {
  __shared__ double as[kLdltSchurTile][kLdltSchurTile + 1];
  __shared__ double bs[kLdltSchurTile][kLdltSchurTile + 1];
  int64_t tile = 0;
  const int32_t s = nodes[node_of_tile(tile_ptr, count, blockIdx.x, tile)];
  if (input_was_bad(a.sn.state) || a.sn.failed[s]) return;
  const Node n = node_of(a.sn, s);
  const LPanel p{n.l, n.nr, n.nr, n.ns, n.first};
  const int64_t nb = n.nr - n.ns;
  const int8_t* kind = a.kind + n.first;
  const double* off = a.off + n.first;
  // Lower tiles (ta >= tb) in order: tile = ta (ta + 1) / 2 + tb.
  int64_t ta = static_cast<int64_t>((sqrt(8.0 * static_cast<double>(tile) + 1.0) - 1.0) / 2.0);
  while (ta * (ta + 1) / 2 > tile) --ta;
  while ((ta + 1) * (ta + 2) / 2 <= tile) ++ta;
  const int64_t tb = tile - ta * (ta + 1) / 2;
  const int64_t a0 = ta * kLdltSchurTile, b0 = tb * kLdltSchurTile;
  const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;  // 8 rows of warps
  double acc[4] = {0.0, 0.0, 0.0, 0.0};
  for (int32_t kc = 0; kc < n.ns; kc += kLdltSchurTile) {
    for (int e = threadIdx.x; e < kLdltSchurTile * kLdltSchurTile; e += blockDim.x) {
      const int r = e / kLdltSchurTile, kk = e % kLdltSchurTile;
      const int32_t k = kc + kk;
      const bool in_k = k < n.ns;
      as[r][kk] = in_k && a0 + r < nb ? p(n.ns + a0 + r, k) : 0.0;
      bs[r][kk] = in_k && b0 + r < nb ? times_d(p, kind, off, n.ns + b0 + r, k) : 0.0;
    }
    __syncthreads();
    for (int kk = 0; kk < kLdltSchurTile; ++kk) {
      const double bv = bs[tx][kk];
      for (int q = 0; q < 4; ++q) acc[q] += as[ty + 8 * q][kk] * bv;
    }
    __syncthreads();
  }
  const int32_t* below = a.sn.rows + a.sn.rows_ptr[s] + n.ns;
  const int64_t ib = b0 + tx;
  for (int q = 0; q < 4; ++q) {
    const int64_t ia = a0 + ty + 8 * q;
    if (ia < nb && ib < nb && ia >= ib) subtract_at(a.sn, below[ia], below[ib], acc[q]);
  }
}

__global__ void __launch_bounds__(256) schur_scatter_kernel(LdltArgs a, int32_t s, const double* c, int64_t ldc,
                                                            int64_t c0, int64_t cols) {
  const Node n = node_of(a.sn, s);
  const int64_t nb = n.nr - n.ns;
  const int32_t* below = a.sn.rows + a.sn.rows_ptr[s] + n.ns;
  const int64_t rows = nb - c0;
  const int64_t total = rows * cols;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t i = e % rows, j = e / rows;  // complement entry (c0 + i, c0 + j)
    if (i < j) continue;
    subtract_at(a.sn, below[c0 + i], below[c0 + j], c[i + j * ldc]);
  }
}

__global__ void __launch_bounds__(256) mirror_kernel(LdltArgs a, int32_t s) {
  const Node n = node_of(a.sn, s);
  const int64_t total = static_cast<int64_t>(n.ns) * n.ns;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t i = e % n.ns, j = e / n.ns;
    if (i < j) n.l[i + j * n.nr] = n.l[j + i * n.nr];
  }
}

constexpr int kCheckWarps = 8;

// Column k of node n after its unpivoted factorization, by one warp: at its pivot step the
// column was d (1, L(k+1:nr, k))^T; the static test reads its pivot block's part (rows
// k .. j1 - 1), the threshold test all its multipliers. verdict[0] is set for a pivot not
// positive, [1] for a failed threshold test, [2] for a failed static test or a non-finite column.
__device__ void check_unpivoted_column(const LdltArgs& a, const Node& n, int32_t k, int32_t* verdict) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int32_t j1 = (k / kLdltPivotBlock + 1) * kLdltPivotBlock < n.ns ? (k / kLdltPivotBlock + 1) * kLdltPivotBlock
                                                                         : n.ns;
  const double* col = n.l + static_cast<int64_t>(k) * n.nr;
  double in_block = 0.0, below = 0.0;
  bool finite = true;
  for (int64_t i = k + lane; i < n.nr; i += 32) {
    const double v = fabs(col[i]);
    finite &= v <= DBL_MAX;
    if (i > k && i < j1) in_block = v > in_block ? v : in_block;
    if (i > k) below = v > below ? v : below;
  }
  in_block = warp_max(in_block);
  below = warp_max(below);
  finite = __all_sync(kFullMask, finite) != 0;
  if (lane != 0) return;
  const double d = col[k], apiv = fabs(d);
  const double omega1 = __dmul_rn(apiv, in_block);
  const double colmax = omega1 > apiv ? omega1 : apiv;
  if (!finite || !(colmax <= DBL_MAX) || !PanelPivots(a.sn.state).passes(apiv, colmax)) {
    atomicOr(verdict + 2, 1);
    return;
  }
  atomic_min_nonneg(&a.sn.state->min_ratio_bits, colmax > 0.0 ? __ddiv_rn(apiv, colmax) : 0.0);
  atomic_max_nonneg(&a.sn.state->max_active_bits, colmax);
  if (!(d > 0.0)) atomicOr(verdict, 1);
  if (!unpivoted_column_stands(below)) atomicOr(verdict + 1, 1);
}

// A wide supernode's columns, a warp each (k = blockIdx.x * kCheckWarps + warp).
__global__ void __launch_bounds__(kCheckWarps * 32) unpivoted_check_kernel(LdltArgs a, int32_t s, int32_t* verdict) {
  if (input_was_bad(a.sn.state)) return;
  const Node n = node_of(a.sn, s);
  const int32_t k = static_cast<int32_t>(blockIdx.x) * kCheckWarps + static_cast<int32_t>(threadIdx.x >> 5);
  if (k < n.ns) check_unpivoted_column(a, n, k, verdict);  // uniform over the warp
}

// verdict: some pivot not positive, some column failing the threshold test, some failing the
// static test (or not finite).
__device__ __forceinline__ void unpivoted_verdict(const LdltArgs& a, int32_t s, const int32_t* verdict) {
  if (verdict[2] != 0 || (verdict[0] != 0 && verdict[1] != 0)) {
    a.pivoted[s] = 1;
    atomicExch(&a.sn.state->unstable_panel, 1);
  }
}

__global__ void unpivoted_verdict_kernel(LdltArgs a, int32_t s, const int32_t* verdict) { unpivoted_verdict(a, s, verdict); }

// A narrow supernode's checks, a block each (its columns a warp at a time).
__global__ void __launch_bounds__(256) unpivoted_checks_kernel(LdltArgs a, const int32_t* nodes) {
  __shared__ int32_t verdict[3];
  const int32_t s = nodes[blockIdx.x];
  if (input_was_bad(a.sn.state) || a.pivoted[s]) return;  // uniform over the block
  if (threadIdx.x < 3) verdict[threadIdx.x] = 0;
  __syncthreads();
  const Node n = node_of(a.sn, s);
  for (int32_t k = static_cast<int32_t>(threadIdx.x >> 5); k < n.ns; k += static_cast<int32_t>(blockDim.x >> 5))
    check_unpivoted_column(a, n, k, verdict);
  __syncthreads();
  if (threadIdx.x == 0) unpivoted_verdict(a, s, verdict);
}

int current_device() {
  int d = 0;
  GPUGLU_CUDA_CHECK(cudaGetDevice(&d));
  return d;
}

unsigned grid_of(int64_t items) { return grid_for(items, 256, current_device_facts().grid_stride_blocks()); }

}  // namespace

void launch_ldlt_reset_pivots(const LdltArgs& a, int32_t n, cudaStream_t stream) {
  if (n <= 0) return;
  reset_pivots_kernel<<<grid_of(n), 256, 0, stream>>>(a, n);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_diagonal(const LdltArgs& a, const int32_t* nodes, int32_t count, int32_t max_cols,
                          cudaStream_t stream) {
  if (count <= 0) return;
  const size_t smem = ldlt_diagonal_smem(max_cols);
  ensure_max_dynamic_smem(reinterpret_cast<const void*>(diagonal_kernel), current_device(), static_cast<int>(smem));
  diagonal_kernel<<<count, kDiagonalThreads, smem, stream>>>(a, nodes);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_l21(const LdltArgs& a, const int32_t* nodes, const int64_t* tile_ptr, int32_t count, int64_t tiles,
                     int32_t max_cols, cudaStream_t stream) {
  if (count <= 0 || tiles <= 0) return;
  const size_t smem = ldlt_l21_smem(max_cols);
  ensure_max_dynamic_smem(reinterpret_cast<const void*>(l21_kernel), current_device(), static_cast<int>(smem));
  l21_kernel<<<static_cast<unsigned>(tiles), kTileThreads, smem, stream>>>(a, nodes, tile_ptr, count);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_tile(const LdltArgs& a, int32_t s, int32_t j0, int32_t j1, cudaStream_t stream) {
  tile_kernel<<<1, kTileFactorThreads, 0, stream>>>(a, s, j0, j1);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_permute_block(const LdltArgs& a, int32_t s, int64_t nr, int32_t j0, int32_t j1, double* tmp,
                               double* wb, cudaStream_t stream) {
  const int64_t total = static_cast<int64_t>(j1 - j0) * (j0 + nr - j1);
  if (total <= 0) return;
  permute_gather_kernel<<<grid_of(total), 256, 0, stream>>>(a, s, j0, j1, tmp, wb);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
  if (j0 == 0) return;
  permute_put_kernel<<<grid_of(static_cast<int64_t>(j1 - j0) * j0), 256, 0, stream>>>(a, s, j0, j1, tmp);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_scale_block(const LdltArgs& a, int32_t s, int64_t nr, int32_t j0, int32_t j1, const double* wb,
                             double* w21, cudaStream_t stream) {
  const int64_t total = (nr - j1) * (j1 - j0);
  if (total <= 0) return;
  scale_block_kernel<<<grid_of(total), 256, 0, stream>>>(a, s, j0, j1, wb, w21);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_mirror(const LdltArgs& a, int32_t s, int32_t ns, cudaStream_t stream) {
  if (ns <= 1) return;
  mirror_kernel<<<grid_of(static_cast<int64_t>(ns) * ns), 256, 0, stream>>>(a, s);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}
void launch_ldlt_unpivoted_check(const LdltArgs& a, int32_t s, int32_t ns, int32_t* verdict, cudaStream_t stream) {
  if (ns <= 0) return;
  GPUGLU_CUDA_CHECK(cudaMemsetAsync(verdict, 0, 3 * sizeof(int32_t), stream));
  const unsigned blocks = static_cast<unsigned>((ns + kCheckWarps - 1) / kCheckWarps);
  unpivoted_check_kernel<<<blocks, kCheckWarps * 32, 0, stream>>>(a, s, verdict);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
  unpivoted_verdict_kernel<<<1, 1, 0, stream>>>(a, s, verdict);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}
void launch_ldlt_unpivoted_checks(const LdltArgs& a, const int32_t* nodes, int32_t count, cudaStream_t stream) {
  if (count <= 0) return;
  unpivoted_checks_kernel<<<count, 256, 0, stream>>>(a, nodes);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}
void launch_ldlt_l21_times_d(const LdltArgs& a, int32_t s, int64_t nb, int32_t ns, double* w21, cudaStream_t stream) {
  if (nb * ns <= 0) return;
  l21_times_d_kernel<<<grid_of(nb * ns), 256, 0, stream>>>(a, s, w21);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_schur_tiles(const LdltArgs& a, const int32_t* nodes, const int64_t* tile_ptr, int32_t count,
                             int64_t tiles, cudaStream_t stream) {
  if (count <= 0 || tiles <= 0) return;
  schur_tiles_kernel<<<static_cast<unsigned>(tiles), 256, 0, stream>>>(a, nodes, tile_ptr, count);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_ldlt_schur_scatter(const LdltArgs& a, int32_t s, const double* c, int64_t ldc, int64_t c0, int64_t cols,
                               cudaStream_t stream) {
  schur_scatter_kernel<<<grid_of(ldc * cols), 256, 0, stream>>>(a, s, c, ldc, c0, cols);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::kernels
