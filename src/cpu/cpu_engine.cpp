// The CPU reference engine behind the numeric-engine seam (core/numeric_engine.hpp): the
// oracle every GPU kernel is tested against and the backend where no GPU is used. A
// symmetric schedule runs the LDL^T executor and solves; all else is shared. One template
// serves double and std::complex<double> (the supernodal schedule: double only).
#include <algorithm>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/bunch_kaufman.hpp"
#include "core/first_touch.hpp"
#include "core/numeric_engine.hpp"
#include "cpu/level_gather.hpp"
#include "cpu/ldlt_numeric.hpp"
#include "cpu/level_numeric.hpp"
#include "cpu/level_run.hpp"
#include "cpu/row_ilu.hpp"
#include "cpu/row_ordered_solve.hpp"
#include "cpu/refinement.hpp"
#include "cpu/scatter.hpp"
#include "cpu/supernodal_ldlt.hpp"
#include "cpu/supernodal_numeric.hpp"
#include "cpu/supernodal_schur.hpp"
#include "cpu/supernodal_solve.hpp"
#include "cpu/supernodal_sweep_layout.hpp"
#include "cpu/triangular_solve.hpp"

namespace gpuglu {

namespace {

template <class T>
class CpuEngine final : public BasicNumericEngine<T> {
 public:
  CpuEngine(const Schedule& s, PatternRef pattern, const Options& o, bool hermitian)
      : s_(s),
        pattern_(pattern),
        threads_(o.num_threads),
        column_threads_(reference::column_team_size(s, o.num_threads)),
        right_looking_(o.cpu_right_looking),
        trsv_kernel_(o.trsv_kernel),
        hermitian_(hermitian && is_complex_v<T> && s.symmetric()),
        f_(s.f_rowind.size(), T(0.0)),
        panels_(s.supernodal() ? static_cast<size_t>(s.supernodes.values) : 0),
        pivoted_(s.supernodal() ? static_cast<size_t>(s.supernodes.count) : 0,
                 s.kind == FactorKind::supernodal_ldlt && !o.ldlt_unpivoted ? int8_t{1} : int8_t{0}),
        supernode_pivoting_(o.lu_supernode_pivoting),
        solve_work_(static_cast<size_t>(s.n), T(0.0)) {
    if (s.kind == FactorKind::row_ilu)
      row_ilu_.emplace(s);
    else if (!s.supernodal())
      rows_.emplace(s);
    if (s.supernodal() && !std::is_same_v<T, double>)
      throw Error(Status::unsupported, "the supernodal engines factor real matrices only; use the column engine");
    if (s.kind == FactorKind::supernodal_lu && supernode_pivoting_) {
      row_order_.resize(static_cast<size_t>(s.n));
      failed_.resize(static_cast<size_t>(s.supernodes.count));
    }
    if (s.kind == FactorKind::supernodal_ldlt) {
      pivot_perm_.resize(static_cast<size_t>(s.n));
      pivot_kind_.resize(static_cast<size_t>(s.n));
      pivot_off_.resize(static_cast<size_t>(s.n));
    }
    if (hermitian_) conjugate_ = hermitian_mirrored_entries(s, pattern);
    // An incomplete factor is never refined (it preconditions): its work is allocated on
    // a first refinement, not here.
    if (!s.incomplete) refine_work_.resize(s.n);
    refine_work_.keep_row_bounds = true;  // forgotten by every factor()
  }

  EngineFactorResult factor(const T* a_values, const PivotRule& rule) override {
    a_values_ = a_values;
    f_current_ = false;
    rows_current_ = false;
    sweeps_.clear();
    refine_work_.forget_row_bounds();
    if (s_.supernodal()) return factor_supernodal(a_values, rule);
    if (s_.kind == FactorKind::row_ilu) return factor_rows(a_values, rule);
    EngineFactorResult out;
    if (!scatter(f_.data(), a_values, rule, conjugate_.empty() ? nullptr : conjugate_.data(),
                 [&](int32_t j) { return s_.f_diag[j]; }, out))
      return out;
    if (s_.symmetric())
      out.stats = reference::factor_ldlt_levels(s_, f_.data(), rule, column_threads_, hermitian_);
    else if (right_looking_)
      out.stats = reference::factor_levels(s_, f_.data(), rule, column_threads_);
    else
      out.stats = reference::factor_levels_gather(s_, f_.data(), rule, column_threads_);
    return out;
  }

