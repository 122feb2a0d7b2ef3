#include "api/real_form_ldlt.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "analysis/analyze_symmetric.hpp"
#include "analysis/pipeline_steps.hpp"
#include "analysis/symmetric_input.hpp"
#include "api/engine_choice.hpp"
#include "api/real_form.hpp"

namespace gpuglu::api {

namespace {

bool all_real(const Complex* a, int64_t n) {
  return std::all_of(a, a + n, [](const Complex& v) { return v.imag() == 0.0; });
}

class RealFormLdlt final : public BasicNumericEngine<Complex> {
 public:
  RealFormLdlt(const Schedule& s, PatternRef pattern, RealForm form, Schedule k_schedule, bool hermitian)
      : n_(s.n),
        nnz_(pattern.rowptr[pattern.n]),
        outer_col_perm_inv_(s.col_perm_inv),
        form_(std::move(form)),
        k_schedule_(std::move(k_schedule)),
        hermitian_(hermitian) {}

  // Built once K's schedule and pattern have their final addresses (here).
  void set_engine(std::unique_ptr<NumericEngine> k) { k_ = std::move(k); }
  const Schedule& k_schedule() const { return k_schedule_; }
  const RealForm& form() const { return form_; }

  EngineFactorResult factor(const Complex* a_values, const PivotRule& rule) override {
    form_.expand_values(a_values, hermitian_ || all_real(a_values, nnz_));
    EngineFactorResult r = k_->factor(form_.matrix().values, rule);
    if (r.bad_entry >= 0) r.bad_entry = form_.complex_entry(r.bad_entry);
    r.stats.pivot_column = column_of_a(r.stats.pivot_column);
    r.stats.first_perturbed = column_of_a(r.stats.first_perturbed);
    return r;  // perturbed_pivots and pivot_value stay K's (real pivots)
  }

  EngineSolveResult solve(const Complex* b, Complex* x, bool, int32_t max_steps, const RefineTarget& target) override {
    b2_.resize(2 * static_cast<size_t>(n_));
    x2_.resize(b2_.size());
    form_.expand_vector(b, b2_.data());
    // K = K^T: A^T x = b is A's own system or, Hermitian, the caller's conjugated one.
    const EngineSolveResult r = k_->solve(b2_.data(), x2_.data(), false, max_steps, target);
    form_.contract_vector(x2_.data(), x);
    return r;
  }

  const std::vector<Complex>& factor_values() override {
    throw Error(Status::unsupported,
                "the complex supernodal LDL^T keeps its factor in real form; it has no L + U of the schedule's pattern");
  }

  // The Hermitian form holds each of A's eigenvalues twice (Sylvester: twice A's inertia).
  bool pivot_signs(PivotSigns& out) override {
    PivotSigns k;
    if (!form_.hermitian_form() || !k_->pivot_signs(k)) return false;
    out = {k.negative / 2, k.zero / 2, k.positive / 2};
    return true;
  }

  Backend backend() const noexcept override { return k_->backend(); }
  int64_t device_bytes() const noexcept override { return k_->device_bytes(); }
  TrsvKernel trsv_kernel() const noexcept override { return k_->trsv_kernel(); }

  std::vector<LevelProfile> profile_levels(const Complex* a_values, const PivotRule& rule) override {
    form_.expand_values(a_values, hermitian_ || all_real(a_values, nnz_));
    return k_->profile_levels(form_.matrix().values, rule);
  }

 private:
  // K's column of C (its pair) -> A's column of C.
  int32_t column_of_a(int32_t c2) const {
    return c2 < 0 ? -1 : outer_col_perm_inv_[k_schedule_.col_perm[c2] / 2];
  }

  int32_t n_;
  int64_t nnz_;
  std::vector<int32_t> outer_col_perm_inv_;
  RealForm form_;
  Schedule k_schedule_;
  bool hermitian_;
  std::unique_ptr<NumericEngine> k_;
  std::vector<double> b2_, x2_;
};

}  // namespace

std::unique_ptr<BasicNumericEngine<Complex>> make_real_form_ldlt(const Schedule& s, PatternRef pattern,
                                                                 const int32_t* rowptr32, const Complex* a_values,
                                                                 bool hermitian, bool spd, const Options& o,
                                                                 const DeviceInfo& device, Backend* backend,
                                                                 std::string* fallback_reason) {
  RealForm form(pattern.n, rowptr32, pattern.colind);
  form.expand_values(a_values, hermitian || all_real(a_values, pattern.rowptr[pattern.n]));
  Options ko = o;
  ko.ordering = Ordering::given;
  ko.ldlt_engine = LuEngine::supernodal;
  ko.symmetric_pairs = false;
  if (spd) ko.scaling = false;
  const std::vector<int32_t> given = RealForm::expand_permutation(s.col_perm.data(), s.n);
  const CsrView<int32_t, double> k = form.matrix();
  Schedule ks = analysis::guarded(k.nrows, [&] {
    const analysis::SymmetricInput in = analysis::check_symmetric_input(k, StoredTriangle::full, false, ko.num_threads);
    return analysis::analyze_symmetric_input(in, ko, given.data());
  });
  auto engine = std::make_unique<RealFormLdlt>(s, pattern, std::move(form), std::move(ks), hermitian);
  engine->set_engine(make_engine<double>(engine->k_schedule(), engine->form().pattern(), ko, device, backend,
                                         fallback_reason));
  return engine;
}

}  // namespace gpuglu::api
