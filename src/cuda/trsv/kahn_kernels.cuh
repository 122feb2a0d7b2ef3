#pragma once
// Launchers of Kahn's level analysis on the GPU (R. Li, Sec. 4.4.1; driven by trsv_levels.cu).
// Every launcher checks its launch.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/trsv/kahn_shape.hpp"

namespace gpuglu::cuda::kahn {

// The dependency DAG by its out-edges: row r's dependents are rowind[colptr[r] .. colptr[r+1])
// (the triangle's off-diagonal CSC; trsv::TrsvAnalysis::csc_colptr / csc_rowind).
struct Graph {
  int32_t n = 0;
  const int64_t* colptr = nullptr;
  const int32_t* rowind = nullptr;
};

// What the level kernel reads and writes; every array lives on the device.
struct Work {
  int32_t* indegree = nullptr;     // n: the dependency counts on entry, all 0 on a complete exit
  int32_t* queue = nullptr;        // n: rows in discovery order, level by level
  int32_t* level = nullptr;        // n: out, each row's level
  int32_t* level_ptr = nullptr;    // n + 2: out, level l is queue[level_ptr[l] .. level_ptr[l+1])
  int32_t* level_count = nullptr;  // n + 2: zero on entry (rows found per level by the whole grid)
  int32_t* state = nullptr;        // kStateWords: out, kStateLevels and kStatePlaced
};
constexpr int kStateLevels = 0;    // levels found
constexpr int kStatePlaced = 1;    // rows placed in them (n unless the graph has a cycle)
constexpr int kStateWords = 8;     // the rest: block 0's hand-over after narrow frontiers

// Blocks of the level kernel one SM holds at once (cooperative launches need all resident).
int32_t max_blocks_per_sm();

// The whole level analysis in one cooperative launch on `stream`. The host learns the level
// count from state afterwards; level_ptr[0 .. levels] and level are then final.
void launch_levels(const Graph& g, const Work& w, const Shape& shape, cudaStream_t stream);

// jlev = the rows sorted by level, ascending rows within a level (a stable sort of 0..n-1
// by level, like trsv::compute_levels' counting sort). iota is overwritten with 0..n-1,
// keys_out receives the sorted levels; level_bits: bits that hold the largest level (>= 1).
// temp == nullptr: only sets temp_bytes.
void sort_rows_by_level(int32_t n, const int32_t* level, int32_t level_bits, int32_t* iota, int32_t* keys_out,
                        int32_t* jlev, void* temp, size_t& temp_bytes, cudaStream_t stream);

}  // namespace gpuglu::cuda::kahn