  EngineSolveResult solve(const T* b, T* x, bool transpose, int32_t max_steps, const RefineTarget& target) override {
    if (s_.schur_size > 0)
      throw Error(Status::unsupported, "solve(): this factor leaves its Schur block unfactored; use the Schur sweeps");
    EngineSolveResult out;
    triangular_solves(b, x, transpose);
    if (max_steps == 0) return out;
    if (refine_work_.rhs.size() != static_cast<size_t>(s_.n)) refine_work_.resize(s_.n);
    reference::BasicCsrRef<T> a{s_.n, pattern_.rowptr, pattern_.colind, a_values_};
    if (s_.row_scale.size() == static_cast<size_t>(s_.n) && s_.col_scale.size() == static_cast<size_t>(s_.n)) {
      a.row_scale = s_.row_scale.data();
      a.col_scale = s_.col_scale.data();
    }
    const reference::RefineOutcome r = reference::refine_with<T>(
        [&](const T* rhs, T* d) { triangular_solves(rhs, d, transpose); }, a, transpose, b, x, max_steps, target,
        refine_work_);
    out.refine_steps = r.steps;
    out.backward_error = r.backward_error;
    out.normwise_error = r.normwise_error;
    return out;
  }

  // A supernodal factor lives in the panels: F (spelled out by the caller) is gathered from
  // them once per factorization.
  const std::vector<T>& factor_values() override {
    if (s_.kind == FactorKind::supernodal_ldlt)
      throw Error(Status::unsupported,
                  "factor_values(): the supernodal LDL^T keeps its factor in pivoted panels, not as F");
    if (rows_active_ && std::find(pivoted_.begin(), pivoted_.end(), int8_t{1}) != pivoted_.end())
      throw Error(Status::unsupported,
                  "factor_values(): supernodes of this LU pivoted inside their diagonal blocks, whose rows F's "
                  "pattern does not follow (lu_supernode_pivoting off keeps F)");
    if constexpr (std::is_same_v<T, double>) {
      if (s_.supernodal() && !f_current_) {
        f_.resize(s_.supernodes.f_pos.size());
        s_.supernodes.copy_factor_out(panels_.data(), f_.data());
      }
    }
    if (s_.kind == FactorKind::row_ilu && !f_current_) {  // F spelled out by the caller (spell_out_factor)
      if (!s_.factor_spelled_out())
        throw Error(Status::invalid_input, "factor_values(): the row ILU's F is not spelled out (spell_out_factor)");
      f_.resize(s_.f_rowind.size());
      row_ilu_->copy_to_factor(f_.data());
    }
    f_current_ = true;
    return f_;
  }
  bool pivot_signs(PivotSigns& out) override {
    if (s_.kind != FactorKind::supernodal_ldlt) return false;
    out = reference::supernodal_ldlt_inertia(s_, panels_.data(), pivots());
    return true;
  }
  bool supports_schur() const noexcept override {
    return std::is_same_v<T, double> &&
           (s_.kind == FactorKind::supernodal_lu || s_.kind == FactorKind::supernodal_ldlt);
  }
  void schur_block(T* s, int64_t ld) override {
    if constexpr (std::is_same_v<T, double>)
      reference::read_schur_block(s_, panels_.data(), s, ld);
    else
      BasicNumericEngine<T>::schur_block(s, ld);
  }
  void schur_forward(T* z, bool transpose) override {
    if constexpr (std::is_same_v<T, double>)
      schur_sweep(z, transpose, /*forward=*/true);
    else
      BasicNumericEngine<T>::schur_forward(z, transpose);
  }
  void schur_backward(T* z, bool transpose) override {
    if constexpr (std::is_same_v<T, double>)
      schur_sweep(z, transpose, /*forward=*/false);
    else
      BasicNumericEngine<T>::schur_backward(z, transpose);
  }
  Backend backend() const noexcept override { return Backend::cpu; }
  int64_t device_bytes() const noexcept override { return 0; }
  TrsvKernel trsv_kernel() const noexcept override { return trsv_kernel_; }

 private:
  // What the scatter (or the check of values read in place) found goes into out; false where A
  // holds NaN/Inf.
  static bool accepted(const reference::ScatterResult& sc, EngineFactorResult& out) {
    out.max_abs_input = sc.max_abs;
    if (sc.bad_entry < 0) return true;
    out.bad_entry = sc.bad_entry;
    out.stats.status = Status::nan_or_inf;
    return false;
  }

