// gpuglu's own solvers in gpuglu_ldlt_bench: the LDL^T measured (run_ours_ldlt) and its LU
// on the same matrix (peer `gpuglu_lu`), both on the backend of the Options given.
#include "ldlt_gpuglu.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "ldlt_peers.hpp"

namespace gpuglu::bench {

namespace {

std::string variant(const char* what, Backend b, const Options& o) {
  return std::string("gpuglu-") + what + "-" + std::string(to_string(b)) + "-" + std::to_string(o.num_threads) + "t";
}

void put_schedule(const Schedule& s, Extras& x) {
  x["levels"] = static_cast<double>(s.supernodal() ? s.supernodes.num_levels() : s.num_levels());
  x["engine"] = std::string(to_string(s.kind));
  if (s.supernodal()) x["supernodes"] = static_cast<double>(s.supernodes.count);
  x["flops"] = s.factor_flops;
  x["ordering"] = std::string(to_string(s.ordering));
  x["symmetric_pairs"] = static_cast<double>(s.symmetric_pairs);
  x["scaled"] = s.scaled ? 1.0 : 0.0;
  x["ordering_ms"] = s.times.ordering_ms;
  x["symbolic_ms"] = s.times.symbolic_ms;
  x["levels_ms"] = s.times.levels_ms;
  x["matching_ms"] = s.times.matching_ms;
}

void put_factor(const FactorStats& st, const char* prefix, Extras& x) {
  const std::string p(prefix);
  x[p + "perturbed_pivots"] = static_cast<double>(st.perturbed_pivots);
  x[p + "lu_fallback"] = st.lu_fallback ? 1.0 : 0.0;
  x[p + "recovery"] = std::string(to_string(st.recovery));
  x[p + "growth"] = st.growth;
  x[p + "min_pivot_ratio"] = st.min_pivot_ratio;
  if (st.check_backward_error >= 0) x[p + "check_backward_error"] = st.check_backward_error;
}

std::string failed_factor(const char* phase, const FactorStats& st) {
  std::string why = std::string(phase) + ": " + to_string(st.status);
  if (st.recovery != RecoveryReason::none) why += std::string(" (recovery ") + to_string(st.recovery) + ")";
  if (st.lu_fallback) why += ", gpuglu's LU fallback failed too";
  return why;
}

// Times analyze(): once, and when r.warmup > 0 and analysis_repeat more fit in budget_ms,
// that first one was the warm-up and the median of analysis_repeat more is the time.
template <class Solver, class Analyze>
double time_analysis(Solver& s, const PeerRun& r, int analysis_repeat, double budget_ms, const Analyze& analyze) {
  double t0 = now_ms();
  analyze(s);
  const double first = now_ms() - t0;
  if (r.warmup == 0 || (budget_ms > 0 && first * analysis_repeat > budget_ms)) return first;
  std::vector<double> t;
  for (int i = 0; i < analysis_repeat; ++i) {
    t0 = now_ms();
    analyze(s);
    t.push_back(now_ms() - t0);
  }
  return median(t);
}

// Everything after the analysis; throws what SparseLDLT throws (a device error, ...).
void factor_and_solve(SparseLDLT& ldlt, const SymProblem& p, const PeerRun& r0, double budget_ms, const Options& o,
                      OursLdlt& out);

}  // namespace

OursLdlt run_ours_ldlt(const SymProblem& p, const PeerRun& r0, double budget_ms, int analysis_repeat,
                       const Options& o) {
  OursLdlt out;
  SparseLDLT ldlt(o);
  auto analyze = [&](SparseLDLT& s) { s.analyze(p.a.view(), StoredTriangle::full, nullptr, true, p.spd); };
  out.analysis_ms = time_analysis(ldlt, r0, analysis_repeat, budget_ms, analyze);
  out.variant = variant("ldlt", ldlt.active_backend(), o);
  const Schedule& s = ldlt.schedule();
  out.nnz_factor = s.nnz_factor();
  out.flops = s.factor_flops;
  put_schedule(s, out.extra);
  out.extra["spd"] = p.spd ? 1.0 : 0.0;
  if (!ldlt.backend_note().empty()) out.extra["backend_note"] = ldlt.backend_note();
  try {
    factor_and_solve(ldlt, p, r0, budget_ms, o, out);
  } catch (const std::exception& e) {
    out.failure = std::string("after the analysis: ") + e.what();
  }
  return out;
}

namespace {

void factor_and_solve(SparseLDLT& ldlt, const SymProblem& p, const PeerRun& r0, double budget_ms, const Options& o,
                      OursLdlt& out) {
  Extras& x = out.extra;
  double t0 = now_ms();
  const FactorStats first = ldlt.factor(p.a.view());
  out.first_factor_ms = now_ms() - t0;
  put_factor(first, "first_", x);
  if (first.status != Status::ok) {
    out.failure = failed_factor("factorization", first);
    return;
  }
  const PeerRun r = fit_to_budget(r0, out.first_factor_ms, budget_ms);
  out.repeat = r.repeat;
  bool refactor_ok = true;
  out.refactor_ms = time_refactor(r, nullptr, [&](int set) {
    refactor_ok = ldlt.refactor(p.values(set).data()).status == Status::ok && refactor_ok;
  });
  put_factor(ldlt.factor_stats(), "", x);
  if (ldlt.device_bytes() > 0) {
    x["device_ms"] = ldlt.factor_stats().device_ms;
    x["device_bytes"] = static_cast<double>(ldlt.device_bytes());
  }
  if (!refactor_ok) {
    out.failure = failed_factor("refactorization", ldlt.factor_stats());
    return;
  }
  // Inertia before any solve: a solve that falls back to the LU leaves no D.
  try {
    const Inertia in = ldlt.inertia();
    x["inertia_negative"] = static_cast<double>(in.negative);
    x["inertia_zero"] = static_cast<double>(in.zero);
    x["inertia_positive"] = static_cast<double>(in.positive);
  } catch (const Error& e) {
    x["inertia_note"] = std::string(e.what());
  }
  // One untimed solve first (the first warm-up): a solve that fails leaves no factor to time.
  std::vector<double> xs(p.b.size());
  const SolveStats& ss = ldlt.solve(p.b.data(), xs.data());
  x["solve_lu_fallback"] = ldlt.uses_lu() ? 1.0 : 0.0;
  if (ss.status != Status::ok) {
    out.failure = std::string("solve: ") + to_string(ss.status) + " (backward error " + std::to_string(ss.backward_error) + ")";
    return;
  }
  const int more_warmups = r.warmup > 0 ? r.warmup - 1 : 0;
  out.solve_refined_ms = median_ms(more_warmups, r.repeat, [&] { ldlt.solve(p.b.data(), xs.data()); });
  x["refine_steps"] = static_cast<double>(ldlt.solve_stats().refine_steps);
  Accuracy acc = accuracy(p, xs.data());
  x["residual"] = acc.residual;
  x["backward_error"] = acc.backward_error;
  ldlt.set_refinement(0, o.refine_tolerance);
  out.solve_ms = median_ms(r.warmup, r.repeat, [&] { ldlt.solve(p.b.data(), xs.data()); });
  acc = accuracy(p, xs.data());
  x["bare_residual"] = acc.residual;
  x["bare_backward_error"] = acc.backward_error;
}

}  // namespace

Extras analyze_only(const SymProblem& p, const Options& o) {
  SparseLDLT ldlt(o);
  const double t0 = now_ms();
  ldlt.analyze(p.a.view(), StoredTriangle::full, nullptr, true, p.spd);
  Extras x;
  x["analysis_ms"] = now_ms() - t0;
  x["nnz_factor"] = static_cast<double>(ldlt.schedule().nnz_factor());
  put_schedule(ldlt.schedule(), x);
  return x;
}

SymPeerTimes run_gpuglu_ldlt_column(const SymProblem& p, const PeerRun& r, double budget_ms, const Options& o) {
  Options column = o;
  column.ldlt_engine = LuEngine::column;
  const OursLdlt ours = run_ours_ldlt(p, r, budget_ms, 1, column);
  if (!ours.failure.empty()) throw std::runtime_error("gpuglu column LDL^T: " + ours.failure);
  SymPeerTimes t;
  t.analyze_ms = ours.analysis_ms;
  t.factor_ms = ours.first_factor_ms;
  t.refactor_ms = ours.refactor_ms;
  t.solve_ms = ours.solve_ms;
  t.repeat = ours.repeat;
  t.nnz_factor = ours.nnz_factor;
  t.residual = std::get<double>(ours.extra.at("residual"));
  t.backward_error = std::get<double>(ours.extra.at("backward_error"));
  t.extra["peer_variant"] = ours.variant + "-column";
  if (ours.extra.count("device_bytes")) t.extra["peer_device_peak_bytes"] = ours.extra.at("device_bytes");
  return t;
}

SymPeerTimes run_gpuglu_lu(const SymProblem& p, const PeerRun& r0, double budget_ms, const Options& o) {
  SparseLU lu(o);
  SymPeerTimes t;
  const int analyses = 1;
  t.analyze_ms = time_analysis(lu, r0, analyses, budget_ms, [&](SparseLU& s) { s.analyze(p.a.view()); });
  double t0 = now_ms();
  const FactorStats& st = lu.factor(p.a.view());
  t.factor_ms = now_ms() - t0;
  if (st.status != Status::ok) throw std::runtime_error(std::string("gpuglu LU: factorization ") + to_string(st.status));
  t.nnz_factor = lu.schedule().nnz_factor();
  t.extra["peer_variant"] = variant("lu", lu.active_backend(), o);
  t.extra["peer_levels"] = static_cast<double>(lu.schedule().num_levels());
  const PeerRun r = fit_to_budget(r0, t.factor_ms, budget_ms);
  t.repeat = r.repeat;
  t.refactor_ms = time_refactor(r, nullptr, [&](int set) {
    if (lu.refactor(p.values(set).data()).status != Status::ok)
      throw std::runtime_error(std::string("gpuglu LU: refactorization ") + to_string(lu.factor_stats().status));
  });
  std::vector<double> x(p.b.size());
  t.extra["peer_solve_refined_ms"] = median_ms(r.warmup, r.repeat, [&] { lu.solve(p.b.data(), x.data()); });
  if (lu.solve_stats().status != Status::ok)
    throw std::runtime_error(std::string("gpuglu LU: solve ") + to_string(lu.solve_stats().status));
  const Accuracy acc = accuracy(p, x.data());
  t.residual = acc.residual;
  t.backward_error = acc.backward_error;
  lu.set_refinement(0, o.refine_tolerance);
  t.solve_ms = median_ms(r.warmup, r.repeat, [&] { lu.solve(p.b.data(), x.data()); });
  if (lu.device_bytes() > 0) t.extra["peer_device_peak_bytes"] = static_cast<double>(lu.device_bytes());
  return t;
}

}  // namespace gpuglu::bench
