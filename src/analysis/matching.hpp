#pragma once
// Static pivoting needs a zero-free diagonal: the maximum product transversal (MC64
// job 5, max_product_matching.hpp) permutes the rows so the diagonal is large, and its
// dual variables scale rows and columns so that |diagonal| = 1 >= |off-diagonal|.
#include <cstdint>
#include <vector>

#include "analysis/input_pattern.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::analysis {

struct Matching {
  std::vector<int32_t> row_of_col;  // new -> old row: B(k, :) = A(row_of_col[k], :), B(k, k) != 0
  std::vector<double> row_scale;    // indexed by A's (old) row
  std::vector<double> col_scale;    // indexed by A's column
  bool matched = false;             // row_of_col came from MC64 (not the identity)
  bool scaled = false;
  int32_t scales_clamped = 0;       // Schedule::scales_clamped
};

// Always checks the structural rank (BTF's maximum transversal): a structurally
// singular matrix is reported here, with its rank, whatever the options say.
// With use_mc64 false the identity is returned (a structurally zero diagonal is then
// left to the numeric factorization, where fill may or may not cure it).
Matching compute_matching(const InputPattern& a, const ColumnPattern& cols, bool use_mc64, bool use_scaling);

// The schedule's copy of m: whether it matched and scaled, and the scales.
void record_matching(Schedule& s, const Matching& m);

}  // namespace gpuglu::analysis
