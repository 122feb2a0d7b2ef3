#pragma once
// SplitLU: one LU factorization of a real A split over two devices by nested dissection's top
// separator (issue 30; docs/design.md, "One factorization over two GPUs: the top separator").
//   analyze(A)  A's rows matched to its columns (MC64: B = A's rows permuted), METIS's vertex
//               separator of B + B^T: parts P0, P1 and the separator S (k = |S|), no entry of
//               B joining P0 and P1. Half d is M_d = B on P_d ∪ S, a SparseLU in
//               Schur-complement mode (lu.hpp's set_schur_indices: S last) on device
//               devices[d]; both halves are analyzed at once, on two threads.
//   factor(A)   both halves at once, each leaving S_d = M_d's Schur complement; S = S_0 + S_1
//               (= B_SS - B_S0 B_00^-1 B_0S - B_S1 B_11^-1 B_1S) summed on the host (on the
//               first device for GPU halves), then the dense LU of S (the root:
//               api/dense_root.hpp): with partial pivoting on the host; on a GPU first without
//               pivots, kept where every column passes the halves' static-pivot test, as one
//               GPU's engine treats the same block, else again with partial pivoting.
//   solve(b)    each half condenses its right-hand side, the root solves S x_S = the sum, each
//               half expands x_S into its part; then iterative refinement against A.
// Refactorization with new values of the analyzed pattern reuses the partition and both
// analyses: only values move, through maps made at analyze().
// Each half is as accurate as a one-device factor of its block (static pivots, the halves'
// own matching and scaling); tiny pivots gather in S, which the root pivots freely.
// SplitFactorization::ldlt splits a symmetric A the same way with SparseLDLTs as the halves
// (no matching: B = A, and M_d is symmetric), S = S_0 + S_1 symmetric, and a root that tries
// Cholesky first on a GPU (RootFactorization).
// Not done: more than two devices, complex scalars, several right-hand sides at once.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/solver.hpp"

namespace gpuglu {

// What the halves are: SparseLUs of a general A, or SparseLDLTs of a symmetric one.
enum class SplitFactorization : uint8_t { lu, ldlt };
// How the root's last factorization went (api/dense_root.hpp): LU with partial pivoting (the
// host's always), LU without pivots (kept where every column passes the halves' static-pivot
// test), or Cholesky (an LDL^T split's S, where it is positive definite; GPU only).
enum class RootFactorization : uint8_t { lu_pivoted, lu_unpivoted, cholesky };
const char* to_string(RootFactorization r) noexcept;

class SplitLU {
 public:
  // options: what each half's SparseLU (SparseLDLT) is given, except Options::device
  // (devices[d] for half d; ignored on the CPU backend) and Options::num_threads (half of it
  // for each half, or half of OpenMP's maximum when it is 0, at least 1). Ordering::given is
  // refused at analyze() (Error(unsupported)): the halves order their own blocks. devices:
  // exactly two ordinals (Error(invalid_input) otherwise); they may be equal. factorization
  // ldlt: A must be symmetric, both triangles stored (analyze() checks it: invalid_input
  // naming the first asymmetric entry).
  explicit SplitLU(const Options& options, std::vector<int32_t> devices = {0, 1},
                   SplitFactorization factorization = SplitFactorization::lu);
  ~SplitLU();
  SplitLU(const SplitLU&) = delete;
  SplitLU& operator=(const SplitLU&) = delete;

  // Partition and both halves' analyses. Errors (gpuglu::Error): not_square, empty_row,
  // nan_or_inf and invalid_input as SparseLU::analyze; structurally_singular for A; a half's
  // own analysis error (structurally_singular included, possible without the matching) with
  // the status it had and a message naming the half and saying that the split cannot be used
  // (the caller may factor A on one device instead). Discards previous factors.
  void analyze(const CsrView<int32_t, double>& a);

  // Both halves' numeric factorizations at once, then the root's. A must have the analyzed
  // pattern: Error(pattern_changed) otherwise. Returns the merged stats: status ok, or the
  // first failure of half 0, half 1, the root (nan_or_inf for a NaN/Inf value,
  // numerically_singular for a tiny pivot of a half under PivotPolicy::report or an exactly
  // singular S); pivot_column_original names the failing column in A's numbering
  // (pivot_column holds the same: a split factor has no single C), failure() says where.
  // perturbed_pivots and pivoted_supernodes are the halves' sums, growth their max,
  // min_pivot_ratio their min; factor_ms the whole call's wall time.
  const FactorStats& factor(const CsrView<int32_t, double>& a);

  // x = A^{-1} b (x = A^{-T} b); b and x may alias (n entries each). After the split's solve,
  // iterative refinement against A as SparseLU's solve does it (Options::refine_steps: -1 up
  // to 3 steps while the componentwise backward error exceeds refine_tolerance; 0: none, and
  // no backward error is measured). A solve whose backward error stays above
  // Options::backward_error_tolerance returns with inaccurate set and, unless the pivot
  // policy is perturb, status numerically_singular (this object has no recovery ladder: the
  // caller may factor A on one device). Error(not_factored) after a failed or missing factor.
  const SolveStats& solve(const double* b, double* x);
  const SolveStats& solve_transpose(const double* b, double* x);

  bool analyzed() const noexcept;
  bool factored() const noexcept;
  int32_t n() const noexcept;
  int32_t separator_size() const noexcept;  // k = |S|
  int32_t part_size(int d) const;           // |P_d|, d = 0 or 1
  // The separator's and part d's unknowns (A's column indices), ascending.
  const std::vector<int32_t>& separator() const noexcept;
  const std::vector<int32_t>& part(int d) const;
  const std::vector<int32_t>& devices() const noexcept;
  const Options& options() const noexcept;
  const FactorStats& factor_stats() const noexcept;
  // Half d's own stats (columns in its block's numbering); a half with an empty part is not
  // built and has default stats.
  const FactorStats& half_factor_stats(int d) const;
  // Half d's SparseLU or SparseLDLT (its backend, engine, device and schedule, in its block's
  // numbering); nullptr before analyze() and for a half whose part is empty.
  const BasicSparseSolver<double>* half(int d) const;
  SplitFactorization factorization() const noexcept;
  // Where the last factor() spent its time (wall clock, ms): A's values checked (and kept for
  // the host path's refinement), both halves at once (their factorizations and Schur
  // complements), and the root; load_ms: A's values moved to the devices (the device path),
  // which runs beside the checks and is part of check_ms.
  struct FactorTimes {
    double check_ms = 0.0, load_ms = 0.0, halves_ms = 0.0, root_ms = 0.0;
  };
  const FactorTimes& factor_times() const noexcept;
  // Where the last solve() on the devices (both halves on the GPU) spent its time, summed over
  // its passes (the first, and one per refinement step; wall clock, ms): the right-hand sides
  // gathered and moved to the halves' devices, both halves' condensations at once, the root's
  // solve, both expansions at once. The rest of SolveStats::solve_ms is b's upload, the
  // residuals and x's download. All zero on the host path.
  struct SolveTimes {
    int32_t passes = 0;
    double move_ms = 0.0, condense_ms = 0.0, root_ms = 0.0, expand_ms = 0.0;
  };
  SolveTimes solve_times() const;
  const SolveStats& solve_stats() const noexcept;
  // How the root's last factorization went (lu_pivoted before any).
  RootFactorization root_factorization() const noexcept;
  // Why the last factorization failed, in words (empty after a success).
  const std::string& failure() const noexcept;

 private:
  struct Impl;  // src/api/split_lu_impl.hpp
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuglu
