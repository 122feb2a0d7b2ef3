// SplitLU's solves (include/gpuglu/split_lu.hpp). B = A's rows permuted by the matching
// (B(k, :) = A(row_of_col[k], :)): A x = b is B x = c with c_k = b_{row_of_col[k]}, and
// A^T x = b is B^T y = b with x_{row_of_col[k]} = y_k. Each half condenses its block's
// right-hand side (half 1 with zeros at S: b_S enters once), the root solves S (S^T) with
// the reduced sums, each half expands the separator's solution into its part; then the
// refinement against A that SparseLU's engines run (cpu/refinement.hpp's refine_with).
#include <algorithm>
#include <chrono>

#include "api/both_halves.hpp"
#include "api/split_lu_impl.hpp"

namespace gpuglu {

void SplitLU::Impl::split_solve(const double* b, double* x, bool transpose) {
  const int32_t n = partition.n;
  const int32_t k = this->k();
  const std::vector<int32_t>& rows = partition.row_of_col;
  b_of_b.resize(static_cast<size_t>(n));
  x_of_b.resize(static_cast<size_t>(n));
  for (int32_t v = 0; v < n; ++v) b_of_b[v] = transpose ? b[v] : b[rows[v]];

  for (int d = 0; d < 2; ++d) {
    if (!present(d)) continue;
    const api::SplitHalf& h = half[d];
    half_rhs[d].resize(static_cast<size_t>(h.size()));
    half_x[d].resize(static_cast<size_t>(h.size()));
    half_reduced[d].resize(static_cast<size_t>(k));
    for (int32_t l = 0; l < h.size(); ++l) half_rhs[d][l] = d == 1 && l >= h.n_part ? 0.0 : b_of_b[h.global[l]];
  }
  if (k == 0) {  // two independent blocks: each half solves its own
    api::run_both_halves([&](int d) {
      if (!present(d)) return;
      if (transpose)
        lu[d]->solve_transpose(half_rhs[d].data(), half_x[d].data());
      else
        lu[d]->solve(half_rhs[d].data(), half_x[d].data());
    });
  } else {
    api::run_both_halves([&](int d) {
      if (present(d)) lu[d]->condense(half_rhs[d].data(), half_reduced[d].data(), transpose);
    });
    reduced.assign(static_cast<size_t>(k), 0.0);
    for (int d = 0; d < 2; ++d)
      if (present(d))
        for (int32_t i = 0; i < k; ++i) reduced[i] += half_reduced[d][i];
    if (!present(0))
      for (int32_t i = 0; i < k; ++i) reduced[i] += b_of_b[partition.separator[i]];
    root->solve(reduced.data(), transpose);
    api::run_both_halves([&](int d) {
      if (present(d)) lu[d]->expand(reduced.data(), half_x[d].data(), transpose);
    });
    for (int32_t i = 0; i < k; ++i) x_of_b[partition.separator[i]] = reduced[i];
  }
  for (int d = 0; d < 2; ++d)
    if (present(d))
      for (int32_t l = 0; l < half[d].n_part; ++l) x_of_b[half[d].global[l]] = half_x[d][l];
  for (int32_t v = 0; v < n; ++v) (transpose ? x[rows[v]] : x[v]) = x_of_b[v];
}

// The device path (api/split_device.hpp): b up, the split's solve and the refinement on the
// devices, x down.
EngineSolveResult SplitLU::Impl::solve_on_devices(const double* b, double* x, bool transpose, int32_t steps) {
  return device_path->solve({lu[0].get(), lu[1].get()}, *root, b, x, transpose, steps,
                            RefineTarget(options.refine_tolerance));
}

const SolveStats& SplitLU::Impl::solve(const double* b, double* x, bool transpose) {
  require_factored();
  const int32_t n = partition.n;
  if (n > 0 && (!b || !x)) throw Error(Status::invalid_input, "SplitLU::solve(): null right-hand side or solution");
  const auto t0 = std::chrono::steady_clock::now();
  sstats = SolveStats();
  const int32_t steps = options.refine_steps < 0 ? 3 : options.refine_steps;
  EngineSolveResult r;
  if (device_path) {
    r = solve_on_devices(b, x, transpose, steps);
  } else {
    rhs_copy.assign(b, b + n);  // x may alias b, and the refinement reads b again
    split_solve(rhs_copy.data(), x, transpose);
    if (steps > 0 && n > 0) {
      const reference::CsrRef a{n, a_rowptr64.data(), a_colind.data(), a_values.data()};
      refine_work.resize(n);
      const reference::RefineOutcome o = reference::refine_with<double>(
          [&](const double* residual, double* d) { split_solve(residual, d, transpose); }, a, transpose,
          rhs_copy.data(), x, steps, RefineTarget(options.refine_tolerance), refine_work);
      r.refine_steps = o.steps;
      r.backward_error = o.backward_error;
      r.normwise_error = o.normwise_error;
    }
  }
  if (steps > 0 && n > 0) {
    sstats.refine_steps = r.refine_steps;
    sstats.backward_error = r.backward_error;
    sstats.normwise_error = r.normwise_error;
    sstats.inaccurate = !(r.backward_error <= options.backward_error_tolerance);
    if (sstats.inaccurate && options.pivot_policy != PivotPolicy::perturb) sstats.status = Status::numerically_singular;
  }
  sstats.solve_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return sstats;
}

const SolveStats& SplitLU::solve(const double* b, double* x) { return impl_->solve(b, x, false); }
const SolveStats& SplitLU::solve_transpose(const double* b, double* x) { return impl_->solve(b, x, true); }

}  // namespace gpuglu
