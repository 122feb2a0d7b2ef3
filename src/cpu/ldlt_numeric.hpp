#pragma once
// The level-scheduled right-looking LDL^T (Chen & Wang, Algorithm 4) on a symmetric
// Schedule, the reference the CUDA engine is tested against. Per level of the
// elimination tree:
//   phase 1: the level's columns in parallel: d_k = F(k, k) passes the pivot test (or is
//            perturbed, or fails), then L(i, k) = F(i, k) / d_k below it;
//   phase 2: the level's target columns in parallel, each applying its sources k in
//            ascending order: F(i, j) -= L(i, k) * (L(j, k) d_k) for the rows i >= j of
//            L(:, k), found in column j's own storage (no dense n-sized temporaries, which
//            the paper keeps two of per concurrent column).
// A target column is written by one thread in a fixed order: bitwise identical for any
// thread count, and to the CUDA engine's factor (which rounds the same way).
#include "core/numeric_types.hpp"
#include "core/scalar.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

// f holds C scattered into L's pattern and is overwritten by L (unit diagonal implicit)
// with D on the diagonal. Failures, threads and Error(invalid_input) as factor_levels();
// an incomplete schedule (ICC) drops the updates outside its pattern.
// T: double or std::complex<double>. hermitian (complex only): A = L D L^H, so a source
// contributes L(i, k) d_k conj(L(j, k)) and every d_k is real (its rounding-level imaginary
// part is dropped before the pivot test, as the exact D of a Hermitian A has none); without
// it a complex A = A^T is factored L D L^T with the real case's arithmetic.
template <class T>
NumericStats factor_ldlt_levels(const Schedule& s, T* f, const PivotRule& rule, int num_threads,
                                bool hermitian = false);

}  // namespace gpuglu::reference
