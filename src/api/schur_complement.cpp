// SparseLU's part of Schur-complement mode (include/gpuglu/solver.hpp; docs/design.md, "Schur
// complements"): the options and the analysis that order the Schur unknowns last and
// unscaled (analyze_schur), and the refused full solve. The verbs, shared with SparseLDLT,
// are in schur_mode.cpp.
#include <string>

#include "analysis/analyze_counted.hpp"
#include "api/sparse_lu_impl.hpp"
#include "core/scalar.hpp"
#include "gpuglu/analysis.hpp"

namespace gpuglu {

template <class Scalar>
Options BasicSparseLU<Scalar>::Impl::schur_analysis_options(Options resolved) const {
  const Options& o = this->options;
  if (o.ilu_levels >= 0)
    throw Error(Status::unsupported, "Schur complements need a complete LU, not ILU(" +
                                         std::to_string(o.ilu_levels) + ") (PETSc: -pc_type lu)");
  if (o.lu_engine == LuEngine::column)
    throw Error(Status::unsupported,
                "Schur complements are computed by the supernodal LU only, and lu_engine is column "
                "(PETSc: -mat_gpuglu_lu_engine supernodal)");
  if (o.pivot_policy == PivotPolicy::repivot)
    throw Error(Status::unsupported,
                "Schur complements: pivot_policy repivot re-orders the whole matrix by KLU's partial pivoting, "
                "which would move the Schur unknowns; use automatic, report or perturb "
                "(PETSc: -mat_gpuglu_pivot_policy)");
  // The one engine that keeps a Schur block, whatever automatic would choose for A.
  resolved.lu_engine = LuEngine::supernodal;
  return resolved;
}

template <class Scalar>
template <class I>
Schedule BasicSparseLU<Scalar>::Impl::analyze_pattern(const CsrView<I, double>& a, const int32_t* given,
                                                      const analysis::AmdCounted& amd_counted) {
  if (!this->schur_mode()) return analysis::analyze_counted(a, analysis_options, given, amd_counted);
  return analyze_schur(a, this->schur_active, analysis_options, given);
}

template <class Scalar>
const SolveStats& BasicSparseLU<Scalar>::Impl::solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx,
                                                     bool transpose) {
  this->refuse_full_solve(transpose ? "solve_transpose()" : "solve()");
  return Core::solve(nrhs, b, ldb, x, ldx, transpose);
}

template Options BasicSparseLU<double>::Impl::schur_analysis_options(Options) const;
template Schedule BasicSparseLU<double>::Impl::analyze_pattern(const CsrView<int32_t, double>&, const int32_t*,
                                                                    const analysis::AmdCounted&);
template Schedule BasicSparseLU<double>::Impl::analyze_pattern(const CsrView<int64_t, double>&, const int32_t*,
                                                                    const analysis::AmdCounted&);
template const SolveStats& BasicSparseLU<double>::Impl::solve(int32_t, const double*, int64_t, double*, int64_t, bool);
template Options BasicSparseLU<Complex>::Impl::schur_analysis_options(Options) const;
template Schedule BasicSparseLU<Complex>::Impl::analyze_pattern(const CsrView<int32_t, double>&, const int32_t*,
                                                                    const analysis::AmdCounted&);
template Schedule BasicSparseLU<Complex>::Impl::analyze_pattern(const CsrView<int64_t, double>&, const int32_t*,
                                                                    const analysis::AmdCounted&);
template const SolveStats& BasicSparseLU<Complex>::Impl::solve(int32_t, const Complex*, int64_t, Complex*, int64_t,
                                                               bool);

}  // namespace gpuglu
