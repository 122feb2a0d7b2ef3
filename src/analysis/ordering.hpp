#pragma once
// Fill-reducing symmetric ordering of the matched matrix B (B(k, :) = A(row_of_col[k], :)).
// Static pivots keep B's diagonal on the diagonal, so the ordering must be symmetric:
// AMD and METIS order B + B^T, COLAMD orders B's columns and the result is applied
// to rows and columns alike.
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/input_pattern.hpp"
#include "gpuglu/options.hpp"

namespace gpuglu::analysis {

// The pattern of B in CSC (rows ascending per column).
struct MatchedPattern {
  int32_t n = 0;
  std::vector<int32_t> colptr;
  std::vector<int32_t> rowind;
};

MatchedPattern matched_pattern(const ColumnPattern& a_cols, int32_t n, const std::vector<int32_t>& row_of_col);

// Ordering::automatic resolved for a matrix of n unknowns: for the engines that work on an
// elimination tree's levels (the LDL^T and the supernodal LU: tree_engine) AMD below
// kMetisFromRows unknowns and METIS's nested dissection from there on, as Chen & Wang do for
// LDL^T (docs/performance_history.md measures the switch on ours; for the supernodal LU nested
// dissection gives a shallower supernodal tree and most often a smaller factor, and the
// GPU refactors faster: docs/performance_history.md, supernodal sixth step);
// AMD for the column LU (GLU3.0's levels). Any other ordering is returned as it is.
constexpr int32_t kMetisFromRows = 5000;
Ordering resolve_ordering(Ordering requested, int32_t n, bool tree_engine);

struct SymmetricGraph;  // symmetric_graph.hpp

// Hears AMD's factor flops from an ordering (OrderingWork::amd_counted).
using AmdCounted = std::function<void(double)>;

// How an ordering is computed: on how many threads (<= 0: OpenMP's default), whether the
// process's ordering cache is asked (ordering_cache.hpp), and the graph of B + B^T when the
// caller built it already (METIS orders it; otherwise it is built here).
struct OrderingWork {
  int threads = 0;
  bool cache = false;
  const SymmetricGraph* graph = nullptr;
  // An automatic ordering resolved to METIS for a factor the CPU will run
  // (Options::ordering_for_cpu): AMD first, kept where its factor is below kAmdKeepFlops.
  bool amd_if_small = false;
  // Receives the ordering computed (AMD where amd_if_small kept it); may be null.
  Ordering* used = nullptr;
  // Told AMD's factor flops (its count for the LU of B + B^T) once per ordering, before any of
  // METIS's work: where amd_if_small computes AMD first, or AMD is the ordering; -1 where no
  // count is made. api::DeviceWarmUp waits for it (api/engine_choice.hpp).
  AmdCounted amd_counted = nullptr;
};

// AMD's factor flops (its count for the LU of B + B^T's pattern) below which amd_if_small keeps
// AMD: a 2-D Laplacian of about 110^2 unknowns. On the CPU, one thread: lap2d5 100^2's analysis
// 6.9 ms with AMD against 35.0 with METIS, its refactorization 9.2 against 10.6 ms
// (docs/performance.md, "Where we lose").
inline constexpr double kAmdKeepFlops = 67108864.0;  // 2^26

// Returns q (new -> old) of length n. given_perm is validated (Error(invalid_input)
// when it is not a permutation of 0..n-1) and used with Ordering::given.
std::vector<int32_t> fill_reducing_ordering(const MatchedPattern& b, Ordering ordering, const int32_t* given_perm,
                                            const OrderingWork& work = {});

}  // namespace gpuglu::analysis
