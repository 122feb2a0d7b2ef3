#pragma once
// The row ILU's factor (FactorKind::row_ilu): incomplete LU by rows, the IKJ variant PETSc's
// own ILU runs (Saad, Iterative Methods for Sparse Linear Systems, Algorithm 10.4). Row i is
// loaded from the row storage (C in F's CSR order: the scatter's target, a copy of A's values
// for an ILU(0) in A's order) into a dense work row; the rows k < i of its L part, in
// ascending order, subtract their multiplier times U(k, :) where row i's pattern has the
// entry (an update outside it lands in a work entry row i never reads: the fill is dropped);
// the row then goes to L's and U's rows apart, where the solves read them
// (cpu/row_ordered_solve.hpp: each row one dot product, the layout PETSc's MatSolve reads).
// Multipliers use the reciprocal pivot, as PETSc's do.
//
// Pivots: a row is final before its column is, so the pivot test is PivotRule's with the
// row's largest active entry where the column engines take the column's (the analysis builds
// a row ILU only under a rule without a column threshold: analysis/row_ilu.hpp); a perturbed
// pivot likewise has the row's magnitude (PETSc's shift loop only ever perturbs exact zeros,
// and rejects a factor that has one).
#include <cstdint>
#include <vector>

#include "core/numeric_types.hpp"
#include "cpu/row_ordered_solve.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

template <class T>
class RowIluFactor {
 public:
  explicit RowIluFactor(const Schedule& s);  // s must outlive this object

  // Where C is scattered (s.value_map_extent() entries) before factor(); null where the value
  // map is the identity and A's values are C's, factored in place.
  T* storage() noexcept { return storage_.empty() ? nullptr : storage_.data(); }
  // Factors C (in F's row order: storage(), or A's values) into L and U, rule.diagonal_shift
  // added to each pivot as its row is loaded; work holds n entries. Stops at the first
  // failing row.
  NumericStats factor(const T* c, T* work, const PivotRule& rule);

  // x = A^{-1} b and x = A^{-T} b; b and x may alias; work holds n entries.
  void solve(const T* b, T* x, T* work) const { rows_.solve(b, x, work); }
  void solve_transpose(const T* b, T* x, T* work) const { rows_.solve_transpose(b, x, work); }
  // F's values in the schedule's CSC order (spelled out: spell_out_factor).
  void copy_to_factor(T* f) const;

 private:
  const Schedule& s_;
  std::vector<T> storage_;
  std::vector<T> diag_;  // the pivots (the solves read their reciprocals)
  RowOrderedFactor<T> rows_;
};

}  // namespace gpuglu::reference
