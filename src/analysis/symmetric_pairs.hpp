#pragma once
// Pairs for ordering a symmetric indefinite matrix (after Duff & Pralet's compressed
// graphs): a variable whose scaled diagonal is small - a KKT system's zero block - is tied
// to its partner in the maximum-product matching, the pair is ordered as one node of a
// compressed graph, and the partner with the larger diagonal comes first. Its elimination
// then fills the small diagonal (-a^2 / h for [h a; a 0]), so the static 1 x 1 pivots of
// the LDL^T meet no zero there: fewer perturbed pivots, fewer refinement steps, an inertia
// that can be reported. Variables with a usable diagonal stay single, so SPD matrices and
// well-conditioned indefinite ones are ordered as before.
#include <cstdint>
#include <vector>

#include "analysis/ordering.hpp"
#include "analysis/symmetric_input.hpp"

namespace gpuglu::analysis {

// A scaled diagonal |s_i a_ii s_i| below this (the matched entries are 1) asks for a partner.
constexpr double kSmallScaledDiagonal = 1e-2;

struct SymmetricPairs {
  std::vector<int32_t> partner;  // the other variable of i's pair, -1 for a single
  int32_t pairs = 0;
};

// full_values: A's values on the full pattern (a.colptr / a.rowind order); scale: the
// symmetric scaling; row_of_col: the matching (column j matched with row row_of_col[j]);
// q: the plain ordering (new -> old). Pairs are made only when q eliminates some
// small-diagonal variable before all of its neighbours (its pivot is then its own small
// diagonal): otherwise every small pivot is updated by an earlier neighbour's elimination,
// and pairs would only add fill (as on aug3dcqp, for no perturbed pivot less). When
// they are made, every small-diagonal variable gets one: the compressed graph's ordering
// differs from q, and a variable q made safe may come first in it (tuma1: pairing only
// q's unsafe ones left tiny pivots whose growth failed the check solve). A variable whose
// matched partner is taken (or is itself) takes its unpaired neighbour of largest scaled
// magnitude instead, if any.
SymmetricPairs pair_small_diagonals(const SymmetricInput& a, const std::vector<double>& full_values,
                                    const std::vector<double>& scale, const std::vector<int32_t>& row_of_col,
                                    const std::vector<int32_t>& q);

// The fill-reducing ordering of the compressed graph (each pair one node), expanded with
// each pair's larger scaled diagonal first. q: new -> old.
std::vector<int32_t> paired_ordering(const SymmetricInput& a, const std::vector<double>& full_values,
                                     const std::vector<double>& scale, const SymmetricPairs& pairs, Ordering ordering,
                                     const OrderingWork& work);

}  // namespace gpuglu::analysis
