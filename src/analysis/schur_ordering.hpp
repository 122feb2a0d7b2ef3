#pragma once
// The stages of the Schur-complement analysis (analyze_schur, gpuglu/analysis.hpp): the
// caller's unknowns I (sorted, unique) are kept out of the factorization, as MUMPS and cuDSS
// do it: ordered last, they become the trailing dense block of the supernodal LU, which the
// engines update but never factor (Schedule::schur_size). Everything that chooses pivots -
// the matching, the scaling, the fill-reducing ordering - sees A11 = A(J, J) alone (J: the
// other unknowns, ascending), because S = A22 - A21 A11^{-1} A12 is defined by A11's
// factorization: a row of I matched to a column of J would mix S's rows into A11.
#include <cstdint>
#include <vector>

#include "analysis/input_pattern.hpp"
#include "gpuglu/status.hpp"
#include "analysis/matching.hpp"
#include "analysis/ordering.hpp"
#include "gpuglu/supernodes.hpp"

namespace gpuglu::analysis {

// Throws Error(invalid_input) naming the first index of `indices` that is out of [0, n),
// repeated, or smaller than its predecessor.
void check_schur_indices(const std::vector<int32_t>& indices, int32_t n);

// I and J of an n x n A: J (the complement, ascending) and each unknown's place in J (-1 for
// those of I).
struct SchurSplit {
  std::vector<int32_t> complement;  // n - |I|
  std::vector<int32_t> local;       // n: A's index -> its index in A11, or -1
};
SchurSplit split_schur(int32_t n, const std::vector<int32_t>& indices);

// A11 = A(J, J) with its values (the caller's array for A, read here, is not kept):
// pattern.values points into values, so the pair moves together.
struct ComplementBlock {
  InputPattern pattern;
  std::vector<double> values;
};
ComplementBlock complement_block(const InputPattern& a, const SchurSplit& split);

// A structurally singular A11 (its matching's Error e) as the Schur analyses report it: A has
// k Schur unknowns and A11 the other m.
Error a11_singular(const Error& e, int32_t k, int32_t m);

// A11's matching and scaling in A's numbering: row_of_col and the scales of J from m11, and
// the unknowns of I matched to themselves with scale 1 (S then is A's, only permuted).
Matching lift_matching(const Matching& m11, const SchurSplit& split, int32_t n);

// Ordering::given with a Schur set: the caller's permutation of 0..n-1 (validated here,
// Error(invalid_input)) restricted to J, in A11's numbering.
std::vector<int32_t> restrict_given_ordering(const int32_t* given_perm, const SchurSplit& split);

// q (new -> old, A's numbering): A11's ordering q11 (A11's numbering), then I in its order.
std::vector<int32_t> schur_last(const std::vector<int32_t>& q11, const SchurSplit& split,
                                const std::vector<int32_t>& indices);

// B's pattern with the block I x I made dense (I's rows of B are A's rows of I, matched to
// themselves), so that I is one clique of B + B^T: one chain at the top of the elimination
// tree, whose columns CHOLMOD's supernodes then hold in one dense block.
MatchedPattern with_dense_block(MatchedPattern b, const std::vector<int32_t>& indices);

// Whether q ends with `indices`, in their order.
bool schur_trails(const std::vector<int32_t>& q, const std::vector<int32_t>& indices);

// q with `indices` moved to its end, the rest in the order they had. CHOLMOD's weighted
// postorder may put an A11 subtree hanging from a later unknown of I between two unknowns of
// I; moving I last keeps every A11 subtree whole and every column after its descendants, so
// the elimination tree and the fill stay the same.
std::vector<int32_t> move_schur_last(const std::vector<int32_t>& q, const std::vector<int32_t>& indices);

// sn (from CHOLMOD, its last k columns those of I) with those columns exactly one supernode,
// the last, alone in the last level: a supernode that amalgamation stretched over both sides
// is split (its first part keeps the rows it had), the supernodes inside I are merged into
// one whose rows are I's (dense), and parents, panels' offsets, explicit zeros and levels
// follow. with_upper: the LU's U^T panels (supernodal_symbolic's).
void isolate_schur_supernode(Supernodes& sn, int32_t k, bool with_upper = true);

}  // namespace gpuglu::analysis