  // C scattered into target (F, or the panels) and rule.diagonal_shift added at each pivot
  // (pivot(j): column j's position there); false, with out saying why, when A holds NaN/Inf.
  template <class V, class Pivot>
  bool scatter(V* target, const V* a_values, const PivotRule& rule, const char* conjugate, Pivot pivot,
               EngineFactorResult& out) {
    if (!accepted(reference::scatter_values(s_, a_values, target, conjugate, threads_), out)) return false;
    if (rule.diagonal_shift != 0.0)
      for (int32_t j = 0; j < s_.n; ++j) target[static_cast<size_t>(pivot(j))] += rule.diagonal_shift;
    return true;
  }

  // C is scattered into F's rows and factored there, where the solves read it (cpu/row_ilu.hpp).
  EngineFactorResult factor_rows(const T* a_values, const PivotRule& rule) {
    EngineFactorResult out;
    // The diagonal shift is added as each row is loaded; A's values are C's where the map is
    // the identity (no storage then).
    T* storage = row_ilu_->storage();
    if (!accepted(storage ? reference::scatter_values(s_, a_values, storage)
                          : reference::check_values(a_values, s_.input_nnz),
                  out))
      return out;
    out.stats = row_ilu_->factor(storage ? storage : a_values, solve_work_.data(), rule);
    return out;
  }

  // C is scattered into the panels, factored and solved there.
  EngineFactorResult factor_supernodal(const T* a_values, const PivotRule& rule) {
    EngineFactorResult out;
    if constexpr (!std::is_same_v<T, double>) {
      (void)a_values, (void)rule;
      return out;  // unreachable: the constructor refuses a complex supernodal schedule
    } else {
      auto scattered = [&] {
        return scatter(panels_.data(), a_values, rule, nullptr,
                       [&](int32_t j) { return s_.supernodes.pivot_position(j); }, out);
      };
      if (!scattered()) return out;
      if (s_.kind != FactorKind::supernodal_ldlt) {
        // core/supernode_pivoting.hpp: the supernodes that failed search their diagonal blocks
        // and the factorization is redone, a few rounds at most. Under a perturbing policy
        // none searches: tiny pivots are perturbed as the policy asks.
        rows_active_ = supernode_pivoting_ && rule.policy == PivotPolicy::report;
        for (int round = 0;; ++round) {
          out.stats = reference::factor_supernodal(s_, panels_.data(), rule, threads_,
                                                   rows_active_ ? row_pivoting() : reference::RowPivoting{});
          if (rows_active_)
            out.stats.pivoted_supernodes = std::count(pivoted_.begin(), pivoted_.end(), int8_t{1});
          if (out.stats.status != Status::numerically_singular || !rows_active_ || round + 1 == kSupernodePivotRounds)
            return out;
          bool more = false;
          for (size_t t = 0; t < failed_.size(); ++t)
            if (failed_[t] && !pivoted_[t]) pivoted_[t] = 1, more = true;
          if (!more || !scattered()) return out;
        }
      }
      // core/bunch_kaufman.hpp: the supernodes whose unpivoted attempt failed take Bunch-Kaufman
      // and the factorization is redone; the others stand again (to rounding: a few rounds
      // at most, then Bunch-Kaufman everywhere).
      for (int round = 0;; ++round) {
        if (round == kLdltUnpivotedRounds) std::fill(pivoted_.begin(), pivoted_.end(), int8_t{1});
        bool unstable = false;
        out.stats = reference::factor_supernodal_ldlt(s_, panels_.data(), pivots(), rule, threads_, pivoted_.data(),
                                                      &unstable);
        if (!unstable) return out;
        if (!scattered()) return out;
      }
    }
  }

  void triangular_solves(const T* b, T* x, bool transpose) {
    if constexpr (std::is_same_v<T, double>) {
      // cpu/supernodal_sweep_layout.hpp: a factor solved many times reads a copy in its sweeps'
      // order (an LDL^T's transposed solve is its solve).
      if (s_.kind == FactorKind::supernodal_ldlt) {
        const reference::LdltPivots p = pivots();
        if (sweeps_.ready(s_, panels_.data(), &p, threads_))
          sweeps_.solve_ldlt(s_, b, x, solve_work_.data(), p, threads_);
        else
          reference::solve_supernodal_ldlt(s_, panels_.data(), p, b, x, solve_work_.data());
        return;
      }
      if (s_.supernodal()) {
        if (!transpose && sweeps_.ready(s_, panels_.data(), nullptr, threads_)) {
          sweeps_.solve(s_, b, x, solve_work_.data(), panel_row_order(), threads_);
          return;
        }
        reference::solve_with_panels(s_, panels_.data(), b, x, solve_work_.data(), transpose, panel_row_order());
        return;
      }
    }
    if (s_.kind == FactorKind::row_ilu) {  // factored in the rows themselves
      if (transpose)
        row_ilu_->solve_transpose(b, x, solve_work_.data());
      else
        row_ilu_->solve(b, x, solve_work_.data());
      return;
    }
    if (transpose && !s_.symmetric()) {
      reference::solve_transpose_with_factor(s_, f_.data(), b, x, solve_work_.data());
      return;
    }
    // cpu/row_ordered_solve.hpp: the forward and backward passes by rows (the transposed LU
    // solve above already reads F's columns as dot products).
    if (!rows_current_) rows_->gather(f_.data());
    rows_current_ = true;
    if (s_.symmetric())
      rows_->solve_symmetric(f_.data(), b, x, solve_work_.data(), hermitian_);
    else
      rows_->solve(b, x, solve_work_.data());
  }

