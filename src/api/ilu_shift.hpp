#pragma once
// PETSc's diagonal-shift loop for incomplete factorizations (Options::shift_type), so that
// -pc_factor_shift_type nonzero / positive_definite mean with gpuglu what they mean with
// PETSc's own ILU (MatLUFactorNumeric_SeqAIJ and MatPivotCheck_nz / _pd): the factorization
// runs on C + s I, and when a row's pivot fails the test the whole factorization runs again
// with a larger s (nonzero: doubled; positive_definite: bisected between 0 and the
// Manteuffel bound, and lowered again after a success, at most 5 steps).
//
// PETSc tests row i as its row-oriented elimination finishes it and restarts at the first
// failure. The engines here are column-oriented, so the test runs on the finished factor
// instead (first_failing_row): rows are eliminated in the same order, row i of an IKJ
// factorization depends only on the rows before it, so the first failing row, and with it
// every shift, is PETSc's.
#include <cstdint>
#include <functional>

#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::api {

class ShiftSearch {
 public:
  // shift_top: positive_definite's bound (manteuffel_bound); unused for nonzero.
  ShiftSearch(ShiftType type, double shift_amount, double shift_top);
  double amount() const { return amount_; }  // the shift of the next factorization
  int32_t tries() const { return tries_; }    // factorizations after the first
  // After a factorization with amount(): failed says whether a row failed. Returns true
  // when another factorization is needed (amount() then holds its shift).
  bool next(bool failed);

 private:
  ShiftType type_;
  double first_amount_, top_;
  double amount_ = 0.0, fraction_ = 0.0, lo_ = 0.0, hi_ = 1.0;
  int32_t tries_ = 0;
  static constexpr int32_t kMaxBisections = 5;  // PETSc's nshift_max
};

// 1.1 * max(zero_pivot, max_i (sum_j |a_ij| - |a_ii| - a_ii)): the shift that makes every
// row of C + s I diagonally dominant with a positive diagonal (PETSc's shift_top). Scalar:
// double or std::complex<double> (|.| of each entry, and the diagonal's real part, as PETSc).
template <class Scalar>
double manteuffel_bound(int32_t n, const int64_t* rowptr, const int32_t* colind, const Scalar* values,
                        double zero_pivot);

// The first row i (of C, in elimination order) whose pivot fails PETSc's test:
// |U(i,i)| <= zero_pivot * r_i (nonzero) or U(i,i) <= zero_pivot * r_i (positive_definite),
// r_i = sum |L(i,:)| + sum |U(i, >i)|, with f the factor on s's pattern. For a symmetric
// (ICC) schedule F holds L and D: r_i = |d_i| sum |L(>i, i)|, the row of U = D L^T that
// PETSc's Cholesky sums before it divides by the pivot. A column the engine
// had to perturb (an exact zero pivot, first_perturbed) fails too; rows after it are not
// looked at, as their values already depend on the perturbation. -1: none fails.
// Complex: |U(i,i)| for nonzero, its real part for positive_definite.
template <class Scalar>
int32_t first_failing_row(const Schedule& s, const Scalar* f, ShiftType type, double zero_pivot,
                          int32_t first_perturbed);

// PETSc's loop over whole factorizations: factor(shift) runs one with that diagonal shift
// and returns false when it failed for a reason no shift repairs (NaN/Inf); failing_row()
// then names the first row failing the test, -1 for none. At most 64 tries (nonzero doubles
// the shift each time: from 1e-14 past 1e5).
struct ShiftOutcome {
  int32_t tries = 0;
  double amount = 0.0;   // the shift of the factor kept
  int32_t failing = -1;  // its first failing row, -1 when it passes
};
ShiftOutcome run_shift_search(ShiftType type, double shift_amount, double shift_top,
                              const std::function<bool(double)>& factor, const std::function<int32_t()>& failing_row);

}  // namespace gpuglu::api
