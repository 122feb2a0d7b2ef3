// Panels factored whole in shared memory (supernodal_kernels.cuh: launch_panel_resident,
// launch_panel_block_resident). The staged kernels keep one 16-column block in shared memory
// and pay six barriers per column (two block reductions, the scaling, the update) with a
// thread per row: such a panel is one latency-bound thread block while the GPU idles (the
// levels near the root hold one supernode; docs/performance_history.md, fifth step).
// Here the whole panel is loaded once and each column costs two barriers:
//   A  column k is final and its largest magnitude known (the warp that updated it reduced it),
//   B  column k is scaled;
// between B and the next A the warps update the remaining columns, a warp per column and a
// lane per row (conflict-free in shared memory, no index division), and the warp that owns
// column k + 1 reduces its magnitudes on the way. Every entry receives the same subtractions
// in the same ascending order, rounded the same way (no FMA), with the same zero-multiplier
// skips and the same pivot decisions on the same column maxima as factor_columns: bitwise its
// factor and the CPU reference's.
#include <cfloat>

#include "cuda/common/cuda_check.hpp"
#include "cuda/supernodal/panel_device.cuh"
#include "cuda/supernodal/supernodal_kernels.cuh"

namespace gpuglu::cuda::kernels {
namespace {

// max |v| and finiteness, accumulated lane by lane (then reduced over the warp).
__device__ __forceinline__ void accumulate(double v, double& m, bool& ok) {
  const double av = fabs(v);
  m = av > m ? av : m;
  ok &= av <= DBL_MAX;
}

// The warp's lane maxima and finiteness reduced, published by lane 0 for the next column's test.
__device__ __forceinline__ void publish_max(double m, bool ok, double& max_out, int& finite_out) {
  m = warp_max(m);
  ok = __all_sync(kFullMask, ok) != 0;
  if ((threadIdx.x & 31) == 0) {
    max_out = m;
    finite_out = ok;
  }
}

// Columns k0 .. k1 - 1 of supernode s's L panel (all its nr rows: the rows above k0 hold U
// entries made final by earlier blocks, which count in the pivot test's maximum) and, with_ut,
// its whole U^T panel (then k0 = 0 and k1 = ns): loaded into sm, factored, written back. The
// rank-1 updates reach the L panel's columns up to k1 only (the blocked factorization leaves
// the rest to cuBLAS). A failing column stops the factorization for the whole block at once
// (every thread takes the same decision); what was computed is written back all the same.
// (Measured and dropped: warp 0 settling column k + 1 ahead of the others' updates, which
// saves barrier B; the one warp's scaling of a tall column cost more than the barrier.)
__device__ void factor_resident(const SupernodeArgs& a, int32_t s, int32_t k0, int32_t k1, bool with_ut, double* sm) {
  __shared__ double next_max;
  __shared__ int next_finite;
  const Panel p = panel_of(a, s);
  const int tid = static_cast<int>(threadIdx.x);
  const int nthreads = static_cast<int>(blockDim.x);
  const int lane = tid & 31, warp = tid >> 5, nwarps = nthreads >> 5;
  const int64_t nr = p.nr;
  const int64_t nu = with_ut ? p.nu : 0;
  const int32_t w = k1 - k0;
  double* L = sm;           // L(i, k0 + c) at L[i + c * nr]
  double* U = sm + nr * w;  // U^T(r, c) at U[r + c * nu]
  double* gl = p.l + static_cast<int64_t>(k0) * nr;
  for (int64_t e = tid; e < nr * w; e += nthreads) L[e] = gl[e];
  for (int64_t e = tid; e < nu * w; e += nthreads) U[e] = p.u[e];
  __syncthreads();
  if (warp == 0) {  // the first column's maximum (the others': the update that finishes them)
    double m = 0.0;
    bool ok = true;
    for (int64_t i = lane; i < nr; i += 32) accumulate(L[i], m, ok);
    publish_max(m, ok, next_max, next_finite);
  }
  __syncthreads();
  PanelPivots pivots(a.state);
  // The pivot statistics (a division per column) by the block's last thread: its warp has the
  // fewest rows to scale, so the division does not lengthen the column's step.
  const bool keeper = tid == nthreads - 1;
  for (int32_t c = 0; c < w; ++c) {
    const int32_t k = k0 + c;  // the pivot's row
    double* col = L + static_cast<int64_t>(c) * nr;
    const double pivot0 = col[k];
    double pivot;
    if (!pivots.decide(pivot0, next_max, next_finite != 0, p.first + k, pivot, keeper)) break;  // uniform
    for (int64_t i = k + 1 + tid; i < nr; i += nthreads) col[i] = __ddiv_rn(col[i], pivot);
    __syncthreads();  // B: column k scaled; every thread has read pivot0 and next_max
    if (tid == 0 && pivot != pivot0) col[k] = pivot;  // read by no one before the write-back
    for (int32_t cj = c + 1 + warp; cj < w; cj += nwarps) {
      double* cc = L + static_cast<int64_t>(cj) * nr;
      const double ukj = cc[k];  // U(k, j)
      const bool next = cj == c + 1;
      double m = 0.0;
      bool ok = true;
      if (ukj != 0.0)
        for (int64_t i = k + 1 + lane; i < nr; i += 32) {
          const double v = __dsub_rn(cc[i], __dmul_rn(col[i], ukj));  // L(i, j) -= L(i, k) U(k, j)
          cc[i] = v;
          if (next) accumulate(v, m, ok);
        }
      if (next) {  // the rows the update did not write: all of them when U(k, j) is zero
        const int64_t untouched = ukj != 0.0 ? k + 1 : nr;
        for (int64_t i = lane; i < untouched; i += 32) accumulate(cc[i], m, ok);
        publish_max(m, ok, next_max, next_finite);
      }
      const double ljk = nu > 0 ? col[k0 + cj] : 0.0;  // L(j, k); with_ut means k0 = 0
      if (ljk != 0.0) {
        const double* uk = U + static_cast<int64_t>(c) * nu;
        double* uj = U + static_cast<int64_t>(cj) * nu;
        for (int64_t r = lane; r < nu; r += 32) uj[r] = __dsub_rn(uj[r], __dmul_rn(ljk, uk[r]));  // U(j, r) -= L(j, k) U(k, r)
      }
    }
    __syncthreads();  // A: column k + 1 final, its maximum published
  }
  __syncthreads();
  for (int64_t e = tid; e < nr * w; e += nthreads) gl[e] = L[e];
  for (int64_t e = tid; e < nu * w; e += nthreads) p.u[e] = U[e];
  if (keeper) pivots.publish(a, s);
}

__global__ void __launch_bounds__(1024) panel_resident_kernel(SupernodeArgs a, const int32_t* __restrict__ nodes) {
  extern __shared__ double resident_panel[];
  if (input_was_bad(a.state)) return;
  const int32_t s = nodes[blockIdx.x];
  if (pivots_rows(a, s)) return;
  factor_resident(a, s, 0, a.first[s + 1] - a.first[s], true, resident_panel);
}

__global__ void __launch_bounds__(1024) panel_block_resident_kernel(SupernodeArgs a, int32_t s, int32_t k0,
                                                                    int32_t k1) {
  extern __shared__ double resident_panel[];
  if (input_was_bad(a.state)) return;
  const volatile uint8_t* failed = a.failed;
  if (failed[s]) return;
  factor_resident(a, s, k0, k1, false, resident_panel);
}

}  // namespace

void launch_panel_resident(const SupernodeArgs& a, const int32_t* nodes, int32_t count, int threads, size_t smem,
                           cudaStream_t stream) {
  if (count <= 0) return;
  allow_panel_smem(reinterpret_cast<const void*>(panel_resident_kernel));
  panel_resident_kernel<<<static_cast<unsigned>(count), threads, smem, stream>>>(a, nodes);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

void launch_panel_block_resident(const SupernodeArgs& a, int32_t s, int32_t k0, int32_t k1, int threads, size_t smem,
                                 cudaStream_t stream) {
  allow_panel_smem(reinterpret_cast<const void*>(panel_block_resident_kernel));
  panel_block_resident_kernel<<<1, threads, smem, stream>>>(a, s, k0, k1);
  GPUGLU_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpuglu::cuda::kernels