  const Schedule& s_;
  PatternRef pattern_;
  int32_t threads_;
  int32_t column_threads_;  // the column engines' team (cpu/level_run.hpp)
  bool right_looking_;
  TrsvKernel trsv_kernel_;
  bool hermitian_;
  std::vector<char> conjugate_;  // hermitian_: the entries the scatter conjugates
  std::vector<T> f_;      // F (a supernodal schedule's: gathered by factor_values())
  bool f_current_ = false;  // f_ holds the last factorization's F
  // The supernodal engines' (include/gpuglu/supernodes.hpp), real only; the scatter's fill on
  // the team touches its pages first (core/first_touch.hpp).
  FirstTouchVector<double> panels_;
  // The supernodal LDL^T's supernodes that take Bunch-Kaufman (1) or try no pivots first (0).
  std::vector<int8_t> pivoted_;
  std::vector<int32_t> pivot_perm_;  // the supernodal LDL^T's pivot order and kinds (cpu/supernodal_ldlt.hpp)
  std::vector<int8_t> pivot_kind_;
  std::vector<double> pivot_off_;
  bool supernode_pivoting_;  // the supernodal LU's (Options::lu_supernode_pivoting)
  bool rows_active_ = false;  // and the last factorization's supernodes searched their blocks
  std::vector<int32_t> row_order_;  // its supernodes' row orders and failures (core/supernode_pivoting.hpp)
  std::vector<int8_t> failed_;
  reference::RowPivoting row_pivoting() {
    if (row_order_.empty()) return {};
    return {pivoted_.data(), row_order_.data(), failed_.data()};
  }
  // The supernodal LU's row orders where its last factorization pivoted inside supernodes.
  SupernodeRowOrder panel_row_order() const {
    return rows_active_ ? SupernodeRowOrder{pivoted_.data(), row_order_.data()} : SupernodeRowOrder{};
  }
  reference::LdltPivots pivots() { return {pivot_perm_.data(), pivot_kind_.data(), pivot_off_.data()}; }
  // Schur-complement mode: the sweep that stops before the Schur supernode (forward) or starts
  // after it (backward), the LDL^T's or the LU's (real only).
  void schur_sweep(double* z, bool transpose, bool forward) {
    if (s_.kind == FactorKind::supernodal_ldlt)
      (forward ? reference::schur_ldlt_forward_sweep : reference::schur_ldlt_backward_sweep)(s_, panels_.data(),
                                                                                              pivots(), z);
    else
      (forward ? reference::schur_forward_sweep : reference::schur_backward_sweep)(s_, panels_.data(), z, transpose,
                                                                                   panel_row_order());
  }
  std::vector<T> solve_work_;
  std::optional<reference::RowOrderedFactor<T>> rows_;  // a column schedule's F by rows
  std::optional<reference::RowIluFactor<T>> row_ilu_;   // a row ILU's factor
  bool rows_current_ = false;                           // gathered from the last factorization
  reference::SweepLayout sweeps_;  // the supernodal factor in its solve's order, once solved often
  reference::BasicRefineWork<T> refine_work_;
  const T* a_values_ = nullptr;  // A's values of the last factor(), for the residuals
};

}  // namespace

template <class Scalar>
std::unique_ptr<BasicNumericEngine<Scalar>> make_cpu_engine(const Schedule& s, PatternRef pattern, const Options& o,
                                                            bool hermitian) {
  return std::make_unique<CpuEngine<Scalar>>(s, pattern, o, hermitian);
}

template std::unique_ptr<BasicNumericEngine<double>> make_cpu_engine(const Schedule&, PatternRef, const Options&, bool);
template std::unique_ptr<BasicNumericEngine<Complex>> make_cpu_engine(const Schedule&, PatternRef, const Options&,
                                                                      bool);

}  // namespace gpuglu
