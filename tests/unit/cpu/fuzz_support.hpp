#pragma once
// The fuzz tests' matrices and their judge (test_sparse_lu_fuzz.cpp, test_sparse_ldlt_fuzz.cpp):
// small random matrices whose entries span many decades, and whether KLU or UMFPACK solve a
// system with them - where a peer solves, gpuglu must not fail.
#include <umfpack.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "gpuglu/matrix_ops.hpp"
#include "reference_test_support.hpp"

namespace gpuglu::test {

constexpr double kSolved = 1e-12;      // a success must reach this backward error
constexpr double kPeerSolved = 1e-14;  // a peer at or below this has clearly solved the system...
// ...of a matrix not singular to working precision: a singular matrix's LU in floating point
// leaves a pivot of rounding size and an enormous x with a small backward error, which is no
// solution; gpuglu reports such a pivot as a failure, as PETSc's own LU does. The condition
// is taken after equilibration, so that a badly scaled but well-posed matrix counts.
constexpr double kPeerCondition = 1e12;

enum class Kind { random_pattern, random_with_diagonal, scaled_dominant, scaled_random, tiny_diagonal, dependent_rows };
inline const char* name(Kind k) {
  switch (k) {
    case Kind::random_pattern: return "random pattern";
    case Kind::random_with_diagonal: return "random with diagonal";
    case Kind::scaled_dominant: return "scaled diagonally dominant";
    case Kind::scaled_random: return "scaled random";
    case Kind::tiny_diagonal: return "tiny diagonal";
    case Kind::dependent_rows: return "dependent rows";
  }
  return "?";
}

// Entries sign * 10^(decades * U(-1, 1)) on patterns of the given kind; n in [3, 62].
inline CsrMatrix<int32_t, double> fuzz_matrix(Kind kind, double decades, uint64_t seed) {
  Rng rng(seed);
  const int32_t n = 3 + rng.below(60), per_row = 1 + rng.below(4);
  auto magnitude = [&] { return std::pow(10.0, decades * rng.symmetric()); };
  auto sign = [&] { return rng.uniform() < 0.5 ? -1.0 : 1.0; };
  std::vector<Triplet<int32_t, double>> t;
  switch (kind) {
    case Kind::random_pattern:  // may be structurally singular
      for (int32_t i = 0; i < n; ++i) {
        for (int32_t e = 0; e < per_row; ++e) t.push_back({i, rng.below(n), sign() * magnitude()});
        t.push_back({i, rng.below(n), magnitude()});
        t.push_back({rng.below(n), i, magnitude()});
      }
      break;
    case Kind::random_with_diagonal:
    case Kind::dependent_rows:
      for (int32_t i = 0; i < n; ++i) {
        for (int32_t e = 0; e < per_row; ++e) t.push_back({i, rng.below(n), sign() * magnitude()});
        t.push_back({i, i, magnitude()});
      }
      if (kind == Kind::dependent_rows && n > 2) {  // row 1 becomes a multiple of row 0
        std::vector<Triplet<int32_t, double>> kept;
        for (const auto& e : t)
          if (e.row != 1) kept.push_back(e);
        for (const auto& e : t)
          if (e.row == 0) kept.push_back({1, e.col, 3.0 * e.value});
        t = kept;
      }
      break;
    case Kind::scaled_dominant:
    case Kind::scaled_random: {
      std::vector<double> r(static_cast<size_t>(n)), c(r.size());
      for (double& v : r) v = magnitude();
      for (double& v : c) v = magnitude();
      const CsrMatrix<int32_t, double> m = random_matrix(n, per_row, seed * 7 + 1, kind == Kind::scaled_dominant ? 1.5 : 0.0);
      for (int32_t i = 0; i < n; ++i)
        for (int32_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p)
          t.push_back({i, m.colind[p], r[i] * m.values[p] * c[m.colind[p]]});
      break;
    }
    case Kind::tiny_diagonal:  // static diagonal pivots grow; partial pivoting does not
      for (int32_t i = 0; i < n; ++i) {
        t.push_back({i, i, sign() * std::pow(10.0, -std::min(decades, 12.0) * rng.uniform())});
        for (int32_t e = 0; e < 3; ++e) {
          const int32_t j = rng.below(n);
          if (j != i) t.push_back({i, j, rng.symmetric()});
        }
      }
      break;
  }
  return csr_from_triplets<int32_t, double>(n, n, t);
}

// D_r A D_c with every row, then every column, of largest magnitude 1 (twice).
inline CsrMatrix<int32_t, double> equilibrated(CsrMatrix<int32_t, double> a) {
  for (int sweep = 0; sweep < 2; ++sweep) {
    for (int32_t i = 0; i < a.nrows; ++i) {
      double m = 0.0;
      for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) m = std::max(m, std::fabs(a.values[p]));
      if (m > 0.0 && std::isfinite(m))
        for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) a.values[p] /= m;
    }
    std::vector<double> colmax(static_cast<size_t>(a.ncols), 0.0);
    for (size_t p = 0; p < a.values.size(); ++p)
      colmax[a.colind[p]] = std::max(colmax[a.colind[p]], std::fabs(a.values[p]));
    for (size_t p = 0; p < a.values.size(); ++p)
      if (colmax[a.colind[p]] > 0.0 && std::isfinite(colmax[a.colind[p]])) a.values[p] /= colmax[a.colind[p]];
  }
  return a;
}

// Whether KLU (no refinement) or UMFPACK (its default refinement) solves A x = b: a backward
// error of at most kPeerSolved on a matrix whose equilibrated condition (KLU's estimate) is
// below kPeerCondition.
inline bool peer_solves(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b) {
  double best = std::numeric_limits<double>::infinity();
  double condition = std::numeric_limits<double>::infinity();
  try {
    Klu klu(a);
    const std::vector<double> x = klu.solve(b);
    best = std::min(best, backward_error(a.view(), x.data(), b.data()));
    Klu balanced(equilibrated(a));
    condition = balanced.condest();
  } catch (const std::exception&) {
  }
  const CscMatrix<int32_t, double> c = csr_to_csc(a.view());
  void *symbolic = nullptr, *numeric = nullptr;
  double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
  umfpack_di_defaults(control);
  if (umfpack_di_symbolic(a.nrows, a.ncols, c.colptr.data(), c.rowind.data(), c.values.data(), &symbolic, control,
                          info) == UMFPACK_OK) {
    if (umfpack_di_numeric(c.colptr.data(), c.rowind.data(), c.values.data(), symbolic, &numeric, control, info) ==
        UMFPACK_OK) {
      std::vector<double> x(b.size());
      if (umfpack_di_solve(UMFPACK_A, c.colptr.data(), c.rowind.data(), c.values.data(), x.data(), b.data(), numeric,
                           control, info) == UMFPACK_OK)
        best = std::min(best, backward_error(a.view(), x.data(), b.data()));
    }
    if (numeric) umfpack_di_free_numeric(&numeric);
    umfpack_di_free_symbolic(&symbolic);
  }
  return best <= kPeerSolved && condition < kPeerCondition;
}

}  // namespace gpuglu::test
