#include "cpu/column_executor.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "cpu/column_kernels.hpp"

namespace gpuglu::reference {

namespace {

void check_order(const Schedule& s, const std::vector<int64_t>& group_ptr, const std::vector<int32_t>& columns) {
  auto fail = [](const std::string& m) { throw Error(Status::invalid_input, "factor_columns: " + m); };
  if (columns.size() != static_cast<size_t>(s.n)) fail("the order does not list all " + std::to_string(s.n) + " columns");
  if (group_ptr.empty() || group_ptr.front() != 0 || group_ptr.back() != s.n)
    fail("group pointers must run from 0 to n");
  if (!std::is_sorted(group_ptr.begin(), group_ptr.end())) fail("group pointers decrease");
  std::vector<char> seen(static_cast<size_t>(s.n), 0);
  for (int32_t j : columns) {
    if (j < 0 || j >= s.n || seen[j]) fail("column " + std::to_string(j) + " is out of range or repeated");
    seen[j] = 1;
  }
}

}  // namespace

template <class T>
NumericStats factor_columns(const Schedule& s, const std::vector<int64_t>& group_ptr,
                            const std::vector<int32_t>& columns, T* f, const PivotRule& rule) {
  check_order(s, group_ptr, columns);
  const int64_t* colptr = s.f_colptr.data();
  const int32_t* rowind = s.f_rowind.data();
  const int64_t* diag = s.f_diag.data();
  NumericStats out;
  double min_ratio = std::numeric_limits<double>::infinity();
  for (size_t g = 0; g + 1 < group_ptr.size(); ++g) {
    int32_t failed = s.n;
    for (int64_t c = group_ptr[g]; c < group_ptr[g + 1]; ++c) {
      const int32_t j = columns[c];
      const PivotOutcome o = pivot_and_scale(colptr, diag, f, j, rule);
      min_ratio = std::min(min_ratio, o.ratio);
      out.max_active = std::max(out.max_active, o.colmax);
      out.perturbed_pivots += o.perturbed;
      if (o.perturbed && (out.first_perturbed < 0 || j < out.first_perturbed)) out.first_perturbed = j;
      if (o.failed) {
        failed = std::min(failed, j);
        continue;  // its L part is not scaled: nothing downstream is valid any more
      }
      for (int64_t e = s.u_rowptr[j]; e < s.u_rowptr[j + 1]; ++e) {
        if (!update_subcolumn(colptr, rowind, diag, f, j, s.u_colind[e], s.u_pos[e], s.incomplete))
          throw Error(Status::invalid_input, "factor_columns: the factor pattern lacks fill in column " +
                                                 std::to_string(s.u_colind[e]) + " below row " + std::to_string(j));
      }
    }
    if (failed < s.n) {
      out.status = Status::numerically_singular;
      out.pivot_column = failed;
      out.pivot_value = reported_value(f[diag[failed]]);
      break;
    }
  }
  out.min_pivot_ratio = s.n > 0 ? min_ratio : 1.0;
  return out;
}

template <class T>
NumericStats factor_columns_by_level(const Schedule& s, T* f, const PivotRule& rule) {
  return factor_columns(s, s.level_ptr, s.level_cols, f, rule);
}

template <class T>
NumericStats factor_columns_sequential(const Schedule& s, T* f, const PivotRule& rule) {
  std::vector<int64_t> group_ptr(static_cast<size_t>(s.n) + 1);
  std::iota(group_ptr.begin(), group_ptr.end(), int64_t{0});
  std::vector<int32_t> columns(static_cast<size_t>(s.n));
  std::iota(columns.begin(), columns.end(), 0);
  return factor_columns(s, group_ptr, columns, f, rule);
}

template NumericStats factor_columns(const Schedule&, const std::vector<int64_t>&, const std::vector<int32_t>&, double*,
                                     const PivotRule&);
template NumericStats factor_columns(const Schedule&, const std::vector<int64_t>&, const std::vector<int32_t>&,
                                     Complex*, const PivotRule&);
template NumericStats factor_columns_by_level(const Schedule&, double*, const PivotRule&);
template NumericStats factor_columns_by_level(const Schedule&, Complex*, const PivotRule&);
template NumericStats factor_columns_sequential(const Schedule&, double*, const PivotRule&);
template NumericStats factor_columns_sequential(const Schedule&, Complex*, const PivotRule&);

}  // namespace gpuglu::reference
