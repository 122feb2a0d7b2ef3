#include "api/analyzed_pattern.hpp"

#include <string>

#include "gpuglu/status.hpp"

namespace gpuglu::detail {

template <class I>
void AnalyzedPattern::assign(const CsrView<I, double>& a) {
  n_ = static_cast<int32_t>(a.nrows);
  const int64_t nnz = a.nrows > 0 ? static_cast<int64_t>(a.rowptr[a.nrows]) : 0;
  rowptr_.assign(static_cast<size_t>(n_) + 1, 0);
  for (int32_t i = 0; i <= n_ && a.rowptr; ++i) rowptr_[i] = static_cast<int64_t>(a.rowptr[i]);
  colind_.resize(static_cast<size_t>(nnz));
  for (int64_t p = 0; p < nnz; ++p) colind_[p] = static_cast<int32_t>(a.colind[p]);
}

template <class I>
void AnalyzedPattern::check_same(const CsrView<I, double>& a) const {
  auto fail = [](const std::string& why) {
    throw Error(Status::pattern_changed,
                "factor(): the nonzero pattern differs from the analyzed one (" + why +
                    "); call analyze() for a new pattern, or refactor() to skip this check");
  };
  if (static_cast<int64_t>(a.nrows) != n_ || static_cast<int64_t>(a.ncols) != n_)
    fail("the matrix is " + std::to_string(a.nrows) + " x " + std::to_string(a.ncols) + ", the analyzed one " +
         std::to_string(n_) + " x " + std::to_string(n_));
  if (n_ == 0) return;
  if (!a.rowptr || !a.colind) fail("the matrix has no index arrays");
  if (static_cast<int64_t>(a.rowptr[0]) != 0) fail("rowptr[0] is " + std::to_string(a.rowptr[0]));
  for (int32_t i = 0; i < n_; ++i) {
    const int64_t begin = rowptr_[i];
    const int64_t end = rowptr_[i + 1];
    if (static_cast<int64_t>(a.rowptr[i + 1]) - static_cast<int64_t>(a.rowptr[i]) != end - begin)
      fail("row " + std::to_string(i) + " has " +
           std::to_string(static_cast<int64_t>(a.rowptr[i + 1]) - static_cast<int64_t>(a.rowptr[i])) +
           " entries, the analyzed row " + std::to_string(end - begin));
    // Equal row lengths from row 0 on make the row starts equal too.
    for (int64_t p = begin; p < end; ++p) {
      if (static_cast<int64_t>(a.colind[p]) != colind_[p])
        fail("row " + std::to_string(i) + " differs: column " + std::to_string(a.colind[p]) + " where column " +
             std::to_string(colind_[p]) + " was analyzed");
    }
  }
}

void AnalyzedPattern::clear() {
  n_ = 0;
  rowptr_.assign(1, 0);
  colind_.clear();
  colind_.shrink_to_fit();
}

template void AnalyzedPattern::assign(const CsrView<int32_t, double>&);
template void AnalyzedPattern::assign(const CsrView<int64_t, double>&);
template void AnalyzedPattern::check_same(const CsrView<int32_t, double>&) const;
template void AnalyzedPattern::check_same(const CsrView<int64_t, double>&) const;

}  // namespace gpuglu::detail
