#pragma once
// Interface of the factorization kernels every engine shares: the device-side state of one
// factorization and host launchers (kernels live in factor_kernels.cu, solve_kernels.cu,
// engine/refine_kernels.cu and, for the level loop's update kernels, the column engines'
// rules: lu/lu_kernels.cu, ldlt/ldlt_kernels.cu; every launcher checks the launch through
// GPUGLU_CUDA_CHECK and may be called during stream capture). Launchers of values are templates on the kernels' scalar T (double or DComplex,
// common/device_scalar.hpp), instantiated for both; the statistics stay real.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "core/numeric_types.hpp"
#include "cuda/common/device_scalar.hpp"

namespace gpuglu::cuda::kernels {

constexpr int64_t kMaxGridX = 2147483647;  // gridDim.x limit

// Blocks of per_block items each for `items`: at least one, at most max_blocks.
inline unsigned grid_for(int64_t items, int64_t per_block, int64_t max_blocks = kMaxGridX) {
  int64_t blocks = (items + per_block - 1) / per_block;
  if (blocks < 1) blocks = 1;
  if (blocks > max_blocks) blocks = max_blocks;
  return static_cast<unsigned>(blocks);
}


constexpr int32_t kNoLevel = INT32_MAX;                    // failed_level / failed_column: none
constexpr unsigned long long kNoEntry = ~0ull;             // bad_entry: none
constexpr unsigned long long kPlusInfBits = 0x7ff0000000000000ull;  // bits of +Inf

// The double whose bit pattern the state (or the residual kernel) kept.
inline double double_from_bits(unsigned long long b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

// One per CudaLU, in device memory; reset before every factorization (launch_reset).
// The statistics are non-negative doubles kept as their bit patterns, which order like
// the values, so atomicMin/atomicMax on the bits combine them without locks.
struct FactorState {
  int32_t failed_level;   // smallest level with a failed pivot; later levels do nothing
  // The supernodal engine: a panel factored by the unpivoted dense LU failed the static-pivot
  // test checked afterwards (the engine redoes the factorization with its panel kernels).
  int32_t unstable_panel;
  // (level << 32) | column of the first failure: smallest level, then smallest column (the
  // reference's report); kNoEntry if none.
  unsigned long long failure_key;
  int32_t missing_fill;   // an update found no (i, k) in the target column: schedule bug
  int32_t policy;         // PivotPolicy as int
  unsigned long long bad_entry;  // smallest input position holding NaN/Inf
  unsigned long long perturbed;
  unsigned long long first_perturbed;  // smallest perturbed column; kNoEntry if none
  unsigned long long min_ratio_bits;
  unsigned long long max_active_bits;
  unsigned long long max_input_bits;
  double threshold;
  double zero_pivot;
  double perturbation;
};

// Device pointers of the factor pattern and the level schedule (fixed for the object's
// life, so a captured graph can keep them).
template <class T>
struct BasicLevelArgs {
  const int64_t* colptr;
  const int32_t* rowind;
  const int64_t* diag;
  T* f;
  const int32_t* level_cols;
  const int32_t* target_col;
  const int64_t* src_ptr;
  const int64_t* src;
  const int32_t* src_col;  // symmetric schedules: each source's column k (target_src_col); else null
  FactorState* state;
  // ILU: updates whose target (i, k) is not in F are dropped (no superset guarantee, so
  // no direct offsets and no rank-bounded search windows either).
  bool incomplete;
  // Hermitian LDL^H (complex symmetric schedules): a pivot's imaginary part is dropped and
  // an update's multiplier is conj(L(j, k)) d_k (reference::factor_ldlt_levels).
  bool hermitian;
};
using LevelArgs = BasicLevelArgs<double>;

// --- factorization (factor_kernels.cu) ---
void launch_reset(FactorState* state, const PivotRule& rule, cudaStream_t stream);
// f[map[p]] = scale[p] * a[p] (f zeroed before), NaN/Inf detection and max |scaled value|.
// accumulate: f[map[p]] += instead, where entries share a position (symmetric schedules).
// conjugate (complex; null: none): a[p] enters conjugated where conjugate[p] is set (a
// Hermitian LDL^H's upper-triangle entries).
template <class T>
void launch_scatter(int64_t nnz, const T* a, const int64_t* map, const double* scale, T* f, FactorState* state,
                    bool accumulate, const uint8_t* conjugate, cudaStream_t stream);
// f[diag[j]] += shift for every column j (PivotRule::diagonal_shift; nothing when shift == 0).
template <class T>
void launch_shift_diagonal(int32_t n, const int64_t* diag, T* f, double shift, cudaStream_t stream);
// Whether the device and these kernels' binary support programmatic dependent launch.
bool programmatic_launch_supported(int device);

// The level loop's launchers. programmatic: launch with programmatic dependent launch
// (sm_90+), so the kernel overlaps the end of the previous one on the stream.
// Pivot test and L scaling of the level's columns level_cols[col_begin .. col_begin + ncols).
// threads_per_column == 32: a warp per column; otherwise a block of that many threads per column.
template <class T>
void launch_pivot(const BasicLevelArgs<T>& a, int32_t level, int64_t col_begin, int32_t ncols, int threads_per_column,
                  bool programmatic, cudaStream_t stream);

// --- solves (solve_kernels.cu) ---
// out[k] = scale[perm[k]] * in[perm[k]]
template <class T>
void launch_gather_scaled(int32_t n, const int32_t* perm, const double* scale, const T* in, T* out,
                          cudaStream_t stream);
// out[perm[k]] = scale[perm[k]] * in[k]
template <class T>
void launch_scatter_scaled(int32_t n, const int32_t* perm, const double* scale, const T* in, T* out,
                           cudaStream_t stream);


// --- the persistent, self-scheduled level loop (column/update_kernels.cuh) ---
// Tasks in order: per level its pivots, then its targets. Counters zeroed before a launch.
struct PersistentArgs {
  const uint8_t* task_is_pivot;
  const int64_t* task_arg;      // pivot: position in level_cols; target: target index t
  const int32_t* task_level;
  const int32_t* task_count;    // pivot of j: updates of j in all; target of k: updates of k before it
  const int64_t* level_ptr;     // the schedule's, on the device
  int64_t ntasks;
  unsigned long long* ticket;   // next task to hand out
  int32_t* col_done;            // n: updates applied per column
  int32_t* level_pivots_done;   // levels: pivots finished per level
};
constexpr int kPersistentThreads = 128;

// Phase 2 of one engine's level loop - its update kernels, as LevelLoop launches them: per
// level by warps or by blocks, or all levels in the persistent kernel (the launchers of
// update_launchers.cuh, which every engine instantiates with its kernels). Phase 1
// (launch_pivot) is the same for every engine.
template <class T>
struct BasicUpdateKernels {
  // Targets t_begin .. t_begin + ntargets of a level: one warp per target, warps_per_block per block.
  void (*by_warps)(const BasicLevelArgs<T>&, int32_t level, int64_t t_begin, int64_t ntargets, int warps_per_block,
                   bool programmatic, cudaStream_t stream);
  // Targets t_begin .. t_begin + ntargets of a level: one block of `threads` per target.
  void (*by_blocks)(const BasicLevelArgs<T>&, int32_t level, int64_t t_begin, int64_t ntargets, int threads,
                    bool programmatic, cudaStream_t stream);
  // Blocks that are resident at once on `device` (the persistent grid).
  int (*persistent_blocks)(int device);
  void (*persistent)(const BasicLevelArgs<T>&, const PersistentArgs&, int blocks, cudaStream_t stream);
};
using UpdateKernels = BasicUpdateKernels<double>;

// --- refinement (engine/refine_kernels.cu) ---
// r = b - A x over the rows of a CSR matrix whose values are values[value_of[p]] (or
// values[p] when value_of is null), and the backward error of core/backward_error.hpp:
// bits[0] = bits of max |x_j| / d_j (a first pass), bits[1] and bits[2] = the bits of omega1
// and omega2 (max over their rows), bits[3] = the componentwise backward error's (NaN counts
// as +Inf). d: the column scaling of this CSR matrix the factorization used (null: none).
// bits: 4 words, zeroed by the caller.
template <class T>
void launch_residual(int32_t n, const int64_t* rowptr, const int32_t* colind, const T* values, const int64_t* value_of,
                     const double* d, const T* b, const T* x, T* r, unsigned long long* bits, cudaStream_t stream);
// out = x + d
template <class T>
void launch_add(int32_t n, const T* x, const T* d, T* out, cudaStream_t stream);

}  // namespace gpuglu::cuda::kernels
