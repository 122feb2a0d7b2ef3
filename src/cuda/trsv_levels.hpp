#pragma once
// The level analysis of a sparse triangular solve on the GPU, by Kahn's algorithm (issue 4:
// "levels (CPU, O(nnz)) and, by option, Kahn's algorithm on the GPU"; R. Li, Sec. 4.4.1).
// Plain C++ (no CUDA types), so the API layer, the benchmark and the tests include it
// without nvcc. The result is bit-for-bit what trsv::compute_levels gives on the CPU, so
// cuda::TriangularSolver takes either analysis unchanged.
//
// What runs where. The checks, the dependency counts and the CSC stay on the CPU
// (trsv::analyze_dependencies): the analysis carries the CSC and its CSR map anyway
// (LEVC / SLFC upload them, ILU refactorizations gather through the map), so building it
// on the device would add a CSR upload (8n + 4 nnz bytes) and a CSC download (8n + 12
// offdiag bytes) to save a host pass that must exist for the map. The GPU gets what Kahn's
// algorithm reads, the counts and the CSC (12n + 4 offdiag bytes up), and sends back level,
// jlev and level_ptr (8n + 4 levels bytes down). Device memory: about 32n + 4 offdiag bytes
// plus CUB's sort buffer, all freed before returning. Cost on the device: one cooperative
// launch for all levels (a grid barrier per wide level, block-local barriers for narrow
// ones: kahn_shape.hpp), one radix sort of n keys, and one host synchronization to read the
// level count. Like every level algorithm, the time grows with the number of levels: on a
// chain (n levels) the CPU loop wins by far.
//
// Measured (H100 and its host, device run 3 of branch trsv-kahn, gpuglu_trsv_bench
// --analysis-only; ms for L + U; the CPU numbers vary by ~30% between runs):
//                       levels  CPU levels  GPU levels (kernels + copies)  whole analysis CPU / GPU levels
//   lap2d5 1024^2         2047     33.6       21.9  (10.9 + 9.6)             130 / 105
//   lap2d5 64x16384      16447     28.5       46.0  (34.0 + 10.1)            110 / 126
//   lap3d7 128^3           382     66.1       27.3  ( 3.6 + 21.9)            362 / 288
//   lap3d27 128^3          890    116.3       51.5  ( 7.1 + 42.6)           1157 / 1101
//   lap3d27 32x32x2048    8282     96.4      101.6  (56.1 + 43.7)           1051 / 1031
//   n <= 5000 (../shared/matrices)  0.01-0.1   0.6-1.1 (fixed costs: stream, allocations, two synchronizations)
// The level part is 1.3-2.5x faster on the GPU for 3-D problems and up to ~2k levels and
// slower beyond ~8k levels or below ~100k rows; the whole analysis changes little, because
// trsv::analyze_dependencies (the checks and the CSC with its map, on the CPU) is 70-90% of
// it, and the copies of the CSC dominate the GPU part on 3-D problems.
#include <cstdint>

#include "trsv/triangle.hpp"
#include "trsv/trsv_analysis.hpp"

namespace gpuglu::cuda {

// Where the time of one compute_levels_on_device call went (device events on its stream;
// total_ms is the host wall clock of the whole call, allocations included).
struct DeviceLevelStats {
  double upload_ms = 0;    // counts and CSC to the device (and the work arrays' initialization)
  double kahn_ms = 0;      // the cooperative level kernel
  double sort_ms = 0;      // the level count back to the host, then jlev: the stable sort of the rows by level
  double download_ms = 0;  // level, jlev, level_ptr back
  double total_ms = 0;
  int32_t blocks = 0;       // cooperative grid
  int32_t group = 0;        // lanes per frontier row
  int32_t narrow_rows = 0;  // frontiers this narrow ran in one block
  int64_t device_bytes = 0; // device memory held during the call
};

// Fills a's levels on the GPU: level, level_ptr, jlev, num_levels, max_level_rows, exactly
// as trsv::compute_levels(t, a) would. a must be trsv::analyze_dependencies(t): its
// dep_count and CSC are what the device reads (t only serves to check that a belongs to
// it). device_ordinal < 0: the calling thread's current device. Synchronous. Throws
// gpuglu::Error: invalid_input (a is not analyze_dependencies(t), or its counts and CSC
// describe no DAG), out_of_memory naming the bytes asked, no_device, unsupported (a device
// without cooperative launches), device_error.
void compute_levels_on_device(const trsv::TriangleView& t, trsv::TrsvAnalysis& a, int device_ordinal = -1,
                              DeviceLevelStats* stats = nullptr);

// trsv::analyze(t) with the levels from the GPU: trsv::analyze_dependencies(t) (checks,
// counts, CSC on the CPU), then compute_levels_on_device. The same errors as both.
trsv::TrsvAnalysis analyze_with_device_levels(const trsv::TriangleView& t, int device_ordinal = -1,
                                              DeviceLevelStats* stats = nullptr);

}  // namespace gpuglu::cuda
