// The supernodal engine's kernels (supernodal_kernels.cuh): per level, the panel LU of each
// supernode (a block each), then the Schur complements into the ancestors.
//
// Panels are factored column by column with the column LU's pivot test and perturbation
// (level_device.cuh's pivot_column, on a panel column) and explicit __dmul_rn /
// __dsub_rn / __ddiv_rn, so that nvcc does not contract into FMAs what the CPU reference
// rounds twice. The Schur complement is added into the targets with atomics: supernodes of
// one level may share an ancestor, and the supernodes are independent otherwise, so the
// order of those additions (and only that) varies from run to run.
#include <cfloat>

#include "cuda/common/cuda_check.hpp"
#include "cuda/engine/device_facts.hpp"
#include "cuda/common/level_device.cuh"
#include "cuda/supernodal/panel_device.cuh"
#include "cuda/supernodal/supernodal_kernels.cuh"
#include "gpuglu/options.hpp"

namespace gpuglu::cuda::kernels {

namespace {

constexpr int kScatterThreads = 256;

// Step k's rank-1 update of panel p, after column k was scaled: the L panel's columns
// j > k (rows below k) and the U^T panel's columns j > k (all rows). A thread keeps one row
// and walks the columns, so a warp's loads and stores are consecutive in a column; when the
// rows are fewer than the threads, groups of threads take every groups-th column. A zero
// multiplier (relaxed amalgamation's explicit zeros) skips its column, as the CPU reference
// does, which also keeps an Inf elsewhere in the panel from turning 0 * Inf into a NaN there.
// jend: the columns updated are k + 1 .. jend - 1; with_ut: the U^T panel too (the blocked
// factorization leaves the columns from jend on and the U^T panel to cuBLAS).
__device__ __forceinline__ void rank1_update(const Panel& p, int32_t k, int32_t jend, bool with_ut, int tid,
                                             int nthreads) {
  const int64_t m1 = p.nr - k - 1;  // L rows below the pivot
  const int64_t m = m1 + (with_ut ? p.nu : 0);
  if (k + 1 >= jend || m <= 0) return;
  const int64_t rows_per_group = m >= nthreads ? nthreads : ((m + 31) / 32) * 32;
  const int groups = static_cast<int>(nthreads / rows_per_group);
  const int g = static_cast<int>(tid / rows_per_group);
  if (g >= groups) return;
  const double* lk = p.l + static_cast<int64_t>(k) * p.nr;
  const double* uk = p.u + static_cast<int64_t>(k) * p.nu;
  for (int64_t i = tid - g * rows_per_group; i < m; i += rows_per_group) {
    if (i < m1) {
      const int64_t row = k + 1 + i;
      const double lik = lk[row];
      for (int32_t j = k + 1 + g; j < jend; j += groups) {
        double* c = p.l + static_cast<int64_t>(j) * p.nr;
        const double ukj = c[k];
        if (ukj != 0.0) c[row] = __dsub_rn(c[row], __dmul_rn(lik, ukj));  // L(row, j) -= L(row, k) U(k, j)
      }
    } else {
      const int64_t r = i - m1;
      const double ukr = uk[r];
      for (int32_t j = k + 1 + g; j < jend; j += groups) {
        const double ljk = lk[j];
        double* c = p.u + static_cast<int64_t>(j) * p.nu;
        if (ljk != 0.0) c[r] = __dsub_rn(c[r], __dmul_rn(ljk, ukr));  // U(j, r) -= L(j, k) U(k, r)
      }
    }
  }
}

// The largest magnitude of col[0 .. m) over the block, and whether all are finite (false for
// NaN and Inf); every thread of the block calls it and gets both.
__device__ __forceinline__ double column_max(const double* col, int64_t m, bool& finite) {
  double colmax = 0.0;
  bool ok = true;
  for (int64_t i = threadIdx.x; i < m; i += blockDim.x) {
    const double v = fabs(col[i]);
    colmax = v > colmax ? v : colmax;
    ok &= v <= DBL_MAX;
  }
  colmax = block_max(colmax);
  finite = __syncthreads_and(ok) != 0;
  return colmax;
}

// Columns k0 .. k1 - 1 of supernode s's panels, column by column, by one thread block: the
// pivot test against the column's largest entry in its L panel, the scaling below the pivot,
// and the rank-1 update of the L panel's columns up to jend (and of the U^T panel when
// with_ut). The pivot decisions are uniform over the block (every thread holds the reduced
// column max and reads the same pivot), so a failure leaves the loop for all threads at once.
// The statistics are combined in registers and published once.
__device__ void factor_columns(const SupernodeArgs& a, int32_t s, int32_t k0, int32_t k1, int32_t jend,
                               bool with_ut) {
  const Panel p = panel_of(a, s);
  const int tid = static_cast<int>(threadIdx.x);
  const int nthreads = static_cast<int>(blockDim.x);
  PanelPivots pivots(a.state);
  for (int32_t k = k0; k < k1; ++k) {
    double* col = p.l + static_cast<int64_t>(k) * p.nr;
    const double pivot0 = col[k];  // read by every thread before thread 0 may overwrite it
    bool finite;
    const double colmax = column_max(col, p.nr, finite);
    double pivot;
    if (!pivots.decide(pivot0, colmax, finite, p.first + k, pivot)) break;
    if (tid == 0 && pivot != pivot0) col[k] = pivot;
    for (int64_t i = k + 1 + tid; i < p.nr; i += nthreads) col[i] = __ddiv_rn(col[i], pivot);
    __syncthreads();
    rank1_update(p, k, jend, with_ut, tid, nthreads);
    __syncthreads();
  }
  if (tid == 0) pivots.publish(a, s);
}

// Block kb .. kb + w - 1 of the staged factorization below (rows kb .. nr - 1 of the L panel,
// mb = nr - kb of them) staged into S (mb x w, column-major) and factored there column by
// column - pivot test against the whole column (rows above kb hold U entries made final by
// earlier blocks: they count in the maximum, as in the unblocked kernel), scaling, rank-1
// updates inside the block - then written back. False, uniformly over the block, when a column
// failed (pivots.failed holds it); the columns factored before it are written back all the same.
__device__ bool factor_staged_block(const Panel& p, int32_t kb, int32_t w, PanelPivots& pivots, double* S) {
  __shared__ double upper_max[kPanelWidth];
  __shared__ int upper_finite[kPanelWidth];
  const int tid = static_cast<int>(threadIdx.x);
  const int nthreads = static_cast<int>(blockDim.x);
  const int lane = tid & 31, warp = tid >> 5, nwarps = nthreads >> 5;
  const int64_t mb = p.nr - kb;
  // Column by column, a thread per row: no 64-bit division per entry (emulated on the GPU,
  // it cost more than the arithmetic).
  for (int32_t c = 0; c < w; ++c)
    for (int64_t i = tid; i < mb; i += nthreads) S[i + c * mb] = p.l[(kb + c) * p.nr + kb + i];
  for (int32_t c = warp; c < w; c += nwarps) {
    double m = 0.0;
    bool finite = true;
    for (int32_t i = lane; i < kb; i += 32) {
      const double v = fabs(p.l[static_cast<int64_t>(kb + c) * p.nr + i]);
      m = v > m ? v : m;
      finite &= v <= DBL_MAX;
    }
    m = warp_max(m);
    finite = __all_sync(0xffffffffu, finite) != 0;
    if (lane == 0) {
      upper_max[c] = m;
      upper_finite[c] = finite;
    }
  }
  __syncthreads();
  bool ok = true;
  for (int32_t kk = 0; kk < w; ++kk) {
    double* col = S + kk * mb;
    const double pivot0 = col[kk];
    bool finite;
    double colmax = column_max(col, mb, finite);
    colmax = upper_max[kk] > colmax ? upper_max[kk] : colmax;
    finite = finite && upper_finite[kk];
    double pivot;
    if (!pivots.decide(pivot0, colmax, finite, p.first + kb + kk, pivot)) {
      ok = false;
      break;
    }
    if (tid == 0 && pivot != pivot0) col[kk] = pivot;
    for (int64_t i = kk + 1 + tid; i < mb; i += nthreads) col[i] = __ddiv_rn(col[i], pivot);
    __syncthreads();
    // The block's rank-1 update, a thread per row across the block's remaining columns (one
    // subtraction per entry: the order over entries is free).
    for (int64_t i = kk + 1 + tid; i < mb; i += nthreads) {
      const double li = col[i];
      for (int32_t c = kk + 1; c < w; ++c) {
        const double u = S[kk + c * mb];
        if (u != 0.0) S[i + c * mb] = __dsub_rn(S[i + c * mb], __dmul_rn(li, u));
      }
    }
    __syncthreads();
  }
  for (int32_t c = 0; c < w; ++c)
    for (int64_t i = tid; i < mb; i += nthreads) p.l[(kb + c) * p.nr + kb + i] = S[i + c * mb];
  return ok;
}

// U(kb:ke, j) for the columns ke <= j < jend of a factored block (S as factor_staged_block
// left it): forward substitution with the block's unit lower triangle, a thread per column,
// into the L panel and, when U is given, into U[c + kPanelWidth * (j - ke)].
__device__ void solve_staged_rows(const Panel& p, int32_t kb, int32_t w, int32_t jend, const double* S, double* U) {
  const int64_t mb = p.nr - kb;
  const int32_t ke = kb + w;
  for (int32_t jj = static_cast<int32_t>(threadIdx.x); jj < jend - ke; jj += static_cast<int32_t>(blockDim.x)) {
    double* cj = p.l + static_cast<int64_t>(ke + jj) * p.nr;
    double u[kPanelWidth];
#pragma unroll
    for (int c = 0; c < kPanelWidth; ++c) u[c] = c < w ? cj[kb + c] : 0.0;
#pragma unroll
    for (int cc = 0; cc < kPanelWidth; ++cc) {
      if (cc >= w || u[cc] == 0.0) continue;
#pragma unroll
      for (int c = cc + 1; c < kPanelWidth; ++c)
        if (c < w) u[c] = __dsub_rn(u[c], __dmul_rn(S[c + cc * mb], u[cc]));
    }
#pragma unroll
    for (int c = 0; c < kPanelWidth; ++c)
      if (c < w) {
        cj[kb + c] = u[c];
        if (U) U[c + kPanelWidth * jj] = u[c];
      }
  }
}

// U^T row r's block columns kb .. ke - 1 through the block's unit lower triangle (S as
// factor_staged_block left it), in registers ut and in the U^T panel.
__device__ __forceinline__ void solve_staged_ut_row(const Panel& p, int32_t kb, int32_t w, const double* S, int64_t r,
                                                    double (&ut)[kPanelWidth]) {
  const int64_t mb = p.nr - kb;
#pragma unroll
  for (int c = 0; c < kPanelWidth; ++c) ut[c] = c < w ? p.u[static_cast<int64_t>(kb + c) * p.nu + r] : 0.0;
#pragma unroll
  for (int cc = 0; cc < kPanelWidth; ++cc) {
    if (cc >= w) continue;
#pragma unroll
    for (int c = cc + 1; c < kPanelWidth; ++c) {
      if (c >= w) continue;
      const double ljk = S[c + cc * mb];  // L(kb + c, kb + cc)
      if (ljk != 0.0) ut[c] = __dsub_rn(ut[c], __dmul_rn(ljk, ut[cc]));
    }
  }
#pragma unroll
  for (int c = 0; c < kPanelWidth; ++c)
    if (c < w) p.u[static_cast<int64_t>(kb + c) * p.nu + r] = ut[c];
}

// The same factorization, kPanelWidth columns at a time through shared memory: a block of
// columns kb .. ke - 1 is factored in shared memory (factor_staged_block), then
//   U(kb:ke, j)  for the columns ke <= j < jend (solve_staged_rows),
//   L(ke:nr, j) -= L(ke:nr, kb:ke) U(kb:ke, j): a thread per row, its kPanelWidth multipliers
//                in registers, each entry read and written once per block instead of once per
//                column,
//   and, with_ut, the U^T panel's rows: its block columns through the block's triangle, then
//                its columns from ke on (a thread per row).
// Every entry receives the same subtractions in the same (ascending column) order, rounded
// the same way (no FMA), with the same zero-multiplier skips as factor_columns: the result is
// bitwise that of the unblocked kernel (and of the CPU reference). sm: kPanelWidth * (nr +
// jend - k0) doubles of dynamic shared memory (panel_smem_bytes).
__device__ void factor_columns_staged(const SupernodeArgs& a, int32_t s, int32_t k0, int32_t k1, int32_t jend,
                                      bool with_ut, double* sm) {
  const Panel p = panel_of(a, s);
  const int tid = static_cast<int>(threadIdx.x);
  const int nthreads = static_cast<int>(blockDim.x);
  PanelPivots pivots(a.state);
  for (int32_t kb = k0; kb < k1; kb += kPanelWidth) {
    const int32_t w = min(kPanelWidth, k1 - kb);
    const int32_t ke = kb + w;
    const int64_t mb = p.nr - kb;
    double* S = sm;
    double* U = sm + mb * kPanelWidth;  // U(kb:ke, ke + jj) at U[c + kPanelWidth * jj]
    if (!factor_staged_block(p, kb, w, pivots, S)) break;  // uniform over the block
    const int32_t nrest = jend - ke;
    solve_staged_rows(p, kb, w, jend, S, U);
    __syncthreads();
    const int64_t rows = mb - w;  // L rows ke .. nr - 1
    if (rows > 0 && nrest > 0) {
      const int64_t rows_per_group = rows >= nthreads ? nthreads : ((rows + 31) / 32) * 32;
      const int groups = static_cast<int>(nthreads / rows_per_group);
      const int g = static_cast<int>(tid / rows_per_group);
      if (g < groups) {
        for (int64_t i = tid - g * rows_per_group; i < rows; i += rows_per_group) {
          double l[kPanelWidth];
#pragma unroll
          for (int c = 0; c < kPanelWidth; ++c) l[c] = c < w ? S[w + i + c * mb] : 0.0;
          for (int32_t jj = g; jj < nrest; jj += groups) {
            double* cp = p.l + static_cast<int64_t>(ke + jj) * p.nr + ke + i;
            double v = *cp;
#pragma unroll
            for (int c = 0; c < kPanelWidth; ++c) {
              const double u = c < w ? U[c + kPanelWidth * jj] : 0.0;
              if (u != 0.0) v = __dsub_rn(v, __dmul_rn(l[c], u));
            }
            *cp = v;
          }
        }
      }
    }
    if (with_ut) {
      for (int64_t r = tid; r < p.nu; r += nthreads) {
        double ut[kPanelWidth];
        solve_staged_ut_row(p, kb, w, S, r, ut);
        for (int32_t j = ke; j < p.ns; ++j) {
          double* cp = p.u + static_cast<int64_t>(j) * p.nu + r;
          double v = *cp;
#pragma unroll
          for (int cc = 0; cc < kPanelWidth; ++cc) {
            const double ljk = cc < w ? S[(j - kb) + cc * mb] : 0.0;  // L(j, kb + cc)
            if (ljk != 0.0) v = __dsub_rn(v, __dmul_rn(ljk, ut[cc]));
          }
          *cp = v;
        }
      }
    }
    __syncthreads();  // S and U are restaged; the block's global writes are visible to all
  }
  if (tid == 0) pivots.publish(a, s);
}

// One block per supernode: its whole panels (staged: through shared memory).
template <bool kStaged>
__global__ void __launch_bounds__(1024) panel_factor_kernel(SupernodeArgs a, const int32_t* __restrict__ nodes) {
  extern __shared__ double staged_panel[];
  if (input_was_bad(a.state)) return;
  const int32_t s = nodes[blockIdx.x];
  if (pivots_rows(a, s)) return;
  const int32_t ns = a.first[s + 1] - a.first[s];
  if constexpr (kStaged)
    factor_columns_staged(a, s, 0, ns, ns, true, staged_panel);
  else
    factor_columns(a, s, 0, ns, ns, true);
}

// One block for columns k0 .. k1 - 1 of a blocked supernode (cuBLAS does the rest); nothing
// once an earlier block of it failed.
template <bool kStaged>
__global__ void __launch_bounds__(1024) panel_block_kernel(SupernodeArgs a, int32_t s, int32_t k0, int32_t k1) {
  extern __shared__ double staged_panel[];
  if (input_was_bad(a.state)) return;
  const volatile uint8_t* failed = a.failed;
  if (failed[s]) return;
  if constexpr (kStaged)
    factor_columns_staged(a, s, k0, k1, k1, false, staged_panel);
  else
    factor_columns(a, s, k0, k1, k1, false);
}

// The stepped factorization of a level's panels (few supernodes, too few blocks for one per
// supernode to occupy the GPU): per step, panel_step_kernel factors block kb .. kb + 15 of each
// supernode (a block each: factor_staged_block, U's rows, U^T's block columns) and
// panel_trailing_kernel updates the rest of both panels with the whole grid, a thread per
// entry. The same subtractions in the same order as factor_columns_staged's: bitwise its
// factor. A supernode that failed a step (a.failed) takes no further part.
__global__ void __launch_bounds__(1024) panel_step_kernel(SupernodeArgs a, const int32_t* __restrict__ nodes,
                                                          int32_t kb) {
  extern __shared__ double staged_panel[];
  if (input_was_bad(a.state)) return;
  const int32_t s = nodes[blockIdx.x];
  const volatile uint8_t* failed = a.failed;
  if (failed[s] || pivots_rows(a, s)) return;
  const Panel p = panel_of(a, s);
  if (kb >= p.ns) return;
  const int32_t w = min(kPanelWidth, p.ns - kb);
  PanelPivots pivots(a.state);
  if (factor_staged_block(p, kb, w, pivots, staged_panel)) {
    solve_staged_rows(p, kb, w, p.ns, staged_panel, nullptr);
    for (int64_t r = threadIdx.x; r < p.nu; r += blockDim.x) {
      double ut[kPanelWidth];
      solve_staged_ut_row(p, kb, w, staged_panel, r, ut);
    }
  }
  if (threadIdx.x == 0) pivots.publish(a, s);
}

// After panel_step_kernel's step kb: L(ke:nr, j) -= L(ke:nr, kb:ke) U(kb:ke, j) and U^T(r, j)
// -= sum_c L(j, kb + c) U^T(r, kb + c) for the columns ke <= j < ns, ke = kb + kPanelWidth;
// supernode nodes[blockIdx.y], a thread per entry (rows fastest: a warp's loads are
// consecutive in a column of either panel).
__global__ void __launch_bounds__(kScatterThreads) panel_trailing_kernel(SupernodeArgs a,
                                                                         const int32_t* __restrict__ nodes,
                                                                         int32_t kb) {
  if (input_was_bad(a.state)) return;
  const int32_t s = nodes[blockIdx.y];
  const volatile uint8_t* failed = a.failed;
  if (failed[s] || pivots_rows(a, s)) return;
  const Panel p = panel_of(a, s);
  const int32_t ke = kb + kPanelWidth;
  if (ke >= p.ns) return;
  // 32-bit index arithmetic: a stepped panel fits shared memory, so its entries fit 2^32.
  const uint32_t lrows = static_cast<uint32_t>(p.nr - ke);
  const uint32_t rows = lrows + static_cast<uint32_t>(p.nu);
  const uint32_t total = rows * static_cast<uint32_t>(p.ns - ke);
  const uint32_t stride = gridDim.x * blockDim.x;
  for (uint32_t e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
    const uint32_t jj = e / rows;
    const uint32_t i = e - jj * rows;
    const int64_t j = ke + static_cast<int64_t>(jj);
    if (i < lrows) {
      const double* lrow = p.l + ke + i;     // L(ke + i, kb + c) at lrow[(kb + c) * nr]
      const double* ucol = p.l + j * p.nr;   // U(kb + c, j) at ucol[kb + c]
      double* cp = p.l + j * p.nr + ke + i;
      double v = *cp;
#pragma unroll
      for (int c = 0; c < kPanelWidth; ++c) {
        const double u = ucol[kb + c];
        if (u != 0.0) v = __dsub_rn(v, __dmul_rn(lrow[static_cast<int64_t>(kb + c) * p.nr], u));
      }
      *cp = v;
    } else {
      const int64_t r = i - lrows;
      double* cp = p.u + j * p.nu + r;
      double v = *cp;
#pragma unroll
      for (int cc = 0; cc < kPanelWidth; ++cc) {
        const double ljk = p.l[static_cast<int64_t>(kb + cc) * p.nr + j];  // L(j, kb + cc)
        if (ljk != 0.0) v = __dsub_rn(v, __dmul_rn(ljk, p.u[static_cast<int64_t>(kb + cc) * p.nu + r]));
      }
      *cp = v;
    }
  }
}

// Subtracts v, entry (x, y) of supernode p's Schur complement L21 U12, from its target
// (supernodes.hpp): for x >= y, L(r_x, r_y) in t = of_col[r_y]; for x < y, U(r_x, r_y) in
// t = of_col[r_x], in t's U^T panel or, where r_y is one of t's columns, its diagonal block.
// Returns false when t lacks the row (a broken schedule).
__device__ __forceinline__ bool subtract_at_target(const SupernodeArgs& a, const Panel& p, int64_t x, int64_t y,
                                                   double v) {
  const bool lower = x >= y;
  const int32_t rlo = p.below[lower ? y : x];
  const int32_t rhi = p.below[lower ? x : y];
  const int32_t t = a.of_col[rlo];
  const int32_t c = rlo - a.first[t];
  const int32_t ns_t = a.first[t + 1] - a.first[t];
  const int64_t tb = a.rows_ptr[t];
  const int64_t te = a.rows_ptr[t + 1];
  const int64_t nr_t = te - tb;
  const int64_t q = first_row_at_least(a.rows, tb + c, te, rhi);  // rhi >= rlo sits at or after rlo
  if (q == te || a.rows[q] != rhi) return false;
  const int64_t r = q - tb;
  int64_t pos;
  if (lower)
    pos = a.l_ptr[t] + static_cast<int64_t>(c) * nr_t + r;
  else if (r >= ns_t)
    pos = a.u_ptr[t] + static_cast<int64_t>(c) * (nr_t - ns_t) + (r - ns_t);
  else
    pos = a.l_ptr[t] + r * nr_t + c;
  atomicAdd(a.panels + pos, -v);
  return true;
}

// Small supernodes: tile (blockIdx.y) of supernode nodes[blockIdx.x]'s L21 U12, kSchurTile x
// kSchurTile entries, 256 threads: a lane per row x, a warp per four columns y (four
// independent sums, each the dot product over the supernode's columns in ascending order,
// rounded without FMA as the CPU's loops round it). L21's and U12's rows pass through shared
// memory kSchurDepth columns at a time, read once, coalesced. A block per supernode reading
// both panels from global memory for every entry was latency-bound near the root
// (docs/performance_history.md, fifth step).
constexpr int kSchurThreads = 256;
constexpr int kSchurDepth = 32;
constexpr int kSchurSums = kSchurTile * kSchurTile / kSchurThreads;

__global__ void __launch_bounds__(kSchurThreads) schur_direct_kernel(SupernodeArgs a, const int32_t* __restrict__ nodes) {
  __shared__ double sl[kSchurDepth * kSchurTile];  // L21(x0 + x, k0 + kk) at sl[kk * kSchurTile + x]
  __shared__ double su[kSchurDepth * kSchurTile];  // U12(k0 + kk, y0 + y) at su[kk * kSchurTile + y]
  const int32_t s = nodes[blockIdx.x];
  if (input_was_bad(a.state) || a.failed[s]) return;
  const Panel p = panel_of(a, s);
  // 32-bit index arithmetic (a direct complement has nb^2 ns < kGemmMinWork entries' work).
  const uint32_t nb = static_cast<uint32_t>(p.nu);
  const uint32_t side = (nb + kSchurTile - 1) / kSchurTile;
  if (blockIdx.y >= side * side) return;  // uniform over the block
  const uint32_t x0 = (blockIdx.y % side) * kSchurTile;
  const uint32_t y0 = (blockIdx.y / side) * kSchurTile;
  const double* l21 = p.l + p.ns;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  double sum[kSchurSums];
#pragma unroll
  for (int q = 0; q < kSchurSums; ++q) sum[q] = 0.0;
  for (int32_t k0 = 0; k0 < p.ns; k0 += kSchurDepth) {
    const int32_t depth = min(kSchurDepth, p.ns - k0);
    __syncthreads();  // the previous pass has read its tiles
    for (int e = static_cast<int>(threadIdx.x); e < kSchurDepth * kSchurTile; e += kSchurThreads) {
      const uint32_t i = static_cast<uint32_t>(e % kSchurTile);
      const int kk = e / kSchurTile;
      const int64_t k = k0 + kk;
      sl[e] = kk < depth && x0 + i < nb ? l21[x0 + i + k * p.nr] : 0.0;
      su[e] = kk < depth && y0 + i < nb ? p.u[y0 + i + k * p.nu] : 0.0;
    }
    __syncthreads();
    for (int kk = 0; kk < depth; ++kk) {
      const double l = sl[kk * kSchurTile + lane];
#pragma unroll
      for (int q = 0; q < kSchurSums; ++q)
        sum[q] = __dadd_rn(sum[q], __dmul_rn(l, su[kk * kSchurTile + warp + q * (kSchurThreads / 32)]));
    }
  }
  bool missing = false;
  const uint32_t x = x0 + static_cast<uint32_t>(lane);
#pragma unroll
  for (int q = 0; q < kSchurSums; ++q) {
    const uint32_t y = y0 + static_cast<uint32_t>(warp + q * (kSchurThreads / 32));
    if (x < nb && y < nb) missing |= !subtract_at_target(a, p, x, y, sum[q]);
  }
  if (missing) a.state->missing_fill = 1;
}

// Large supernodes: columns y0 .. y0 + ncols of L21 U12, computed by cuBLAS into w.
__global__ void __launch_bounds__(kScatterThreads) schur_scatter_kernel(SupernodeArgs a, int32_t s,
                                                                        const double* __restrict__ w, int64_t y0,
                                                                        int64_t ncols) {
  if (input_was_bad(a.state) || a.failed[s]) return;
  const Panel p = panel_of(a, s);
  // 32-bit index arithmetic: a chunk holds at most kGemmWorkspaceDoubles (2^23) entries.
  const uint32_t nb = static_cast<uint32_t>(p.nu);
  const uint32_t total = nb * static_cast<uint32_t>(ncols);
  const uint32_t stride = gridDim.x * blockDim.x;
  bool missing = false;
  for (uint32_t e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
    const uint32_t yy = e / nb;
    missing |= !subtract_at_target(a, p, e - yy * nb, y0 + yy, w[e]);
  }
  if (missing) a.state->missing_fill = 1;
}

}  // namespace

void launch_panel_factor(const SupernodeArgs& a, const int32_t* nodes, int32_t count, int threads, size_t smem,
                         cudaStream_t stream) {
  if (count <= 0) return;
  if (smem > 0) {
    allow_panel_smem(reinterpret_cast<const void*>(panel_factor_kernel<true>));
    panel_factor_kernel<true><<<static_cast<unsigned>(count), threads, smem, stream>>>(a, nodes);
  } else {
    panel_factor_kernel<false><<<static_cast<unsigned>(count), threads, 0, stream>>>(a, nodes);
  }
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_panel_block(const SupernodeArgs& a, int32_t s, int32_t k0, int32_t k1, int threads, size_t smem,
                        cudaStream_t stream) {
  if (smem > 0) {
    allow_panel_smem(reinterpret_cast<const void*>(panel_block_kernel<true>));
    panel_block_kernel<true><<<1, threads, smem, stream>>>(a, s, k0, k1);
  } else {
    panel_block_kernel<false><<<1, threads, 0, stream>>>(a, s, k0, k1);
  }
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_panel_steps(const SupernodeArgs& a, const int32_t* nodes, int32_t count, int32_t max_cols, int threads,
                        size_t smem, const uint32_t* trailing_blocks, cudaStream_t stream) {
  if (count <= 0) return;
  allow_panel_smem(reinterpret_cast<const void*>(panel_step_kernel));
  for (int32_t kb = 0, step = 0; kb < max_cols; kb += kPanelWidth, ++step) {
    panel_step_kernel<<<static_cast<unsigned>(count), threads, smem, stream>>>(a, nodes, kb);
    GPUGLU_CUDA_CHECK(cudaGetLastError());
    if (kb + kPanelWidth >= max_cols || trailing_blocks[step] == 0) continue;
    panel_trailing_kernel<<<dim3(trailing_blocks[step], static_cast<unsigned>(count)), kScatterThreads, 0, stream>>>(
        a, nodes, kb);
    GPUGLU_CUDA_CHECK(cudaGetLastError());
  }
}

void launch_schur_direct(const SupernodeArgs& a, const int32_t* nodes, int32_t count, int32_t tiles,
                         cudaStream_t stream) {
  if (count <= 0) return;
  schur_direct_kernel<<<dim3(static_cast<unsigned>(count), static_cast<unsigned>(tiles)), kSchurThreads, 0, stream>>>(
      a, nodes);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_schur_scatter(const SupernodeArgs& a, int32_t s, int64_t nb, const double* w, int64_t y0, int64_t ncols,
                          cudaStream_t stream) {
  const int64_t total = nb * ncols;
  if (total <= 0) return;
  int64_t blocks = (total + kScatterThreads - 1) / kScatterThreads;
  const int64_t max_blocks = current_device_facts().grid_stride_blocks();  // a grid-stride loop
  if (blocks > max_blocks) blocks = max_blocks;
  schur_scatter_kernel<<<static_cast<unsigned>(blocks), kScatterThreads, 0, stream>>>(a, s, w, y0, ncols);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::kernels
