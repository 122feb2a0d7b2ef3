#pragma once
// The cuSPARSE peer of the ILU(0)-GMRES benchmark: ILU(0) by cusparseDcsrilu02 and its
// application by two cusparseSpSV solves (L unit lower, then U non-unit upper, both read
// from the one in-place factor), with the host<->device copies a PETSc PCApply on host
// vectors pays, as gpuglu's does. No PETSc here (pc_cusparse_ilu0.hpp wraps it).
// CUDA builds only.
#include <cstdint>
#include <memory>

namespace gpuglu::bench {

class CusparseIlu0 {
 public:
  CusparseIlu0();
  ~CusparseIlu0();
  CusparseIlu0(const CusparseIlu0&) = delete;
  CusparseIlu0& operator=(const CusparseIlu0&) = delete;

  // First call: copies the pattern and values to the GPU, runs csrilu02's analysis, the
  // factorization and the SpSV analyses. Later calls (the same pattern, as PETSc's
  // SAME_NONZERO_PATTERN): copy the values, factor again, and hand the new factor to SpSV
  // (cusparseSpSV_updateMatrix) without a new analysis. Columns sorted within each row,
  // diagonal present. Throws gpuglu::Error on a CUDA/cuSPARSE error or a zero pivot (which
  // names the row), leaving no usable factor.
  void factor(int32_t n, const int32_t* rowptr, const int32_t* colind, const double* values);

  // y = U^-1 L^-1 x for host arrays of n entries: copy x in, two solves, copy y out.
  void apply(const double* x, double* y);

  int64_t nnz() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuglu::bench
