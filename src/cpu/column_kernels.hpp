#pragma once
// The two inner kernels of the hybrid right-looking column LU (GLU3.0 Algorithm 2),
// shared by the level executor and the column-by-column oracle so that both do the
// same arithmetic in the same order per entry. Raw pointers into the Schedule's CSC
// factor F = (L - I) + U; column j holds U(0:j, j) then L(j+1:n, j), rows sorted.
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/numeric_types.hpp"
#include "core/scalar.hpp"

namespace gpuglu::reference {

struct PivotOutcome {
  double ratio = 0.0;   // |pivot| / max_i |F(i, j)| before perturbation (0 for an empty column)
  double colmax = 0.0;  // max_i |F(i, j)|
  bool failed = false;  // the factor is unusable from this column on
  bool perturbed = false;
};

// PivotRule::perturbed for any scalar: a complex pivot keeps its phase p / |p| (its "sign";
// 1 for p == 0), as a real one keeps its sign.
inline double perturbed_pivot(const PivotRule& rule, double pivot, double colmax) {
  return rule.perturbed(pivot, colmax);
}
inline Complex perturbed_pivot(const PivotRule& rule, const Complex& pivot, double colmax) {
  const double size = rule.perturbed(1.0, colmax);
  const double a = std::abs(pivot);
  return a > 0.0 ? pivot / a * size : Complex(size, 0.0);
}

// Lines 4-6 of Algorithm 2 for column j, preceded by the static-pivot test: all
// updates of column j are done, so its U part is final and its L part is the
// active column. Tiny and perturbed pivots as PivotRule::tiny and ::perturbed define them.
template <class T>
PivotOutcome pivot_and_scale(const int64_t* colptr, const int64_t* diag, T* f, int32_t j, const PivotRule& rule) {
  const int64_t begin = colptr[j];
  const int64_t end = colptr[j + 1];
  const int64_t d = diag[j];
  double colmax = 0.0;
  bool finite = true;
  for (int64_t p = begin; p < end; ++p) {
    const double a = magnitude(f[p]);
    colmax = a > colmax ? a : colmax;
    // NaN fails this comparison as well as Inf, and std::max would silently drop a NaN.
    finite &= a <= std::numeric_limits<double>::max();
  }
  PivotOutcome out;
  out.colmax = colmax;
  T pivot = f[d];
  const double apiv = magnitude(pivot);
  out.ratio = colmax > 0.0 ? apiv / colmax : 0.0;
  if (!finite) {
    out.failed = true;
    return out;
  }
  const bool tiny = rule.tiny(apiv, colmax);
  if (tiny) {
    if (rule.policy == PivotPolicy::report) {
      out.failed = true;
      return out;
    }
    pivot = perturbed_pivot(rule, pivot, colmax);
    f[d] = pivot;
    out.perturbed = true;
  }
  // Divide rather than multiply by the reciprocal: the same rounding as KLU and the
  // GPU kernels, so backends can be compared tightly.
  for (int64_t p = d + 1; p < end; ++p) f[p] /= pivot;
  return out;
}

// Lines 9-11 of Algorithm 2 for one subcolumn: F(j+1:n, k) -= L(j+1:n, j) * U(j, k),
// where s is the position of U(j, k) in column k. Rows of column k below j start at
// s + 1, so (i, k) is found by a merge walk of two sorted lists: no dense scratch
// (DESIGN.md, "rules that keep it fast"). Returns false when an entry (i, k) is
// missing from column k, i.e. the schedule's fill pattern is inconsistent — unless the
// factorization is incomplete (ILU), where such an update is dropped.
template <class T>
bool update_subcolumn(const int64_t* colptr, const int32_t* rowind, const int64_t* diag, T* f, int32_t j, int32_t k,
                      int64_t s, bool incomplete = false) {
  const T u = f[s];
  const int64_t lend = colptr[j + 1];
  const int64_t qend = colptr[k + 1];
  int64_t q = s + 1;
  for (int64_t p = diag[j] + 1; p < lend; ++p) {
    const int32_t i = rowind[p];
    while (q < qend && rowind[q] < i) ++q;
    if (q == qend || rowind[q] != i) {
      if (incomplete) continue;
      return false;
    }
    f[q] -= f[p] * u;
    ++q;
  }
  return true;
}

}  // namespace gpuglu::reference
