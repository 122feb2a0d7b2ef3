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
// On the GPU the level part is faster for 3-D problems up to ~2k levels and slower on long
// chains and small triangles, and the whole analysis changes little, since its CPU part
// dominates (docs/performance.md, "Measurements behind the kernel rules").
#include <cstdint>

#include "gpuglu/options.hpp"
#include "analysis/triangle.hpp"
#include "analysis/trsv_analysis.hpp"

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

// The launch shape's overrides (Options::cuda.kahn_*; -1: the measured default of
// kahn_shape.hpp). Benchmarks sweep them; the levels never depend on them.
struct KahnTuning {
  int32_t blocks_per_sm = -1;
  int32_t narrow_rows = -1;
  static KahnTuning from(const CudaTuning& c) { return {c.kahn_blocks_per_sm, c.kahn_narrow_rows}; }
};

// Fills a's levels on the GPU: level, level_ptr, jlev, num_levels, max_level_rows, exactly
// as trsv::compute_levels(t, a) would. a must be trsv::analyze_dependencies(t): its
// dep_count and CSC are what the device reads (t only serves to check that a belongs to
// it). device_ordinal < 0: the calling thread's current device. Synchronous. Throws
// gpuglu::Error: invalid_input (a is not analyze_dependencies(t), or its counts and CSC
// describe no DAG), out_of_memory naming the bytes asked, no_device, unsupported (a device
// without cooperative launches), device_error.
void compute_levels_on_device(const trsv::TriangleView& t, trsv::TrsvAnalysis& a, int device_ordinal = -1,
                              DeviceLevelStats* stats = nullptr, const KahnTuning& tuning = {});

// trsv::analyze(t) with the levels from the GPU: trsv::analyze_dependencies(t) (checks,
// counts, CSC on the CPU), then compute_levels_on_device. The same errors as both.
trsv::TrsvAnalysis analyze_with_device_levels(const trsv::TriangleView& t, int device_ordinal = -1,
                                              DeviceLevelStats* stats = nullptr, const KahnTuning& tuning = {});

}  // namespace gpuglu::cuda
