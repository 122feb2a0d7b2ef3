// The shift loop's state machine and its row test; SparseLU::refactor drives them.
#include "api/ilu_shift.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/scalar.hpp"

namespace gpuglu::api {

ShiftSearch::ShiftSearch(ShiftType type, double shift_amount, double shift_top)
    : type_(type), first_amount_(shift_amount), top_(shift_top) {}

bool ShiftSearch::next(bool failed) {
  if (type_ == ShiftType::nonzero) {
    if (!failed) return false;
    amount_ = tries_ == 0 ? first_amount_ : 2.0 * amount_;
    ++tries_;
    return true;
  }
  if (type_ != ShiftType::positive_definite) return false;
  if (failed) {
    if (tries_ == kMaxBisections) {
      fraction_ = hi_;
    } else {
      lo_ = fraction_;
      fraction_ = (hi_ + lo_) / 2.0;
    }
  } else {
    // A success: try a smaller shift while bisection steps are left.
    if (!(fraction_ > 0.0 && tries_ < kMaxBisections)) return false;
    hi_ = fraction_;
    fraction_ = (hi_ + lo_) / 2.0;
  }
  amount_ = fraction_ * top_;
  ++tries_;
  return true;
}

template <class Scalar>
double manteuffel_bound(int32_t n, const int64_t* rowptr, const int32_t* colind, const Scalar* values,
                        double zero_pivot) {
  double top = zero_pivot;
  for (int32_t i = 0; i < n; ++i) {
    double rs = 0.0, d = 0.0;
    for (int64_t p = rowptr[i]; p < rowptr[i + 1]; ++p) {
      rs += magnitude(values[p]);
      if (colind[p] == i) d = real_part(values[p]);
    }
    top = std::max(top, rs - std::fabs(d) - d);
  }
  return 1.1 * top;
}

template <class Scalar>
int32_t first_failing_row(const Schedule& s, const Scalar* f, ShiftType type, double zero_pivot,
                          int32_t first_perturbed) {
  const int32_t n = s.n;
  const int32_t rows = first_perturbed >= 0 ? first_perturbed : n;
  std::vector<double> rs(static_cast<size_t>(rows), 0.0);
  if (s.symmetric()) {
    for (int32_t j = 0; j < rows; ++j) {
      double sum = 0.0;
      for (int64_t p = s.f_diag[j] + 1; p < s.f_colptr[j + 1]; ++p) sum += magnitude(f[p]);
      rs[j] = magnitude(f[s.f_diag[j]]) * sum;
    }
  } else {
    for (int32_t j = 0; j < n; ++j)
      for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p) {
        const int32_t i = s.f_rowind[p];
        if (i != j && i < rows) rs[i] += magnitude(f[p]);
      }
  }
  for (int32_t i = 0; i < rows; ++i) {
    const Scalar pv = f[s.f_diag[i]];
    const double limit = zero_pivot * rs[i];
    const bool fails = type == ShiftType::positive_definite ? real_part(pv) <= limit : magnitude(pv) <= limit;
    if (fails) return i;  // NaN fails neither comparison, as in PETSc
  }
  return first_perturbed;
}

template double manteuffel_bound(int32_t, const int64_t*, const int32_t*, const double*, double);
template double manteuffel_bound(int32_t, const int64_t*, const int32_t*, const Complex*, double);
template int32_t first_failing_row(const Schedule&, const double*, ShiftType, double, int32_t);
template int32_t first_failing_row(const Schedule&, const Complex*, ShiftType, double, int32_t);

ShiftOutcome run_shift_search(ShiftType type, double shift_amount, double shift_top,
                              const std::function<bool(double)>& factor, const std::function<int32_t()>& failing_row) {
  ShiftSearch search(type, shift_amount, shift_top);
  constexpr int32_t kMaxTries = 64;
  ShiftOutcome out;
  do {
    out.amount = search.amount();
    out.failing = -1;
    if (!factor(out.amount)) break;
    out.failing = failing_row();
  } while (search.tries() < kMaxTries && search.next(out.failing >= 0));
  out.tries = search.tries();
  return out;
}

}  // namespace gpuglu::api
