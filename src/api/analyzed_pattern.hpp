#pragma once
// The sparsity pattern SparseLU analyzed, kept for two jobs: the O(nnz) check that
// factor(A) got the same pattern, and the residuals of iterative refinement (with
// the values of the last factorization). One internal representation for both input
// index types: 64-bit row pointers (nnz may exceed 2^31), 32-bit column indices (the
// Schedule's n is 32-bit).
#include <cstdint>
#include <vector>

#include "gpuglu/matrix.hpp"

namespace gpuglu::detail {

class AnalyzedPattern {
 public:
  template <class I>
  void assign(const CsrView<I, double>& a);
  // Throws Error(pattern_changed) naming the first row that differs.
  template <class I>
  void check_same(const CsrView<I, double>& a) const;

  // Any other value type: only the pattern is kept and compared (complex inputs).
  template <class I, class V>
  void assign(const CsrView<I, V>& a) {
    assign(CsrView<I, double>{a.nrows, a.ncols, a.rowptr, a.colind, nullptr});
  }
  template <class I, class V>
  void check_same(const CsrView<I, V>& a) const {
    check_same(CsrView<I, double>{a.nrows, a.ncols, a.rowptr, a.colind, nullptr});
  }

  void clear();
  int32_t n() const { return n_; }
  int64_t nnz() const { return static_cast<int64_t>(colind_.size()); }
  const int64_t* rowptr() const { return rowptr_.data(); }
  const int32_t* colind() const { return colind_.data(); }

 private:
  int32_t n_ = 0;
  std::vector<int64_t> rowptr_{0};
  std::vector<int32_t> colind_;
};

extern template void AnalyzedPattern::assign(const CsrView<int32_t, double>&);
extern template void AnalyzedPattern::assign(const CsrView<int64_t, double>&);
extern template void AnalyzedPattern::check_same(const CsrView<int32_t, double>&) const;
extern template void AnalyzedPattern::check_same(const CsrView<int64_t, double>&) const;

}  // namespace gpuglu::detail
