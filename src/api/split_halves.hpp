#pragma once
// The two halves of SplitLU (include/gpuglu/split_lu.hpp): M_d = B restricted to the rows
// and columns P_d ∪ S, numbered P_d first, then S (both ascending), so that S is M_d's
// trailing block, which the half's Schur-complement mode leaves unfactored. Half 0 carries
// B's S x S block; half 1 only an explicit zero diagonal there (each of B's separator entries
// must be added once, and no row of M_1 may be empty). Half 0's separator diagonal is
// explicit too: without the matching a separator row of B may have no entry inside P_0 ∪ S.
// The pattern and the map from A's values are built once per analysis; a factorization
// moves only values through the map.
#include <cstdint>
#include <vector>

#include "api/split_partition.hpp"
#include "gpuglu/matrix.hpp"

namespace gpuglu::api {

struct SplitHalf {
  int32_t n_part = 0;            // |P_d|: M_d's leading unknowns
  int32_t k = 0;                 // |S|: M_d's trailing unknowns
  std::vector<int32_t> global;   // M_d's unknown l -> B's index (A's column), n_part + k entries
  CsrMatrix<int32_t, double> m;  // M_d's pattern, sorted columns; values filled by gather_values
  // Each entry's position in A's CSR value array; -1: an explicit zero of M_d.
  std::vector<int64_t> source;
  int32_t size() const { return n_part + k; }
  // M_d's values from A's (A's CSR order, the analyzed pattern); null: none (pattern only).
  void gather_values(const double* a_values);
};

// Half d (0 or 1) of a's partition p. a: A's pattern (CSR, sorted columns).
SplitHalf build_half(const CsrView<int32_t, double>& a, const SplitPartition& p, int d);

}  // namespace gpuglu::api
