#pragma once
// One complex problem of gpuglu_complex_bench, the same for every solver: a generated (or
// read) real matrix made complex as the complex tests make theirs (tests/common/
// complex_matrices.hpp), a second value set on the same pattern for the refactorizations
// (the same builder with another seed or shift: new phases, as a frequency sweep or a new
// Newton step brings), a known solution and b = A x.
//
// Refactorizations alternate the two value sets and end on A's own (time_refactor), so that
// every solver's solve is checked against the same A and b.
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench_matrices.hpp"
#include "complex_matrices.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "ldlt_problem.hpp"

namespace gpuglu::bench {

using Cplx = std::complex<double>;
using CsrZ = CsrMatrix<int32_t, Cplx>;

// lu: rotated(), every entry its own phase (unsymmetric values; LU). helmholtz: shifted(), a
// complex symmetric A = A^T (LDL^T). hermitian: hermitian_of(), A = A^H (LDL^H). The two
// symmetric kinds need a real symmetric matrix (a Laplacian): gpuglu's analysis refuses others.
enum class ComplexKind { lu, helmholtz, hermitian };

inline const char* to_string(ComplexKind k) {
  return k == ComplexKind::lu ? "lu" : k == ComplexKind::helmholtz ? "helmholtz" : "hermitian";
}
inline std::optional<ComplexKind> parse_complex_kind(const std::string& s) {
  for (ComplexKind k : {ComplexKind::lu, ComplexKind::helmholtz, ComplexKind::hermitian})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

struct ComplexProblem {
  std::string name;  // "<matrix>/<kind>": the same matrix in two kinds gives two record keys
  std::string kind;  // the BenchMatrix's kind (generated, or the file's folder)
  ComplexKind values_kind = ComplexKind::lu;
  CsrMatrix<int32_t, double> base;  // the real matrix the values were made from (its pattern)
  CsrZ a;
  std::vector<Cplx> second;  // value set 1, in a's CSR order
  std::vector<Cplx> xtrue, b;

  bool symmetric() const { return values_kind != ComplexKind::lu; }
  // Value set 0 is A, 1 the second set.
  const std::vector<Cplx>& values(int set) const { return set == 0 ? a.values : second; }
  CsrView<int32_t, Cplx> view(int set) const {
    CsrView<int32_t, Cplx> v = a.view();
    v.values = values(set).data();
    return v;
  }
};

// The builders' parameters are those of the complex tests (test_complex_lu.cpp,
// test_complex_ldlt.cpp): seeds 1 and 2; the Helmholtz shift 1.7 + 0.05i, then 1.8 + 0.05i.
inline ComplexProblem make_complex_problem(BenchMatrix m, ComplexKind kind) {
  ComplexProblem p;
  p.name = m.name + "/" + to_string(kind);
  p.kind = std::move(m.kind);
  p.values_kind = kind;
  p.base = std::move(m.a);
  CsrZ second;
  if (kind == ComplexKind::lu) {
    p.a = test::rotated(p.base, 1);
    second = test::rotated(p.base, 2);
  } else if (kind == ComplexKind::helmholtz) {
    p.a = test::shifted(p.base, 1.7, 0.05);
    second = test::shifted(p.base, 1.8, 0.05);
  } else {
    p.a = test::hermitian_of(p.base, 3.0, 1);
    second = test::hermitian_of(p.base, 3.0, 2);
  }
  p.second = std::move(second.values);
  p.xtrue = test::complex_vector(p.a.nrows, 7);
  p.b.resize(p.xtrue.size());
  spmv(p.a.view(), p.xtrue.data(), p.b.data());
  return p;
}

inline Accuracy accuracy(const ComplexProblem& p, const Cplx* x) {
  Accuracy acc;
  acc.residual = relative_residual(p.a.view(), x, p.b.data());
  acc.backward_error = backward_error(p.a.view(), x, p.b.data());
  return acc;
}

// A's lower triangle in CSR with the values of each set, for the symmetric peers (cuDSS's
// CUDSS_MVIEW_LOWER). The pattern is base's, so ldlt_problem's Triangle finds the positions.
struct ComplexLower {
  CsrZ m;                    // value set 0
  std::vector<Cplx> second;  // value set 1
};
inline ComplexLower lower_of(const ComplexProblem& p) {
  const Triangle t = lower_triangle(p.base);
  ComplexLower l;
  l.m = CsrZ{t.m.nrows, t.m.ncols, t.m.rowptr, t.m.colind, std::vector<Cplx>(t.pos.size())};
  l.second.resize(t.pos.size());
  for (size_t k = 0; k < t.pos.size(); ++k) {
    l.m.values[k] = p.a.values[static_cast<size_t>(t.pos[k])];
    l.second[k] = p.second[static_cast<size_t>(t.pos[k])];
  }
  return l;
}

// The CPU peers on complex values (peer_suitesparse_complex.cpp), timed as ldlt_peers.hpp's:
// analysis and first factorization of A (after r.warmup untimed pairs), refactorizations
// alternating the value sets, solves of A x = b; residual and backward error against A.
// Throw std::runtime_error with the library's status.
SymPeerTimes run_klu_complex(const ComplexProblem& p, const PeerRun& r);      // klu_z_*
SymPeerTimes run_umfpack_complex(const ComplexProblem& p, const PeerRun& r);  // umfpack_zl_*, packed complex

}  // namespace gpuglu::bench
